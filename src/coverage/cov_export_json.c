/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_export_json.c -- `llvm-cov export -format=text` (CoverageExporterJson.cpp)
 * byte for byte per release.
 *
 * llvm::json prints an Object's keys sorted, doubles with "%.17g" and no
 * newline at the end. Release 23 writes a file's "filename" (and an
 * expansion's "filenames") first and the summaries in the order the source
 * builds them (EXPORT_JSON_WRITE_ORDER). Which fields exist, the "version"
 * string and the MC/DC record's shape are rows of PBI_LLVM_COV_FEATURES.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_state.h"
#include "util/grow.h"
#include "util/json_text.h"

/* Counts are int64 in llvm::json: above INT64_MAX they print as INT64_MAX
 * (clamp_uint64_to_int64). */
static void pbi_json_count(pb_buf *b, uint64_t v) {
    pbu_buf_put_u64(b, v > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : v);
}

/* llvm::json prints a double with "%.17g". */
static void pbi_json_double(pb_buf *b, double d) {
    pbu_buf_printf(b, "%.17g", d);
}

/* A string as llvm::json::Value holds it: invalid UTF-8 bytes become
 * U+FFFD (fixUTF8), written as raw bytes, not as an escape. */
static void pbi_json_string_n(pb_buf *b, const char *s, size_t n) {
    if (!s) s = "", n = 0;
    if (pbu_utf8_valid(s, n)) {
        pbu_json_put_string(b, s, n);
        return;
    }
    pb_buf fixed = PB_BUF_INIT;
    for (size_t i = 0; i < n;) {
        size_t k = 1;
        while (k <= 4 && i + k <= n && !pbu_utf8_valid(s + i, k)) k++;
        if (k <= 4 && i + k <= n) {
            pbu_buf_append(&fixed, s + i, k);
            i += k;
        } else {
            pbu_buf_append(&fixed, "\xef\xbf\xbd", 3);
            i++;
        }
    }
    if (fixed.failed) b->failed = 1;
    else pbu_json_put_string(b, fixed.data, fixed.len);
    pbu_buf_free(&fixed);
}

static void pbi_json_string(pb_buf *b, const char *s) {
    pbi_json_string_n(b, s, s ? strlen(s) : 0);
}

static void pbi_json_strings(pb_buf *b, const char *const *v, size_t n) {
    pbu_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        if (i) pbu_buf_putc(b, ',');
        pbi_json_string(b, v[i]);
    }
    pbu_buf_putc(b, ']');
}

/* A number then one separator: the hot path of every array below, written
 * without the printf family (which was most of the export's time). */
static void put_num(pb_buf *b, uint64_t v, char sep) {
    pbu_buf_put_u64(b, v);
    pbu_buf_putc(b, sep);
}

static const char *pbi_json_bool(int v) { return v ? "true" : "false"; }

/* "[line_start,col_start,line_end,col_end," */
static void put_place(pb_buf *b, const pbi_cov_place *r) {
    pbu_buf_putc(b, '[');
    put_num(b, r->line_start, ',');
    put_num(b, r->col_start, ',');
    put_num(b, r->line_end, ',');
    put_num(b, r->col_end, ',');
}

static const char *json_version(const pbi_llvm_target *t) {
    if (pbi_llvm_cov_has(t, PBI_LC_EXPORT_JSON_3_1)) return "3.1.0";
    if (pbi_llvm_cov_has(t, PBI_LC_EXPORT_JSON_3_0)) return "3.0.1";
    return "2.0.1";
}

/* ---- rows written straight into b's free space ----
 * Regions, branches and segments are most of a JSON export's bytes; one
 * call per number and per separator (pbu_buf_put_u64, pbu_buf_putc) was a
 * fifth of its time. A row is at most ROW_MAX bytes: room for it is made
 * once, then its numbers are written in place. */
#define ROW_MAX 256 /* ten numbers of at most 20 digits, separators, three booleans */

/* Where the next row goes (b grown so that ROW_MAX bytes fit), or NULL
 * when b failed (the export then ends in PB_ENOMEM, pbi_cov_drain). */
static char *row_open(pb_buf *b) {
    if (b->failed || (b->cap - b->len <= ROW_MAX && pbu_buf_reserve(b, ROW_MAX))) return NULL;
    return b->data + b->len;
}

static void row_close(pb_buf *b, char *end) {
    b->len = (size_t)(end - b->data);
    b->data[b->len] = '\0';
}

/* v in decimal, then sep. */
static char *dec(char *p, uint64_t v, char sep) {
    if (v < 10) {
        *p++ = (char)('0' + v);
    } else {
        char tmp[20];
        size_t i = sizeof tmp;
        for (; v; v /= 10) tmp[--i] = (char)('0' + v % 10);
        memcpy(p, tmp + i, sizeof tmp - i);
        p += sizeof tmp - i;
    }
    *p++ = sep;
    return p;
}

/* A count as pbi_json_count writes it. */
static char *count_dec(char *p, uint64_t v, char sep) {
    return dec(p, v > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : v, sep);
}

static char *place_dec(char *p, const pbi_cov_place *r) {
    *p++ = '[';
    p = dec(p, r->line_start, ',');
    p = dec(p, r->col_start, ',');
    p = dec(p, r->line_end, ',');
    return dec(p, r->col_end, ',');
}

static char *ids_dec(char *p, const pbi_cov_place *r) {
    p = dec(p, r->file_id, ',');
    p = dec(p, r->expanded_file_id, ',');
    return dec(p, (unsigned)r->kind, ']');
}

/* "[line_start,col_start,line_end,col_end,count,file_id,expanded_file_id,kind]" */
static void put_region(pb_buf *b, const pbi_cov_counted_region *r) {
    char *p = row_open(b);
    if (!p) return;
    p = place_dec(p, &r->r);
    p = count_dec(p, r->count, ',');
    row_close(b, ids_dec(p, &r->r));
}

/* the same with the false count after the count */
static void put_branch(pb_buf *b, const pbi_cov_counted_branch *r) {
    char *p = row_open(b);
    if (!p) return;
    p = place_dec(p, &r->r);
    p = count_dec(p, r->count, ',');
    p = count_dec(p, r->false_count, ',');
    row_close(b, ids_dec(p, &r->r));
}

static void put_regions(pb_buf *b, const pbi_cov_counted_region *r, size_t n) {
    pbu_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        if (i) pbu_buf_putc(b, ',');
        put_region(b, &r[i]);
    }
    pbu_buf_putc(b, ']');
}

/* renderBranchRegions leaves out the folded branches: both counters Zero
 * before 20 (Folded), both sides folded from 20 (TrueFolded && FalseFolded);
 * renderFileBranches prints them all. */
static int branch_hidden(const pbi_llvm_target *t, const pbi_cov_counted_branch *r) {
    if (pbi_llvm_cov_has(t, PBI_LC_EVAL_FOLDED_SIDES)) return r->true_folded && r->false_folded;
    return r->folded;
}

static void put_branches(pb_buf *b, const pbi_llvm_target *t, const pbi_cov_counted_branch *r, size_t n,
                         int all) {
    pbu_buf_putc(b, '[');
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        if (!all && branch_hidden(t, &r[i])) continue;
        if (!first) pbu_buf_putc(b, ',');
        first = 0;
        put_branch(b, &r[i]);
    }
    pbu_buf_putc(b, ']');
}

/* The test vectors: the executed ones, then (23+, -show-mcdc-non-executed-vectors)
 * the others, each in the evaluator's order. */
static void put_test_vector(pb_buf *b, const pbi_cov_mcdc_record *m, size_t i, int *first) {
    if (!*first) pbu_buf_putc(b, ',');
    *first = 0;
    pbu_buf_puts(b, "{\"conditions\":[");
    for (size_t c = 0; c < m->nconds; c++) {
        int8_t v = m->tv[i * m->nconds + c];
        if (c) pbu_buf_putc(b, ',');
        pbu_buf_puts(b, v < 0 ? "null" : v ? "true" : "false");
    }
    pbu_buf_printf(b, "],\"executed\":%s,\"result\":%s}", m->tv_executed[i] ? "true" : "false",
                   m->tv_result[i] ? "true" : "false");
}

static void put_test_vectors(pb_buf *b, const pbi_cov_mcdc_record *m, const pb_cov_export_options *o,
                             const pbi_llvm_target *t) {
    int first = 1;
    int others = o->show_mcdc_non_executed_vectors && pbi_llvm_cov_has(t, PBI_LC_EXPORT_MCDC_NON_EXECUTED);
    pbu_buf_puts(b, ",[");
    for (int pass = 0; pass < 1 + others; pass++)
        for (size_t i = 0; i < m->ntv; i++)
            if ((m->tv_executed[i] ? 0 : 1) == pass) put_test_vector(b, m, i, &first);
    pbu_buf_putc(b, ']');
}

/* renderMCDCRecord: the decision's place, (21+) how many executed test
 * vectors decided true and false and its file id, its kind, which conditions
 * have an independence pair, (22+) the test vectors. */
static void put_mcdc(pb_buf *b, const pbi_cov_mcdc_record *m, const pb_cov_export_options *o,
                     const pbi_llvm_target *t) {
    const pbi_cov_place *r = &m->decision.r;
    put_place(b, r);
    if (pbi_llvm_cov_has(t, PBI_LC_EXPORT_JSON_3_0)) {
        uint64_t yes = 0, no = 0;
        for (size_t i = 0; i < m->ntv; i++)
            if (m->tv_executed[i]) *(m->tv_result[i] ? &yes : &no) += 1;
        put_num(b, yes, ',');
        put_num(b, no, ',');
        put_num(b, r->file_id, ',');
    }
    put_num(b, r->expanded_file_id, ',');
    put_num(b, (unsigned)r->kind, ',');
    pbu_buf_putc(b, '[');
    for (size_t c = 0; c < m->nconds; c++) {
        if (c) pbu_buf_putc(b, ',');
        pbu_buf_puts(b, m->covered[c] ? "true" : "false");
    }
    pbu_buf_putc(b, ']');
    if (pbi_llvm_cov_has(t, PBI_LC_EXPORT_JSON_3_1)) put_test_vectors(b, m, o, t);
    pbu_buf_putc(b, ']');
}

static void put_ratio(pb_buf *b, const char *key, pbi_cov_ratio r, int notcovered) {
    pbu_buf_putc(b, '"');
    pbu_buf_puts(b, key);
    pbu_buf_puts(b, "\":{\"count\":");
    pbu_buf_put_u64(b, r.total);
    pbu_buf_puts(b, ",\"covered\":");
    pbu_buf_put_u64(b, r.covered);
    if (notcovered) {
        pbu_buf_puts(b, ",\"notcovered\":");
        pbu_buf_put_u64(b, r.total - r.covered);
    }
    pbu_buf_puts(b, ",\"percent\":");
    pbi_json_double(b, pbi_cov_percent(r));
    pbu_buf_putc(b, '}');
}

/* renderSummary: sorted keys before 23, the source's order from 23. */
static void put_summary(pb_buf *b, const pbi_cov_file_summary *s, const pbi_llvm_target *t) {
    int mcdc = pbi_llvm_cov_has(t, PBI_LC_EXPORT_MCDC);
    pbu_buf_putc(b, '{');
    if (pbi_llvm_cov_has(t, PBI_LC_EXPORT_JSON_WRITE_ORDER)) {
        put_ratio(b, "lines", s->lines, 0);
        pbu_buf_putc(b, ',');
        put_ratio(b, "functions", s->functions, 0);
        pbu_buf_putc(b, ',');
        put_ratio(b, "instantiations", s->instantiations, 0);
        pbu_buf_putc(b, ',');
        put_ratio(b, "regions", s->regions, 1);
        pbu_buf_putc(b, ',');
        put_ratio(b, "branches", s->branches, 1);
        if (mcdc) {
            pbu_buf_putc(b, ',');
            put_ratio(b, "mcdc", s->mcdc, 1);
        }
    } else {
        put_ratio(b, "branches", s->branches, 1);
        pbu_buf_putc(b, ',');
        put_ratio(b, "functions", s->functions, 0);
        pbu_buf_putc(b, ',');
        put_ratio(b, "instantiations", s->instantiations, 0);
        pbu_buf_putc(b, ',');
        put_ratio(b, "lines", s->lines, 0);
        if (mcdc) {
            pbu_buf_putc(b, ',');
            put_ratio(b, "mcdc", s->mcdc, 1);
        }
        pbu_buf_putc(b, ',');
        put_ratio(b, "regions", s->regions, 1);
    }
    pbu_buf_putc(b, '}');
}

/* A growing list of branches (collectNestedBranches). */
typedef struct branch_list {
    pbi_cov_counted_branch *v;
    size_t n, cap;
} branch_list;

/* collectNestedBranches: for each expansion, the branches of its nested
 * expansions first, then its own whose file is the expanded one. */
static int collect_nested(const pb_coverage *c, const pbi_cov_expansion *e, size_t ne, branch_list *out,
                          unsigned depth, pb_error *err) {
    if (depth > 64) return 0; /* expansions cannot nest deeper in real mappings; a loop stops here */
    for (size_t i = 0; i < ne; i++) {
        pbi_cov_data d;
        memset(&d, 0, sizeof d);
        int rc = c->view->for_expansion(c->ev, &e[i], &d, err);
        if (rc == 0) rc = collect_nested(c, d.expansions, d.nexpansions, out, depth + 1, err);
        for (size_t k = 0; rc == 0 && k < d.nbranches; k++) {
            if (d.branches[k].r.file_id != e[i].file_id) continue;
            rc = pbu_grow_err((void **)&out->v, &out->cap, out->n + 1, sizeof *out->v, err);
            if (rc == 0) out->v[out->n++] = d.branches[k];
        }
        c->view->data_free(&d);
        if (rc) return rc;
    }
    return 0;
}

static int put_expansion(pb_buf *b, const pb_coverage *c, const pbi_cov_expansion *e, pb_error *err) {
    branch_list nested = {NULL, 0, 0};
    int rc = collect_nested(c, e, 1, &nested, 0, err);
    if (rc) {
        free(nested.v);
        return rc;
    }
    const pbi_llvm_target *t = &c->t;
    int order23 = pbi_llvm_cov_has(t, PBI_LC_EXPORT_JSON_WRITE_ORDER);
    pbu_buf_putc(b, '{');
    if (order23) {
        pbu_buf_puts(b, "\"filenames\":");
        pbi_json_strings(b, e->fn->filenames, e->fn->nfilenames);
        pbu_buf_puts(b, ",\"branches\":");
        put_branches(b, t, nested.v, nested.n, 0);
    } else {
        pbu_buf_puts(b, "\"branches\":");
        put_branches(b, t, nested.v, nested.n, 0);
        pbu_buf_puts(b, ",\"filenames\":");
        pbi_json_strings(b, e->fn->filenames, e->fn->nfilenames);
    }
    pbu_buf_puts(b, ",\"source_region\":");
    put_region(b, &e->region);
    pbu_buf_puts(b, ",\"target_regions\":");
    put_regions(b, e->fn->regions, e->fn->nregions);
    pbu_buf_putc(b, '}');
    free(nested.v);
    return 0;
}

static void put_segments(pb_buf *b, const pbi_cov_data *d) {
    pbu_buf_putc(b, '[');
    for (size_t i = 0; i < d->nsegments; i++) {
        const pbi_cov_segment *s = &d->segments[i];
        char *p = row_open(b);
        if (!p) return;
        if (i) *p++ = ',';
        *p++ = '[';
        p = dec(p, s->line, ',');
        p = dec(p, s->col, ',');
        p = count_dec(p, s->count, ',');
        const char *flags[3] = {pbi_json_bool(s->has_count), pbi_json_bool(s->is_region_entry),
                                pbi_json_bool(s->is_gap)};
        for (int k = 0; k < 3; k++) {
            size_t n = strlen(flags[k]);
            memcpy(p, flags[k], n);
            p += n;
            *p++ = k < 2 ? ',' : ']';
        }
        row_close(b, p);
    }
    pbu_buf_putc(b, ']');
}

/* The detail fields of a file: branches, expansions, mcdc_records, segments
 * (sorted; "filename" is placed by the caller). */
static int put_file_detail(pb_buf *b, const pb_coverage *c, const pbi_cov_data *d,
                           const pb_cov_export_options *o, pb_error *err) {
    const pbi_llvm_target *t = &c->t;
    pbu_buf_puts(b, "\"branches\":");
    put_branches(b, t, d->branches, d->nbranches, 1);
    if (!o->skip_expansions) {
        pbu_buf_puts(b, ",\"expansions\":[");
        for (size_t i = 0; i < d->nexpansions; i++) {
            if (i) pbu_buf_putc(b, ',');
            int rc = put_expansion(b, c, &d->expansions[i], err);
            if (rc) return rc;
        }
        pbu_buf_putc(b, ']');
    }
    return 0;
}

static void put_file_mcdc(pb_buf *b, const pb_coverage *c, const pbi_cov_data *d, const pb_cov_export_options *o) {
    pbu_buf_puts(b, "\"mcdc_records\":[");
    for (size_t i = 0; i < d->nmcdc; i++) {
        if (i) pbu_buf_putc(b, ',');
        put_mcdc(b, d->mcdc[i], o, &c->t);
    }
    pbu_buf_putc(b, ']');
}

static int put_file(pb_buf *b, const pb_coverage *c, const char *filename, const pbi_cov_file_summary *s,
                    const pb_cov_export_options *o, pb_error *err) {
    const pbi_llvm_target *t = &c->t;
    int order23 = pbi_llvm_cov_has(t, PBI_LC_EXPORT_JSON_WRITE_ORDER);
    int mcdc = pbi_llvm_cov_has(t, PBI_LC_EXPORT_MCDC);
    pbu_buf_putc(b, '{');
    if (o->summary_only) {
        pbu_buf_puts(b, "\"filename\":");
        pbi_json_string(b, filename);
    } else {
        pbi_cov_data d;
        memset(&d, 0, sizeof d);
        int rc = c->view->for_file(c->ev, filename, &d, err);
        if (rc) return rc;
        if (order23) {
            pbu_buf_puts(b, "\"filename\":");
            pbi_json_string(b, filename);
            pbu_buf_putc(b, ',');
        }
        rc = put_file_detail(b, c, &d, o, err);
        if (rc == 0 && !order23) {
            pbu_buf_puts(b, ",\"filename\":");
            pbi_json_string(b, filename);
        }
        if (rc == 0 && mcdc) {
            pbu_buf_putc(b, ',');
            put_file_mcdc(b, c, &d, o);
        }
        if (rc == 0) {
            pbu_buf_puts(b, ",\"segments\":");
            put_segments(b, &d);
        }
        c->view->data_free(&d);
        if (rc) return rc;
    }
    pbu_buf_puts(b, ",\"summary\":");
    put_summary(b, s, t);
    pbu_buf_putc(b, '}');
    return 0;
}

static void put_function(pb_buf *b, const pbi_cov_fn *f, const pb_cov_export_options *o, const pbi_llvm_target *t) {
    pbu_buf_puts(b, "{\"branches\":");
    put_branches(b, t, f->branches, f->nbranches, 0);
    pbu_buf_puts(b, ",\"count\":");
    pbi_json_count(b, f->count);
    pbu_buf_puts(b, ",\"filenames\":");
    pbi_json_strings(b, f->filenames, f->nfilenames);
    if (pbi_llvm_cov_has(t, PBI_LC_EXPORT_MCDC)) {
        pbu_buf_puts(b, ",\"mcdc_records\":[");
        for (size_t i = 0; i < f->nmcdc; i++) {
            if (i) pbu_buf_putc(b, ',');
            put_mcdc(b, &f->mcdc[i], o, t);
        }
        pbu_buf_putc(b, ']');
    }
    pbu_buf_puts(b, ",\"name\":");
    pbi_json_string_n(b, f->name, f->name_len);
    pbu_buf_puts(b, ",\"regions\":");
    put_regions(b, f->regions, f->nregions);
    pbu_buf_putc(b, '}');
}

typedef struct named_index {
    const char *name;
    size_t index;
} named_index;

static int cmp_named(const void *a, const void *b) {
    const named_index *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    return r ? r : (x->index > y->index) - (x->index < y->index);
}

/* The "functions" array: every function (getCoveredFunctions), whatever
 * the files shown. */
static int put_functions(pb_buf *b, const pb_coverage *c, const pb_cov_export_options *o, pb_sink *sink,
                         pb_error *err) {
    int rc = 0;
    size_t n = c->view->fn_count(c->ev);
    pbu_buf_puts(b, ",\"functions\":[");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (i) pbu_buf_putc(b, ',');
        put_function(b, c->view->fn_at(c->ev, i), o, &c->t);
        rc = pbi_cov_drain(b, sink, err);
    }
    pbu_buf_putc(b, ']');
    return rc;
}

/* The summaries of files[0..n) into sums and their sum into *total, in the
 * files' order (prepareFileReports), and the files by name into *sorted
 * (renderRoot sorts the rendered objects by "filename"). */
static int summarize(const pb_coverage *c, const char **files, size_t n, pbi_cov_file_summary *sums,
                     pbi_cov_file_summary *total, named_index **sorted, pb_error *err) {
    int rc = 0;
    memset(total, 0, sizeof *total);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = c->view->file_summarize(c->ev, files[i], &sums[i], err);
        if (rc == 0) pbi_cov_file_summary_add(total, &sums[i]);
    }
    *sorted = calloc(n ? n : 1, sizeof **sorted);
    if (rc == 0 && !*sorted) rc = pbu_nomem(err, "export files");
    for (size_t i = 0; rc == 0 && i < n; i++) (*sorted)[i] = (named_index){files[i], i};
    if (rc == 0 && n) qsort(*sorted, n, sizeof **sorted, cmp_named);
    return rc;
}

int pbi_cov_export_json(const pb_coverage *c, const pb_cov_export_options *o, pb_buf *b, pb_sink *sink,
                        pb_error *err) {
    const char **files = NULL;
    size_t nfiles = 0;
    int rc = pbi_cov_report_files(c, &files, &nfiles, err);
    if (rc) return rc;
    pbi_cov_file_summary total, *sums = calloc(nfiles ? nfiles : 1, sizeof *sums);
    named_index *sorted = NULL;
    rc = sums ? summarize(c, files, nfiles, sums, &total, &sorted, err) : pbu_nomem(err, "export summaries");
    pbu_buf_puts(b, "{\"data\":[{\"files\":[");
    for (size_t i = 0; rc == 0 && i < nfiles; i++) {
        if (i) pbu_buf_putc(b, ',');
        rc = put_file(b, c, sorted[i].name, &sums[sorted[i].index], o, err);
        if (rc == 0) rc = pbi_cov_drain(b, sink, err);
    }
    pbu_buf_putc(b, ']');
    if (rc == 0 && !o->summary_only && !o->skip_functions) rc = put_functions(b, c, o, sink, err);
    if (rc == 0) {
        pbu_buf_puts(b, ",\"totals\":");
        put_summary(b, &total, &c->t);
        pbu_buf_printf(b, "}],\"type\":\"llvm.coverage.json.export\",\"version\":\"%s\"}", json_version(&c->t));
    }
    free(sorted);
    free(sums);
    free(files);
    return rc;
}
