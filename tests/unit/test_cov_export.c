/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_cov_export.c -- llvm-cov export (JSON, lcov) and report printers on a
 * hand-built evaluation (a pbi_cov_view over fixed data), with the expected
 * text written by hand from llvm-cov's rules (CoverageExporterJson.cpp,
 * CoverageExporterLcov.cpp, CoverageReport.cpp) and the shapes the real
 * llvm-cov-13..24 print for a program of the same form.
 *
 * The program: one file /src/a.c with
 *   main      lines 1-4, count 1, a code region 2:7-2:12 and a branch there
 *             taken once, never false;
 *   a.c:dead  line 5, count 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "coverage/cov_state.h"
#include "profbridge/coverage.h"
#include "testutil.h"

static const char *file_a = "/src/a.c";
static const char *files_a[] = {"/src/a.c"};

static pbi_cov_counted_region region(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2, uint64_t n, uint8_t kind) {
    pbi_cov_counted_region r;
    memset(&r, 0, sizeof r);
    r.r.line_start = l1, r.r.col_start = c1, r.r.line_end = l2, r.r.col_end = c2;
    r.r.kind = kind;
    r.count = n;
    return r;
}

static pbi_cov_counted_branch branch(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2, uint64_t n, uint8_t kind) {
    pbi_cov_counted_branch r;
    memset(&r, 0, sizeof r);
    r.r.line_start = l1, r.r.col_start = c1, r.r.line_end = l2, r.r.col_end = c2;
    r.r.kind = kind;
    r.count = n;
    return r;
}

typedef struct fake {
    pbi_cov_fn fns[2];
    pbi_cov_counted_region main_regions[2], dead_regions[1];
    pbi_cov_counted_branch main_branches[1];
    pbi_cov_segment segments[6];
    pbi_cov_mcdc_record mcdc; /* given to main when with_mcdc */
    int with_mcdc;
} fake;

static fake F;

static void build(int with_mcdc) {
    memset(&F, 0, sizeof F);
    F.main_regions[0] = region(1, 12, 4, 2, 1, PBI_COV_REGION_CODE);
    F.main_regions[1] = region(2, 7, 2, 12, 1, PBI_COV_REGION_CODE);
    F.main_branches[0] = branch(2, 7, 2, 12, 1, PBI_COV_REGION_BRANCH);
    F.dead_regions[0] = region(5, 15, 5, 30, 0, PBI_COV_REGION_CODE);
    F.fns[0] = (pbi_cov_fn){"main", 4, files_a, 1, F.main_regions, 2, F.main_branches, 1, NULL, 0, 1, 0};
    F.fns[1] = (pbi_cov_fn){"a.c:dead", 8, files_a, 1, F.dead_regions, 1, NULL, 0, NULL, 0, 0, 1};
    static const pbi_cov_segment seg[6] = {{1, 12, 1, 1, 1, 0}, {2, 7, 1, 1, 1, 0}, {2, 12, 1, 1, 0, 0},
                                           {4, 2, 0, 0, 0, 0},  {5, 15, 0, 1, 1, 0}, {5, 30, 0, 0, 0, 0}};
    memcpy(F.segments, seg, sizeof seg);
    F.with_mcdc = with_mcdc;
    if (with_mcdc) {
        /* a decision of two conditions at 2:7-2:20; vectors: (F,-) false
         * executed, (T,F) false not executed, (T,T) true executed */
        static int8_t tv[6] = {0, -1, 1, 0, 1, 1};
        static uint8_t res[3] = {0, 0, 1}, exe[3] = {1, 0, 1}, folded[2] = {0, 0}, covered[2] = {1, 0};
        static uint32_t pa[2] = {1, 0}, pb[2] = {3, 0};
        F.mcdc.decision = region(2, 7, 2, 20, 0, PBI_COV_REGION_MCDC_DECISION);
        F.mcdc.nconds = 2;
        F.mcdc.ntv = 3;
        F.mcdc.tv = tv;
        F.mcdc.tv_result = res;
        F.mcdc.tv_executed = exe;
        F.mcdc.folded = folded;
        F.mcdc.covered = covered;
        F.mcdc.pair_a = pa;
        F.mcdc.pair_b = pb;
        F.fns[0].mcdc = &F.mcdc;
        F.fns[0].nmcdc = 1;
    }
}

static size_t v_fn_count(const pbi_coverage *c) {
    (void)c;
    return 2;
}
static const pbi_cov_fn *v_fn_at(const pbi_coverage *c, size_t i) {
    (void)c;
    return &F.fns[i];
}
static size_t v_file_count(const pbi_coverage *c) {
    (void)c;
    return 1;
}
static const char *v_file_at(const pbi_coverage *c, size_t i) {
    (void)c, (void)i;
    return file_a;
}
static int v_for_file(const pbi_coverage *c, const char *filename, pbi_cov_data *out, pb_error *err) {
    (void)c, (void)err;
    memset(out, 0, sizeof *out);
    out->filename = filename;
    out->segments = malloc(sizeof F.segments);
    out->branches = malloc(sizeof F.main_branches);
    out->mcdc = malloc(sizeof *out->mcdc);
    if (!out->segments || !out->branches || !out->mcdc) return PB_ENOMEM;
    memcpy(out->segments, F.segments, sizeof F.segments);
    out->nsegments = 6;
    memcpy(out->branches, F.main_branches, sizeof F.main_branches);
    out->nbranches = 1;
    out->mcdc[0] = &F.mcdc;
    out->nmcdc = F.with_mcdc ? 1 : 0;
    return 0;
}
static int v_for_expansion(const pbi_coverage *c, const pbi_cov_expansion *e, pbi_cov_data *out, pb_error *err) {
    (void)c, (void)e, (void)err;
    memset(out, 0, sizeof *out);
    return 0;
}
static void v_data_free(pbi_cov_data *d) {
    free(d->segments);
    free(d->expansions);
    free(d->branches);
    free((void *)d->mcdc);
    memset(d, 0, sizeof *d);
}
static int v_lines(const pbi_cov_data *d, pbi_cov_line **out, size_t *n, pb_error *err) {
    (void)d, (void)err;
    *out = calloc(5, sizeof **out);
    if (!*out) return PB_ENOMEM;
    for (uint32_t i = 0; i < 5; i++) {
        (*out)[i].line = i + 1;
        (*out)[i].mapped = 1;
        (*out)[i].count = i < 4 ? 1 : 0;
    }
    *n = 5;
    return 0;
}
static int v_fn_summarize(const pbi_coverage *c, const pbi_cov_fn *fn, pbi_cov_fn_summary *out, pb_error *err) {
    (void)c, (void)err;
    memset(out, 0, sizeof *out);
    out->name = fn->name;
    out->count = fn->count;
    if (fn == &F.fns[0]) {
        out->regions = (pbi_cov_ratio){2, 2};
        out->lines = (pbi_cov_ratio){4, 4};
        out->branches = (pbi_cov_ratio){1, 2};
        if (F.with_mcdc) out->mcdc = (pbi_cov_ratio){1, 2};
    } else {
        out->regions = (pbi_cov_ratio){0, 1};
        out->lines = (pbi_cov_ratio){0, 1};
    }
    return 0;
}

/* /src/a.c's FileCoverageSummary, added up by hand: main's group (2/2
 * regions, 4/4 lines, 1/2 branches, executed) and a.c:dead's (0/1, 0/1,
 * not executed). */
static int v_file_summarize(const pbi_coverage *c, const char *filename, pbi_cov_file_summary *out, pb_error *err) {
    (void)c, (void)err;
    memset(out, 0, sizeof *out);
    out->name = filename;
    out->regions = (pbi_cov_ratio){2, 3};
    out->lines = (pbi_cov_ratio){4, 5};
    out->branches = (pbi_cov_ratio){1, 2};
    out->mcdc = F.with_mcdc ? (pbi_cov_ratio){1, 2} : (pbi_cov_ratio){0, 0};
    out->functions = (pbi_cov_ratio){1, 2};
    out->instantiations = (pbi_cov_ratio){1, 2};
    return 0;
}

static const pbi_cov_view fake_view = {v_fn_count,      v_fn_at,     v_file_count, v_file_at,      v_for_file,
                                       v_for_expansion, v_data_free, v_lines,      v_fn_summarize, v_file_summarize};

static pb_coverage cov_for(int release, int with_mcdc) {
    build(with_mcdc);
    pb_coverage c;
    memset(&c, 0, sizeof c);
    c.view = &fake_view;
    CU_ASSERT_EQUAL(pbi_llvm_target_of(release, &c.t), 0);
    return c;
}

static char *export_text(int release, int with_mcdc, const pb_cov_export_options *o) {
    pb_coverage c = cov_for(release, with_mcdc);
    pb_buf b = PB_BUF_INIT;
    int rc = o->format == PB_COV_JSON ? pbi_cov_export_json(&c, o, &b, NULL, NULL) : pbi_cov_export_lcov(&c, o, &b, NULL, NULL);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_FALSE(b.failed);
    return b.data;
}

static char *report_text(int release, const pb_cov_report_options *o, const char *source) {
    pb_coverage c = cov_for(release, 0);
    char *src[1] = {(char *)source};
    if (source) c.sources = src, c.nsources = 1;
    pb_buf b = PB_BUF_INIT;
    CU_ASSERT_EQUAL(pbi_cov_report_text(&c, o, &b, NULL, NULL), 0);
    return b.data;
}

#define SUMMARY_SORTED(MCDC)                                                                          \
    "{\"branches\":{\"count\":2,\"covered\":1,\"notcovered\":1,\"percent\":50},"                     \
    "\"functions\":{\"count\":2,\"covered\":1,\"percent\":50},"                                      \
    "\"instantiations\":{\"count\":2,\"covered\":1,\"percent\":50},"                                 \
    "\"lines\":{\"count\":5,\"covered\":4,\"percent\":80}," MCDC                                      \
    "\"regions\":{\"count\":3,\"covered\":2,\"notcovered\":1,\"percent\":66.666666666666657}}"

#define SEGMENTS                                                                                       \
    "[[1,12,1,true,true,false],[2,7,1,true,true,false],[2,12,1,true,false,false],[4,2,0,false,false,false]," \
    "[5,15,0,true,true,false],[5,30,0,false,false,false]]"

static void cov_export__json_13_has_no_mcdc_and_version_2_0_1(void) {
    pb_cov_export_options o = PB_COV_EXPORT_OPTIONS_INIT;
    char *s = export_text(13, 0, &o);
    const char *want =
        "{\"data\":[{\"files\":[{\"branches\":[[2,7,2,12,1,0,0,0,4]],\"expansions\":[],\"filename\":\"/src/a.c\","
        "\"segments\":" SEGMENTS ",\"summary\":" SUMMARY_SORTED("") "}],"
        "\"functions\":[{\"branches\":[[2,7,2,12,1,0,0,0,4]],\"count\":1,\"filenames\":[\"/src/a.c\"],"
        "\"name\":\"main\",\"regions\":[[1,12,4,2,1,0,0,0],[2,7,2,12,1,0,0,0]]},"
        "{\"branches\":[],\"count\":0,\"filenames\":[\"/src/a.c\"],\"name\":\"a.c:dead\","
        "\"regions\":[[5,15,5,30,0,0,0,0]]}],"
        "\"totals\":" SUMMARY_SORTED("") "}],\"type\":\"llvm.coverage.json.export\",\"version\":\"2.0.1\"}";
    if (getenv("DBG") && strcmp(s, want)) fprintf(stderr, "\nGOT  %s\nWANT %s\n", s, want);
    CU_ASSERT_STRING_EQUAL(s, want);
    free(s);
}

#define MCDC0 "\"mcdc\":{\"count\":0,\"covered\":0,\"notcovered\":0,\"percent\":0},"

static void cov_export__json_19_summary_only_has_mcdc_totals(void) {
    pb_cov_export_options o = PB_COV_EXPORT_OPTIONS_INIT;
    o.summary_only = 1;
    char *s = export_text(19, 0, &o);
    const char *want = "{\"data\":[{\"files\":[{\"filename\":\"/src/a.c\",\"summary\":" SUMMARY_SORTED(
        MCDC0) "}],\"totals\":" SUMMARY_SORTED(MCDC0) "}],\"type\":\"llvm.coverage.json.export\",\"version\":\"2.0.1\"}";
    if (getenv("DBG") && strcmp(s, want)) fprintf(stderr, "\nGOT  %s\nWANT %s\n", s, want);
    CU_ASSERT_STRING_EQUAL(s, want);
    free(s);
}

/* The MC/DC record of each JSON version: 18 (2.0.1) place, expanded file
 * id, kind, conditions; 21 (3.0.1) adds the executed true/false decisions
 * and the file id; 22 (3.1.0) the executed test vectors. */
static void cov_export__json_mcdc_record_per_release(void) {
    pb_cov_export_options o = PB_COV_EXPORT_OPTIONS_INIT;
    o.skip_functions = 1;
    o.skip_expansions = 1;
    char *s18 = export_text(18, 1, &o), *s21 = export_text(21, 1, &o), *s22 = export_text(22, 1, &o);
    CU_ASSERT_PTR_NOT_NULL(strstr(s18, "\"mcdc_records\":[[2,7,2,20,0,5,[true,false]]],\"segments\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(s21, "\"mcdc_records\":[[2,7,2,20,1,1,0,0,5,[true,false]]],\"segments\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(s22, "\"mcdc_records\":[[2,7,2,20,1,1,0,0,5,[true,false],"
                                       "[{\"conditions\":[false,null],\"executed\":true,\"result\":false},"
                                       "{\"conditions\":[true,true],\"executed\":true,\"result\":true}]]]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s21, "\"version\":\"3.0.1\"}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(s22, "\"version\":\"3.1.0\"}"));
    CU_ASSERT_PTR_NULL(strstr(s18, "expansions"));
    free(s18);
    free(s21);
    free(s22);
    o.show_mcdc_non_executed_vectors = 1;
    char *s23 = export_text(23, 1, &o);
    /* executed vectors first, then the others (llvm-cov-23's order) */
    CU_ASSERT_PTR_NOT_NULL(strstr(s23, "[{\"conditions\":[false,null],\"executed\":true,\"result\":false},"
                                       "{\"conditions\":[true,true],\"executed\":true,\"result\":true},"
                                       "{\"conditions\":[true,false],\"executed\":false,\"result\":false}]"));
    free(s23);
}

/* 23 writes filename first and the summary in the source's order. */
static void cov_export__json_23_write_order(void) {
    pb_cov_export_options o = PB_COV_EXPORT_OPTIONS_INIT;
    o.skip_functions = 1;
    char *s = export_text(23, 0, &o);
    const char *want =
        "{\"data\":[{\"files\":[{\"filename\":\"/src/a.c\",\"branches\":[[2,7,2,12,1,0,0,0,4]],\"expansions\":[],"
        "\"mcdc_records\":[],\"segments\":" SEGMENTS ",\"summary\":{\"lines\":{\"count\":5,\"covered\":4,\"percent\":80},"
        "\"functions\":{\"count\":2,\"covered\":1,\"percent\":50},"
        "\"instantiations\":{\"count\":2,\"covered\":1,\"percent\":50},"
        "\"regions\":{\"count\":3,\"covered\":2,\"notcovered\":1,\"percent\":66.666666666666657},"
        "\"branches\":{\"count\":2,\"covered\":1,\"notcovered\":1,\"percent\":50},"
        "\"mcdc\":{\"count\":0,\"covered\":0,\"notcovered\":0,\"percent\":0}}}],";
    if (getenv("DBG")) fprintf(stderr, "\nGOT  %s\nWANT %s\n", s, want);
    CU_ASSERT_EQUAL(strncmp(s, want, strlen(want)), 0);
    free(s);
}

static const char lcov_full[] = "SF:/src/a.c\nFN:1,main\nFN:5,a.c:dead\nFNDA:1,main\nFNDA:0,a.c:dead\nFNF:2\nFNH:1\n"
                                "DA:1,1\nDA:2,1\nDA:3,1\nDA:4,1\nDA:5,0\nBRDA:2,0,0,1\nBRDA:2,0,1,0\n"
                                "BRF:2\nBRH:1\nLF:5\nLH:4\nend_of_record\n";

static void cov_export__lcov(void) {
    pb_cov_export_options o = PB_COV_EXPORT_OPTIONS_INIT;
    o.format = PB_COV_LCOV;
    for (int r = 13; r <= 24; r++) {
        char *s = export_text(r, 0, &o);
        CU_ASSERT_STRING_EQUAL(s, lcov_full);
        free(s);
    }
    o.summary_only = 1;
    char *s = export_text(19, 0, &o);
    CU_ASSERT_STRING_EQUAL(s, "SF:/src/a.c\nFNF:2\nFNH:1\nBRF:2\nBRH:1\nLF:5\nLH:4\nend_of_record\n");
    free(s);
    o.summary_only = 0;
    o.skip_branches = 1;
    o.skip_functions = 1;
    s = export_text(19, 0, &o);
    CU_ASSERT_STRING_EQUAL(s, "SF:/src/a.c\nFNF:2\nFNH:1\nDA:1,1\nDA:2,1\nDA:3,1\nDA:4,1\nDA:5,0\nLF:5\nLH:4\n"
                              "end_of_record\n");
    free(s);
}

static char *dashes(size_t n) {
    char *d = malloc(n + 2);
    if (!d) return NULL;
    memset(d, '-', n);
    d[n] = '\n';
    d[n + 1] = '\0';
    return d;
}

#define HEAD                                                                                                          \
    "Filename                      Regions    Missed Regions     Cover   Functions  Missed Functions  Executed       " \
    "Lines      Missed Lines     Cover    Branches   Missed Branches     Cover\n"
#define ROW(name)                                                                                                    \
    name "           3                 1    66.67%           2                 1    50.00%           5                 1" \
         "    80.00%           2                 1    50.00%\n"

/* The divider: every column before 19 (227, 278 with 18's MC/DC ones),
 * the shown ones from 19 (185). */
static void cov_report__file_table_per_release(void) {
    pb_cov_report_options o = PB_COV_REPORT_OPTIONS_INIT;
    const int rel[3] = {17, 18, 19};
    const size_t width[3] = {227, 278, 185};
    for (int k = 0; k < 3; k++) {
        char *s = report_text(rel[k], &o, NULL), *d = dashes(width[k]);
        size_t need = strlen(HEAD) + 2 * strlen(d) + 2 * strlen(ROW("/src/a.c                 ")) + 1;
        char *want = malloc(need);
        CU_ASSERT_PTR_NOT_NULL_FATAL(want);
        snprintf(want, need, "%s%s%s%s%s", HEAD, d, ROW("/src/a.c                 "), d,
                 ROW("TOTAL                    "));
        if (getenv("DBG") && strcmp(s, want)) fprintf(stderr, "\nGOT  %s\nWANT %s\n", s, want);
    CU_ASSERT_STRING_EQUAL(s, want);
        free(want);
        free(d);
        free(s);
    }
}

static void cov_report__function_table(void) {
    pb_cov_report_options o = PB_COV_REPORT_OPTIONS_INIT;
    o.show_functions = 1;
    char *s = report_text(19, &o, "/src/a.c");
    const char *want =
        "File '/src/a.c':\n"
        "Name                        Regions    Miss   Cover     Lines    Miss   Cover  Branches    Miss   Cover\n"
        "-------------------------------------------------------------------------------------------------------\n"
        "main                              2       0 100.00%         4       0 100.00%         2       1  50.00%\n"
        "a.c:dead                          1       1   0.00%         1       1   0.00%         0       0   0.00%\n"
        "-------------------------------------------------------------------------------------------------------\n"
        "TOTAL                             3       1  66.67%         5       1  80.00%         2       1  50.00%\n";
    if (getenv("DBG") && strcmp(s, want)) fprintf(stderr, "\nGOT  %s\nWANT %s\n", s, want);
    CU_ASSERT_STRING_EQUAL(s, want);
    free(s);
    /* no sources: llvm-cov's error, capitalised before 18 */
    const int rel[2] = {17, 19};
    const char *const msg[2] = {"Source files must be specified when -show-functions=true is specified",
                                "source files must be specified when -show-functions=true is specified"};
    for (int k = 0; k < 2; k++) {
        pb_coverage c = cov_for(rel[k], 0);
        pb_buf b = PB_BUF_INIT;
        pb_error e;
        pb_error_clear(&e);
        CU_ASSERT_EQUAL(pbi_cov_report_text(&c, &o, &b, NULL, &e), PB_EINVAL);
        CU_ASSERT_STRING_EQUAL(e.message, msg[k]);
        pbu_buf_free(&b);
    }
}

static const char *upper_main(void *ctx, const char *name, size_t len) {
    (void)ctx;
    return len == 4 && memcmp(name, "main", 4) == 0 ? "int main(int argc, char **argv) [demangled]" : NULL;
}

/* -Xdemangler: names as the demangler gives them, the column as wide as
 * the longest of those. */
static void cov_report__function_table_demangled(void) {
    pb_cov_report_options o = PB_COV_REPORT_OPTIONS_INIT;
    o.show_functions = 1;
    o.show_branch_summary = 0;
    o.demangle = upper_main;
    char *s = report_text(19, &o, "/src/a.c");
    const char *want = "File '/src/a.c':\n"
                       "Name                                          Regions    Miss   Cover     Lines    Miss   Cover\n"
                       "-----------------------------------------------------------------------------------------------\n"
                       "int main(int argc, char **argv) [demangled]         2       0 100.00%         4       0 100.00%\n"
                       "a.c:dead                                            1       1   0.00%         1       1   0.00%\n"
                       "-----------------------------------------------------------------------------------------------\n"
                       "TOTAL                                               3       1  66.67%         5       1  80.00%\n";
    if (getenv("DBG") && strcmp(s, want)) fprintf(stderr, "\nGOT  %s\nWANT %s\n", s, want);
    CU_ASSERT_STRING_EQUAL(s, want);
    free(s);
}

/* A file with no function: "-" for every empty percentage. */
static void cov_report__percent_of_nothing_is_a_dash(void) {
    pbi_cov_ratio z = {0, 0};
    CU_ASSERT_EQUAL(pbi_cov_percent(z), 0.0);
    pb_cov_report_options o = PB_COV_REPORT_OPTIONS_INIT;
    o.show_region_summary = 0;
    o.show_branch_summary = 0;
    pb_coverage c = cov_for(19, 0);
    regex_t all;
    CU_ASSERT_EQUAL_FATAL(regcomp(&all, "a\\.c", REG_EXTENDED | REG_NOSUB), 0);
    c.ignore = &all;
    c.nignore = 1;
    pb_buf b = PB_BUF_INIT;
    CU_ASSERT_EQUAL(pbi_cov_report_text(&c, &o, &b, NULL, NULL), 0);
    const char *want = "Filename                    Functions  Missed Functions  Executed       Lines      Missed Lines     Cover\n"
                       "---------------------------------------------------------------------------------------------------------\n"
                       "---------------------------------------------------------------------------------------------------------\n"
                       "TOTAL                               0                 0         -           0                 0         -\n";
    CU_ASSERT_STRING_EQUAL(b.data, want);
    pbu_buf_free(&b);
    regfree(&all);
}

/* -ignore-filename-regex: any match drops a file; -include-filename-regex
 * (23+): every one must match (llvm-cov-24 keeps nothing with "z.c" and
 * "x.c"). */
static void cov_filter__ignore_any_include_all(void) {
    pb_coverage c = cov_for(24, 0);
    regex_t inc[2], ign[1];
    CU_ASSERT_EQUAL_FATAL(regcomp(&inc[0], "/a/", REG_EXTENDED | REG_NOSUB), 0);
    CU_ASSERT_EQUAL_FATAL(regcomp(&inc[1], "x", REG_EXTENDED | REG_NOSUB), 0);
    CU_ASSERT_EQUAL_FATAL(regcomp(&ign[0], "y\\.c$", REG_EXTENDED | REG_NOSUB), 0);
    c.include = inc;
    c.ninclude = 2;
    CU_ASSERT_FALSE(pbi_cov_filename_ignored(&c, "/src/a/x.c"));
    CU_ASSERT_TRUE(pbi_cov_filename_ignored(&c, "/src/a/b.c"));
    CU_ASSERT_TRUE(pbi_cov_filename_ignored(&c, "/src/x.c"));
    c.ignore = ign;
    c.nignore = 1;
    CU_ASSERT_TRUE(pbi_cov_filename_ignored(&c, "/src/a/xy.c"));
    CU_ASSERT_FALSE(pbi_cov_filename_ignored(&c, "/src/a/xy.cc"));
    regfree(&inc[0]);
    regfree(&inc[1]);
    regfree(&ign[0]);
}

/* sys::path::remove_dots(remove_dot_dot): what SOURCES and report's
 * names go through (llvm-cov-13 shows /tmp/e/build/../src/main.c as
 * /tmp/e/src/main.c). */
static void cov_filter__remove_dots(void) {
    static const char *const cases[][2] = {{"/a/./b/../c", "/a/c"},   {"../a/../../b", "../../b"},
                                           {"/../x", "/x"},           {"a//b/", "a/b"},
                                           {"/tmp/e/build/../src/main.c", "/tmp/e/src/main.c"},
                                           {"./", ""},                {"/", "/"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", cases[i][0]);
        pbi_cov_remove_dots(buf);
        CU_ASSERT_STRING_EQUAL(buf, cases[i][1]);
    }
}

/* The whole path, loader to printers, on the reader's seed objects
 * (tests/fuzz/cov_read, clang-19 relocatable objects) with -empty-profile;
 * expected text: what llvm-cov-24 -empty-profile printed for them. */
static char *load_and_print(const char *object, int report, const pb_cov_export_options *eo) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fuzz/cov_read/%s", PB_SOURCE_DIR, object);
    const char *objs[1] = {path};
    pb_cov_options o = PB_COV_OPTIONS_INIT;
    o.llvm_release = 24;
    o.empty_profile = 1;
    pb_coverage *cov = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_coverage_load(&cov, objs, 1, NULL, NULL, 0, &o, &err), 0);
    pb_sink *sink = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&sink, &err), 0);
    pb_cov_report_options ro = PB_COV_REPORT_OPTIONS_INIT;
    int rc = report ? pb_coverage_report(cov, &ro, sink, &err) : pb_coverage_export(cov, eo, sink, &err);
    CU_ASSERT_EQUAL(rc, 0);
    size_t len = 0;
    const uint8_t *bytes = pb_sink_memory(sink, &len);
    char *text = malloc(len + 1);
    if (text) {
        if (len) memcpy(text, bytes, len);
        text[len] = '\0';
    }
    pb_sink_free(sink);
    pb_coverage_free(cov);
    return text;
}

static void cov_export__seed_objects_as_llvm_cov_24(void) {
    pb_cov_export_options eo = PB_COV_EXPORT_OPTIONS_INIT;
    eo.format = PB_COV_LCOV;
    eo.unify_instantiations = 1;
    char *s = load_and_print("mc19.elf", 0, &eo);
    CU_ASSERT_STRING_EQUAL(s, "SF:/tmp/rd/mc.c\nFN:1,g\nFNDA:0,g\nFNF:1\nFNH:0\nDA:1,0\nBRDA:1,0,0,-\nBRDA:1,0,1,-\n"
                              "BRDA:1,1,2,-\nBRDA:1,1,3,-\nBRDA:1,2,4,-\nBRDA:1,2,5,-\nBRF:6\nBRH:0\nLF:1\nLH:0\n"
                              "end_of_record\n");
    free(s);
    s = load_and_print("mc19.elf", 1, NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(s, "\n/tmp/rd/mc.c                        8                 8     0.00%           1"
                                     "                 1     0.00%           1                 1     0.00%           6"
                                     "                 6     0.00%\n"));
    free(s);
    pb_cov_export_options js = PB_COV_EXPORT_OPTIONS_INIT;
    js.summary_only = 1;
    s = load_and_print("b19.elf", 0, &js);
    CU_ASSERT_STRING_EQUAL(
        s, "{\"data\":[{\"files\":[{\"filename\":\"/tmp/rd/m/b.cpp\",\"summary\":{\"lines\":{\"count\":3,\"covered\":0,"
           "\"percent\":0},\"functions\":{\"count\":1,\"covered\":0,\"percent\":0},\"instantiations\":{\"count\":1,"
           "\"covered\":0,\"percent\":0},\"regions\":{\"count\":11,\"covered\":0,\"notcovered\":11,\"percent\":0},"
           "\"branches\":{\"count\":6,\"covered\":0,\"notcovered\":6,\"percent\":0},\"mcdc\":{\"count\":2,\"covered\":0,"
           "\"notcovered\":2,\"percent\":0}}},{\"filename\":\"/tmp/rd/m/sub/h.h\",\"summary\":{\"lines\":{\"count\":4,"
           "\"covered\":0,\"percent\":0},\"functions\":{\"count\":4,\"covered\":0,\"percent\":0},\"instantiations\":"
           "{\"count\":4,\"covered\":0,\"percent\":0},\"regions\":{\"count\":10,\"covered\":0,\"notcovered\":10,"
           "\"percent\":0},\"branches\":{\"count\":4,\"covered\":0,\"notcovered\":4,\"percent\":0},\"mcdc\":{\"count\":0,"
           "\"covered\":0,\"notcovered\":0,\"percent\":0}}}],\"totals\":{\"lines\":{\"count\":7,\"covered\":0,"
           "\"percent\":0},\"functions\":{\"count\":5,\"covered\":0,\"percent\":0},\"instantiations\":{\"count\":5,"
           "\"covered\":0,\"percent\":0},\"regions\":{\"count\":21,\"covered\":0,\"notcovered\":21,\"percent\":0},"
           "\"branches\":{\"count\":10,\"covered\":0,\"notcovered\":10,\"percent\":0},\"mcdc\":{\"count\":2,"
           "\"covered\":0,\"notcovered\":2,\"percent\":0}}}],\"type\":\"llvm.coverage.json.export\",\"version\":\"3.1.0\"}");
    free(s);
}

static void cov_options__init_checks_version(void) {
    pb_cov_options o;
    CU_ASSERT_EQUAL(pb_cov_options_init(&o, PB_COV_OPTIONS_VERSION), PB_OK);
    CU_ASSERT_EQUAL(o.version, PB_COV_OPTIONS_VERSION);
    CU_ASSERT_EQUAL(pb_cov_options_init(&o, 99), PB_EINVAL);
    pb_cov_export_options e;
    CU_ASSERT_EQUAL(pb_cov_export_options_init(&e, 1), PB_OK);
    CU_ASSERT_EQUAL(e.format, PB_COV_JSON);
    pb_cov_report_options r;
    CU_ASSERT_EQUAL(pb_cov_report_options_init(&r, 0), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_cov_report_options_init(&r, 1), PB_OK);
    CU_ASSERT_EQUAL(r.show_region_summary, -1);
    pb_coverage *c = (pb_coverage *)&r;
    const char *obj[] = {"/nonexistent"};
    CU_ASSERT_EQUAL(pb_coverage_load(&c, obj, 1, NULL, NULL, 0, NULL, NULL), PB_EINVAL);
    CU_ASSERT_PTR_NULL(c);
}

/* What the diagnostics callback saw: each one as "path|source|message\n". */
typedef struct seen_diags {
    char text[4096];
} seen_diags;

static void keep_diag(void *ctx, int severity, const pb_error *e) {
    seen_diags *s = ctx;
    (void)severity;
    size_t n = strlen(s->text);
    snprintf(s->text + n, sizeof s->text - n, "%s|%s|%s\n", e->path, e->source, e->message);
}

/* Sets path's modification time to sec.nsec. */
static void set_mtime(const char *path, time_t sec, long nsec) {
    struct timespec ts[2];
    ts[0].tv_sec = ts[1].tv_sec = sec;
    ts[0].tv_nsec = ts[1].tv_nsec = nsec;
    CU_ASSERT_EQUAL(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* llvm-cov's "warning: OBJ: profile data may be out of date - object is
 * newer": once per object operand (the same object twice: twice) whose
 * modification time is after the profile's, to the nanosecond, none when
 * equal or older or when the profile cannot be stat'ed (llvm-cov-13, 18, 19
 * and 24 printed exactly this for copies made with touch -d: object
 * 00:00:02 or 00:00:01.5 against profile 00:00:01 warn, equal times do not;
 * `./q -object ./q` warns twice). */
static void cov_load__out_of_date_warning(void) {
    char dir[] = "/tmp/pb_cov_ood_XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char obj[256], prof[256], src[4096];
    snprintf(obj, sizeof obj, "%s/m.elf", dir);
    snprintf(prof, sizeof prof, "%s/m.proftext", dir);
    snprintf(src, sizeof src, "%s/tests/fuzz/cov_read/mc19.elf", PB_SOURCE_DIR);
    size_t len = 0;
    char *bytes = tu_slurp(src, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
    FILE *f = fopen(obj, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(bytes, 1, len, f), len);
    fclose(f);
    free(bytes);
    f = fopen(prof, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("nothing\n0x1\n1\n0\n", f);
    fclose(f);
    struct {
        time_t obj_sec;
        long obj_nsec;
        int nobjs, release;
        const char *want;
    } cases[] = {
        {1577836802, 0, 1, 19, "coverage.out_of_date|OBJ|profile data may be out of date - object is newer\n"},
        {1577836801, 500000000, 1, 18, "coverage.out_of_date|OBJ|profile data may be out of date - object is newer\n"},
        {1577836802, 0, 2, 24,
         "coverage.out_of_date|OBJ|profile data may be out of date - object is newer\n"
         "coverage.out_of_date|OBJ|profile data may be out of date - object is newer\n"},
        {1577836801, 0, 1, 19, ""},
        {1577836800, 0, 1, 18, ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        set_mtime(prof, 1577836801, 0);
        set_mtime(obj, cases[i].obj_sec, cases[i].obj_nsec);
        seen_diags seen;
        seen.text[0] = 0;
        pb_cov_options o = PB_COV_OPTIONS_INIT;
        o.llvm_release = cases[i].release;
        o.diag = keep_diag;
        o.diag_ctx = &seen;
        const char *objs[2] = {obj, obj}, *profs[1] = {prof};
        pb_coverage *cov = NULL;
        pb_error err;
        CU_ASSERT_EQUAL(pb_coverage_load(&cov, objs, (size_t)cases[i].nobjs, profs, NULL, 1, &o, &err), 0);
        pb_coverage_free(cov);
        char want[1024];
        size_t w = 0;
        for (const char *p = cases[i].want; *p && w + 300 < sizeof want; p++) {
            if (!strncmp(p, "OBJ", 3)) {
                w += (size_t)snprintf(want + w, sizeof want - w, "%s", obj);
                p += 2;
            } else {
                want[w++] = *p;
            }
        }
        want[w] = 0;
        CU_ASSERT_STRING_EQUAL(seen.text, want);
    }
    remove(obj);
    remove(prof);
    rmdir(dir);
}

/* A profile llvm-cov-N cannot read: pb_error.message is llvm-cov-N's line
 * (without "error: "), as llvm-cov-13, 14, 15, 17, 18, 19, 23 and 24 printed
 * it for `report ./p13 -instr-profile P` (P: a missing file, 8 bytes of
 * text, an empty file, llvm-profdata-19's and -24's indexed files). Here the
 * indexed files are their 16 header bytes: the version decides. */
static void cov_load__unreadable_profile_words(void) {
    char dir[] = "/tmp/pb_cov_prof_XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char obj[4096], garbage[256], empty[256], v12[256], v10[256], missing[256];
    snprintf(obj, sizeof obj, "%s/tests/fuzz/cov_read/mc19.elf", PB_SOURCE_DIR);
    snprintf(garbage, sizeof garbage, "%s/garbage.profdata", dir);
    snprintf(empty, sizeof empty, "%s/empty.profdata", dir);
    snprintf(v12, sizeof v12, "%s/v12.profdata", dir);
    snprintf(v10, sizeof v10, "%s/v10.profdata", dir);
    snprintf(missing, sizeof missing, "%s/missing.profdata", dir);
    static const uint8_t h12[16] = {0xff, 0x6c, 0x70, 0x72, 0x6f, 0x66, 0x69, 0x81, 12, 0, 0, 0, 0, 0, 0, 0};
    static const uint8_t h10[16] = {0xff, 0x6c, 0x70, 0x72, 0x6f, 0x66, 0x69, 0x81, 10, 0, 0, 0, 0, 0, 0, 0x10};
    struct {
        const char *path;
        const void *bytes;
        size_t len;
    } files[] = {{garbage, "garbage\n", 8}, {empty, "", 0}, {v12, h12, 16}, {v10, h10, 16}};
    for (size_t i = 0; i < 4; i++) {
        FILE *f = fopen(files[i].path, "wb");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        if (files[i].len) CU_ASSERT_EQUAL(fwrite(files[i].bytes, 1, files[i].len, f), files[i].len);
        fclose(f);
    }
    struct {
        int release;
        const char *prof;
        int code;
        const char *path, *fmt; /* %s: the profile; OBJ: the object */
    } cases[] = {
        {13, missing, PB_EIO, PB_COV_LOAD_FAILED, "OBJ: Failed to load coverage: No such file or directory"},
        {14, garbage, PB_EFORMAT, PB_COV_LOAD_FAILED,
         "OBJ: Failed to load coverage: invalid instrumentation profile data (bad magic)"},
        {13, v12, PB_EFORMAT, PB_COV_LOAD_FAILED,
         "OBJ: Failed to load coverage: unsupported instrumentation profile format version"},
        {15, missing, PB_EIO, PB_COV_PROFILE_UNREADABLE, "%s: Could not read profile data!No such file or directory"},
        {17, empty, PB_EFORMAT, PB_COV_LOAD_FAILED,
         "Failed to load coverage: '%s': invalid instrumentation profile data (bad magic)"},
        {18, missing, PB_EIO, PB_COV_PROFILE_UNREADABLE, "%s: could not read profile data!No such file or directory"},
        {18, v12, PB_EFORMAT, PB_COV_LOAD_FAILED,
         "failed to load coverage: '%s': unsupported instrumentation profile format version"},
        {19, garbage, PB_EFORMAT, PB_COV_LOAD_FAILED,
         "failed to load coverage: '%s': invalid instrumentation profile data (bad magic)"},
        {24, empty, PB_EFORMAT, PB_COV_LOAD_FAILED,
         "failed to load coverage: '%s': invalid instrumentation profile data (bad magic)"},
        /* 19 reads version 12, 18 reads 10 (the variant bits aside): the
         * header passes, the merger then finds the file truncated */
        {19, v12, 0, NULL, NULL},
        {18, v10, 0, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb_cov_options o = PB_COV_OPTIONS_INIT;
        o.llvm_release = cases[i].release;
        const char *objs[1] = {obj}, *profs[1] = {cases[i].prof};
        pb_coverage *cov = NULL;
        pb_error err;
        pb_error_clear(&err);
        int rc = pb_coverage_load(&cov, objs, 1, profs, NULL, 1, &o, &err);
        CU_ASSERT_NOT_EQUAL(rc, 0);
        pb_coverage_free(cov);
        if (!cases[i].fmt) {
            CU_ASSERT_PTR_NULL(strstr(err.message, "unsupported instrumentation profile format version"));
            CU_ASSERT_STRING_NOT_EQUAL(err.path, PB_COV_LOAD_FAILED);
            continue;
        }
        char want[8192];
        if (!strncmp(cases[i].fmt, "OBJ", 3)) snprintf(want, sizeof want, "%s%s", obj, cases[i].fmt + 3);
        else snprintf(want, sizeof want, cases[i].fmt, cases[i].prof);
        CU_ASSERT_EQUAL(rc, cases[i].code);
        CU_ASSERT_STRING_EQUAL(err.message, want);
        CU_ASSERT_STRING_EQUAL(err.path, cases[i].path);
    }
    for (size_t i = 0; i < 4; i++) remove(files[i].path);
    rmdir(dir);
}

static CU_TestInfo tests[] = {
    {"cov_load__out_of_date_warning", cov_load__out_of_date_warning},
    {"cov_load__unreadable_profile_words", cov_load__unreadable_profile_words},
    {"cov_export__json_13_has_no_mcdc_and_version_2_0_1", cov_export__json_13_has_no_mcdc_and_version_2_0_1},
    {"cov_export__json_19_summary_only_has_mcdc_totals", cov_export__json_19_summary_only_has_mcdc_totals},
    {"cov_export__json_mcdc_record_per_release", cov_export__json_mcdc_record_per_release},
    {"cov_export__json_23_write_order", cov_export__json_23_write_order},
    {"cov_export__lcov", cov_export__lcov},
    {"cov_report__file_table_per_release", cov_report__file_table_per_release},
    {"cov_report__function_table", cov_report__function_table},
    {"cov_report__function_table_demangled", cov_report__function_table_demangled},
    {"cov_report__percent_of_nothing_is_a_dash", cov_report__percent_of_nothing_is_a_dash},
    {"cov_filter__ignore_any_include_all", cov_filter__ignore_any_include_all},
    {"cov_filter__remove_dots", cov_filter__remove_dots},
    {"cov_export__seed_objects_as_llvm_cov_24", cov_export__seed_objects_as_llvm_cov_24},
    {"cov_options__init_checks_version", cov_options__init_checks_version},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_cov_export[] = {{"cov_export", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
