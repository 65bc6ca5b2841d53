/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * summary.h -- the one profile summary builder: LLVM's
 * InstrProfSummaryBuilder with its per-release rules (spec §3.4). The
 * indexed writer puts its result on disk (indexed_summary.c), the show
 * printer prints it (analysis/show_llvm_summary.c).
 *
 * Rules: LLVM 13-15 count every record as a function and skip single counts
 * of 2^64-1 ("invalid count"); 16+ leave out whole records whose first count
 * is a pseudo count (2^64-1 PseudoHot, 2^64-2 PseudoWarm). u64 totals wrap,
 * as LLVM's do; the detailed entries walk the counts downwards across all
 * cutoffs, the walk's state carried from cutoff to cutoff.
 */
#ifndef PBI_LLVM_SUMMARY_H
#define PBI_LLVM_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#define PBI_PSEUDO_HOT UINT64_MAX
#define PBI_PSEUDO_WARM (UINT64_MAX - 1)

enum pbi_sum_rule {
    PBI_SUM_LLVM14 = 14, /* skip single counts equal to UINT64_MAX (13-15) */
    PBI_SUM_LLVM19 = 19  /* skip whole pseudo-count records (16+) */
};

/* A distinct count and how many counts have it. */
typedef struct pbi_freq {
    uint64_t count;
    uint32_t n;
} pbi_freq;

typedef struct pbi_summary {
    int rule; /* enum pbi_sum_rule */
    int keep; /* collect every count (for the detailed entries) */
    uint64_t num_functions, max_function, max_internal, max_count, total;
    uint32_t num_counts;
    uint64_t *c; /* every count but zeros, unsorted; pbi_summary_finish turns them into f */
    uint32_t zeros; /* the zeros, counted (they sort last) */
    size_t nc, cc;
    /* Before c: the distinct counts but zero, each with how many (open
     * addressing, key 0 = empty), while that takes less memory than c would
     * (summary.c, "distinct"); then c, and mslots = 0 (array mode). */
    uint64_t *mkey;
    uint32_t *mnum;
    size_t mslots, mused;
    uint64_t seen;  /* counts but zeros added so far */
    int array_mode; /* every count goes to c */
    pbi_freq *f; /* distinct counts, descending, after pbi_summary_finish */
    size_t nf;
    int oom; /* collecting or finishing ran out of memory */
} pbi_summary;

/* One detailed entry: the fewest counts whose sum reaches cutoff (parts per
 * million of the total), and the smallest of them. */
typedef struct pbi_dentry {
    uint32_t cutoff;
    uint64_t min_count;
    uint64_t num;
} pbi_dentry;

void pbi_summary_init(pbi_summary *s, int rule, int keep);
/* Adds a record's counts under s->rule. */
void pbi_summary_add(pbi_summary *s, const uint64_t *counts, uint32_t n);
/* After the last record: the distinct counts, descending. Returns 0, or -1
 * when memory ran out now or while collecting (s->oom). */
int pbi_summary_finish(pbi_summary *s);
/* out[0..ncut): the entries of each cutoff (after pbi_summary_finish). */
void pbi_summary_detailed(const pbi_summary *s, const uint32_t *cut, size_t ncut, pbi_dentry *out);
void pbi_summary_free(pbi_summary *s);

#endif
