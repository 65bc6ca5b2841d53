/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_flame.c -- flame-graph stacks (src/analysis/flame.c) of the hand-written
 * testdata/types/samples.iprof. The expected folded lines are written by
 * hand from the file's seven sampling entries (callee first in the file,
 * root first here; names compared as bytes, a stack before its extensions).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/flame.h"
#include "testutil.h"

static pb_profile *samples;

static int setup(void) {
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    return pb_read_file(&samples, tu_src("testdata/types/samples.iprof"), &ro, &err) ? 1 : 0;
}
static int teardown(void) {
    pb_profile_free(samples);
    return 0;
}

static char *render(int no_bci, int which) {
    pbi_flame f;
    pb_buf b = PB_BUF_INIT;
    CU_ASSERT_EQUAL_FATAL(pbi_flame_build(samples, no_bci, &f, NULL), 0);
    if (which == 0) pbi_flame_folded(&f, &b);
    else if (which == 1) pbi_flame_speedscope(&f, "s", &b);
    else {
        pbi_flame_svg_opts o = PBI_FLAME_SVG_OPTS_INIT;
        o.title = "T<&>";
        pbi_flame_svg(&f, &o, &b);
    }
    pbi_flame_free(&f);
    CU_ASSERT_FATAL(!pbu_buf_failed(&b));
    return b.data;
}

#define MAIN "Main.main(java.lang.String[])void"
#define WORK "Main.work(int)long"
#define HASH "Util.hash(java.lang.String)int"
#define INIT "Util.<init>()void"

static void flame__folded_lines_are_root_first_sorted_and_counted(void) {
    char *s = render(0, 0);
    const char *want = MAIN ":10;" WORK ":4 2\n"
                       MAIN ":10;" WORK ":4;" HASH ":7 5\n"
                       MAIN ":10;" WORK ":4;" HASH ":9 3\n"
                       MAIN ":10;" WORK ":6 4\n"
                       MAIN ":12 1\n"
                       MAIN ":14;" INIT ":2 2\n"
                       MAIN ":14;" HASH ":7 6\n";
    CU_ASSERT_STRING_EQUAL(s, want);
    free(s);
}

/* Without BCIs, 7:5 and 9:3 under work become one stack of 8, work:4 (2) and
 * work:6 (4) one of 6; '<' (0x3C) sorts before 'h'. */
static void flame__no_bci_sums_identical_stacks(void) {
    char *s = render(1, 0);
    const char *want = MAIN " 1\n"
                       MAIN ";" WORK " 6\n"
                       MAIN ";" WORK ";" HASH " 8\n"
                       MAIN ";" INIT " 2\n"
                       MAIN ";" HASH " 6\n";
    CU_ASSERT_STRING_EQUAL(s, want);
    free(s);
}

static void flame__stacks_and_total(void) {
    pbi_flame f;
    CU_ASSERT_EQUAL_FATAL(pbi_flame_build(samples, 0, &f, NULL), 0);
    CU_ASSERT_EQUAL(f.num_stacks, 7);
    CU_ASSERT_EQUAL(f.total, 23); /* 5+3+2+4+1+6+2 */
    /* 3 main frames, 2 work, 2 hash, 1 <init>. */
    CU_ASSERT_EQUAL(f.num_names, 8);
    pbi_flame_free(&f);
}

static void flame__speedscope_names_frames_and_weights(void) {
    char *s = render(1, 1);
    CU_ASSERT(strstr(s, "\"$schema\":\"https://www.speedscope.app/file-format-schema.json\"") != NULL);
    CU_ASSERT(strstr(s, "\"type\":\"sampled\"") != NULL);
    CU_ASSERT(strstr(s, "\"unit\":\"none\"") != NULL);
    CU_ASSERT(strstr(s, "\"endValue\":23") != NULL);
    /* Frames sorted as bytes: main 0, work 1, <init> 2, hash 3. */
    CU_ASSERT(strstr(s, "\"samples\":[\n[0],\n[0,1],\n[0,1,3],\n[0,2],\n[0,3]]") != NULL);
    CU_ASSERT(strstr(s, "\"weights\":[1,6,8,2,6]") != NULL);
    free(s);
}

/* The SVG escapes names (<init>) and the title, and loads nothing. */
static void flame__svg_is_escaped_and_self_contained(void) {
    char *s = render(0, 2);
    CU_ASSERT(strstr(s, "<title>Util.&lt;init&gt;()void:2 (2 samples, 8.70%)</title>") != NULL);
    CU_ASSERT(strstr(s, "<title>all (23 samples, 100.00%)</title>") != NULL);
    CU_ASSERT(strstr(s, ">T&lt;&amp;&gt;</text>") != NULL);
    CU_ASSERT(strstr(s, "<script") != NULL);
    /* The only URL is the SVG namespace name, which is never fetched. */
    const char *u = strstr(s, "http");
    CU_ASSERT(u != NULL && strncmp(u, "http://www.w3.org/2000/svg\"", 27) == 0);
    if (u) CU_ASSERT(strstr(u + 4, "http") == NULL);
    CU_ASSERT(strstr(s, "href") == NULL);
    CU_ASSERT(strstr(s, "@import") == NULL);
    free(s);
}

/* A profile without samples gives no stacks (the CLI turns that into an error). */
static void flame__profile_without_samples_has_no_stacks(void) {
    pb_profile *p;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, NULL), 0);
    pbi_flame f;
    CU_ASSERT_EQUAL_FATAL(pbi_flame_build(p, 0, &f, NULL), 0);
    CU_ASSERT_EQUAL(f.num_stacks, 0);
    CU_ASSERT_EQUAL(f.total, 0);
    pbi_flame_free(&f);
    pb_profile_free(p);
}

/* pb_flame_write: each style gives the internal drawing's bytes (the svg
 * with the title asked for); no samples, a bad style, width or version and
 * NULL pointers fail, and nothing is written then. */
static void flame__public_write_matches_and_refuses(void) {
    for (int style = PB_FLAME_FOLDED; style <= PB_FLAME_SVG; style++) {
        char *want = render(0, style);
        pb_flame_options o = PB_FLAME_OPTIONS_INIT;
        o.style = style;
        o.name = "s";
        o.title = "T<&>";
        pb_sink *s = NULL;
        CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&s, NULL), 0);
        CU_ASSERT_EQUAL(pb_flame_write(samples, &o, s, NULL), 0);
        size_t len;
        const uint8_t *m = pb_sink_memory(s, &len);
        CU_ASSERT(len == strlen(want) && memcmp(m, want, len) == 0);
        pb_sink_free(s);
        free(want);
    }
    pb_profile *p;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, NULL), 0);
    pb_sink *s = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&s, NULL), 0);
    pb_error err;
    CU_ASSERT_EQUAL(pb_flame_write(p, NULL, s, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(pb_error_path(&err), "samplingProfiles");
    pb_flame_options o = PB_FLAME_OPTIONS_INIT;
    o.style = 3;
    CU_ASSERT_EQUAL(pb_flame_write(samples, &o, s, &err), PB_EINVAL);
    o.style = PB_FLAME_SVG;
    o.width = 99;
    CU_ASSERT_EQUAL(pb_flame_write(samples, &o, s, &err), PB_EINVAL);
    o.width = 1200;
    o.version = 2;
    CU_ASSERT_EQUAL(pb_flame_write(samples, &o, s, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_flame_write(NULL, NULL, s, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_flame_write(samples, NULL, NULL, &err), PB_EINVAL);
    size_t len = 1;
    (void)pb_sink_memory(s, &len);
    CU_ASSERT_EQUAL(len, 0);
    pb_sink_free(s);
    pb_profile_free(p);
}

static CU_TestInfo tests[] = {
    {"flame__folded_lines_are_root_first_sorted_and_counted", flame__folded_lines_are_root_first_sorted_and_counted},
    {"flame__no_bci_sums_identical_stacks", flame__no_bci_sums_identical_stacks},
    {"flame__stacks_and_total", flame__stacks_and_total},
    {"flame__speedscope_names_frames_and_weights", flame__speedscope_names_frames_and_weights},
    {"flame__svg_is_escaped_and_self_contained", flame__svg_is_escaped_and_self_contained},
    {"flame__profile_without_samples_has_no_stacks", flame__profile_without_samples_has_no_stacks},
    {"flame__public_write_matches_and_refuses", flame__public_write_matches_and_refuses},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_flame[] = {{"flame", setup, teardown, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
