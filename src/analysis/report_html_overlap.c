/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * report_html_overlap.c -- the rows of `overlap --html` (report_html.h).
 *
 * llvm-profdata overlap scores a counter by min(base_i/SumBase,
 * test_i/SumTest): the part both profiles share. The table is ordered by
 * the part they do not share, |base_i/SumBase - test_i/SumTest| summed
 * over the function's counters, so the functions that move the overlap
 * most come first. Over all functions it sums to 2 * (100% - overlap) when
 * no function mismatches. Sums are overlap's (profile_overlap.c): for an
 * IR-level profile only the records whose context-sensitive bit is clear.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_html.h"
#include "model/profile_records.h"

static int counted(const pb_profile *p, uint64_t hash) {
    return !(pb_profile_flags(p) & PB_VARIANT_IR) || !(hash & PB_HASH_CS_BIT);
}

static double sum_of(const pb_record *r) {
    uint64_t s = 0; /* wraps as LLVM's accumulateCounts */
    for (uint32_t i = 0; i < r->num_counters; i++) s += r->counters[i];
    return (double)s;
}

static int profile_sum(const pb_profile *p, double *sum, pb_error *err) {
    *sum = 0;
    for (size_t i = 0; i < pb_profile_record_count(p); i++) {
        const pb_record *r = pb_profile_record(p, i);
        const char *n;
        size_t len;
        uint64_t h;
        int rc = pb_profile_record_name(p, r, &n, &len, &h, err);
        if (rc) return rc;
        if (counted(p, h)) *sum += sum_of(r);
    }
    return 0;
}

/* The record of `p` with this name and hash, or NULL; *named: p has a
 * record of this name (with any hash). */
static int find(const pb_profile *p, const char *name, size_t len, uint64_t hash, const pb_record **out, int *named,
                pb_error *err) {
    size_t idx;
    *out = NULL;
    /* log n however many records share the name */
    if (pbi_profile_find_name_hash(p, name, len, hash, &idx, named))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    if (idx != SIZE_MAX) *out = pb_profile_record(p, idx);
    return 0;
}

static double frac(uint64_t v, double sum) { return sum < 1.0 ? 0.0 : (double)v / sum; }

static int same_shape(const pb_record *a, const pb_record *b) {
    if (a->num_counters != b->num_counters) return 0;
    for (int k = 0; k < PB_VK_COUNT; k++)
        if (a->num_sites[k] != b->num_sites[k]) return 0;
    return 1;
}

/* Fills r's measure (divergence, %) and contribution (shared part, %). */
static void measure(pbi_html_row *r, double sa, double sb) {
    double div = 0, shared = 0;
    if (r->ra && r->rb && same_shape(r->ra, r->rb)) {
        for (uint32_t i = 0; i < r->ra->num_counters; i++) {
            double x = frac(r->ra->counters[i], sa), y = frac(r->rb->counters[i], sb);
            div += x > y ? x - y : y - x;
            shared += x < y ? x : y;
        }
    } else {
        if (r->ra && sa >= 1.0) div += sum_of(r->ra) / sa;
        if (r->rb && sb >= 1.0) div += sum_of(r->rb) / sb;
    }
    r->measure = div * 100.0;
    r->contribution = shared * 100.0;
}

static int by_measure(const void *x, const void *y) {
    const pbi_html_row *a = x, *b = y;
    if (a->measure != b->measure) return a->measure > b->measure ? -1 : 1;
    size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
    int c = memcmp(a->name, b->name, n);
    if (c) return c;
    if (a->name_len != b->name_len) return a->name_len < b->name_len ? -1 : 1;
    return a->hash < b->hash ? -1 : a->hash > b->hash;
}

int pbi_html_overlap(const pb_profile *base, const pb_profile *test, const char *base_name, const char *test_name,
                     pb_sink *out, pb_error *err) {
    double sa, sb;
    int rc = profile_sum(base, &sa, err);
    if (!rc) rc = profile_sum(test, &sb, err);
    if (rc) return rc;
    if (pbi_profile_build_lookup(base) || pbi_profile_build_lookup(test))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    size_t nb = pb_profile_record_count(base), nt = pb_profile_record_count(test), n = 0, same = 0;
    pbi_html_row *rows = calloc(nb + nt + 1, sizeof *rows);
    if (!rows) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    double overlap = 0;
    /* test's functions (with their base match), then base's alone */
    for (size_t side = 0; side < 2 && !rc; side++) {
        const pb_profile *p = side ? base : test, *other = side ? test : base;
        for (size_t i = 0; i < pb_profile_record_count(p) && !rc; i++) {
            pbi_html_row r;
            memset(&r, 0, sizeof r);
            const pb_record *rec = pb_profile_record(p, i), *match;
            int named;
            if ((rc = pb_profile_record_name(p, rec, &r.name, &r.name_len, &r.hash, err))) break;
            if ((rc = find(other, r.name, r.name_len, r.hash, &match, &named, err))) break;
            if (side && match) continue; /* listed with test's */
            r.ra = side ? rec : match;
            r.rb = side ? NULL : rec;
            /* llvm-profdata overlap's words: a name on both sides with
             * another hash or shape is a mismatch */
            if (!match && named) r.status = side ? "hash mismatch (BASE)" : "hash mismatch (TEST)";
            else if (!r.ra) r.status = "only in TEST";
            else if (!r.rb) r.status = "only in BASE";
            else r.status = same_shape(r.ra, r.rb) ? "in both" : "shape mismatch";
            measure(&r, sa, sb);
            if (r.ra && r.rb && sum_of(r.rb) >= 1.0) overlap += r.contribution;
            if (r.measure > 0) rows[n++] = r;
            else same++;
        }
    }
    if (!rc) {
        qsort(rows, n, sizeof *rows, by_measure);
        char summary[512];
        snprintf(summary, sizeof summary,
                 "Edge profile overlap %.3f%% (as llvm-profdata overlap). %zu functions whose share of the profile "
                 "differs, %zu alike. Divergence: the sum over a function's counters of |base_i/%.0f - "
                 "test_i/%.0f| in percent (the sums of all counters of BASE and TEST); overlap %%: the sum of "
                 "min(base_i/%.0f, test_i/%.0f), its part of the edge overlap.",
                 overlap, n, same, sa, sb, sa, sb);
        pbi_html_page pg = {"profbridge overlap", base_name, test_name, "BASE", "TEST", "divergence %", summary, 1,
                            rows, n};
        rc = pbi_html_write(&pg, out, err);
    }
    free(rows);
    return rc;
}
