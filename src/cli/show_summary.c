/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* show_summary.c -- ProfileSummaryBuilder as llvm-profdata show uses it (show_summary.h). */
#include <stdlib.h>

#include "show_summary.h"
#include "util/grow.h"
#include "util/sort.h"

static void sum_count(pbc_summary *s, uint64_t c) {
    s->total += c;
    if (c > s->max_count) s->max_count = c;
    s->num_counts++;
    if (!s->keep) return;
    if (pbi_grow((void **)&s->c, &s->cc, s->nc + 1, sizeof *s->c)) {
        s->oom = 1;
        return;
    }
    s->c[s->nc++] = c;
}

void pbc_sum_record(pbc_summary *s, const pb_record *r, int pseudo_records) {
    if (r->num_counters == 0) return;
    if (!pseudo_records) {
        /* LLVM 13-15: every record is a function; single counts of 2^64-1
         * are left out (addEntryCount / addInternalCount "skip invalid count") */
        s->num_functions++;
        for (uint32_t i = 0; i < r->num_counters; i++) {
            uint64_t c = r->counters[i];
            if (c == PBC_PSEUDO_HOT) continue;
            sum_count(s, c);
            uint64_t *max = i ? &s->max_internal : &s->max_function;
            if (c > *max) *max = c;
        }
        return;
    }
    if (r->counters[0] == PBC_PSEUDO_HOT || r->counters[0] == PBC_PSEUDO_WARM) return;
    s->num_functions++;
    sum_count(s, r->counters[0]);
    if (r->counters[0] > s->max_function) s->max_function = r->counters[0];
    for (uint32_t i = 1; i < r->num_counters; i++) {
        sum_count(s, r->counters[i]);
        if (r->counters[i] > s->max_internal) s->max_internal = r->counters[i];
    }
}

/* Sorts the counts descending (radix sort: qsort was a fifth of `show`) and
 * collapses equal ones. */
void pbc_sum_finish(pbc_summary *s) {
    if (!s->nc) return;
    if (pbi_sort_u64_desc(s->c, s->nc) || !(s->f = malloc(s->nc * sizeof *s->f))) {
        s->oom = 1;
        return;
    }
    size_t k = 0;
    s->f[0].count = s->c[0];
    s->f[0].n = 1;
    for (size_t i = 1; i < s->nc; i++) {
        if (s->c[i] == s->f[k].count) {
            s->f[k].n++;
        } else {
            s->f[++k].count = s->c[i];
            s->f[k].n = 1;
        }
    }
    s->nf = k + 1;
}


/* Detailed entries: the cumulative walk over descending counts (§3.4). */
void pbc_sum_detailed(const pbc_summary *s, const uint32_t *cut, size_t ncut, pbc_dentry *out) {
    uint64_t cur = 0, seen = 0, count = 0;
    size_t i = 0;
    for (size_t c = 0; c < ncut; c++) {
        /* floor(total * cutoff / 1e6) without a 128-bit type: cutoff <= 1e6 */
        uint64_t desired = (s->total / 1000000u) * cut[c] + (s->total % 1000000u) * cut[c] / 1000000u;
        while (cur < desired && i < s->nf) {
            count = s->f[i].count;
            cur += count * s->f[i].n;
            seen = (uint32_t)(seen + s->f[i].n);
            i++;
        }
        out[c].cutoff = cut[c];
        out[c].min_count = count;
        out[c].num = seen;
    }
}
