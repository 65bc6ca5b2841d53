/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_cov_eval.c -- the evaluator (cov_eval.h) on hand-built mappings and
 * profiles. Every expected segment, line and total is worked out by hand
 * from LLVM's rules (CoverageMapping.cpp's SegmentBuilder and
 * LineCoverageStats, llvm-cov's CoverageSummaryInfo); the comments say how.
 */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_eval.h"
#include "profbridge/profile.h"

/* ---- building mappings and profiles ---- */

#define REF(i) ((pbi_cov_counter){PBI_COV_REF, (i)})
#define ZERO ((pbi_cov_counter){PBI_COV_ZERO, 0})
#define EXPR(i) ((pbi_cov_counter){PBI_COV_EXPR, (i)})

static pbi_cov_region code(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2, pbi_cov_counter c, uint8_t kind) {
    pbi_cov_region r;
    memset(&r, 0, sizeof r);
    r.count = c;
    r.line_start = l1;
    r.col_start = c1;
    r.line_end = l2;
    r.col_end = c2;
    r.kind = kind;
    return r;
}

typedef struct fixture {
    pbi_cov_mapping m;
    pbi_cov_function fns[4];
    const char *files[3];
    int mcdc_bits[1];
    uint32_t versions[1];
    pb_profile *p;
    pbi_llvm_target t;
    pbi_coverage *c;
} fixture;

static void fx_init(fixture *f, int release) {
    memset(f, 0, sizeof *f);
    f->files[0] = "/src/a.c";
    f->files[1] = "/src/a.c";
    f->m.functions = f->fns;
    f->m.nobjects = 1;
    f->m.versions = f->versions;
    f->m.mcdc_bits = f->mcdc_bits;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&f->p, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pbi_llvm_target_of(release, &f->t), 0);
}

static pbi_cov_function *fx_fn(fixture *f, const char *name, uint64_t hash, pbi_cov_region *regions, size_t n) {
    pbi_cov_function *g = &f->fns[f->m.nfunctions++];
    g->name = name;
    g->name_len = strlen(name);
    g->hash = hash;
    g->filenames = f->files;
    g->nfilenames = 1;
    g->regions = regions;
    g->nregions = n;
    return g;
}

static void fx_record(fixture *f, const char *name, uint64_t hash, const uint64_t *counts, uint32_t n,
                      const uint8_t *bitmap, uint32_t nbitmap) {
    pb_error err;
    pb_str s;
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern(f->p, name, strlen(name), &s, &err), 0);
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.name = s;
    r.ctx = PB_NONE;
    r.layout = PB_NONE;
    r.hash = hash;
    r.num_counters = n;
    r.counters = (uint64_t *)counts;
    r.num_bitmap_bytes = nbitmap;
    r.bitmap = (uint8_t *)bitmap;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(f->p, &r, NULL, &err), 0);
}

static void fx_eval(fixture *f) {
    pb_error err;
    pbi_cov_eval_options o = {&f->t, 0, NULL};
    CU_ASSERT_EQUAL_FATAL(pbi_cov_eval(&f->m, f->p, &o, &f->c, &err), 0);
}

static void fx_free(fixture *f) {
    pbi_coverage_free(f->c);
    pb_profile_free(f->p);
}

typedef struct seg {
    uint32_t line, col;
    uint64_t count;
    int has_count, entry, gap;
} seg;

static void check_segments(const pbi_cov_data *d, const seg *want, size_t n) {
    CU_ASSERT_EQUAL_FATAL(d->nsegments, n);
    for (size_t i = 0; i < n; i++) {
        const pbi_cov_segment *s = &d->segments[i];
        CU_ASSERT_EQUAL(s->line, want[i].line);
        CU_ASSERT_EQUAL(s->col, want[i].col);
        CU_ASSERT_EQUAL(s->count, want[i].count);
        CU_ASSERT_EQUAL(s->has_count, want[i].has_count);
        CU_ASSERT_EQUAL(s->is_region_entry, want[i].entry);
        CU_ASSERT_EQUAL(s->is_gap, want[i].gap);
    }
}

/* mapped/count per line from the first segment's line; -1: not mapped */
static void check_lines(const pbi_cov_data *d, uint32_t first, const long *want, size_t n) {
    pbi_cov_line *l;
    size_t nl;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pbi_cov_lines(d, &l, &nl, &err), 0);
    CU_ASSERT_EQUAL_FATAL(nl, n);
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(l[i].line, first + i);
        CU_ASSERT_EQUAL(l[i].mapped, want[i] >= 0);
        if (want[i] >= 0) CU_ASSERT_EQUAL(l[i].count, (uint64_t)want[i]);
    }
    free(l);
}

static pbi_cov_fn_summary summary_of(fixture *f, size_t i) {
    pbi_cov_fn_summary s;
    pb_error err;
    CU_ASSERT_EQUAL(pbi_cov_fn_summarize(f->c, pbi_cov_fn_at(f->c, i), &s, &err), 0);
    return s;
}

/* ---- segments and lines ---- */

/* 1:1-5:2 (10) holds 2:5-2:10 (4): the outer starts, the inner starts,
 * the outer resumes where the inner ends (not an entry), and the last
 * region's end is a skipped segment. Line 2 takes the larger of the
 * wrapped 10 and the entry 4; line 5 is wrapped by the resumed 10. */
static void nested_regions(void) {
    fixture f;
    fx_init(&f, 19);
    pbi_cov_region r[] = {code(1, 1, 5, 2, REF(0), PBI_COV_REGION_CODE), code(2, 5, 2, 10, REF(1), PBI_COV_REGION_CODE)};
    fx_fn(&f, "main", 7, r, 2);
    uint64_t counts[] = {10, 4};
    fx_record(&f, "main", 7, counts, 2, NULL, 0);
    fx_eval(&f);
    CU_ASSERT_EQUAL_FATAL(pbi_cov_fn_count(f.c), 1);
    CU_ASSERT_EQUAL(pbi_cov_fn_at(f.c, 0)->count, 10);
    pbi_cov_data d;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pbi_cov_for_file(f.c, "/src/a.c", &d, &err), 0);
    seg want[] = {{1, 1, 10, 1, 1, 0}, {2, 5, 4, 1, 1, 0}, {2, 10, 10, 1, 0, 0}, {5, 2, 0, 0, 0, 0}};
    check_segments(&d, want, 4);
    long lines[] = {10, 10, 10, 10, 10};
    check_lines(&d, 1, lines, 5);
    pbi_cov_data_free(&d);
    pbi_cov_fn_summary s = summary_of(&f, 0);
    CU_ASSERT_EQUAL(s.regions.total, 2);
    CU_ASSERT_EQUAL(s.regions.covered, 2);
    CU_ASSERT_EQUAL(s.lines.total, 5);
    CU_ASSERT_EQUAL(s.lines.covered, 5);
    fx_free(&f);
}

/* A gap 2:10-3:3 (0) then 3:3-3:8 (0) inside 1:1-4:2 (5): the gap's
 * segment is no entry but a gap; it ends where 3:3 starts, so nothing is
 * emitted for its end. Line 2 keeps the wrapped 5 (a gap starts no
 * region), line 3 is 0 (wrapped by the gap's 0, entry 0), line 4 is 5.
 * Regions: the gap is not counted (1 of 2 code regions covered). The
 * count of 1:1-4:2 comes from an expression, 0 + 5. */
static void gap_region(void) {
    fixture f;
    fx_init(&f, 17);
    pbi_cov_expr e[] = {{PBI_COV_ADD, ZERO, REF(0)}};
    pbi_cov_region r[] = {code(1, 1, 4, 2, EXPR(0), PBI_COV_REGION_CODE), code(2, 10, 3, 3, REF(1), PBI_COV_REGION_GAP),
                          code(3, 3, 3, 8, REF(1), PBI_COV_REGION_CODE)};
    pbi_cov_function *g = fx_fn(&f, "f", 1, r, 3);
    g->exprs = e;
    g->nexprs = 1;
    uint64_t counts[] = {5, 0};
    fx_record(&f, "f", 1, counts, 2, NULL, 0);
    fx_eval(&f);
    pbi_cov_data d;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pbi_cov_for_function(f.c, pbi_cov_fn_at(f.c, 0), &d, &err), 0);
    seg want[] = {{1, 1, 5, 1, 1, 0}, {2, 10, 0, 1, 0, 1}, {3, 3, 0, 1, 1, 0}, {3, 8, 5, 1, 0, 0}, {4, 2, 0, 0, 0, 0}};
    check_segments(&d, want, 5);
    long lines[] = {5, 5, 0, 5};
    check_lines(&d, 1, lines, 4);
    pbi_cov_data_free(&d);
    pbi_cov_fn_summary s = summary_of(&f, 0);
    CU_ASSERT_EQUAL(s.regions.total, 2);
    CU_ASSERT_EQUAL(s.regions.covered, 1);
    CU_ASSERT_EQUAL(s.lines.total, 4);
    CU_ASSERT_EQUAL(s.lines.covered, 3);
    fx_free(&f);
}

/* Skipped 2:1-4:1 inside 1:1-6:2 (3): a skipped entry (no count), then the
 * outer count resumes at 4:1 (no entry). Lines 2-4 are not mapped: 2 starts
 * with the skipped region, 3 is wrapped by it, and on 4 only a resumption
 * starts. Lines 5 and 6 are wrapped by the resumed 3. */
static void skipped_region(void) {
    fixture f;
    fx_init(&f, 14);
    pbi_cov_region r[] = {code(1, 1, 6, 2, REF(0), PBI_COV_REGION_CODE), code(2, 1, 4, 1, ZERO, PBI_COV_REGION_SKIPPED)};
    fx_fn(&f, "f", 1, r, 2);
    uint64_t counts[] = {3};
    fx_record(&f, "f", 1, counts, 1, NULL, 0);
    fx_eval(&f);
    pbi_cov_data d;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pbi_cov_for_file(f.c, "/src/a.c", &d, &err), 0);
    seg want[] = {{1, 1, 3, 1, 1, 0}, {2, 1, 0, 0, 1, 0}, {4, 1, 3, 1, 0, 0}, {6, 2, 0, 0, 0, 0}};
    check_segments(&d, want, 4);
    long lines[] = {3, -1, -1, -1, 3, 3};
    check_lines(&d, 1, lines, 6);
    pbi_cov_data_free(&d);
    pbi_cov_fn_summary s = summary_of(&f, 0);
    CU_ASSERT_EQUAL(s.regions.total, 1);
    CU_ASSERT_EQUAL(s.lines.total, 3);
    CU_ASSERT_EQUAL(s.lines.covered, 3);
    fx_free(&f);
}

/* An empty skipped region 3:1-3:1 inside 1:1-5:2 (2) (a comment line, as
 * clang writes them): skipped there, then the 2 resumes at the same place. */
static void empty_skipped_region(void) {
    fixture f;
    fx_init(&f, 15);
    pbi_cov_region r[] = {code(1, 1, 5, 2, REF(0), PBI_COV_REGION_CODE), code(3, 1, 3, 1, ZERO, PBI_COV_REGION_SKIPPED),
                          code(4, 3, 4, 9, REF(0), PBI_COV_REGION_CODE)};
    fx_fn(&f, "f", 1, r, 3);
    uint64_t counts[] = {2};
    fx_record(&f, "f", 1, counts, 1, NULL, 0);
    fx_eval(&f);
    pbi_cov_data d;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pbi_cov_for_file(f.c, "/src/a.c", &d, &err), 0);
    seg want[] = {{1, 1, 2, 1, 1, 0}, {3, 1, 0, 0, 1, 0}, {3, 1, 2, 1, 0, 0}, {4, 3, 2, 1, 1, 0},
                  {4, 9, 2, 1, 0, 0}, {5, 2, 0, 0, 0, 0}};
    check_segments(&d, want, 6);
    pbi_cov_data_free(&d);
    fx_free(&f);
}

/* ---- expansions and branches ---- */

/* main (file 0) expands a macro (file 1, same file name) at 2:3-2:8; the
 * macro holds a branch 1:11-1:12 (5 true, 7 - 5 = 2 false). The function's
 * view has the expansion and no branch of its own; the summary counts the
 * expansion's branch (2 of 2) and the code regions of both files (2).
 * The file's view takes file 1's branch from 20 on only. */
static void expansion_and_branch(int release, size_t file_branches) {
    fixture f;
    fx_init(&f, release);
    pbi_cov_expr e[] = {{PBI_COV_SUBTRACT, REF(0), REF(1)}};
    pbi_cov_region r[] = {code(1, 1, 3, 2, REF(0), PBI_COV_REGION_CODE), code(2, 3, 2, 8, REF(0), PBI_COV_REGION_EXPANSION),
                          code(1, 10, 1, 20, REF(0), PBI_COV_REGION_CODE), code(1, 11, 1, 12, REF(1), PBI_COV_REGION_BRANCH)};
    r[1].expanded_file_id = 1;
    r[2].file_id = 1;
    r[3].file_id = 1;
    r[3].false_count = EXPR(0);
    pbi_cov_function *g = fx_fn(&f, "main", 3, r, 4);
    g->nfilenames = 2;
    g->exprs = e;
    g->nexprs = 1;
    uint64_t counts[] = {7, 5};
    fx_record(&f, "main", 3, counts, 2, NULL, 0);
    fx_eval(&f);
    const pbi_cov_fn *fn = pbi_cov_fn_at(f.c, 0);
    CU_ASSERT_EQUAL_FATAL(fn->nbranches, 1);
    CU_ASSERT_EQUAL(fn->branches[0].count, 5);
    CU_ASSERT_EQUAL(fn->branches[0].false_count, 2);
    CU_ASSERT_EQUAL(fn->branches[0].folded, 0);
    pbi_cov_data d;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pbi_cov_for_function(f.c, fn, &d, &err), 0);
    CU_ASSERT_EQUAL(d.nexpansions, 1);
    CU_ASSERT_EQUAL(d.nbranches, 0);
    seg want[] = {{1, 1, 7, 1, 1, 0}, {2, 3, 7, 1, 1, 0}, {2, 8, 7, 1, 0, 0}, {3, 2, 0, 0, 0, 0}};
    check_segments(&d, want, 4);
    pbi_cov_data x;
    CU_ASSERT_EQUAL_FATAL(pbi_cov_for_expansion(f.c, &d.expansions[0], &x, &err), 0);
    CU_ASSERT_EQUAL(x.nbranches, 1);
    seg xwant[] = {{1, 10, 7, 1, 1, 0}, {1, 20, 0, 0, 0, 0}};
    check_segments(&x, xwant, 2);
    pbi_cov_data_free(&x);
    pbi_cov_data_free(&d);
    CU_ASSERT_EQUAL_FATAL(pbi_cov_for_file(f.c, "/src/a.c", &d, &err), 0);
    CU_ASSERT_EQUAL(d.nbranches, file_branches);
    CU_ASSERT_EQUAL(d.nexpansions, 1);
    pbi_cov_data_free(&d);
    pbi_cov_fn_summary s = summary_of(&f, 0);
    CU_ASSERT_EQUAL(s.regions.total, 2);
    CU_ASSERT_EQUAL(s.branches.total, 2);
    CU_ASSERT_EQUAL(s.branches.covered, 2);
    CU_ASSERT_EQUAL(pbi_cov_file_count(f.c), 1);
    CU_ASSERT_STRING_EQUAL(pbi_cov_file_at(f.c, 0), "/src/a.c");
    fx_free(&f);
}

static void expansion_and_branch_19(void) { expansion_and_branch(19, 0); }
static void expansion_and_branch_21(void) { expansion_and_branch(21, 1); }

/* A branch with both counters Zero is folded (not counted); one whose
 * true side alone is Zero counts 2 sides up to 19 and 1 side from 20. */
static void folded_branches(int release, uint64_t total) {
    fixture f;
    fx_init(&f, release);
    pbi_cov_region r[] = {code(1, 1, 4, 2, REF(0), PBI_COV_REGION_CODE), code(2, 5, 2, 6, ZERO, PBI_COV_REGION_BRANCH),
                          code(3, 5, 3, 6, ZERO, PBI_COV_REGION_BRANCH)};
    r[2].false_count = REF(0);
    fx_fn(&f, "f", 1, r, 3);
    uint64_t counts[] = {4};
    fx_record(&f, "f", 1, counts, 1, NULL, 0);
    fx_eval(&f);
    const pbi_cov_fn *fn = pbi_cov_fn_at(f.c, 0);
    CU_ASSERT_EQUAL(fn->branches[0].folded, 1);
    CU_ASSERT_EQUAL(fn->branches[1].folded, 0);
    CU_ASSERT_EQUAL(fn->branches[1].true_folded, 1);
    pbi_cov_fn_summary s = summary_of(&f, 0);
    CU_ASSERT_EQUAL(s.branches.total, total);
    CU_ASSERT_EQUAL(s.branches.covered, 1);
    fx_free(&f);
}

static void folded_branches_19(void) { folded_branches(19, 2); }
static void folded_branches_24(void) { folded_branches(24, 1); }

/* ---- the profile lookup ---- */

/* unknown: zeros, as many as the highest counter + 1; mismatch: set aside
 * with both hashes; a lone Zero region with counter 0 > 0: dropped; a
 * counter outside the record: dropped; the same (filenames, name) twice:
 * kept once; "a.c;g" loses its file prefix when the first filename is "a.c". */
static void lookup_rules(void) {
    fixture f;
    fx_init(&f, 19);
    static const char *rel[] = {"a.c"};
    pbi_cov_region r1[] = {code(1, 1, 2, 2, REF(3), PBI_COV_REGION_CODE)};
    pbi_cov_region r2[] = {code(1, 1, 2, 2, REF(0), PBI_COV_REGION_CODE)};
    pbi_cov_region r3[] = {code(1, 1, 2, 2, ZERO, PBI_COV_REGION_CODE)};
    pbi_cov_region r4[] = {code(1, 1, 2, 2, REF(5), PBI_COV_REGION_CODE)};
    fx_fn(&f, "unknown", 1, r1, 1);
    fx_fn(&f, "mismatch", 2, r2, 1);
    fx_fn(&f, "lone", 3, r3, 1);
    fx_fn(&f, "short", 4, r4, 1);
    uint64_t counts[] = {9};
    fx_record(&f, "mismatch", 99, counts, 1, NULL, 0);
    fx_record(&f, "lone", 3, counts, 1, NULL, 0);
    fx_record(&f, "short", 4, counts, 1, NULL, 0);
    fx_eval(&f);
    CU_ASSERT_EQUAL_FATAL(pbi_cov_fn_count(f.c), 1);
    CU_ASSERT_STRING_EQUAL(pbi_cov_fn_at(f.c, 0)->name, "unknown");
    CU_ASSERT_EQUAL(pbi_cov_fn_at(f.c, 0)->count, 0);
    CU_ASSERT_EQUAL_FATAL(pbi_cov_mismatch_count(f.c), 1);
    const pbi_cov_mismatch *m = pbi_cov_mismatch_at(f.c, 0);
    CU_ASSERT_STRING_EQUAL(m->name, "mismatch");
    CU_ASSERT_EQUAL(m->binary_hash, 2);
    CU_ASSERT_EQUAL(m->profile_hash, 99);
    pbi_coverage_free(f.c);

    /* duplicates and the prefix */
    f.m.nfunctions = 0;
    pbi_cov_function *a = fx_fn(&f, "a.c;g", 5, r2, 1), *b = fx_fn(&f, "a.c;g", 5, r2, 1);
    a->filenames = b->filenames = rel;
    fx_record(&f, "a.c;g", 5, counts, 1, NULL, 0);
    fx_eval(&f);
    CU_ASSERT_EQUAL_FATAL(pbi_cov_fn_count(f.c), 1);
    CU_ASSERT_STRING_EQUAL(pbi_cov_fn_at(f.c, 0)->name, "g");
    CU_ASSERT_EQUAL(pbi_cov_fn_at(f.c, 0)->count, 9);
    fx_free(&f);
}

static int keep_double(void *ctx, const pbi_cov_fn *fn) {
    (void)ctx;
    return strcmp(fn->name, "_Z1fIdEvT_") == 0;
}

/* Two functions whose first region starts at 1:1 are one instantiation
 * group; their names differ, so it is "Definition at line 1, column 1";
 * its count is the sum, each ratio the larger one. */
static void instantiation_group(void) {
    fixture f;
    fx_init(&f, 19);
    pbi_cov_region r1[] = {code(1, 1, 3, 2, REF(0), PBI_COV_REGION_CODE), code(2, 3, 2, 9, REF(1), PBI_COV_REGION_CODE)};
    pbi_cov_region r2[] = {code(1, 1, 3, 2, REF(0), PBI_COV_REGION_CODE), code(2, 3, 2, 9, REF(1), PBI_COV_REGION_CODE)};
    fx_fn(&f, "_Z1fIiEvT_", 1, r1, 2);
    fx_fn(&f, "_Z1fIdEvT_", 2, r2, 2);
    uint64_t c1[] = {2, 0}, c2[] = {3, 1};
    fx_record(&f, "_Z1fIiEvT_", 1, c1, 2, NULL, 0);
    fx_record(&f, "_Z1fIdEvT_", 2, c2, 2, NULL, 0);
    fx_eval(&f);
    pbi_cov_group *g;
    size_t n;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pbi_cov_groups(f.c, "/src/a.c", &g, &n, &err), 0);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(g[0].nfns, 2);
    pbi_cov_fn_summary s;
    CU_ASSERT_EQUAL(pbi_cov_group_summarize(f.c, &g[0], &s, &err), 0);
    CU_ASSERT_STRING_EQUAL(s.name, "Definition at line 1, column 1");
    CU_ASSERT_EQUAL(s.count, 5);
    CU_ASSERT_EQUAL(s.regions.total, 2);
    CU_ASSERT_EQUAL(s.regions.covered, 2);
    free(g[0].fns);
    free(g);
    /* the file: all instantiations, then only the double one (the group's
     * count stays that of both, 5) */
    pbi_cov_file_summary fs;
    CU_ASSERT_EQUAL(pbi_cov_file_summarize(f.c, "/src/a.c", NULL, NULL, &fs, &err), 0);
    CU_ASSERT_EQUAL(fs.functions.total, 1);
    CU_ASSERT_EQUAL(fs.functions.covered, 1);
    CU_ASSERT_EQUAL(fs.instantiations.total, 2);
    CU_ASSERT_EQUAL(fs.instantiations.covered, 2);
    CU_ASSERT_EQUAL(fs.regions.total, 2);
    CU_ASSERT_EQUAL(fs.regions.covered, 2);
    CU_ASSERT_EQUAL(fs.lines.total, 3);
    CU_ASSERT_EQUAL(fs.lines.covered, 3);
    /* the file's view of the double one alone: its count 3 at 1:1, 1 at 2:3 */
    pbi_cov_data d;
    CU_ASSERT_EQUAL_FATAL(pbi_cov_for_file_kept(f.c, "/src/a.c", keep_double, NULL, &d, &err), 0);
    seg want[] = {{1, 1, 3, 1, 1, 0}, {2, 3, 1, 1, 1, 0}, {2, 9, 3, 1, 0, 0}, {3, 2, 0, 0, 0, 0}};
    check_segments(&d, want, 4);
    pbi_cov_data_free(&d);
    /* both: the regions of one span add up, 2 + 3 and 0 + 1 */
    CU_ASSERT_EQUAL_FATAL(pbi_cov_for_file(f.c, "/src/a.c", &d, &err), 0);
    seg both[] = {{1, 1, 5, 1, 1, 0}, {2, 3, 1, 1, 1, 0}, {2, 9, 5, 1, 0, 0}, {3, 2, 0, 0, 0, 0}};
    check_segments(&d, both, 4);
    pbi_cov_data_free(&d);
    CU_ASSERT_EQUAL(pbi_cov_file_summarize(f.c, "/src/a.c", keep_double, NULL, &fs, &err), 0);
    CU_ASSERT_EQUAL(fs.instantiations.total, 1);
    CU_ASSERT_EQUAL(fs.functions.total, 1);
    CU_ASSERT_EQUAL(fs.functions.covered, 1);
    CU_ASSERT_EQUAL(fs.regions.covered, 2);
    fx_free(&f);
}

/* ---- MC/DC ---- */

/* `a && b` (ids 0 and 1; a true -> b). 19+: TVIdxBuilder numbers the
 * vectors (F,-) 0, (T,F) 1, (T,T) 2, 3 in all; a decision with bit index 3
 * owns bits 0-2; bits 0 and 2 executed give (F,-) and (T,T): a's pair
 * (vectors 1 and 2), b none. 18: the byte-index bitmap numbers them by
 * their true conditions, (F,-) 0, (T,F) 1, (T,T) 3: bits 0 and 3. */
static void mcdc_and(int release, uint32_t bitmap_idx, uint8_t bits, int bit_index) {
    fixture f;
    fx_init(&f, release);
    f.mcdc_bits[0] = bit_index;
    pbi_cov_region r[] = {code(1, 1, 3, 2, REF(0), PBI_COV_REGION_CODE),
                          code(2, 5, 2, 11, ZERO, PBI_COV_REGION_MCDC_DECISION),
                          code(2, 5, 2, 6, REF(1), PBI_COV_REGION_MCDC_BRANCH),
                          code(2, 10, 2, 11, REF(2), PBI_COV_REGION_MCDC_BRANCH)};
    r[1].mcdc.bitmap_idx = bitmap_idx;
    r[1].mcdc.num_conditions = 2;
    r[2].false_count = REF(3);
    r[2].mcdc = (pbi_cov_mcdc){0, 0, 0, 1, -1};
    r[3].false_count = REF(3);
    r[3].mcdc = (pbi_cov_mcdc){0, 0, 1, -1, -1};
    fx_fn(&f, "f", 1, r, 4);
    uint64_t counts[] = {2, 1, 1, 1};
    fx_record(&f, "f", 1, counts, 4, &bits, 1);
    fx_eval(&f);
    const pbi_cov_fn *fn = pbi_cov_fn_at(f.c, 0);
    CU_ASSERT_EQUAL_FATAL(fn->nmcdc, 1);
    const pbi_cov_mcdc_record *m = &fn->mcdc[0];
    CU_ASSERT_EQUAL_FATAL(m->nconds, 2);
    CU_ASSERT_EQUAL_FATAL(m->ntv, 2);
    CU_ASSERT_EQUAL(m->tv[0], 0);
    CU_ASSERT_EQUAL(m->tv[1], -1);
    CU_ASSERT_EQUAL(m->tv_result[0], 0);
    CU_ASSERT_EQUAL(m->tv[2], 1);
    CU_ASSERT_EQUAL(m->tv[3], 1);
    CU_ASSERT_EQUAL(m->tv_result[1], 1);
    CU_ASSERT_EQUAL(m->covered[0], 1);
    CU_ASSERT_EQUAL(m->covered[1], 0);
    CU_ASSERT_EQUAL(m->pair_a[0], 1);
    CU_ASSERT_EQUAL(m->pair_b[0], 2);
    CU_ASSERT_EQUAL(fn->nbranches, 2);
    pbi_cov_fn_summary s = summary_of(&f, 0);
    CU_ASSERT_EQUAL(s.mcdc.total, 2);
    CU_ASSERT_EQUAL(s.mcdc.covered, 1);
    fx_free(&f);
}

static void mcdc_and_18(void) { mcdc_and(18, 0, 0x9, 0); }
static void mcdc_and_19(void) { mcdc_and(19, 3, 0x5, 1); }

/* A decision in macros, as clang writes `if (BOTH(a, d, c))` on line 8
 * with BOTH(a, b, c) = (CHK(a, b) || (c)) on line 2 and CHK(a, b) =
 * ((a) && (b)) on line 1, after `if (b)` on line 5: file 0 holds the
 * function, file 1 BOTH's text, file 2 CHK's; the regions are stored file
 * by file. Ids: a 0 (true: d, false: c), c 1, d 2. Bitmap indices (bit
 * indices, each the end of its decision's bits): the line-5 decision 2
 * (its 2 vectors), BOTH's 7 (its 5 vectors: bits 2-6); clang numbers the
 * decisions as it walks the source. Expected, as llvm-cov-22 and -23 exported for that program
 * (clang-22/23 -fcoverage-mcdc, /tmp/fx/mc/m.c): records line 5 first, then
 * BOTH's (2:24), in every release (22: the order they complete; 23: by
 * bitmap index, where a sort by line would put 2:24 first); BOTH's
 * conditions 22: a, c, d (condition 0, then the stored order: c in file 1
 * before a and d in file 2), 23: a, d, c (the expanded source's order). */
static void mcdc_in_macros(int release, const int16_t *want_ids, const uint32_t *want_cols) {
    fixture f;
    fx_init(&f, release);
    f.mcdc_bits[0] = 1;
    f.files[2] = "/src/a.c";
    pbi_cov_region r[] = {code(3, 40, 12, 2, REF(0), PBI_COV_REGION_CODE),
                          code(5, 7, 5, 8, ZERO, PBI_COV_REGION_MCDC_DECISION),
                          code(5, 7, 5, 8, REF(1), PBI_COV_REGION_MCDC_BRANCH),
                          code(8, 7, 8, 11, REF(0), PBI_COV_REGION_EXPANSION),
                          code(2, 24, 2, 40, ZERO, PBI_COV_REGION_MCDC_DECISION),
                          code(2, 25, 2, 28, REF(0), PBI_COV_REGION_EXPANSION),
                          code(2, 38, 2, 39, REF(3), PBI_COV_REGION_MCDC_BRANCH),
                          code(1, 21, 1, 22, REF(2), PBI_COV_REGION_MCDC_BRANCH),
                          code(1, 28, 1, 29, REF(4), PBI_COV_REGION_MCDC_BRANCH)};
    r[1].mcdc.bitmap_idx = 2;
    r[1].mcdc.num_conditions = 1;
    r[2].false_count = REF(0);
    r[2].mcdc = (pbi_cov_mcdc){0, 0, 0, -1, -1};
    r[3].expanded_file_id = 1;
    r[4].file_id = 1;
    r[4].mcdc.bitmap_idx = 7;
    r[4].mcdc.num_conditions = 3;
    r[5].file_id = 1;
    r[5].expanded_file_id = 2;
    r[6].file_id = 1;
    r[6].false_count = REF(0);
    r[6].mcdc = (pbi_cov_mcdc){0, 0, 1, -1, -1};
    r[7].file_id = 2;
    r[7].false_count = REF(0);
    r[7].mcdc = (pbi_cov_mcdc){0, 0, 0, 2, 1};
    r[8].file_id = 2;
    r[8].false_count = REF(0);
    r[8].mcdc = (pbi_cov_mcdc){0, 0, 2, -1, 1};
    pbi_cov_function *g = fx_fn(&f, "f", 1, r, sizeof r / sizeof r[0]);
    g->nfilenames = 3;
    uint64_t counts[] = {16, 8, 8, 8, 4};
    uint8_t bits = 0x7f; /* every vector of both decisions executed */
    fx_record(&f, "f", 1, counts, 5, &bits, 1);
    fx_eval(&f);
    const pbi_cov_fn *fn = pbi_cov_fn_at(f.c, 0);
    CU_ASSERT_EQUAL_FATAL(fn->nmcdc, 2);
    CU_ASSERT_EQUAL(fn->mcdc[0].decision.r.line_start, 5);
    const pbi_cov_mcdc_record *m = &fn->mcdc[1];
    CU_ASSERT_EQUAL(m->decision.r.line_start, 2);
    CU_ASSERT_EQUAL_FATAL(m->nconds, 3);
    CU_ASSERT_EQUAL(m->ntv, 5);
    for (size_t pos = 0; pos < 3; pos++) {
        CU_ASSERT_EQUAL(m->cond_ids[pos], want_ids[pos]);
        CU_ASSERT_EQUAL(m->branches[pos].r.col_start, want_cols[pos]);
    }
    /* a vector with a false and c false is false whatever the columns' order */
    for (size_t t = 0; t < m->ntv; t++) {
        int a = m->tv[t * 3], c = m->tv[t * 3 + (want_ids[1] == 1 ? 1 : 2)];
        if (a == 0 && c == 0) CU_ASSERT_EQUAL(m->tv_result[t], 0);
    }
    fx_free(&f);
}

static void mcdc_in_macros_22(void) {
    static const int16_t ids[3] = {0, 1, 2};
    static const uint32_t cols[3] = {21, 38, 28};
    mcdc_in_macros(22, ids, cols);
}

static void mcdc_in_macros_23(void) {
    static const int16_t ids[3] = {0, 2, 1};
    static const uint32_t cols[3] = {21, 28, 38};
    mcdc_in_macros(23, ids, cols);
}

/* llvm-cov-18 evaluates a decision that still waits for branches in a
 * macro while the next decision completes (MCDCDecisionRecorder, as 19+):
 * `if (CHK(a, b) && a)` on line 14 (CHK(a, b) = ((a) && (b)) on line 1,
 * file 1), then `while (a && b)` on line 15; the regions stored file by
 * file put the line-15 decision and its branches before CHK's branches.
 * Expected, as llvm-cov-18 exported h of /tmp/fx/mc/m.c (clang-18
 * -fcoverage-mcdc): records 15:10 first, then 14:7 with 3 conditions (before
 * the fix: "MC/DC decision starts while the previous one still waits for
 * its branches"). Ids: line 14's own `a` 1, CHK's a 0 and b 2. */
static void mcdc_waiting_decision_18(void) {
    fixture f;
    fx_init(&f, 18);
    pbi_cov_region r[] = {code(13, 20, 17, 2, REF(0), PBI_COV_REGION_CODE),
                          code(14, 7, 14, 21, ZERO, PBI_COV_REGION_MCDC_DECISION),
                          code(14, 7, 14, 10, REF(0), PBI_COV_REGION_EXPANSION),
                          code(14, 20, 14, 21, REF(1), PBI_COV_REGION_MCDC_BRANCH),
                          code(15, 10, 15, 16, ZERO, PBI_COV_REGION_MCDC_DECISION),
                          code(15, 10, 15, 11, REF(2), PBI_COV_REGION_MCDC_BRANCH),
                          code(15, 15, 15, 16, REF(3), PBI_COV_REGION_MCDC_BRANCH),
                          code(1, 20, 1, 23, REF(2), PBI_COV_REGION_MCDC_BRANCH),
                          code(1, 27, 1, 30, REF(3), PBI_COV_REGION_MCDC_BRANCH)};
    r[1].mcdc.bitmap_idx = 0;
    r[1].mcdc.num_conditions = 3;
    r[2].expanded_file_id = 1;
    r[3].false_count = REF(0);
    r[3].mcdc = (pbi_cov_mcdc){0, 0, 1, -1, -1};
    r[4].mcdc.bitmap_idx = 1;
    r[4].mcdc.num_conditions = 2;
    r[5].false_count = REF(0);
    r[5].mcdc = (pbi_cov_mcdc){0, 0, 0, 1, -1};
    r[6].false_count = REF(0);
    r[6].mcdc = (pbi_cov_mcdc){0, 0, 1, -1, -1};
    r[7].file_id = 1;
    r[7].false_count = REF(0);
    r[7].mcdc = (pbi_cov_mcdc){0, 0, 0, 2, -1};
    r[8].file_id = 1;
    r[8].false_count = REF(0);
    r[8].mcdc = (pbi_cov_mcdc){0, 0, 2, 1, -1};
    pbi_cov_function *g = fx_fn(&f, "h", 1, r, sizeof r / sizeof r[0]);
    g->nfilenames = 2;
    uint64_t counts[] = {16, 8, 8, 4};
    uint8_t bits[2] = {0xff, 0xff};
    fx_record(&f, "h", 1, counts, 4, bits, 2);
    fx_eval(&f);
    const pbi_cov_fn *fn = pbi_cov_fn_at(f.c, 0);
    CU_ASSERT_EQUAL_FATAL(fn->nmcdc, 2);
    CU_ASSERT_EQUAL(fn->mcdc[0].decision.r.line_start, 15);
    CU_ASSERT_EQUAL(fn->mcdc[0].nconds, 2);
    CU_ASSERT_EQUAL(fn->mcdc[1].decision.r.line_start, 14);
    CU_ASSERT_EQUAL_FATAL(fn->mcdc[1].nconds, 3);
    /* condition 0 (CHK's a, 1:20) first, then as met: 14:20, then 1:27 */
    CU_ASSERT_EQUAL(fn->mcdc[1].branches[0].r.line_start, 1);
    CU_ASSERT_EQUAL(fn->mcdc[1].branches[0].r.col_start, 20);
    CU_ASSERT_EQUAL(fn->mcdc[1].branches[1].r.line_start, 14);
    CU_ASSERT_EQUAL(fn->mcdc[1].branches[2].r.col_start, 27);
    fx_free(&f);
}

/* ---- damaged mappings ---- */

static uint64_t lcg(uint64_t *s) {
    *s = *s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return *s >> 33;
}

/* Every view of a coverage, as the printers walk them. */
static void walk_everything(pbi_coverage *c) {
    pb_error err;
    for (size_t i = 0; i < pbi_cov_file_count(c); i++) {
        pbi_cov_data d;
        if (pbi_cov_for_file(c, pbi_cov_file_at(c, i), &d, &err)) continue;
        pbi_cov_line *l;
        size_t nl;
        if (!pbi_cov_lines(&d, &l, &nl, &err)) free(l);
        for (size_t k = 0; k < d.nexpansions; k++) {
            pbi_cov_data x;
            if (!pbi_cov_for_expansion(c, &d.expansions[k], &x, &err)) pbi_cov_data_free(&x);
        }
        pbi_cov_data_free(&d);
        pbi_cov_group *g;
        size_t ng;
        if (pbi_cov_groups(c, pbi_cov_file_at(c, i), &g, &ng, &err)) continue;
        for (size_t k = 0; k < ng; k++) {
            pbi_cov_fn_summary s;
            (void)pbi_cov_group_summarize(c, &g[k], &s, &err);
            free(g[k].fns);
        }
        free(g);
    }
    for (size_t i = 0; i < pbi_cov_fn_count(c); i++) {
        pbi_cov_fn_summary s;
        (void)pbi_cov_fn_summarize(c, pbi_cov_fn_at(c, i), &s, &err);
    }
}

/* A mapping with every region kind and an MC/DC decision, its numbers
 * changed at random 3000 times (ids out of range, expressions that use
 * themselves, expansions of their own file, conditions that loop, lines
 * backwards): the evaluator answers or refuses, never reads out of bounds
 * (ASan) or hangs, for 18's rules and 24's. */
static void mutated_mappings(void) {
    uint64_t seed = 12345;
    for (int round = 0; round < 3000; round++) {
        fixture f;
        fx_init(&f, round % 2 ? 24 : 18);
        f.mcdc_bits[0] = round % 3 == 0;
        pbi_cov_expr e[] = {{PBI_COV_ADD, REF(0), REF(1)}, {PBI_COV_SUBTRACT, EXPR(0), REF(2)}};
        pbi_cov_region r[] = {code(1, 1, 9, 2, REF(0), PBI_COV_REGION_CODE),
                              code(2, 3, 2, 8, EXPR(1), PBI_COV_REGION_EXPANSION),
                              code(3, 1, 4, 1, ZERO, PBI_COV_REGION_SKIPPED),
                              code(5, 2, 6, 3, EXPR(0), PBI_COV_REGION_GAP),
                              code(7, 5, 7, 11, ZERO, PBI_COV_REGION_MCDC_DECISION),
                              code(7, 5, 7, 6, REF(1), PBI_COV_REGION_MCDC_BRANCH),
                              code(7, 10, 7, 11, REF(2), PBI_COV_REGION_MCDC_BRANCH),
                              code(1, 10, 1, 20, REF(1), PBI_COV_REGION_CODE),
                              code(1, 11, 1, 12, REF(2), PBI_COV_REGION_BRANCH)};
        r[1].expanded_file_id = 1;
        r[4].mcdc.bitmap_idx = 3;
        r[4].mcdc.num_conditions = 2;
        r[5].false_count = REF(3);
        r[5].mcdc = (pbi_cov_mcdc){0, 0, 0, 1, -1};
        r[6].false_count = REF(3);
        r[6].mcdc = (pbi_cov_mcdc){0, 0, 1, -1, -1};
        r[7].file_id = 1;
        r[8].file_id = 1;
        r[8].false_count = EXPR(0);
        size_t nr = sizeof r / sizeof r[0];
        for (int k = 0; k < 4; k++) {
            pbi_cov_region *x = &r[lcg(&seed) % nr];
            uint32_t v = (uint32_t)lcg(&seed) % 12;
            switch (lcg(&seed) % 12) {
            case 0: x->count = (pbi_cov_counter){(uint8_t)(lcg(&seed) % 3), v}; break;
            case 1: x->false_count = (pbi_cov_counter){(uint8_t)(lcg(&seed) % 3), v}; break;
            case 2: x->file_id = v % 3; break;
            case 3: x->expanded_file_id = v % 3; break;
            case 4: x->line_start = v; break;
            case 5: x->line_end = v; break;
            case 6: x->col_end = v; break;
            case 7: x->kind = (uint8_t)(v % 7); break;
            case 8: x->mcdc.id = (int16_t)(v % 4) - 1; break;
            case 9: x->mcdc.true_id = (int16_t)(v % 4) - 1; break;
            case 10: x->mcdc.num_conditions = (uint16_t)(v % 5); break;
            default: e[v % 2].rhs = (pbi_cov_counter){PBI_COV_EXPR, v % 3}; break;
            }
        }
        pbi_cov_function *g = fx_fn(&f, "f", 1, r, nr);
        g->nfilenames = 2;
        g->exprs = e;
        g->nexprs = 2;
        fx_fn(&f, "f", 1, r, nr); /* the duplicate */
        uint64_t counts[] = {5, 3, 2, 1};
        uint8_t bits = (uint8_t)lcg(&seed);
        fx_record(&f, "f", 1, counts, 1 + (uint32_t)(lcg(&seed) % 4), &bits, 1);
        pb_error err;
        pbi_cov_eval_options o = {&f.t, round % 5 == 0, NULL};
        int rc = pbi_cov_eval(&f.m, f.p, &o, &f.c, &err);
        CU_ASSERT(rc == 0 || rc == PB_EFORMAT);
        if (rc == 0) {
            CU_ASSERT(pbi_cov_fn_count(f.c) <= 1);
            walk_everything(f.c);
        }
        fx_free(&f);
    }
}

static CU_TestInfo tests[] = {
    {"segments__nested_regions", nested_regions},
    {"segments__gap_region", gap_region},
    {"segments__skipped_region", skipped_region},
    {"segments__empty_skipped_region", empty_skipped_region},
    {"views__expansion_and_branch_19", expansion_and_branch_19},
    {"views__expansion_and_branch_21", expansion_and_branch_21},
    {"summary__folded_branches_19", folded_branches_19},
    {"summary__folded_branches_24", folded_branches_24},
    {"load__lookup_rules", lookup_rules},
    {"groups__instantiation_group", instantiation_group},
    {"mcdc__and_18", mcdc_and_18},
    {"mcdc__and_19", mcdc_and_19},
    {"mcdc__in_macros_22", mcdc_in_macros_22},
    {"mcdc__waiting_decision_18", mcdc_waiting_decision_18},
    {"mcdc__in_macros_23", mcdc_in_macros_23},
    {"robust__mutated_mappings", mutated_mappings},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_cov_eval[] = {{"cov_eval", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
