/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_view.c -- the evaluator's functions as the pbi_cov_view that export
 * and report read through (cov_state.h); the unit tests give the printers a
 * view of hand-built data instead.
 */
#include "coverage/cov_state.h"

/* Export and report keep every instantiation (llvm-cov's
 * CoverageFiltersMatchAll: the name filters select only what show prints). */
static int file_summarize_all(const pbi_coverage *c, const char *filename, pbi_cov_file_summary *out, pb_error *err) {
    return pbi_cov_file_summarize(c, filename, NULL, NULL, out, err);
}

static const pbi_cov_view eval_view = {pbi_cov_fn_count,      pbi_cov_fn_at,     pbi_cov_file_count,
                                       pbi_cov_file_at,       pbi_cov_for_file,  pbi_cov_for_expansion,
                                       pbi_cov_data_free,     pbi_cov_lines,     pbi_cov_fn_summarize,
                                       file_summarize_all};

const pbi_cov_view *pbi_cov_eval_view(void) {
    return &eval_view;
}
