/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* summary.c -- InstrProfSummaryBuilder's rules (summary.h). */
#include "llvm/summary.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/sort.h"

void pbi_summary_init(pbi_summary *s, int rule, int keep) {
    memset(s, 0, sizeof *s);
    s->rule = rule;
    s->keep = keep;
}

/* The map of distinct counts (below) gone, as after init. */
static void free_map(pbi_summary *s) {
    free(s->mkey);
    free(s->mnum);
    s->mkey = NULL;
    s->mnum = NULL;
    s->mslots = s->mused = 0;
}

void pbi_summary_free(pbi_summary *s) {
    free(s->c);
    free(s->f);
    free_map(s);
    s->c = NULL;
    s->f = NULL;
    s->nc = s->cc = s->nf = 0;
    s->zeros = 0;
}

/*
 * The distinct counts: a profile's counts repeat (0 and 1 most), and the
 * detailed entries need only each distinct count and how many have it. A
 * map of them took the place of an array of every count, which with its
 * sorting space was the peak memory of the writer of a raw -> indexed merge
 * of 100k functions (4 MB above the rest, getrusage around it) and its
 * radix sort 3% of the time (callgrind, bench/shapes.sh). When the map
 * would take more memory than the array (counts mostly distinct), the
 * counts go on into the array as before (to_array). Either gives the same
 * distinct counts and numbers (uint32_t, wrapping alike).
 */
static uint64_t slot_of(uint64_t c, size_t mask) { return (c * UINT64_C(0x9e3779b97f4a7c15)) >> 17 & mask; }

/* The map's counts expanded into the array c (room for `more` after). */
static int to_array(pbi_summary *s, size_t more) {
    s->array_mode = 1;
    if (pbu_grow((void **)&s->c, &s->cc, (size_t)s->seen + more, sizeof *s->c)) return -1;
    for (size_t i = 0; i < s->mslots; i++)
        for (uint32_t k = 0; s->mkey[i] && k < s->mnum[i]; k++) s->c[s->nc++] = s->mkey[i];
    free_map(s);
    return 0;
}

/* Doubles the map (64 slots first); 1: it would outgrow the array. */
static int map_grow(pbi_summary *s) {
    size_t n = s->mslots ? 2 * s->mslots : 64;
    if (n * (sizeof *s->mkey + sizeof *s->mnum) > 8 * (size_t)s->seen + 65536) return 1;
    uint64_t *k = calloc(n, sizeof *k);
    uint32_t *v = calloc(n, sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return -1;
    }
    for (size_t i = 0; i < s->mslots; i++) {
        if (!s->mkey[i]) continue;
        size_t b = slot_of(s->mkey[i], n - 1);
        while (k[b]) b = (b + 1) & (n - 1);
        k[b] = s->mkey[i];
        v[b] = s->mnum[i];
    }
    free(s->mkey);
    free(s->mnum);
    s->mkey = k;
    s->mnum = v;
    s->mslots = n;
    return 0;
}

/* A count but zero into the map (or the array past it). */
static void keep_count(pbi_summary *s, uint64_t c, size_t more) {
    s->seen++;
    if (s->array_mode) {
        s->c[s->nc++] = c;
        return;
    }
    if (s->mslots) {
        size_t mask = s->mslots - 1, b = slot_of(c, mask);
        while (s->mkey[b] && s->mkey[b] != c) b = (b + 1) & mask;
        if (s->mkey[b]) {
            s->mnum[b]++;
            return;
        }
    }
    if (2 * (s->mused + 1) > s->mslots) {
        int g = map_grow(s);
        if (g) {
            s->seen--; /* counted again below */
            if (g < 0 || to_array(s, more + 1)) s->oom = 1;
            else keep_count(s, c, more);
            return;
        }
    }
    size_t mask = s->mslots - 1, b = slot_of(c, mask);
    while (s->mkey[b]) b = (b + 1) & mask;
    s->mkey[b] = c;
    s->mnum[b] = 1;
    s->mused++;
}

/* Zeros are counted, not kept: most counters of a profile are zero, and
 * sorted descending they all come last, as one entry (pbi_summary_finish);
 * the room for a record's counts is made once (pbi_summary_add). `more`:
 * the counts of the record still to come after this one. */
static void keep_or_zero(pbi_summary *s, uint64_t c, size_t more) {
    if (c) keep_count(s, c, more);
    else s->zeros++;
}
/* The totals inline, the kept counts (--detailed-summary only) out of line:
 * with keep_count inlined into it, sum_count was a call per counter, 13% of
 * `show --all-functions --counts` of an indexed file. */
static inline void sum_count(pbi_summary *s, uint64_t c, size_t more) {
    s->total += c; /* wraps, as LLVM's uint64_t does */
    if (c > s->max_count) s->max_count = c;
    s->num_counts++;
    if (s->keep && !s->oom) keep_or_zero(s, c, more);
}

void pbi_summary_add(pbi_summary *s, const uint64_t *counts, uint32_t n) {
    if (n == 0) return;
    if (s->keep && !s->oom && s->array_mode && pbu_grow((void **)&s->c, &s->cc, s->nc + n, sizeof *s->c))
        s->oom = 1;
    if (s->rule == PBI_SUM_LLVM14) {
        /* every record is a function; single counts of 2^64-1 are left out
         * (addEntryCount / addInternalCount "skip invalid count") */
        s->num_functions++;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t c = counts[i];
            if (c == PBI_PSEUDO_HOT) continue;
            sum_count(s, c, n - 1 - i);
            uint64_t *max = i ? &s->max_internal : &s->max_function;
            if (c > *max) *max = c;
        }
        return;
    }
    if (counts[0] == PBI_PSEUDO_HOT || counts[0] == PBI_PSEUDO_WARM) return;
    s->num_functions++;
    sum_count(s, counts[0], n - 1);
    if (counts[0] > s->max_function) s->max_function = counts[0];
    for (uint32_t i = 1; i < n; i++) {
        sum_count(s, counts[i], n - 1 - i);
        if (counts[i] > s->max_internal) s->max_internal = counts[i];
    }
}

/* Sorts the counts descending (radix sort: qsort was a fifth of `show`) and
 * collapses equal ones; f is sized by the distinct counts, not by every
 * count, and the counts are freed once collapsed (f at 16 bytes a count
 * next to the counts was 5.8 MB of a raw -> indexed merge's peak memory,
 * 100k functions). */
static int by_count_desc(const void *x, const void *y) {
    const pbi_freq *a = x, *b = y;
    return a->count < b->count ? 1 : a->count > b->count ? -1 : 0;
}

/* The map's distinct counts into f, descending, then the zeros. */
static int finish_map(pbi_summary *s) {
    if (!(s->f = malloc((s->mused + 1) * sizeof *s->f))) {
        s->oom = 1;
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < s->mslots; i++)
        if (s->mkey[i]) s->f[k++] = (pbi_freq){s->mkey[i], s->mnum[i]};
    qsort(s->f, k, sizeof *s->f, by_count_desc); /* distinct: one order */
    if (s->zeros) s->f[k++] = (pbi_freq){0, s->zeros};
    s->nf = k;
    free_map(s);
    return 0;
}

int pbi_summary_finish(pbi_summary *s) {
    if (s->oom) return -1;
    if (!s->array_mode) return finish_map(s);
    if (!s->nc && !s->zeros) return 0;
    if (s->nc && pbu_sort_u64_desc(s->c, s->nc)) {
        s->oom = 1;
        return -1;
    }
    size_t distinct = 0;
    for (size_t i = 0; i < s->nc; i++) distinct += !i || s->c[i] != s->c[i - 1];
    if (!(s->f = malloc((distinct + 1) * sizeof *s->f))) {
        s->oom = 1;
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < s->nc; i++) {
        if (k && s->c[i] == s->f[k - 1].count) {
            s->f[k - 1].n++;
        } else {
            s->f[k].count = s->c[i];
            s->f[k++].n = 1;
        }
    }
    /* the zeros last: a cutoff the others do not reach (a wrapped total,
     * show's cutoffs above 1000000) walks into them */
    if (s->zeros) {
        s->f[k].count = 0;
        s->f[k++].n = s->zeros;
    }
    s->nf = k;
    free(s->c); /* f holds them */
    s->c = NULL;
    s->nc = s->cc = 0;
    return 0;
}

void pbi_summary_detailed(const pbi_summary *s, const uint32_t *cut, size_t ncut, pbi_dentry *out) {
    uint64_t cur = 0, seen = 0, count = 0;
    size_t i = 0;
    for (size_t c = 0; c < ncut; c++) {
        /* floor(total * cutoff / 1e6) without a 128-bit type: cutoff <= 1e6 */
        uint64_t desired = (s->total / 1000000u) * cut[c] + (s->total % 1000000u) * cut[c] / 1000000u;
        while (cur < desired && i < s->nf) {
            count = s->f[i].count;
            cur += count * s->f[i].n; /* u64 wrap, as LLVM */
            seen = (uint32_t)(seen + s->f[i].n);
            i++;
        }
        out[c].cutoff = cut[c];
        out[c].min_count = count;
        out[c].num = seen;
    }
}
