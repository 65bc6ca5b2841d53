/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_segments.c -- LLVM's SegmentBuilder: counted regions of one file
 * sorted (outer before inner), regions over the same span combined, then
 * walked with a stack of active regions, emitting a segment wherever the
 * count that applies changes; and the three views built on it
 * (getCoverageForFile, getCoverageForFunction, getCoverageForExpansion).
 */
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_eval_internal.h"
#include "util/grow.h"

typedef struct loc {
    uint32_t line, col;
} loc;

static loc start_of(const pbi_cov_counted_region *r) { return (loc){r->r.line_start, r->r.col_start}; }
static loc end_of(const pbi_cov_counted_region *r) { return (loc){r->r.line_end, r->r.col_end}; }
static int loc_cmp(loc a, loc b) {
    if (a.line != b.line) return a.line < b.line ? -1 : 1;
    return a.col < b.col ? -1 : a.col > b.col;
}

typedef struct builder {
    pbi_cov_segment **segs;
    size_t *nsegs, cap;
    const pbi_cov_counted_region **active;
    size_t nactive, cap_active;
    const pbi_cov_counted_region **tmp;
    size_t cap_tmp;
    const pbi_llvm_target *t;
    int oom;
} builder;

/* startSegment */
static void start_segment(builder *b, const pbi_cov_counted_region *r, loc at, int entry, int skipped) {
    int has_count = !skipped && r->r.kind != PBI_COV_REGION_SKIPPED;
    if (*b->nsegs && !entry && !skipped) {
        const pbi_cov_segment *last = &(*b->segs)[*b->nsegs - 1];
        if (last->has_count == has_count && last->count == r->count && !last->is_region_entry) return;
    }
    if (pbu_grow((void **)b->segs, &b->cap, *b->nsegs + 1, sizeof **b->segs)) {
        b->oom = 1;
        return;
    }
    pbi_cov_segment *s = &(*b->segs)[(*b->nsegs)++];
    s->line = at.line;
    s->col = at.col;
    s->count = has_count ? r->count : 0;
    s->has_count = (uint8_t)has_count;
    s->is_region_entry = (uint8_t)(entry != 0);
    s->is_gap = (uint8_t)(has_count && r->r.kind == PBI_COV_REGION_GAP);
}

/* std::stable_sort of active[from..] by end location (insertion sort:
 * stable, and the stack is shallow). */
static void sort_by_end(builder *b, size_t from) {
    for (size_t i = from + 1; i < b->nactive; i++) {
        const pbi_cov_counted_region *x = b->active[i];
        size_t j = i;
        while (j > from && loc_cmp(end_of(x), end_of(b->active[j - 1])) < 0) {
            b->active[j] = b->active[j - 1];
            j--;
        }
        b->active[j] = x;
    }
}

/* completeRegionsUntil: active[first..] end before `until` (NULL: all end). */
static void complete_until(builder *b, const loc *until, size_t first) {
    sort_by_end(b, first);
    for (size_t i = first + 1; i < b->nactive; i++) {
        const pbi_cov_counted_region *done = b->active[i];
        loc at = end_of(b->active[i - 1]);
        if (until && loc_cmp(at, *until) == 0) break;
        if (loc_cmp(at, end_of(done)) == 0) continue;
        for (size_t j = i + 1; j < b->nactive; j++)
            if (loc_cmp(end_of(done), end_of(b->active[j])) == 0) done = b->active[j];
        start_segment(b, done, at, 0, 0);
    }
    const pbi_cov_counted_region *last = b->active[b->nactive - 1];
    if (first && loc_cmp(end_of(last), *until) != 0)
        start_segment(b, b->active[first - 1], end_of(last), 0, 0);
    else if (!first && (!until || loc_cmp(*until, end_of(last)) != 0))
        start_segment(b, last, end_of(last), 0, 1);
    b->nactive = first;
}

/* std::stable_partition: the regions still open at `at` first, the ones
 * that end by then after, each part in its order. Returns where the
 * second part starts. */
static size_t partition_open(builder *b, loc at) {
    if (pbu_grow((void **)&b->tmp, &b->cap_tmp, b->nactive + 1, sizeof b->tmp[0])) {
        b->oom = 1;
        return b->nactive;
    }
    size_t k = 0, ndone = 0;
    for (size_t i = 0; i < b->nactive; i++)
        if (!(loc_cmp(end_of(b->active[i]), at) <= 0)) b->active[k++] = b->active[i];
        else b->tmp[ndone++] = b->active[i];
    if (ndone) memcpy(&b->active[k], b->tmp, ndone * sizeof b->tmp[0]);
    return k;
}

static void build_impl(builder *b, const pbi_cov_counted_region *r, size_t n) {
    int skip_rule = pbi_llvm_cov_has(b->t, PBI_LC_EVAL_SEG_EMPTY_SKIPPED);
    for (size_t i = 0; i < n && !b->oom; i++) {
        loc cur = start_of(&r[i]);
        size_t first_done = partition_open(b, cur);
        if (first_done != b->nactive) complete_until(b, &cur, first_done);
        int gap = r[i].r.kind == PBI_COV_REGION_GAP;
        if (loc_cmp(cur, end_of(&r[i])) == 0) {
            /* An empty region never becomes active: the last one is emitted
             * skipped, any other takes its enclosing region's count. */
            int skipped = i + 1 == n || (skip_rule && r[i].r.kind == PBI_COV_REGION_SKIPPED);
            start_segment(b, b->nactive ? b->active[b->nactive - 1] : &r[i], cur, !gap, skipped);
            if (skip_rule && skipped && b->nactive) start_segment(b, b->active[b->nactive - 1], cur, 0, 0);
            continue;
        }
        if (i + 1 == n || loc_cmp(cur, start_of(&r[i + 1])) != 0) start_segment(b, &r[i], cur, !gap, 0);
        if (pbu_grow((void **)&b->active, &b->cap_active, b->nactive + 1, sizeof b->active[0])) {
            b->oom = 1;
            return;
        }
        b->active[b->nactive++] = &r[i];
    }
    if (b->nactive && !b->oom) complete_until(b, NULL, 0);
}

/* sortNestedRegions: by start; an enclosing region before what it holds;
 * over the same span code before expansion before skipped. */
static int cmp_nested(const void *pa, const void *pb) {
    const pbi_cov_counted_region *a = pa, *b = pb;
    int d = loc_cmp(start_of(a), start_of(b));
    if (d) return d;
    d = loc_cmp(end_of(b), end_of(a));
    if (d) return d;
    return (a->r.kind > b->r.kind) - (a->r.kind < b->r.kind);
}

/* Whether r[0..n) is in cmp_nested order already: a file's regions come
 * function after function, nearly always in source order, and glibc's
 * qsort (a merge sort, stable) moving 80-byte regions through its buffer
 * was 7.6% of cov export's time (perf, 100k functions). Skipping it on
 * sorted input leaves the same order the stable sort would. */
static int sorted(const pbi_cov_counted_region *r, size_t n) {
    for (size_t i = 1; i < n; i++)
        if (cmp_nested(&r[i - 1], &r[i]) > 0) return 0;
    return 1;
}

/* combineRegions: regions over one span become the first of them, whose
 * count adds up the counts of the ones of its kind (a macro expanded
 * inside another is counted once; a nested macro used n times n times).
 * Single-byte counts are flags: 18-19 combine them by "or". */
static size_t combine(pbi_cov_counted_region *r, size_t n, int single_byte) {
    if (!n) return 0;
    size_t active = 0;
    for (size_t i = 1; i < n; i++) {
        if (loc_cmp(start_of(&r[active]), start_of(&r[i])) || loc_cmp(end_of(&r[active]), end_of(&r[i]))) {
            if (++active != i) r[active] = r[i];
            continue;
        }
        if (r[i].r.kind != r[active].r.kind) continue;
        if (single_byte) r[active].count = r[active].count || r[i].count;
        else r[active].count += r[i].count;
    }
    return active + 1;
}

int pbi_cov_build_segments(pbi_cov_counted_region *regions, size_t n, int single_byte,
                           const pbi_llvm_target *t, pbi_cov_segment **out, size_t *nout, pb_error *err) {
    if (!sorted(regions, n)) qsort(regions, n, sizeof *regions, cmp_nested);
    n = combine(regions, n, single_byte && pbi_llvm_cov_has(t, PBI_LC_EVAL_SINGLE_BYTE_OR));
    builder b;
    memset(&b, 0, sizeof b);
    b.segs = out;
    b.nsegs = nout;
    b.cap = *nout;
    b.t = t;
    build_impl(&b, regions, n);
    free(b.active);
    free(b.tmp);
    return b.oom ? pbu_nomem(err, "coverage segments") : 0;
}

/* ---- the views ---- */

/* The first file id no expansion region expands. No allocation (a failed
 * one would read as "no main file" and change the output): file ids are
 * few, so each is checked against the regions in turn. */
long pbi_cov_main_file_id(const pbi_cov_fn *fn) {
    for (size_t id = 0; id < fn->nfilenames; id++) {
        size_t i = 0;
        while (i < fn->nregions && !(fn->regions[i].r.kind == PBI_COV_REGION_EXPANSION &&
                                     fn->regions[i].r.expanded_file_id == id))
            i++;
        if (i == fn->nregions) return (long)id;
    }
    return -1;
}

/* A view being gathered (MergeableCoverageData). */
typedef struct gather {
    pbi_cov_data *d;
    pbi_cov_counted_region *regions;
    size_t nregions, cap_regions, cap_exp, cap_br, cap_mcdc;
} gather;

static int in_file(const pbi_cov_fn *fn, uint32_t file_id, const char *filename, long only_id) {
    if (only_id >= 0) return (long)file_id == only_id;
    return file_id < fn->nfilenames && strcmp(fn->filenames[file_id], filename) == 0;
}

/* addFunctionRegions: the regions of fn in the file (by name, or only file
 * id only_id when >= 0), the expansions of expand_id, its branches (13-19's
 * file view: only those whose file id equals their expanded file id, 0)
 * and, with_mcdc, its MC/DC records. */
static int add_function(gather *g, const pbi_cov_fn *fn, const char *filename, long only_id, long expand_id,
                        int with_mcdc, int branches_of_id0) {
    pbi_cov_data *d = g->d;
    /* a function's regions come file id by file id: one name compare per run */
    uint32_t last_id = UINT32_MAX;
    int last_in = 0;
    /* room for all of them at once: a view per function (the summaries)
     * grew its copy region by region */
    if (pbu_grow((void **)&g->regions, &g->cap_regions, g->nregions + fn->nregions, sizeof g->regions[0]))
        return PB_ENOMEM;
    for (size_t i = 0; i < fn->nregions; i++) {
        const pbi_cov_counted_region *cr = &fn->regions[i];
        if (cr->r.file_id != last_id) {
            last_id = cr->r.file_id;
            last_in = in_file(fn, last_id, filename, only_id);
        }
        if (!last_in) continue;
        g->regions[g->nregions++] = *cr;
        if (expand_id < 0 || cr->r.kind != PBI_COV_REGION_EXPANSION || (long)cr->r.file_id != expand_id) continue;
        if (pbu_grow((void **)&d->expansions, &g->cap_exp, d->nexpansions + 1, sizeof d->expansions[0]))
            return PB_ENOMEM;
        d->expansions[d->nexpansions++] = (pbi_cov_expansion){cr->r.expanded_file_id, *cr, fn};
    }
    for (size_t i = 0; i < fn->nbranches; i++) {
        if (!in_file(fn, fn->branches[i].r.file_id, filename, only_id)) continue;
        if (branches_of_id0 && fn->branches[i].r.file_id != fn->branches[i].r.expanded_file_id) continue;
        if (pbu_grow((void **)&d->branches, &g->cap_br, d->nbranches + 1, sizeof d->branches[0])) return PB_ENOMEM;
        d->branches[d->nbranches++] = fn->branches[i];
    }
    for (size_t i = 0; with_mcdc && i < fn->nmcdc; i++) {
        if (!in_file(fn, fn->mcdc[i].decision.r.file_id, filename, only_id)) continue;
        if (pbu_grow((void **)&d->mcdc, &g->cap_mcdc, d->nmcdc + 1, sizeof d->mcdc[0])) return PB_ENOMEM;
        d->mcdc[d->nmcdc++] = &fn->mcdc[i];
    }
    return 0;
}

static int finish_view(const pbi_coverage *c, gather *g, int rc, pb_error *err) {
    g->d->t = &c->t;
    if (!rc) rc = pbi_cov_build_segments(g->regions, g->nregions, c->single_byte, &c->t, &g->d->segments,
                                         &g->d->nsegments, err);
    else rc = pbu_nomem(err, "coverage view");
    free(g->regions);
    if (rc) pbi_cov_data_free(g->d);
    return rc;
}

int pbi_cov_for_file(const pbi_coverage *c, const char *filename, pbi_cov_data *out, pb_error *err) {
    return pbi_cov_for_file_kept(c, filename, NULL, NULL, out, err);
}

int pbi_cov_for_file_kept(const pbi_coverage *c, const char *filename,
                          int (*keep)(void *ctx, const pbi_cov_fn *fn), void *ctx, pbi_cov_data *out,
                          pb_error *err) {
    memset(out, 0, sizeof *out);
    gather g = {out, NULL, 0, 0, 0, 0, 0};
    const pbi_cov_file_fns *e = pbi_cov_file_entry(c, filename);
    out->filename = e ? e->name : filename;
    /* room for every function's regions at once: growing the file's copy
     * function by function was 1.3% of an lcov export (realloc's copies) */
    size_t total = 0;
    for (size_t i = 0; e && i < e->nfns; i++) total += c->fns[e->fns[i]].nregions;
    int rc = total && pbu_grow((void **)&g.regions, &g.cap_regions, total, sizeof g.regions[0]) ? PB_ENOMEM : 0;
    for (size_t i = 0; e && i < e->nfns && !rc; i++) {
        const pbi_cov_fn *fn = &c->fns[e->fns[i]];
        if (keep && !keep(ctx, fn)) continue;
        long main = pbi_cov_main_file_id(fn);
        if (main >= 0 && strcmp(fn->filenames[main], filename) != 0) main = -1;
        rc = add_function(&g, fn, filename, -1, main, 1, !pbi_llvm_cov_has(&c->t, PBI_LC_EVAL_FILE_BRANCHES_ALL));
    }
    return finish_view(c, &g, rc, err);
}

int pbi_cov_for_function(const pbi_coverage *c, const pbi_cov_fn *fn, pbi_cov_data *out, pb_error *err) {
    memset(out, 0, sizeof *out);
    gather g = {out, NULL, 0, 0, 0, 0, 0};
    long main = pbi_cov_main_file_id(fn);
    if (main < 0) {
        out->filename = "";
        out->t = &c->t;
        return 0;
    }
    out->filename = fn->filenames[main];
    return finish_view(c, &g, add_function(&g, fn, NULL, main, main, 1, 0), err);
}

int pbi_cov_for_expansion(const pbi_coverage *c, const pbi_cov_expansion *e, pbi_cov_data *out, pb_error *err) {
    memset(out, 0, sizeof *out);
    gather g = {out, NULL, 0, 0, 0, 0, 0};
    out->filename = e->file_id < e->fn->nfilenames ? e->fn->filenames[e->file_id] : "";
    return finish_view(c, &g, add_function(&g, e->fn, NULL, (long)e->file_id, (long)e->file_id, 0, 0), err);
}

void pbi_cov_data_free(pbi_cov_data *d) {
    if (!d) return;
    free(d->segments);
    free(d->expansions);
    free(d->branches);
    free(d->mcdc);
    d->segments = NULL;
    d->expansions = NULL;
    d->branches = NULL;
    d->mcdc = NULL;
    d->nsegments = d->nexpansions = d->nbranches = d->nmcdc = 0;
}
