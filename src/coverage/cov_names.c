/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_names.c -- the profile's function records by name, for the evaluator
 * (cov_eval_internal.h). llvm-cov asks the profile for each function by
 * name; the profile's own index (pb_profile_lookup) takes the MD5 of every
 * record's name to build and of the asked name to search, which was ~9% of
 * `cov export` on a 100k-function program. Here a cheap hash of the name
 * bytes finds the same records in the same order (ascending record index).
 */
#include <stdlib.h>
#include <string.h>

#include "util/prefetch.h"
#include "coverage/cov_eval_internal.h"

static uint64_t name_hash(const char *s, size_t n) {
    uint64_t h = UINT64_C(0xcbf29ce484222325); /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * UINT64_C(0x100000001b3);
    return h ^ (h >> 31);
}

int pbi_cov_names_build(pbi_cov_names *t, const pb_profile *p) {
    memset(t, 0, sizeof *t);
    size_t n = pb_profile_record_count(p), nf = 0;
    for (size_t i = 0; i < n; i++) {
        const pb_record *r = pb_profile_record(p, i);
        if (r && r->kind == PB_REC_FUNCTION) nf++;
    }
    if (n >= UINT32_MAX) return PB_ENOMEM; /* record indices are kept in 32 bits */
    size_t cap = 16;
    while (cap < nf + nf / 4) { /* at most 4/5 full: a hit's probes stay within a cache line or two */
        if (cap > SIZE_MAX / 4 / sizeof *t->slots) return PB_ENOMEM;
        cap *= 2;
    }
    t->slots = calloc(cap, sizeof *t->slots);
    if (!t->slots) return PB_ENOMEM;
    t->cap = cap;
    /* Linear probing, inserted in ascending record order: the records of
     * one name share a start slot, so a search meets them in that order. */
    for (size_t i = 0; i < n; i++) {
        const pb_record *r = pb_profile_record(p, i);
        const char *s;
        size_t len;
        if (!r || r->kind != PB_REC_FUNCTION || pb_profile_record_name(p, r, &s, &len, NULL, NULL) ||
            len > UINT32_MAX)
            continue;
        uint64_t h = name_hash(s, len);
        size_t j = (size_t)h & (cap - 1);
        while (t->slots[j].rec1) j = (j + 1) & (cap - 1);
        t->slots[j].hash = h;
        t->slots[j].name = s;
        t->slots[j].len = (uint32_t)len;
        t->slots[j].rec1 = (uint32_t)(i + 1);
    }
    return 0;
}

void pbi_cov_names_free(pbi_cov_names *t) {
    free(t->slots);
    memset(t, 0, sizeof *t);
}

size_t pbi_cov_names_next(const pbi_cov_names *t, const pb_profile *p, const char *name, size_t len,
                          size_t *pos) {
    (void)p; /* the slots hold the names */
    if (!t->cap) return SIZE_MAX;
    uint64_t h = name_hash(name, len);
    size_t j = *pos == SIZE_MAX ? (size_t)h & (t->cap - 1) : (*pos + 1) & (t->cap - 1);
    for (; t->slots[j].rec1; j = (j + 1) & (t->cap - 1)) {
        if (t->slots[j].hash != h || t->slots[j].len != len) continue;
        if (len && memcmp(t->slots[j].name, name, len) != 0) continue;
        *pos = j;
        return (size_t)t->slots[j].rec1 - 1;
    }
    return SIZE_MAX;
}

void pbi_cov_names_prefetch(const pbi_cov_names *t, const char *name, size_t len) {
    if (t->cap) PBU_PREFETCH(&t->slots[(size_t)name_hash(name, len) & (t->cap - 1)]);
}

void pbi_cov_names_prefetch_record(const pbi_cov_names *t, const pb_profile *p, const char *name, size_t len,
                                   int its_counters) {
    size_t pos = SIZE_MAX;
    size_t i = pbi_cov_names_next(t, p, name, len, &pos);
    const pb_record *r = i == SIZE_MAX ? NULL : pb_profile_record(p, i);
    if (!r) return;
    if (!its_counters) PBU_PREFETCH(r);
    else if (r->counters) PBU_PREFETCH(r->counters);
}
