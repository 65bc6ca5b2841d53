/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_api_binary_ids.c -- -check-binary-ids (llvm-cov 17+): every binary id
 * the profile carries must be the build id of one of the objects, else the
 * load fails with LLVM's "Missing binary ID: <hex>" for the first missing
 * one in byte order (CoverageMapping::load sorts and uniques the profile's
 * ids; no debuginfod server or debug directory is asked here).
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coverage/cov_state.h"
#include "util/grow.h"

static int libelf_ready;
static void libelf_init(void) { libelf_ready = elf_version(EV_CURRENT) != EV_NONE; }

typedef struct id_list {
    uint8_t **v;
    size_t *len;
    size_t n, cap, cap_len;
} id_list;

static int id_push(id_list *l, const uint8_t *id, size_t len, pb_error *err) {
    if (pbu_grow_err((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v, err) ||
        pbu_grow_err((void **)&l->len, &l->cap_len, l->n + 1, sizeof *l->len, err))
        return PB_ENOMEM;
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) return pbu_nomem(err, "binary id");
    memcpy(copy, id, len);
    l->v[l->n] = copy;
    l->len[l->n++] = len;
    return 0;
}

static void id_free(id_list *l) {
    for (size_t i = 0; i < l->n; i++) free(l->v[i]);
    free(l->v);
    free(l->len);
}

/* The GNU build-id note of one ELF data block (Elf_Data of a note). */
static int scan_notes(Elf_Data *d, id_list *out, int *found, pb_error *err) {
    GElf_Nhdr nh;
    size_t off = 0, name_off, desc_off, next;
    while (d && (next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
        const char *name = (const char *)d->d_buf + name_off;
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
            *found = 1;
            return id_push(out, (const uint8_t *)d->d_buf + desc_off, nh.n_descsz, err);
        }
        off = next;
    }
    return 0;
}

/* getBuildID: the program headers' notes first, then the sections'. */
static int object_build_id(const char *path, id_list *out, pb_error *err) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0; /* the reader reports unreadable objects */
    Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    int rc = 0, found = 0;
    size_t nph = 0;
    if (e && elf_getphdrnum(e, &nph) == 0) {
        for (size_t i = 0; rc == 0 && !found && i < nph; i++) {
            GElf_Phdr ph;
            if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_NOTE) continue;
            Elf_Data *d = elf_getdata_rawchunk(e, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
            rc = scan_notes(d, out, &found, err);
        }
    }
    for (Elf_Scn *s = e ? elf_nextscn(e, NULL) : NULL; rc == 0 && !found && s; s = elf_nextscn(e, s)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_NOTE) continue;
        rc = scan_notes(elf_getdata(s, NULL), out, &found, err);
    }
    if (e) elf_end(e);
    close(fd);
    return rc;
}

static int id_cmp(const uint8_t *a, size_t la, const uint8_t *b, size_t lb) {
    int r = memcmp(a, b, la < lb ? la : lb);
    if (r) return r;
    return (la > lb) - (la < lb);
}

int pbi_cov_check_binary_ids(const pb_coverage *c, const char *const *objects, size_t nobjects, const char *profile,
                             pb_error *err) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, libelf_init);
    if (!libelf_ready) return 0;
    id_list have = {NULL, NULL, 0, 0, 0};
    int rc = 0;
    /* an object without coverage sections gives no id (loadFromFile
     * returns before collecting them) */
    for (size_t i = 0; rc == 0 && i < nobjects; i++)
        if (c->map.nobjects != nobjects || c->map.versions[i]) rc = object_build_id(objects[i], &have, err);
    /* the smallest profile id (bytewise) that no object has */
    const uint8_t *missing = NULL;
    size_t missing_len = 0, n = pb_profile_binary_id_count(c->prof);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        size_t len = 0;
        const uint8_t *id = pb_profile_binary_id(c->prof, i, &len);
        int known = 0;
        for (size_t k = 0; id && k < have.n && !known; k++) known = id_cmp(id, len, have.v[k], have.len[k]) == 0;
        if (!id || known) continue;
        if (!missing || id_cmp(id, len, missing, missing_len) < 0) missing = id, missing_len = len;
    }
    if (rc == 0 && missing) {
        char hex[2 * 64 + 1];
        size_t k = 0;
        for (size_t i = 0; i < missing_len && k + 2 < sizeof hex; i++) {
            static const char digits[] = "0123456789abcdef";
            hex[k++] = digits[missing[i] >> 4];
            hex[k++] = digits[missing[i] & 15];
        }
        hex[k] = '\0';
        char reason[sizeof hex + 32];
        snprintf(reason, sizeof reason, "Missing binary ID: %s", hex);
        /* CoverageMapping::load's createFileError(profile, ...): llvm-cov's
         * "failed to load coverage: 'PROFILE': Missing binary ID: HEX" */
        rc = pbi_cov_load_failed(&c->t, objects, nobjects, profile, reason, PB_EIO, err);
    }
    id_free(&have);
    return rc;
}
