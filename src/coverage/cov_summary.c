/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_summary.c -- llvm-cov's CoverageSummaryInfo: a function's regions
 * (code regions of every file it spans), lines (its main file's line
 * iterator), branches (its main file's and, recursively, its
 * expansions'), MC/DC conditions; and an instantiation group's summary,
 * the best of its instantiations.
 */
#include <stdlib.h>

#include "coverage/cov_eval_internal.h"

static void sum_branches(const pbi_llvm_target *t, const pbi_cov_counted_region *b, size_t n, pbi_cov_ratio *r) {
    int sides = pbi_llvm_cov_has(t, PBI_LC_EVAL_FOLDED_SIDES);
    for (size_t i = 0; i < n; i++) {
        int skip_true = sides ? b[i].true_folded : b[i].folded;
        int skip_false = sides ? b[i].false_folded : b[i].folded;
        if (!skip_true) {
            r->total++;
            r->covered += b[i].count > 0;
        }
        if (!skip_false) {
            r->total++;
            r->covered += b[i].false_count > 0;
        }
    }
}

static int sum_expansions(const pbi_coverage *c, const pbi_cov_expansion *e, size_t n, pbi_cov_ratio *r,
                          size_t depth, pb_error *err) {
    /* An expansion cannot expand itself in a mapping clang writes; a
     * damaged one could, and LLVM would recurse until its stack ends. */
    if (depth > 256) return 0;
    for (size_t i = 0; i < n; i++) {
        pbi_cov_data d;
        int rc = pbi_cov_for_expansion(c, &e[i], &d, err);
        if (rc) return rc;
        sum_branches(&c->t, d.branches, d.nbranches, r);
        rc = sum_expansions(c, d.expansions, d.nexpansions, r, depth + 1, err);
        pbi_cov_data_free(&d);
        if (rc) return rc;
    }
    return 0;
}

static void sum_mcdc(const pbi_llvm_target *t, const pbi_cov_mcdc_record *const *m, size_t n, pbi_cov_ratio *r) {
    int nested = pbi_llvm_cov_has(t, PBI_LC_EVAL_MCDC_PAIRS_NESTED);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < m[i]->nconds; k++) {
            if (!m[i]->folded[k]) r->total++;
            if ((!nested || !m[i]->folded[k]) && m[i]->covered[k]) r->covered++;
        }
}

int pbi_cov_fn_summarize(const pbi_coverage *c, const pbi_cov_fn *fn, pbi_cov_fn_summary *out, pb_error *err) {
    *out = (pbi_cov_fn_summary){fn->name, fn->count, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
    for (size_t i = 0; i < fn->nregions; i++) {
        if (fn->regions[i].r.kind != PBI_COV_REGION_CODE) continue;
        out->regions.total++;
        out->regions.covered += fn->regions[i].count != 0;
    }
    pbi_cov_data d;
    int rc = pbi_cov_for_function(c, fn, &d, err);
    if (rc) return rc;
    pbi_cov_line *lines;
    size_t nlines;
    rc = pbi_cov_lines(&d, &lines, &nlines, err);
    for (size_t i = 0; !rc && i < nlines; i++) {
        if (!lines[i].mapped) continue;
        out->lines.total++;
        out->lines.covered += lines[i].count != 0;
    }
    if (!rc) free(lines);
    if (!rc) {
        sum_branches(&c->t, d.branches, d.nbranches, &out->branches);
        rc = sum_expansions(c, d.expansions, d.nexpansions, &out->branches, 0, err);
    }
    if (!rc) sum_mcdc(&c->t, d.mcdc, d.nmcdc, &out->mcdc);
    pbi_cov_data_free(&d);
    return rc;
}

static void merge(pbi_cov_ratio *a, const pbi_cov_ratio *b) {
    if (b->covered > a->covered) a->covered = b->covered;
    if (b->total > a->total) a->total = b->total;
}

int pbi_cov_group_summarize(const pbi_coverage *c, const pbi_cov_group *g, pbi_cov_fn_summary *out,
                            pb_error *err) {
    *out = (pbi_cov_fn_summary){g->def_name[0] ? g->def_name : (g->nfns ? g->fns[0]->name : ""), 0,
                                {0, 0}, {0, 0}, {0, 0}, {0, 0}};
    for (size_t i = 0; i < g->nfns; i++) {
        pbi_cov_fn_summary s;
        int rc = pbi_cov_fn_summarize(c, g->fns[i], &s, err);
        if (rc) return rc;
        out->count += s.count;
        if (i == 0) {
            out->regions = s.regions;
            out->lines = s.lines;
            out->branches = s.branches;
            out->mcdc = s.mcdc;
            continue;
        }
        merge(&out->regions, &s.regions);
        merge(&out->lines, &s.lines);
        merge(&out->branches, &s.branches);
        merge(&out->mcdc, &s.mcdc);
    }
    return 0;
}
