/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_summary.c -- the profile summary exactly as LLVM's writer computes
 * it (spec §3.4): per-record rules of LLVM 14 or 19, u64 wrap of the total,
 * the cumulative walk over the 16 default cutoffs.
 */
#include <stdlib.h>
#include <string.h>

#include "indexed_internal.h"
#include "util/sort.h"
#include "util/grow.h"

void pbi_sum_init(pbi_sum_builder *b, int rule) {
    memset(b, 0, sizeof *b);
    b->rule = rule;
}

void pbi_sum_free(pbi_sum_builder *b) {
    free(b->counts);
    b->counts = NULL;
    b->n = b->cap = 0;
}

/* Counts go to b->counts for the cutoff walk, zeros excepted: sorted
 * descending they come last, after the walk has reached every cutoff (the
 * sum of the others is the total, which no cutoff exceeds), so they only
 * cost memory and sorting (most counters of a profile are zero). */
static void add_count(pbi_sum_builder *b, uint64_t c) {
    b->total += c; /* wraps, as LLVM's uint64_t does */
    if (c > b->max_count) b->max_count = c;
    b->num_counts++;
    if (c) b->counts[b->n++] = c;
}

void pbi_sum_add(pbi_sum_builder *b, const uint64_t *counts, uint32_t n) {
    if (n == 0) return;
    /* room for every count of the record at once, not one grow per count */
    if (b->failed || pbi_grow((void **)&b->counts, &b->cap, b->n + n, sizeof *b->counts)) {
        b->failed = 1;
        return;
    }
    if (b->rule == PBI_SUM_LLVM19) {
        /* Pseudo-count records (PseudoHot -1, PseudoWarm -2) are left out whole. */
        if (counts[0] == UINT64_MAX || counts[0] == UINT64_MAX - 1) return;
        b->num_functions++;
        add_count(b, counts[0]);
        if (counts[0] > b->max_function) b->max_function = counts[0];
        for (uint32_t i = 1; i < n; i++) {
            add_count(b, counts[i]);
            if (counts[i] > b->max_internal) b->max_internal = counts[i];
        }
        return;
    }
    /* LLVM 14: every record counts as a function, but a single count equal to
     * UINT64_MAX ("invalid count") is skipped everywhere. */
    b->num_functions++;
    if (counts[0] != UINT64_MAX) {
        add_count(b, counts[0]);
        if (counts[0] > b->max_function) b->max_function = counts[0];
    }
    for (uint32_t i = 1; i < n; i++) {
        if (counts[i] == UINT64_MAX) continue;
        add_count(b, counts[i]);
        if (counts[i] > b->max_internal) b->max_internal = counts[i];
    }
}

/* floor(total * cutoff / 1e6) without 128-bit types; cutoff <= 1e6. */
static uint64_t desired(uint64_t total, uint64_t cutoff) {
    const uint64_t scale = 1000000;
    return (total / scale) * cutoff + ((total % scale) * cutoff) / scale;
}

int pbi_sum_finish(pbi_sum_builder *b, uint64_t out[PBI_SUM_WORDS], pb_error *err) {
    if (b->failed) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory in the summary");
    if (b->n && pbi_sort_u64_desc(b->counts, b->n))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory in the summary");
    out[0] = PBI_IDX_SUMMARY_FIELDS;
    out[1] = PBI_IDX_NUM_CUTOFFS;
    out[2 + PBI_SUM_TOTAL_NUM_FUNCTIONS] = b->num_functions;
    out[2 + PBI_SUM_TOTAL_NUM_BLOCKS] = b->num_counts;
    out[2 + PBI_SUM_MAX_FUNCTION_COUNT] = b->max_function;
    out[2 + PBI_SUM_MAX_BLOCK_COUNT] = b->max_count;
    out[2 + PBI_SUM_MAX_INTERNAL_BLOCK_COUNT] = b->max_internal;
    out[2 + PBI_SUM_TOTAL_BLOCK_COUNT] = b->total;
    /* The walk state (sum, seen, last count) carries over from cutoff to cutoff. */
    uint64_t curr = 0, count = 0;
    uint32_t seen = 0;
    size_t i = 0;
    for (unsigned c = 0; c < PBI_IDX_NUM_CUTOFFS; c++) {
        uint64_t want = desired(b->total, pbi_idx_default_cutoffs[c]);
        while (curr < want && i < b->n) {
            uint64_t v = b->counts[i];
            uint32_t freq = 0;
            while (i < b->n && b->counts[i] == v) {
                freq++;
                i++;
            }
            count = v;
            curr += v * freq; /* u64 wrap, as LLVM */
            seen += freq;
        }
        uint64_t *e = out + 2 + PBI_IDX_SUMMARY_FIELDS + 3 * c;
        e[0] = pbi_idx_default_cutoffs[c];
        e[1] = count;
        e[2] = seen;
    }
    return 0;
}
