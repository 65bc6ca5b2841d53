/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_export_lcov.c -- `llvm-cov export -format=lcov` (CoverageExporterLcov.cpp)
 * per release: SF, FN/FNDA, FNF/FNH, DA, BRDA, BRF/BRH, LF/LH, end_of_record.
 *
 * The branches of a file and of its macro and include expansions are
 * numbered line by line. Before release 21 an expansion's branch takes the
 * line of the outermost expansion and keeps its own column, and the list is
 * sorted by line and column; from 21 (EXPORT_UNIFY) each branch carries the
 * path of expansion starts that leads to it (NestedPath), the list is sorted
 * by path then by position, and with -unify-instantiations the branches of
 * one path are summed into the first.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_state.h"
#include "llvm/stl_algo.h"
#include "util/grow.h"

typedef struct lc {
    uint32_t line, col;
} lc;

/* A branch with the path that leads to it (NestedCountedRegion). */
typedef struct nested_branch {
    pbi_cov_counted_branch r;
    lc p0;    /* path[0]: gives the line it is printed on */
    lc *rest; /* path[1..npath): only a branch inside an expansion has them */
    size_t npath;
    size_t position;
    int ignore;
} nested_branch;

typedef struct branch_set {
    nested_branch *v;
    size_t n, cap;
} branch_set;

static void set_free(branch_set *s) {
    for (size_t i = 0; i < s->n; i++) free(s->v[i].rest);
    free(s->v);
}

/* path[i] of b */
static lc path_at(const nested_branch *b, size_t i) { return i ? b->rest[i - 1] : b->p0; }

static int push(branch_set *s, const pbi_cov_counted_branch *r, const lc *path, size_t npath, size_t position,
                pb_error *err) {
    if (pbu_grow_err((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v, err)) return PB_ENOMEM;
    nested_branch *b = &s->v[s->n];
    memset(b, 0, sizeof *b);
    b->r = *r;
    /* the first step in place: a malloc and a free per branch of a file
     * were 2% of an lcov export */
    b->p0 = npath ? path[0] : (lc){0, 0};
    if (npath > 1) {
        b->rest = malloc((npath - 1) * sizeof *path);
        if (!b->rest) return pbu_nomem(err, "lcov branch path");
        memcpy(b->rest, path + 1, (npath - 1) * sizeof *path);
    }
    b->npath = npath;
    b->position = position;
    s->n++;
    return 0;
}

/* Folded: both counters Zero before 20, both sides folded from 20. */
static int folded(const pbi_llvm_target *t, const pbi_cov_counted_branch *r) {
    if (pbi_llvm_cov_has(t, PBI_LC_EVAL_FOLDED_SIDES)) return r->true_folded && r->false_folded;
    return r->folded;
}

typedef struct walk {
    const pb_coverage *c;
    branch_set *out;
    lc path[64];
    size_t npath;
    size_t position;
    int nested; /* 21+: paths; before: the outermost expansion's line */
} walk;

/* collectNestedBranches of either form. */
static int collect(walk *w, const pbi_cov_expansion *e, size_t ne, pb_error *err) {
    if (w->npath >= sizeof w->path / sizeof w->path[0]) return 0;
    for (size_t i = 0; i < ne; i++) {
        pbi_cov_data d;
        memset(&d, 0, sizeof d);
        int rc = w->c->view->for_expansion(w->c->ev, &e[i], &d, err);
        w->path[w->npath++] = (lc){e[i].region.r.line_start, e[i].region.r.col_start};
        if (rc == 0) rc = collect(w, d.expansions, d.nexpansions, err);
        for (size_t k = 0; rc == 0 && k < d.nbranches; k++) {
            pbi_cov_counted_branch b = d.branches[k];
            if (b.r.file_id != e[i].file_id) continue;
            if (w->nested) {
                rc = push(w->out, &b, w->path, w->npath, w->position++, err);
            } else {
                lc at = {w->path[0].line, b.r.col_start};
                b.r.line_start = w->path[0].line;
                rc = push(w->out, &b, &at, 1, w->out->n, err);
            }
        }
        w->npath--;
        w->c->view->data_free(&d);
        if (rc) return rc;
    }
    return 0;
}

/* Before 21 the branches are sorted by line and column only, with
 * llvm::sort, that is libstdc++'s std::sort: branches at one place (the
 * same macro argument expanded twice) end up in the order its introsort
 * leaves them, so that algorithm is followed (llvm/stl_algo.h). */
static int line_col_less(const void *a, const void *b, void *ctx) {
    const nested_branch *x = a, *y = b;
    (void)ctx;
    if (x->p0.line != y->p0.line) return x->p0.line < y->p0.line;
    return x->p0.col < y->p0.col;
}
_Static_assert(sizeof(nested_branch) <= PBI_STL_MAX_ELEM, "a branch fits stl_algo's buffer");

static int cmp_nested(const void *a, const void *b) {
    const nested_branch *x = a, *y = b;
    size_t n = x->npath < y->npath ? x->npath : y->npath;
    for (size_t i = 0; i < n; i++) {
        lc p = path_at(x, i), q = path_at(y, i);
        if (p.line != q.line) return p.line < q.line ? -1 : 1;
        if (p.col != q.col) return p.col < q.col ? -1 : 1;
    }
    if (x->npath != y->npath) return x->npath < y->npath ? -1 : 1;
    return (x->position > y->position) - (x->position < y->position);
}

static int same_path(const nested_branch *x, const nested_branch *y) {
    if (x->npath != y->npath) return 0;
    for (size_t i = 0; i < x->npath; i++) {
        lc a = path_at(x, i), b = path_at(y, i);
        if (a.line != b.line || a.col != b.col) return 0;
    }
    return 1;
}

/* Most files' branches come in order already (function after function,
 * no expansions): the merge sort of 80-byte entries was 1.4% of an lcov
 * export. */
static int nested_sorted(const branch_set *s) {
    for (size_t i = 1; i < s->n; i++)
        if (cmp_nested(&s->v[i - 1], &s->v[i]) > 0) return 0;
    return 1;
}

/* combineInstanceCounts: the branches of one path summed into the first. */
static void unify(branch_set *s) {
    for (size_t i = 0; i < s->n;) {
        size_t j = i + 1;
        while (j < s->n && same_path(&s->v[i], &s->v[j])) {
            s->v[i].r.count += s->v[j].r.count;
            s->v[i].r.false_count += s->v[j].r.false_count;
            s->v[j].ignore = 1;
            j++;
        }
        i = j;
    }
}

/* A number then one separator. */
static void put_num(pb_buf *b, uint64_t v, char sep) {
    pbu_buf_put_u64(b, v);
    pbu_buf_putc(b, sep);
}

static void print_branches(pb_buf *b, const branch_set *s) {
    for (size_t i = 0; i < s->n;) {
        uint32_t line = s->v[i].p0.line;
        unsigned pair = 0, index = 0;
        for (; i < s->n && s->v[i].p0.line == line; i++) {
            if (s->v[i].ignore) continue;
            /* llvm-cov keeps the counts in `unsigned` here */
            unsigned bc[2] = {(unsigned)s->v[i].r.count, (unsigned)s->v[i].r.false_count};
            for (int k = 0; k < 2; k++, index++) {
                /* written without printf, which was most of the export's time */
                pbu_buf_puts(b, "BRDA:");
                put_num(b, line, ',');
                put_num(b, pair, ',');
                put_num(b, index, ',');
                if (bc[0] == 0 && bc[1] == 0) pbu_buf_puts(b, "-\n");
                else put_num(b, bc[k], '\n');
            }
            pair++;
        }
    }
}

static int render_branches(pb_buf *b, const pb_coverage *c, const pbi_cov_data *d, const pb_cov_export_options *o,
                           pb_error *err) {
    const pbi_llvm_target *t = &c->t;
    branch_set all = {NULL, 0, 0}, ex = {NULL, 0, 0};
    walk w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.out = &ex;
    w.nested = pbi_llvm_cov_has(t, PBI_LC_EXPORT_UNIFY);
    int rc = 0;
    size_t position = 0;
    for (size_t i = 0; rc == 0 && i < d->nbranches; i++) {
        lc at = {d->branches[i].r.line_start, d->branches[i].r.col_start};
        if (w.nested && folded(t, &d->branches[i])) continue;
        rc = push(&all, &d->branches[i], &at, 1, position++, err);
    }
    if (rc == 0) rc = collect(&w, d->expansions, d->nexpansions, err);
    for (size_t i = 0; rc == 0 && i < ex.n; i++) {
        if (w.nested && folded(t, &ex.v[i].r)) continue;
        size_t pos = w.nested ? ex.v[i].position : all.n;
        /* the set's entry moves over, its rest with it */
        if (pbu_grow_err((void **)&all.v, &all.cap, all.n + 1, sizeof *all.v, err)) {
            rc = PB_ENOMEM;
            break;
        }
        all.v[all.n] = ex.v[i];
        all.v[all.n++].position = pos;
        ex.v[i].rest = NULL;
    }
    if (rc == 0) {
        if (!w.nested) pbi_stl_sort(all.v, all.n, sizeof *all.v, line_col_less, NULL);
        else if (all.n && !nested_sorted(&all)) /* a total order: any sort agrees, none needed when in order */
            qsort(all.v, all.n, sizeof *all.v, cmp_nested);
        if (w.nested && o->unify_instantiations) unify(&all);
        /* before 21 the folded branches are skipped while printing */
        for (size_t i = 0; !w.nested && i < all.n; i++)
            if (folded(t, &all.v[i].r)) all.v[i].ignore = 1;
        print_branches(b, &all);
    }
    set_free(&all);
    set_free(&ex);
    return rc;
}

/* The functions by their first file (getCoveredFunctions(Filename)),
 * each file's in function order: built once, then each file's are found by
 * a binary search (a scan of every function for every file, with a strcmp
 * each, was 11% of an lcov export of 100k functions in 27 files). */
typedef struct by_file {
    const char *file;
    size_t fn;
} by_file;

static int cmp_by_file(const void *a, const void *b) {
    const by_file *x = a, *y = b;
    int r = x->file == y->file ? 0 : strcmp(x->file, y->file); /* one TU's functions share the pointer */
    return r ? r : (x->fn > y->fn) - (x->fn < y->fn);
}

static int index_by_file(const pb_coverage *c, by_file **out, size_t *n, pb_error *err) {
    size_t nfn = c->view->fn_count(c->ev);
    *n = 0;
    *out = malloc((nfn ? nfn : 1) * sizeof **out);
    if (!*out) return pbu_nomem(err, "lcov functions by file");
    for (size_t i = 0; i < nfn; i++) {
        const pbi_cov_fn *f = c->view->fn_at(c->ev, i);
        if (f->nfilenames) (*out)[(*n)++] = (by_file){f->filenames[0], i};
    }
    if (*n) qsort(*out, *n, sizeof **out, cmp_by_file);
    return 0;
}

/* FN and FNDA of the functions whose first file is this one. */
static void render_functions(pb_buf *b, const pb_coverage *c, const by_file *idx, size_t nidx,
                             const char *filename) {
    size_t lo = 0, hi = nidx;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(idx[mid].file, filename) < 0) lo = mid + 1;
        else hi = mid;
    }
    size_t end = lo;
    while (end < nidx && strcmp(idx[end].file, filename) == 0) end++;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = lo; i < end; i++) {
            const pbi_cov_fn *f = c->view->fn_at(c->ev, idx[i].fn);
            if (pass == 0) {
                pbu_buf_puts(b, "FN:");
                put_num(b, f->nregions ? f->regions[0].r.line_start : 0, ',');
            } else {
                pbu_buf_puts(b, "FNDA:");
                pbu_buf_put_u64(b, f->count);
                pbu_buf_putc(b, ',');
            }
            pbu_buf_append(b, f->name, f->name_len);
            pbu_buf_putc(b, '\n');
        }
    }
}

static int render_lines(pb_buf *b, const pb_coverage *c, const pbi_cov_data *d, pb_error *err) {
    pbi_cov_line *lines = NULL;
    size_t n = 0;
    int rc = c->view->lines(d, &lines, &n, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (!lines[i].mapped) continue;
        pbu_buf_puts(b, "DA:");
        put_num(b, lines[i].line, ',');
        put_num(b, lines[i].count, '\n');
    }
    free(lines);
    return rc;
}

static int render_file(pb_buf *b, const pb_coverage *c, const by_file *idx, size_t nidx, const char *filename,
                       const pb_cov_export_options *o, pb_error *err) {
    pbi_cov_file_summary s;
    int rc = c->view->file_summarize(c->ev, filename, &s, err);
    if (rc) return rc;
    pbu_buf_printf(b, "SF:%s\n", filename);
    if (!o->summary_only && !o->skip_functions) render_functions(b, c, idx, nidx, filename);
    pbu_buf_printf(b, "FNF:%" PRIu64 "\nFNH:%" PRIu64 "\n", s.functions.total, s.functions.covered);
    if (!o->summary_only) {
        pbi_cov_data d;
        memset(&d, 0, sizeof d);
        rc = c->view->for_file(c->ev, filename, &d, err);
        if (rc == 0) rc = render_lines(b, c, &d, err);
        if (rc == 0 && !o->skip_branches) rc = render_branches(b, c, &d, o, err);
        c->view->data_free(&d);
        if (rc) return rc;
    }
    if (!o->skip_branches)
        pbu_buf_printf(b, "BRF:%" PRIu64 "\nBRH:%" PRIu64 "\n", s.branches.total, s.branches.covered);
    pbu_buf_printf(b, "LF:%" PRIu64 "\nLH:%" PRIu64 "\nend_of_record\n", s.lines.total, s.lines.covered);
    return 0;
}

int pbi_cov_export_lcov(const pb_coverage *c, const pb_cov_export_options *o, pb_buf *b, pb_sink *sink,
                        pb_error *err) {
    const char **files = NULL;
    size_t n = 0;
    by_file *idx = NULL;
    size_t nidx = 0;
    int rc = pbi_cov_report_files(c, &files, &n, err);
    if (rc == 0) rc = index_by_file(c, &idx, &nidx, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = render_file(b, c, idx, nidx, files[i], o, err);
        if (rc == 0) rc = pbi_cov_drain(b, sink, err);
    }
    free(idx);
    free(files);
    return rc;
}
