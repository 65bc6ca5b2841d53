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

void pbi_summary_free(pbi_summary *s) {
    free(s->c);
    free(s->f);
    s->c = NULL;
    s->f = NULL;
    s->nc = s->cc = s->nf = 0;
    s->zeros = 0;
}

/* Zeros are counted, not kept: most counters of a profile are zero, and
 * sorted descending they all come last, as one entry (pbi_summary_finish);
 * the room for a record's counts is made once (pbi_summary_add). */
static void sum_count(pbi_summary *s, uint64_t c) {
    s->total += c; /* wraps, as LLVM's uint64_t does */
    if (c > s->max_count) s->max_count = c;
    s->num_counts++;
    if (!s->keep || s->oom) return;
    if (c) s->c[s->nc++] = c;
    else s->zeros++;
}

void pbi_summary_add(pbi_summary *s, const uint64_t *counts, uint32_t n) {
    if (n == 0) return;
    if (s->keep && !s->oom && pbu_grow((void **)&s->c, &s->cc, s->nc + n, sizeof *s->c)) s->oom = 1;
    if (s->rule == PBI_SUM_LLVM14) {
        /* every record is a function; single counts of 2^64-1 are left out
         * (addEntryCount / addInternalCount "skip invalid count") */
        s->num_functions++;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t c = counts[i];
            if (c == PBI_PSEUDO_HOT) continue;
            sum_count(s, c);
            uint64_t *max = i ? &s->max_internal : &s->max_function;
            if (c > *max) *max = c;
        }
        return;
    }
    if (counts[0] == PBI_PSEUDO_HOT || counts[0] == PBI_PSEUDO_WARM) return;
    s->num_functions++;
    sum_count(s, counts[0]);
    if (counts[0] > s->max_function) s->max_function = counts[0];
    for (uint32_t i = 1; i < n; i++) {
        sum_count(s, counts[i]);
        if (counts[i] > s->max_internal) s->max_internal = counts[i];
    }
}

/* Sorts the counts descending (radix sort: qsort was a fifth of `show`) and
 * collapses equal ones; f is sized by the distinct counts, not by every
 * count, and the counts are freed once collapsed (f at 16 bytes a count
 * next to the counts was 5.8 MB of a raw -> indexed merge's peak memory,
 * 100k functions). */
int pbi_summary_finish(pbi_summary *s) {
    if (s->oom) return -1;
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
