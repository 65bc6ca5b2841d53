/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_summary.h -- the summary lines of llvm-profdata show, recomputed from
 * the records shown with the rules of InstrProfSummaryBuilder (spec §3.4;
 * show_summary.c): records whose first count is a pseudo count (2^64-1,
 * 2^64-2) are left out, u64 totals wrap, and the detailed entries walk the
 * counts downwards across all cutoffs.
 */
#ifndef PBC_SHOW_SUMMARY_H
#define PBC_SHOW_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/profile.h"

#define PBC_PSEUDO_HOT UINT64_MAX
#define PBC_PSEUDO_WARM (UINT64_MAX - 1)


typedef struct pbc_freq {
    uint64_t count;
    uint32_t n;
} pbc_freq;

typedef struct pbc_summary {
    uint64_t num_functions, max_function, max_internal, max_count, total;
    uint32_t num_counts;
    uint64_t *c; /* every count, unsorted; sum_finish turns them into f */
    size_t nc, cc;
    pbc_freq *f; /* distinct counts, descending, after sum_finish */
    size_t nf;
    int keep; /* collect c (for the detailed summary) */
    int oom;
} pbc_summary;

typedef struct pbc_dentry {
    uint32_t cutoff;
    uint64_t min_count;
    uint64_t num;
} pbc_dentry;

/* Adds a record's counts; pseudo_records: LLVM 16+ (PBI_LF_SHOW_PSEUDO_COUNTS). */
void pbc_sum_record(pbc_summary *s, const pb_record *r, int pseudo_records);
/* After the last record: the distinct counts, descending (for the detail). */
void pbc_sum_finish(pbc_summary *s);
/* out[0..ncut): the blocks at or above each cutoff (parts per million). */
void pbc_sum_detailed(const pbc_summary *s, const uint32_t *cut, size_t ncut, pbc_dentry *out);

#endif
