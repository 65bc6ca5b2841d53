/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_summary.c -- the profile summary as LLVM's writer puts it on disk
 * (spec §3.4): the one builder of llvm/summary.h over LLVM's 16 default
 * cutoffs, laid out in the file's words.
 */
#include "indexed_internal.h"

void pbi_sum_init(pbi_sum_builder *b, int rule) { pbi_summary_init(b, rule, 1); }

void pbi_sum_free(pbi_sum_builder *b) { pbi_summary_free(b); }

void pbi_sum_add(pbi_sum_builder *b, const uint64_t *counts, uint32_t n) { pbi_summary_add(b, counts, n); }

int pbi_sum_finish(pbi_sum_builder *b, uint64_t out[PBI_SUM_WORDS], pb_error *err) {
    if (pbi_summary_finish(b))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory in the summary");
    uint32_t cuts[PBI_IDX_NUM_CUTOFFS];
    pbi_dentry de[PBI_IDX_NUM_CUTOFFS];
    for (unsigned c = 0; c < PBI_IDX_NUM_CUTOFFS; c++) cuts[c] = (uint32_t)pbi_idx_default_cutoffs[c];
    pbi_summary_detailed(b, cuts, PBI_IDX_NUM_CUTOFFS, de);
    out[0] = PBI_IDX_SUMMARY_FIELDS;
    out[1] = PBI_IDX_NUM_CUTOFFS;
    /* NumFunctions is LLVM's uint32_t */
    out[2 + PBI_SUM_TOTAL_NUM_FUNCTIONS] = (uint32_t)b->num_functions;
    out[2 + PBI_SUM_TOTAL_NUM_BLOCKS] = b->num_counts;
    out[2 + PBI_SUM_MAX_FUNCTION_COUNT] = b->max_function;
    out[2 + PBI_SUM_MAX_BLOCK_COUNT] = b->max_count;
    out[2 + PBI_SUM_MAX_INTERNAL_BLOCK_COUNT] = b->max_internal;
    out[2 + PBI_SUM_TOTAL_BLOCK_COUNT] = b->total;
    for (unsigned c = 0; c < PBI_IDX_NUM_CUTOFFS; c++) {
        uint64_t *e = out + 2 + PBI_IDX_SUMMARY_FIELDS + 3 * c;
        e[0] = de[c].cutoff;
        e[1] = de[c].min_count;
        e[2] = de[c].num;
    }
    return 0;
}
