/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_report_summary.c -- what export and report share around
 * CoverageReport::prepareFileReports: the list of files they walk
 * (CodeCoverageTool: SOURCES, else every file not ignored), the sum of
 * FileCoverageSummaries and getPercentCovered (one file's summary is the
 * evaluator's pbi_cov_file_summarize).
 */
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_state.h"
#include "util/grow.h"

double pbi_cov_percent(pbi_cov_ratio r) {
    if (r.total == 0) return 0.0;
    return (double)r.covered / (double)r.total * 100.0; /* in this order, as llvm-cov: 2/3 prints 66.666666666666657 */
}

static void ratio_add(pbi_cov_ratio *a, pbi_cov_ratio b) {
    a->covered += b.covered;
    a->total += b.total;
}

void pbi_cov_file_summary_add(pbi_cov_file_summary *a, const pbi_cov_file_summary *b) {
    ratio_add(&a->regions, b->regions);
    ratio_add(&a->lines, b->lines);
    ratio_add(&a->branches, b->branches);
    ratio_add(&a->mcdc, b->mcdc);
    ratio_add(&a->functions, b->functions);
    ratio_add(&a->instantiations, b->instantiations);
}


int pbi_cov_report_files(const pb_coverage *c, const char ***out, size_t *n, pb_error *err) {
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    if (c->nsources) {
        if (pbu_grow_err((void **)out, &cap, c->nsources, sizeof **out, err)) return PB_ENOMEM;
        for (size_t i = 0; i < c->nsources; i++) (*out)[i] = c->sources[i];
        *n = c->nsources;
        return 0;
    }
    size_t total = c->view->file_count(c->ev);
    for (size_t i = 0; i < total; i++) {
        const char *f = c->view->file_at(c->ev, i);
        if (pbi_cov_filename_ignored(c, f)) continue;
        if (pbu_grow_err((void **)out, &cap, *n + 1, sizeof **out, err)) {
            free(*out);
            *out = NULL;
            *n = 0;
            return PB_ENOMEM;
        }
        (*out)[(*n)++] = f;
    }
    return 0;
}
