/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_view.c -- the evaluator's functions as the pbi_cov_view that export
 * and report read through (cov_api.h).
 *
 * The references are weak: the evaluator (cov_eval*.c) and the reader
 * (cov_read*.c) are written beside this file on other branches, and this
 * one must build and run its own tests before they are merged. In a library
 * without them pbi_cov_eval_view() is NULL and pb_coverage_load says so
 * (PB_EUNSUPPORTED) instead of failing to link.
 */
#include "coverage/cov_api.h"

#pragma weak pbi_cov_fn_count
#pragma weak pbi_cov_fn_at
#pragma weak pbi_cov_file_count
#pragma weak pbi_cov_file_at
#pragma weak pbi_cov_for_file
#pragma weak pbi_cov_for_expansion
#pragma weak pbi_cov_data_free
#pragma weak pbi_cov_lines
#pragma weak pbi_cov_groups
#pragma weak pbi_cov_fn_summarize
#pragma weak pbi_cov_group_summarize
#pragma weak pbi_cov_eval
#pragma weak pbi_coverage_free
#pragma weak pbi_cov_mismatch_count
#pragma weak pbi_cov_mismatch_at
#pragma weak pbi_cov_read
#pragma weak pbi_cov_mapping_free

static const pbi_cov_view eval_view = {
    pbi_cov_fn_count, pbi_cov_fn_at,  pbi_cov_file_count, pbi_cov_file_at,      pbi_cov_for_file,       pbi_cov_for_expansion,
    pbi_cov_data_free, pbi_cov_lines, pbi_cov_groups,     pbi_cov_fn_summarize, pbi_cov_group_summarize};

const pbi_cov_view *pbi_cov_eval_view(void) {
    if (!pbi_cov_eval || !pbi_coverage_free || !pbi_cov_mismatch_count || !pbi_cov_mismatch_at || !pbi_cov_fn_count ||
        !pbi_cov_fn_at || !pbi_cov_file_count || !pbi_cov_file_at || !pbi_cov_for_file || !pbi_cov_for_expansion ||
        !pbi_cov_data_free || !pbi_cov_lines || !pbi_cov_groups || !pbi_cov_fn_summarize || !pbi_cov_group_summarize)
        return NULL;
    return &eval_view;
}

int pbi_cov_reader_built(void) {
    return pbi_cov_read && pbi_cov_mapping_free;
}
