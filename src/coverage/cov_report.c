/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_report.c -- `llvm-cov report` (CoverageReport.cpp): the file table and,
 * with -show-functions, one function table per source file.
 *
 * Column widths are llvm-cov's fixed ones; the first grows to the longest
 * name. File names lose the path components all of them share. The divider
 * under the header is as wide as every column before release 19 (MC/DC's
 * too from 18, shown or not) and as the shown ones from 19
 * (REPORT_DIVIDER_SHOWN).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coverage/cov_state.h"
#include "util/grow.h"

/* FileReportColumns and FunctionReportColumns. */
static const size_t file_cols[19] = {25, 12, 18, 10, 12, 18, 10, 16, 16, 10, 12, 18, 10, 12, 18, 10, 20, 21, 10};
static const size_t fn_cols[13] = {25, 10, 8, 8, 10, 8, 8, 10, 8, 8, 20, 8, 8};

typedef struct shown {
    int regions, instantiations, branches, mcdc;
} shown;

static shown shown_of(const pb_coverage *c, const pb_cov_report_options *o) {
    shown s;
    s.regions = o->show_region_summary < 0 ? 1 : o->show_region_summary;
    s.instantiations = o->show_instantiation_summary < 0 ? 0 : o->show_instantiation_summary;
    s.branches = o->show_branch_summary < 0 ? 1 : o->show_branch_summary;
    s.mcdc = o->show_mcdc_summary < 0 ? 0 : o->show_mcdc_summary;
    if (!pbi_llvm_cov_has(&c->t, PBI_LC_REPORT_MCDC_COLUMNS)) s.mcdc = 0;
    return s;
}

static void pad(pb_buf *b, size_t n) {
    for (size_t i = 0; i < n; i++) pbu_buf_putc(b, ' ');
}

static void left(pb_buf *b, const char *s, size_t w) {
    size_t n = strlen(s);
    pbu_buf_puts(b, s);
    if (n < w) pad(b, w - n);
}

static void right(pb_buf *b, const char *s, size_t w) {
    size_t n = strlen(s);
    if (n < w) pad(b, w - n);
    pbu_buf_puts(b, s);
}

static void dashes(pb_buf *b, size_t n) {
    for (size_t i = 0; i < n; i++) pbu_buf_putc(b, '-');
    pbu_buf_putc(b, '\n');
}

/* -use-color: raw_ostream's ANSI colours; 0 means no colour. A value is
 * green when fully covered (also 0 of 0), yellow from 80%, else red
 * (determineCoveragePercentageColor). */
enum { NO_COLOR = 0, RED = '1', GREEN = '2', YELLOW = '3' };

static int color_of(pbi_cov_ratio r) {
    if (r.covered == r.total) return GREEN;
    return pbi_cov_percent(r) >= 80.0 ? YELLOW : RED;
}

static void color_on(pb_buf *b, int color) {
    if (color) pbu_buf_printf(b, "\033[0;3%cm", color);
}

static void color_off(pb_buf *b, int color) {
    if (color) pbu_buf_puts(b, "\033[0m");
}

/* "%*u" of llvm-cov: the counts are cast to unsigned. */
static void num(pb_buf *b, uint64_t v, size_t w, int color) {
    color_on(b, color);
    pbu_buf_printf(b, "%*u", (int)w, (unsigned)v);
    color_off(b, color);
}

static void pct(pb_buf *b, pbi_cov_ratio r, size_t w, int dash_when_empty, int color) {
    if (r.total == 0 && dash_when_empty) {
        right(b, "-", w);
        return;
    }
    color_on(b, color);
    pbu_buf_printf(b, "%*.2f%%", (int)w - 1, pbi_cov_percent(r));
    color_off(b, color);
}

/* total, missed (coloured `missed`), percentage (coloured `percent`) */
static void triple(pb_buf *b, pbi_cov_ratio r, const size_t *w, int missed, int percent) {
    num(b, r.total, w[0], NO_COLOR);
    num(b, r.total - r.covered, w[1], missed);
    pct(b, r, w[2], 1, percent);
}

/* CoverageReport::render(FileCoverageSummary): the branch and MC/DC
 * columns take the lines' colour, as llvm-cov's do. */
static void file_row(pb_buf *b, const char *name, const pbi_cov_file_summary *s, size_t w0, shown sh, int colors) {
    int rc = colors ? color_of(s->regions) : 0, fc = colors ? color_of(s->functions) : 0;
    int ic = colors ? color_of(s->instantiations) : 0, lc = colors ? color_of(s->lines) : 0;
    /* the name is printed with its dots removed (a trailing separator
     * kept), in a column as wide as the longest name before that */
    size_t n = strlen(name);
    char *shown_name = malloc(n + 2);
    if (!shown_name) {
        b->failed = 1;
        return;
    }
    memcpy(shown_name, name, n + 1);
    pbi_cov_remove_dots(shown_name);
    size_t m = strlen(shown_name);
    if (n && name[n - 1] == '/' && !(m && shown_name[m - 1] == '/')) shown_name[m] = '/', shown_name[m + 1] = '\0';
    left(b, shown_name, w0);
    free(shown_name);
    if (sh.regions) triple(b, s->regions, &file_cols[1], rc, rc);
    triple(b, s->functions, &file_cols[4], NO_COLOR, fc);
    if (sh.instantiations) triple(b, s->instantiations, &file_cols[7], NO_COLOR, ic);
    triple(b, s->lines, &file_cols[10], lc, lc);
    if (sh.branches) triple(b, s->branches, &file_cols[13], lc, lc);
    if (sh.mcdc) triple(b, s->mcdc, &file_cols[16], lc, lc);
    pbu_buf_putc(b, '\n');
}

static size_t file_divider(const pb_coverage *c, size_t w0, shown sh) {
    size_t n = w0;
    int cut = pbi_llvm_cov_has(&c->t, PBI_LC_REPORT_DIVIDER_SHOWN);
    size_t last = pbi_llvm_cov_has(&c->t, PBI_LC_REPORT_MCDC_COLUMNS) ? 19 : 16;
    for (size_t i = 1; i < last; i++) {
        int group_shown = 1;
        if (i <= 3) group_shown = sh.regions;
        else if (i >= 7 && i <= 9) group_shown = sh.instantiations;
        else if (i >= 13 && i <= 15) group_shown = sh.branches;
        else if (i >= 16) group_shown = sh.mcdc;
        if (!cut || group_shown) n += file_cols[i];
    }
    return n;
}

static void file_header(pb_buf *b, size_t w0, shown sh) {
    left(b, "Filename", w0);
    static const char *const labels[19] = {NULL,       "Regions",  "Missed Regions",   "Cover",
                                           "Functions", "Missed Functions", "Executed", "Instantiations",
                                           "Missed Insts.", "Executed", "Lines", "Missed Lines",
                                           "Cover",      "Branches", "Missed Branches", "Cover",
                                           "MC/DC Conditions", "Missed Conditions", "Cover"};
    for (size_t i = 1; i < 19; i++) {
        if ((i <= 3 && !sh.regions) || (i >= 7 && i <= 9 && !sh.instantiations) ||
            (i >= 13 && i <= 15 && !sh.branches) || (i >= 16 && !sh.mcdc))
            continue;
        right(b, labels[i], file_cols[i]);
    }
    pbu_buf_putc(b, '\n');
}

/* The length of the path components all files share (getRedundantPrefixLen):
 * components are "/" for the root, then the names between slashes. */
static size_t component_starts(const char *p, size_t *starts, size_t max) {
    size_t n = 0, i = 0;
    if (p[0] == '/') {
        if (n < max) starts[n] = 0;
        n++;
        while (p[i] == '/') i++;
    }
    while (p[i]) {
        if (n < max) starts[n] = i;
        n++;
        while (p[i] && p[i] != '/') i++;
        while (p[i] == '/') i++;
    }
    return n;
}

static int same_component(const char *a, size_t ia, const char *b, size_t ib) {
    if (a[ia] == '/' || b[ib] == '/') return a[ia] == '/' && b[ib] == '/' && ia == 0 && ib == 0;
    size_t la = strcspn(a + ia, "/"), lb = strcspn(b + ib, "/");
    return la == lb && memcmp(a + ia, b + ib, la) == 0;
}

static size_t redundant_prefix(const char *const *files, size_t n) {
    if (n <= 1) return 0;
    size_t s0[256], si[256];
    size_t c0 = component_starts(files[0], s0, 256);
    if (c0 > 256) c0 = 256;
    size_t redundant = c0;
    for (size_t f = 1; f < n && redundant > 0; f++) {
        size_t ci = component_starts(files[f], si, 256);
        for (size_t k = 0; k < ci && k < 256; k++) {
            if (k >= redundant) break;
            if (!same_component(files[0], s0[k], files[f], si[k])) {
                redundant = k;
                break;
            }
        }
    }
    if (redundant == 0) return 0;
    return redundant < c0 ? s0[redundant] : strlen(files[0]);
}

static int file_table(pb_buf *b, const pb_coverage *c, const pb_cov_report_options *o, pb_error *err) {
    const char **files = NULL;
    size_t n = 0;
    int rc = pbi_cov_report_files(c, &files, &n, err);
    if (rc) return rc;
    shown sh = shown_of(c, o);
    pbi_cov_file_summary total, *sums = calloc(n ? n : 1, sizeof *sums);
    memset(&total, 0, sizeof total);
    if (!sums) rc = pbu_nomem(err, "report summaries");
    size_t lcp = redundant_prefix(files, n), w0 = file_cols[0];
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = c->view->file_summarize(c->ev, files[i], &sums[i], err);
        if (rc == 0) pbi_cov_file_summary_add(&total, &sums[i]);
        size_t len = strlen(files[i]) - (lcp <= strlen(files[i]) ? lcp : 0);
        if (len > w0) w0 = len;
    }
    if (rc == 0) {
        size_t div = file_divider(c, w0, sh);
        file_header(b, w0, sh);
        dashes(b, div);
        int empty = 0;
        for (size_t i = 0; i < n; i++) {
            if (sums[i].functions.total) file_row(b, files[i] + lcp, &sums[i], w0, sh, o->use_color);
            else empty = 1;
        }
        if (empty) {
            pbu_buf_puts(b, "\nFiles which contain no functions:\n");
            for (size_t i = 0; i < n; i++)
                if (!sums[i].functions.total) file_row(b, files[i] + lcp, &sums[i], w0, sh, o->use_color);
        }
        dashes(b, div);
        file_row(b, "TOTAL", &total, w0, sh, o->use_color);
    }
    free(sums);
    free(files);
    return rc;
}

/* CoverageReport::render(FunctionCoverageSummary): every missed count but
 * the regions' takes the lines' colour, every percentage its own. */
static void fn_row(pb_buf *b, const char *name, size_t name_len, const pbi_cov_fn_summary *s, size_t w0,
                   shown sh, int colors) {
    /* Column::RightTrim: a longer name is cut to w0 - 3 and "..." (w0 has
     * grown to the longest, so this does not happen in practice) */
    if (name_len <= w0) {
        pbu_buf_append(b, name, name_len);
        pad(b, w0 - name_len);
    } else {
        pbu_buf_append(b, name, w0 - 3);
        pbu_buf_puts(b, "...");
    }
    pbi_cov_ratio r[4] = {s->regions, s->lines, s->branches, s->mcdc};
    int on[4] = {1, 1, sh.branches, sh.mcdc};
    int lc = colors ? color_of(s->lines) : 0;
    for (int k = 0; k < 4; k++) {
        if (!on[k]) continue;
        int own = colors ? color_of(r[k]) : 0;
        num(b, r[k].total, fn_cols[1 + 3 * k], NO_COLOR);
        num(b, r[k].total - r[k].covered, fn_cols[2 + 3 * k], k == 0 ? own : lc);
        pct(b, r[k], fn_cols[3 + 3 * k], 0, own);
    }
    pbu_buf_putc(b, '\n');
}

static size_t fn_divider(const pb_coverage *c, size_t w0, shown sh) {
    size_t n = w0;
    int cut = pbi_llvm_cov_has(&c->t, PBI_LC_REPORT_DIVIDER_SHOWN);
    size_t last = pbi_llvm_cov_has(&c->t, PBI_LC_REPORT_MCDC_COLUMNS) ? 13 : 10;
    for (size_t i = 1; i < last; i++) {
        int on = i <= 6 ? 1 : i <= 9 ? sh.branches : sh.mcdc;
        if (!cut || on) n += fn_cols[i];
    }
    return n;
}

static void fn_header(pb_buf *b, size_t w0, shown sh) {
    static const char *const labels[13] = {NULL,   "Regions",  "Miss", "Cover",
                                           "Lines", "Miss",     "Cover", "Branches",
                                           "Miss",  "Cover",    "MC/DC Conditions", "Miss", "Cover"};
    left(b, "Name", w0);
    for (size_t i = 1; i < 13; i++) {
        if ((i >= 7 && i <= 9 && !sh.branches) || (i >= 10 && !sh.mcdc)) continue;
        right(b, labels[i], fn_cols[i]);
    }
    pbu_buf_putc(b, '\n');
}

/* DC.demangle: the demangler's name, or the name itself. */
static const char *shown_fn_name(const pb_cov_report_options *o, const pbi_cov_fn *f, size_t *len) {
    const char *d = o->demangle ? o->demangle(o->demangle_ctx, f->name, f->name_len) : NULL;
    if (d) {
        *len = strlen(d);
        return d;
    }
    *len = f->name_len;
    return f->name;
}

/* renderFunctionReports: the name column only grows from file to file. */
static int function_tables(pb_buf *b, const pb_coverage *c, const pb_cov_report_options *o, pb_error *err) {
    shown sh = shown_of(c, o);
    size_t w0 = fn_cols[0], nf = c->view->fn_count(c->ev);
    for (size_t s = 0; s < c->nsources; s++) {
        const char *file = c->sources[s];
        if (s) pbu_buf_putc(b, '\n');
        for (size_t i = 0; i < nf; i++) {
            const pbi_cov_fn *f = c->view->fn_at(c->ev, i);
            size_t len = 0;
            if (f->nfilenames && strcmp(f->filenames[0], file) == 0) (void)shown_fn_name(o, f, &len);
            if (len > w0) w0 = len;
        }
        pbu_buf_printf(b, "File '%s':\n", file);
        fn_header(b, w0, sh);
        size_t div = fn_divider(c, w0, sh);
        dashes(b, div);
        pbi_cov_fn_summary total;
        memset(&total, 0, sizeof total);
        size_t count = 0;
        for (size_t i = 0; i < nf; i++) {
            const pbi_cov_fn *f = c->view->fn_at(c->ev, i);
            if (!f->nfilenames || strcmp(f->filenames[0], file) != 0) continue;
            pbi_cov_fn_summary fs;
            int rc = c->view->fn_summarize(c->ev, f, &fs, err);
            if (rc) return rc;
            count++;
            total.regions.total += fs.regions.total, total.regions.covered += fs.regions.covered;
            total.lines.total += fs.lines.total, total.lines.covered += fs.lines.covered;
            total.branches.total += fs.branches.total, total.branches.covered += fs.branches.covered;
            total.mcdc.total += fs.mcdc.total, total.mcdc.covered += fs.mcdc.covered;
            size_t len;
            const char *name = shown_fn_name(o, f, &len);
            fn_row(b, name, len, &fs, w0, sh, o->use_color);
        }
        if (count) {
            dashes(b, div);
            fn_row(b, "TOTAL", 5, &total, w0, sh, o->use_color);
        }
    }
    return 0;
}

int pbi_cov_report_text(const pb_coverage *c, const pb_cov_report_options *o, pb_buf *b, pb_sink *sink,
                        pb_error *err) {
    (void)sink; /* a table is small: one line per file */
    if (!o->show_functions) return file_table(b, c, o, err);
    if (!c->nsources)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "sources",
                            "%cource files must be specified when -show-functions=true is specified",
                            pbi_llvm_cov_has(&c->t, PBI_LC_COV_MESSAGES_LOWER) ? 's' : 'S');
    return function_tables(b, c, o, err);
}
