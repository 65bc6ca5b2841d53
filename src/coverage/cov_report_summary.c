/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_report_summary.c -- FileCoverageSummary as llvm-cov's
 * CoverageReport::prepareFileReports builds it, and the list of files that
 * export and report walk (CodeCoverageTool: SOURCES, else every file not
 * ignored).
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

int pbi_cov_file_summarize(const pb_coverage *c, const char *filename, pbi_cov_file_summary *out, pb_error *err) {
    memset(out, 0, sizeof *out);
    out->name = filename;
    pbi_cov_group *groups = NULL;
    size_t n = 0;
    int rc = c->view->groups(c->ev, filename, &groups, &n, err);
    for (size_t g = 0; rc == 0 && g < n; g++) {
        if (groups[g].nfns == 0) continue;
        for (size_t k = 0; k < groups[g].nfns; k++) {
            out->instantiations.total++;
            if (groups[g].fns[k]->count > 0) out->instantiations.covered++;
        }
        pbi_cov_fn_summary s;
        rc = c->view->group_summarize(c->ev, &groups[g], &s, err);
        if (rc) break;
        ratio_add(&out->regions, s.regions);
        ratio_add(&out->lines, s.lines);
        ratio_add(&out->branches, s.branches);
        ratio_add(&out->mcdc, s.mcdc);
        out->functions.total++;
        if (s.count > 0) out->functions.covered++;
    }
    for (size_t g = 0; g < n; g++) free((void *)groups[g].fns);
    free(groups);
    return rc;
}

int pbi_cov_report_files(const pb_coverage *c, const char ***out, size_t *n, pb_error *err) {
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    if (c->nsources) {
        if (pbi_grow_err((void **)out, &cap, c->nsources, sizeof **out, err)) return PB_ENOMEM;
        for (size_t i = 0; i < c->nsources; i++) (*out)[i] = c->sources[i];
        *n = c->nsources;
        return 0;
    }
    size_t total = c->view->file_count(c->ev);
    for (size_t i = 0; i < total; i++) {
        const char *f = c->view->file_at(c->ev, i);
        if (pbi_cov_filename_ignored(c, f)) continue;
        if (pbi_grow_err((void **)out, &cap, *n + 1, sizeof **out, err)) {
            free(*out);
            *out = NULL;
            *n = 0;
            return PB_ENOMEM;
        }
        (*out)[(*n)++] = f;
    }
    return 0;
}
