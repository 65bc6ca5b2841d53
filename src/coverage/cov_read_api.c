/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_read_api.c -- pbi_cov_read and pbi_cov_read_memory (cov_mapping.h):
 * each object in order through cov_read_elf.c (its sections),
 * cov_read_map.c (__llvm_covmap) and cov_read_fun.c (__llvm_covfun), into
 * one mapping.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coverage/cov_read.h"
#include "profbridge/io.h"
#include "util/grow.h"

/* llvm-cov's coveragemap_error::no_data_found; *nodata says it was that */
static int no_data(const char *name, pb_error *err, const char *missing, int *nodata) {
    int rc = pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, missing, "no coverage data found");
    pb_error_set_source(err, name);
    *nodata = 1;
    return rc;
}

/* One object, appended to m as object number `obj` (llvm-cov 18+'s words). */
static int read_sections(pbi_cov_mapping *m, size_t *fcap, size_t obj, const uint8_t *data, uint8_t *writable,
                         size_t len, const char *name, const pbi_cov_read_options *o, int *nodata, pb_error *err) {
    pbi_cov_elf e;
    int rc = writable ? pbi_cov_elf_open_in_place(&e, writable, len, name, o, err)
                      : pbi_cov_elf_open(&e, data, len, name, o, err);
    if (rc) return rc;
    pbi_cov_tus tus;
    memset(&tus, 0, sizeof tus);
    const char *comp = e.covmap.compressed ? PBI_SEC_COVMAP : e.covfun.compressed ? PBI_SEC_COVFUN
                       : e.names.compressed ? PBI_SEC_NAMES : NULL;
    if (comp) /* llvm-cov reads a SHF_COMPRESSED section's stored bytes as they are, and fails so */
        rc = pbi_cov_bad_w(err, e.name, PB_NO_OFFSET, "truncated coverage data",
                           "sections as stored (llvm-cov does not inflate SHF_COMPRESSED ones)",
                           "a compressed section", "%s", comp);
    else if (!e.names.present) rc = no_data(e.name, err, PBI_SEC_NAMES, nodata);
    else if (e.nnames != 1)
        rc = pbi_cov_bad(err, e.name, PB_NO_OFFSET, "one names section", "several", "%s", PBI_SEC_NAMES);
    else if (!e.covmap.present) rc = no_data(e.name, err, PBI_SEC_COVMAP, nodata);
    else if (e.ncovmap != 1)
        rc = pbi_cov_bad(err, e.name, PB_NO_OFFSET, "one __llvm_covmap section", "several", "%s", PBI_SEC_COVMAP);
    if (rc) pb_error_set_source(err, e.name);
    if (!rc) rc = pbi_cov_read_covmap(&tus, &e, o, &m->arena, NULL, err);
    if (!rc) {
        m->versions[obj] = tus.max_version;
        m->raw_versions[obj] = e.raw_version;
        m->mcdc_bits[obj] = e.raw_version >= 10;
        rc = pbi_cov_read_covfun(m, fcap, obj, &e, &tus, o, NULL, err);
    }
    /* read with defer_checks, the functions point into __llvm_covfun */
    if (!rc && o && o->lazy && o->defer_checks && e.covfun.present) {
        if (pbu_grow_err((void **)&m->covfun, &m->cap_covfun, m->ncovfun + 1, sizeof *m->covfun, err))
            rc = PB_ENOMEM;
        else if ((m->covfun[m->ncovfun] = pbi_cov_elf_take_covfun(&e)))
            m->ncovfun++;
    }
    pbi_cov_tus_free(&tus);
    pbi_cov_elf_close(&e);
    return rc;
}

/* One object, in the words of the release. */
static int read_one(pbi_cov_mapping *m, size_t *fcap, size_t obj, const uint8_t *data, uint8_t *writable, size_t len,
                    const char *name, const pbi_cov_read_options *o, int *nodata, pb_error *err) {
    pbi_llvm_target store;
    int rc = read_sections(m, fcap, obj, data, writable, len, name, o, nodata, err);
    pbi_cov_release_words(err, pbi_cov_target(o, &store));
    return rc;
}

static int is_directory(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int start(pbi_cov_mapping *out, size_t n, pb_error *err) {
    memset(out, 0, sizeof *out);
    out->nobjects = n;
    out->versions = pbu_arena_alloc(&out->arena, (n ? n : 1) * sizeof *out->versions, 8);
    out->mcdc_bits = pbu_arena_alloc(&out->arena, (n ? n : 1) * sizeof *out->mcdc_bits, 8);
    out->raw_versions = pbu_arena_alloc(&out->arena, (n ? n : 1) * sizeof *out->raw_versions, 8);
    if (!out->versions || !out->mcdc_bits || !out->raw_versions) {
        pbi_cov_mapping_free(out);
        return pbu_nomem(err, "coverage mapping");
    }
    memset(out->versions, 0, (n ? n : 1) * sizeof *out->versions);
    memset(out->mcdc_bits, 0, (n ? n : 1) * sizeof *out->mcdc_bits);
    memset(out->raw_versions, 0, (n ? n : 1) * sizeof *out->raw_versions);
    return 0;
}

int pbi_cov_read(pbi_cov_mapping *out, const char *const *paths, size_t n, const pbi_cov_read_options *o,
                 pb_error *err) {
    return pbi_cov_read_arches(out, paths, NULL, n, o, err);
}

/* A copy-on-write mapping of the regular file at path (len bytes, as
 * pb_source_map found), which libelf may write into without a 65 MB copy of
 * a 65 MB binary: only the pages of the sections read count. NULL when the
 * file cannot be mapped so (a pipe; then the copy is made). */
static uint8_t *map_private(const char *path, size_t len) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    void *m = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size == (uint64_t)len)
        m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    return m == MAP_FAILED ? NULL : (uint8_t *)m;
}

int pbi_cov_read_arches(pbi_cov_mapping *out, const char *const *paths, const char *const *arches, size_t n,
                        const pbi_cov_read_options *o, pb_error *err) {
    int rc = start(out, n, err);
    if (rc) return rc;
    size_t fcap = 0, with_data = 0;
    pb_error first_nodata;
    pb_error_clear(&first_nodata);
    for (size_t i = 0; !rc && i < n; i++) {
        pb_source *src = NULL;
        const uint8_t *data;
        size_t len;
        int nodata = 0;
        pb_error one_err;
        pb_error_clear(&one_err);
        if ((rc = pb_source_open_file(&src, paths[i], &one_err)) == 0 &&
            /* mapped, not read: only the coverage sections' pages are
             * touched, not the whole object's (a 57 MB binary cost 64 MB) */
            (rc = pb_source_map(src, &data, &len, &one_err)) == 0)
        {
            pbi_cov_read_options one = {NULL, NULL, NULL, 0, 0, 0};
            if (o) one = *o;
            if (arches) one.arch = arches[i]; /* -arch per object */
            /* an unchecked mapping fails in the evaluator, after every
             * object is read: only the last object's error would still
             * come first there, as llvm-cov's reading object by object
             * gives it */
            one.defer_checks = one.defer_checks && i + 1 == n;
            uint8_t *cow = map_private(paths[i], len);
            rc = read_one(out, &fcap, i, data, cow, len, paths[i], &one, &nodata, &one_err);
            if (cow) munmap(cow, len);
        }
        if (rc) pb_error_set_source(&one_err, paths[i]);
        if (rc == PB_EIO && !src && is_directory(paths[i])) /* MemoryBuffer's errc::is_a_directory */
            snprintf(one_err.message, sizeof one_err.message, "Is a directory");
        pb_source_free(src);
        /* CoverageMapping::load skips an object without coverage sections
         * (its no_data_found is no error) and fails only when no object
         * has any (grcov, CMake scripts pass every program of a build) */
        if (rc && nodata) {
            if (!first_nodata.code) first_nodata = one_err;
            rc = 0;
        } else if (rc) {
            if (err) *err = one_err;
        } else {
            with_data++;
        }
    }
    if (!rc && n && !with_data) {
        /* one object: its own error; several: llvm-cov names them all */
        if (err) *err = first_nodata;
        if (err && n > 1) snprintf(err->path, sizeof err->path, "%s", PBI_COV_NO_DATA_IN_ANY);
        rc = PB_EFORMAT;
    }
    if (rc) pbi_cov_mapping_free(out);
    return rc;
}

int pbi_cov_read_memory(pbi_cov_mapping *out, const uint8_t *data, size_t len, const char *name,
                        const pbi_cov_read_options *o, pb_error *err) {
    int rc = start(out, 1, err);
    if (rc) return rc;
    size_t fcap = 0;
    int nodata = 0;
    rc = read_one(out, &fcap, 0, data, NULL, len, name ? name : "<memory>", o, &nodata, err);
    if (rc) pbi_cov_mapping_free(out);
    return rc;
}

void pbi_cov_mapping_free(pbi_cov_mapping *m) {
    if (!m) return;
    free(m->functions);
    for (size_t i = 0; i < m->ncovfun; i++) free(m->covfun[i]);
    free(m->covfun);
    pbu_arena_free(&m->arena);
    memset(m, 0, sizeof *m);
}
