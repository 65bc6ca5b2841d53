/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_api_profile_check.c -- a profile llvm-cov-N cannot read fails the load
 * with llvm-cov-N's own words in pb_error.message (err->path says which
 * kind, err->source names the profile), before anything is merged:
 *   missing                13-14: "OBJ[, OBJ]: Failed to load coverage: REASON"
 *                          15-17: "PROF: Could not read profile data!REASON"
 *                          18+:   "PROF: could not read profile data!REASON"
 *   a directory, unreadable 13-14 as missing, 15-17 "Failed to load coverage:
 *                          'PROF': Is a directory", 18+ "failed to load ..."
 *   no profile (bad magic: neither indexed, raw nor text; an empty file)
 *                          13-14: "OBJS: Failed to load coverage: invalid
 *                                  instrumentation profile data (bad magic)"
 *                          15-17: "Failed to load coverage: 'PROF': invalid ..."
 *                          18+:   "failed to load coverage: 'PROF': invalid ..."
 *   an indexed profile above the release's indexed version: the same with
 *   "unsupported instrumentation profile format version".
 * Raw and text profiles of any version pass: llvm-cov never reads them, we
 * merge them as llvm-profdata-N would.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "coverage/cov_state.h"
#include "llvm/target.h"
#include "profbridge/format.h"
#include "util/buf.h"
#include "util/grow.h"

/* IndexedInstrProf::Magic, little-endian bytes ("\xfflprofi\x81"). */
static const uint8_t indexed_magic[8] = {0xff, 0x6c, 0x70, 0x72, 0x6f, 0x66, 0x69, 0x81};
#define VERSION_VARIANT_MASK 0xff00000000000000ull /* VARIANT_MASKS_ALL */

/* "OBJ, OBJ" as llvm-cov 13-14 join the object operands. */
static void join_objects(pb_buf *b, const char *const *objects, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (i) pbu_buf_puts(b, ", ");
        pbu_buf_puts(b, objects[i]);
    }
}

/* llvm-cov-N's "failed to load coverage" line for `reason` (without
 * "error: "): 13-14 name the objects, 15+ the file that failed, `named`. */
static void load_failed_line(const pbi_llvm_target *t, const char *const *objects, size_t nobjects,
                             const char *named, const char *reason, pb_buf *b) {
    if (!pbi_llvm_cov_has(t, PBI_LC_LOAD_ERROR_NAMES_PROFILE)) {
        join_objects(b, objects, nobjects);
        pbu_buf_printf(b, ": Failed to load coverage: %s", reason);
    } else {
        pbu_buf_printf(b, "%s to load coverage: '%s': %s",
                       pbi_llvm_cov_has(t, PBI_LC_COV_MESSAGES_LOWER) ? "failed" : "Failed", named, reason);
    }
}

int pbi_cov_word_object_error(const pbi_llvm_target *t, const char *const *objects, size_t nobjects,
                              pb_error *err) {
    if (!err || (err->code != PB_EFORMAT && err->code != PB_EIO && err->code != PB_ETRUNC)) return 0;
    size_t i = 0;
    while (i < nobjects && strcmp(objects[i], err->source) != 0) i++;
    if (i == nobjects) return 0;
    pb_buf b = PB_BUF_INIT, all = PB_BUF_INIT;
    /* no object had coverage: llvm-cov 15+ quote them all, joined */
    int in_any = strcmp(err->path, PBI_COV_NO_DATA_IN_ANY) == 0;
    if (in_any) {
        join_objects(&all, objects, nobjects);
        pbu_buf_putc(&all, 0);
    }
    load_failed_line(t, objects, nobjects, in_any && !pbu_buf_failed(&all) ? (const char *)all.data : objects[i],
                     err->message, &b);
    pbu_buf_free(&all);
    if (pbu_buf_failed(&b)) {
        pbu_buf_free(&b);
        return PB_ENOMEM; /* err keeps the reader's own words */
    }
    snprintf(err->message, sizeof err->message, "%s", (const char *)b.data);
    pbu_buf_free(&b);
    return 0;
}

/* The load failed on `profile` for `reason`: llvm-cov-N's line (without
 * "error: ") into err->message. `unopened`: the file could not be opened
 * (15+ check that before loading, and export prints no second line then). */
static int fail(const pbi_llvm_target *t, const char *const *objects, size_t nobjects, const char *profile,
                int unopened, const char *reason, int code, pb_error *err) {
    pb_buf b = PB_BUF_INIT;
    const char *path = PB_COV_LOAD_FAILED;
    if (unopened && pbi_llvm_cov_has(t, PBI_LC_LOAD_ERROR_NAMES_PROFILE)) {
        pbu_buf_printf(&b, "%s: %s profile data!%s", profile,
                       pbi_llvm_cov_has(t, PBI_LC_COV_MESSAGES_LOWER) ? "could not read" : "Could not read", reason);
        path = PB_COV_PROFILE_UNREADABLE;
    } else {
        load_failed_line(t, objects, nobjects, profile, reason, &b);
    }
    if (pbu_buf_failed(&b)) {
        pbu_buf_free(&b);
        return pbu_nomem(err, "coverage.load");
    }
    pb_error_set_source(err, profile);
    pb_error_set(err, code, PB_NO_OFFSET, path, "%s", (const char *)b.data);
    pbu_buf_free(&b);
    return code;
}

int pbi_cov_load_failed(const pbi_llvm_target *t, const char *const *objects, size_t nobjects, const char *named,
                        const char *reason, int code, pb_error *err) {
    return fail(t, objects, nobjects, named, 0, reason, code, err);
}

static int check_one(const pbi_llvm_target *t, const char *const *objects, size_t nobjects, const char *profile,
                     pb_error *err) {
    /* 15+ stat the profile first (its failure: "could not read profile
     * data!"); what exists but cannot be read fails the load itself */
    struct stat st;
    int exists = stat(profile, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return fail(t, objects, nobjects, profile, 0, "Is a directory", PB_EIO, err);
    if (exists && !S_ISREG(st.st_mode)) return 0; /* a pipe: its bytes are for the merger alone */
    pb_source *src = NULL;
    pb_error oe;
    pb_error_clear(&oe);
    int rc = pb_source_open_file(&src, profile, &oe);
    if (rc == PB_EIO) return fail(t, objects, nobjects, profile, !exists, oe.message, PB_EIO, err);
    if (rc) return 0; /* the merger reports it in its own words */
    const uint8_t *head = NULL;
    size_t len = 0;
    const pb_format *f = NULL;
    rc = pb_source_peek(src, &head, &len, &oe);
    if (rc == PB_EIO) {
        pb_source_free(src);
        return fail(t, objects, nobjects, profile, 0, oe.message, PB_EIO, err);
    }
    if (rc == 0 && len >= 16 && memcmp(head, indexed_magic, sizeof indexed_magic) == 0) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--) v = v << 8 | head[8 + i];
        pb_source_free(src);
        if ((v & ~VERSION_VARIANT_MASK) > t->indexed_version)
            return fail(t, objects, nobjects, profile, 0, "unsupported instrumentation profile format version",
                        PB_EFORMAT, err);
        return 0;
    }
    if (rc == 0 && (len == 0 || pb_format_detect(src, &f, &oe) == PB_EFORMAT)) {
        pb_source_free(src);
        return fail(t, objects, nobjects, profile, 0, "invalid instrumentation profile data (bad magic)",
                    PB_EFORMAT, err);
    }
    pb_source_free(src);
    return 0;
}

int pbi_cov_check_profiles(const pbi_llvm_target *t, const char *const *objects, size_t nobjects,
                           const char *const *profiles, size_t nprofiles, pb_error *err) {
    for (size_t i = 0; i < nprofiles; i++) {
        if (!profiles[i]) continue; /* the merger's null argument */
        int rc = check_one(t, objects, nobjects, profiles[i], err);
        if (rc) return rc;
    }
    return 0;
}
