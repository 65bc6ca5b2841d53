/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_summary.c -- llvm-cov's CoverageSummaryInfo: a function's regions
 * (code regions of every file it spans), lines (its main file's line
 * iterator), branches (its main file's and, recursively, its
 * expansions'), MC/DC conditions; and an instantiation group's summary,
 * the best of its instantiations.
 */
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_eval_internal.h"

static void sum_branches(const pbi_llvm_target *t, const pbi_cov_counted_branch *b, size_t n, pbi_cov_ratio *r) {
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

/* In a mapping clang writes, every file id is expanded once and the
 * expansions form a tree; a damaged one can expand a file from itself
 * (LLVM recurses until its stack ends) or from many places (2^depth
 * walks). The walk stops at depth 256 and after 2^20 expansions. */
#define MAX_EXPANSION_DEPTH 256
#define MAX_EXPANSIONS (1u << 20)

static int sum_expansions(const pbi_coverage *c, const pbi_cov_expansion *e, size_t n, pbi_cov_ratio *r,
                          size_t depth, size_t *budget, pb_error *err) {
    if (depth > MAX_EXPANSION_DEPTH) return 0;
    for (size_t i = 0; i < n && *budget; i++, (*budget)--) {
        pbi_cov_data d;
        int rc = pbi_cov_for_expansion(c, &e[i], &d, err);
        if (rc) return rc;
        sum_branches(&c->t, d.branches, d.nbranches, r);
        rc = sum_expansions(c, d.expansions, d.nexpansions, r, depth + 1, budget, err);
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
        size_t budget = MAX_EXPANSIONS;
        rc = sum_expansions(c, d.expansions, d.nexpansions, &out->branches, 0, &budget, err);
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

static void add_ratio(pbi_cov_ratio *a, const pbi_cov_ratio *b) {
    a->covered += b->covered;
    a->total += b->total;
}

/* The group's instantiations that `keep` accepts, summarized into *gs
 * (count: every instantiation's). Returns how many were kept, or -1. */
static long summarize_kept(const pbi_coverage *c, const pbi_cov_group *g,
                           int (*keep)(void *ctx, const pbi_cov_fn *fn), void *ctx, pbi_cov_file_summary *file,
                           pbi_cov_fn_summary *gs, pb_error *err) {
    long kept = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < g->nfns; i++) {
        total += g->fns[i]->count;
        if (keep && !keep(ctx, g->fns[i])) continue;
        pbi_cov_fn_summary s;
        if (pbi_cov_fn_summarize(c, g->fns[i], &s, err)) return -1;
        file->instantiations.total++;
        file->instantiations.covered += s.count > 0;
        if (kept++ == 0) {
            *gs = s;
            continue;
        }
        merge(&gs->regions, &s.regions);
        merge(&gs->lines, &s.lines);
        merge(&gs->branches, &s.branches);
        merge(&gs->mcdc, &s.mcdc);
    }
    gs->count = total;
    return kept;
}

int pbi_cov_file_summarize(const pbi_coverage *c, const char *filename,
                           int (*keep)(void *ctx, const pbi_cov_fn *fn), void *ctx,
                           pbi_cov_file_summary *out, pb_error *err) {
    memset(out, 0, sizeof *out);
    out->name = filename;
    pbi_cov_group *g;
    size_t n;
    int rc = pbi_cov_groups(c, filename, &g, &n, err);
    if (rc) return rc;
    for (size_t i = 0; i < n; i++) {
        pbi_cov_fn_summary gs;
        long kept = rc ? 0 : summarize_kept(c, &g[i], keep, ctx, out, &gs, err);
        if (kept < 0) rc = PB_ENOMEM;
        if (kept > 0) {
            add_ratio(&out->regions, &gs.regions);
            add_ratio(&out->lines, &gs.lines);
            add_ratio(&out->branches, &gs.branches);
            add_ratio(&out->mcdc, &gs.mcdc);
            out->functions.total++;
            out->functions.covered += gs.count > 0;
        }
        free(g[i].fns);
    }
    free(g);
    return rc;
}
