/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_iprof_stream.c -- the iprof reader's streaming fast path
 * (formats/iprof/iprof_stream.c) against the tree reader (iprof_read.c),
 * which it must copy exactly: on every input the reader as shipped (fast path,
 * falling back to the tree) gives the tree reader's return code, error text,
 * diagnostics and model, in every mode. Inputs: every iprof file of the tree
 * (testdata, the fuzz seeds, the real GraalVM files of ../shared), and fib-doc
 * and all-sections damaged byte by byte and cut at every length. The fast path
 * alone must take a good share of them (else the comparison says nothing).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iprof_test.h"
#include "../../formats/iprof/iprof_int.h"

typedef struct outcome {
    int rc;
    pb_profile *p;
    char err[1200];
    tu_diag d;
} outcome;

enum { VIA_READER, VIA_TREE, VIA_STREAM };

static void read_via(outcome *o, const void *data, size_t len, int via, int lenient, int report_all) {
    pb_source *src = NULL;
    pb_error err;
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    memset(o, 0, sizeof *o);
    ro.lenient = lenient;
    ro.report_all = report_all;
    ro.diag = tu_diag_fn;
    ro.diag_ctx = &o->d;
    pb_error_clear(&err);
    o->rc = pb_source_open_memory(&src, data, len, "in.iprof", &err);
    CU_ASSERT_EQUAL_FATAL(o->rc, 0);
    if (via == VIA_READER) o->rc = it_fmt()->read(&o->p, src, &ro, &err);
    else if (via == VIA_TREE) o->rc = pbi_iprof_read_tree(&o->p, src, &ro, &err);
    else o->rc = pbi_iprof_stream_read(&o->p, src, &err);
    if (o->rc) pb_error_format(&err, o->err, sizeof o->err);
    pb_source_free(src);
}

static char *written(const pb_profile *p, size_t *n) {
    int rc = 0;
    return tu_write_memory(p, "iprof", NULL, n, &rc);
}

/* 1 when both models are equal and write the same bytes. */
static int same_model(const pb_profile *a, const pb_profile *b, const char *what) {
    char why[256] = "";
    if (!pb_profile_equal(a, b, why, sizeof why)) {
        fprintf(stderr, "\n  %s: other model (%s)\n", what, why);
        return 0;
    }
    size_t na = 0, nb = 0;
    char *wa = written(a, &na), *wb = written(b, &nb);
    int same = wa && wb && na == nb && memcmp(wa, wb, na) == 0;
    if (!same) fprintf(stderr, "\n  %s: other bytes written\n", what);
    free(wa);
    free(wb);
    return same;
}

typedef struct tally {
    size_t inputs, streamed;
} tally;

/* The reader as shipped against the tree reader on one input, one mode. */
static void compare_mode(tally *t, const char *what, const void *data, size_t len, int lenient,
                         int report_all) {
    outcome a, b, s;
    read_via(&a, data, len, VIA_READER, lenient, report_all);
    read_via(&b, data, len, VIA_TREE, lenient, report_all);
    read_via(&s, data, len, VIA_STREAM, 0, 0);
    t->inputs++;
    int ok = a.rc == b.rc && strcmp(a.err, b.err) == 0 &&
             memcmp(a.d.count, b.d.count, sizeof a.d.count) == 0 && strcmp(a.d.all, b.d.all) == 0;
    if (!ok)
        fprintf(stderr, "\n  %s (lenient %d, report-all %d): reader %d '%s' [%s], tree %d '%s' [%s]\n",
                what, lenient, report_all, a.rc, a.err, a.d.all, b.rc, b.err, b.d.all);
    CU_ASSERT(ok);
    if (!a.rc && !b.rc) CU_ASSERT(same_model(a.p, b.p, what));
    if (s.rc == 0) {
        /* what the fast path reads, the tree reads the same way, quietly */
        t->streamed++;
        CU_ASSERT_EQUAL(b.rc, 0);
        CU_ASSERT_EQUAL(b.d.count[0] + b.d.count[1] + b.d.count[2], 0);
        if (!b.rc) CU_ASSERT(same_model(s.p, b.p, what));
    } else {
        CU_ASSERT_EQUAL(s.rc, PBI_IPROF_STREAM_OTHER);
        CU_ASSERT_PTR_NULL(s.p);
    }
    pb_profile_free(a.p);
    pb_profile_free(b.p);
    pb_profile_free(s.p);
}

static void compare_all_modes(tally *t, const char *what, const void *data, size_t len) {
    for (int mode = 0; mode < 3; mode++) compare_mode(t, what, data, len, mode == 1, mode == 2);
}

static void compare_dir(tally *t, const char *dir, int shared) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t nl = strlen(de->d_name);
        if (de->d_name[0] == '.' || (shared && (nl < 6 || strcmp(de->d_name + nl - 6, ".iprof") != 0)))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        size_t len = 0;
        char *text = tu_slurp(path, &len);
        if (!text) continue;
        compare_all_modes(t, de->d_name, text, len);
        free(text);
    }
    closedir(d);
}

static void iprof_stream__every_file_reads_as_the_tree_reader_reads_it(void) {
    static const char *const dirs[] = {"testdata/iprof/invalid", "testdata/types", "testdata/cli",
                                       "testdata/samples", "tests/fuzz/iprof"};
    tally t = {0, 0};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "%s", dirs[i]);
        compare_dir(&t, tu_src(rel), 1);
    }
    size_t before = t.inputs;
    compare_dir(&t, tu_shared("testdata/iprof-real"), 1);
    if (t.inputs == before) fprintf(stderr, "\n  SKIP part: ../shared/testdata/iprof-real is missing\n");
    CU_ASSERT(t.inputs >= 3 * 60);
    CU_ASSERT(t.streamed >= 3 * 5); /* fib-doc, all-sections, pretty, min-1.1.0, receivers... */
}

/* Unknown top-level members (kept through jansson), escapes, surrogate pairs,
 * NUL in names, members in another order, a byte order mark, whitespace. */
static void iprof_stream__edge_texts_read_as_the_tree_reads_them(void) {
    static const char *const texts[] = {
        "{\"version\":\"1.1.0\",\"types\":[{\"id\":1,\"name\":\"A\\u0000b\\ud83d\\ude00\\/\\n\"}],"
        "\"methods\":[{\"signature\":[1],\"name\":\"m\\u00e9\",\"id\":-1}],\"x\":[1.5e3,{\"a\":null}],"
        "\"callCountProfiles\":[{\"records\":[-0],\"ctx\":\"-1:0\"}],\"y\":\"\\u00ff\"}",
        "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[{\"id\":0,\"name\":\"m\",\"signature\":[]}],"
        "\"callCountProfiles\":[{\"ctx\":\"0:0\",\"records\":[1]}],\"callCountProfiles\":[]}",
        "{\"types\":[],\"version\":\"1.1.0\",\"methods\":[]}",
        "{\"version\":\"1.0.0\",\"types\":[],\"methods\":[],\"instanceOfProfiles\":[]}",
        "{\"version\":\"1.0.0\",\"types\":[{\"id\":1,\"name\":\"T\"}],\"methods\":[{\"id\":0,\"name\":\"m\","
        "\"signature\":[1]}],\"instanceOfProfiles\":[{\"ctx\":\"0:1\",\"records\":[1,2]}]}",
        "\xEF\xBB\xBF \n{ \"version\" : \"1.1.0\" ,\t\"types\" : [ ] , \"methods\" : [ ] } \r\n",
        "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[]} x",
        "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"k\":{\"a\":1,\"a\":2}}",
        "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"k\":1,\"k\":2}",
        "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"k\":99999999999999999999}",
        "{\"version\":\"1.1.0\",\"types\":[{\"id\":1,\"name\":\"\\udc00\"}],\"methods\":[]}",
        "{\"version\":\"1.1.0\",\"types\":[{\"id\":1,\"name\":\"\xC0\xAF\"}],\"methods\":[]}",
        "{\"version\":\"1.1.0\",\"types\":[{\"id\":01,\"name\":\"a\"}],\"methods\":[]}",
        "{\"version\":\"1.1.0\",\"types\":[{\"id\":1,\"name\":\"a\"}],\"methods\":[],"
        "\"virtualInvokeProfiles\":[{\"ctx\":\"0:1\",\"records\":[1,9223372036854775807]}]}",
        "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[{\"id\":0,\"name\":\"m\",\"signature\":[]}],"
        "\"conditionalProfiles\":[{\"ctx\":\"0:1<0:2\",\"records\":[-4,0,5,7,1,9223372036854775807]}],"
        "\"monitorProfiles\":[],\"samplingProfiles\":[{\"ctx\":\"0:3\",\"records\":[2]}]}",
        "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"\\u0000\":1}",
        "{\"version\":\"1.1.0\",\"types\":[],\"methods\":[],\"deep\":[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]}",
        "[]",
        "",
    };
    tally t = {0, 0};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char what[32];
        snprintf(what, sizeof what, "text %zu", i);
        compare_all_modes(&t, what, texts[i], strlen(texts[i]));
    }
    CU_ASSERT(t.streamed >= 3 * 4);
}

/* Every cut and, at every byte, a few replacements: syntax errors all over
 * the file, each answered by the tree reader's words. */
static void damage(tally *t, const char *rel) {
    size_t len = 0;
    char *text = tu_slurp(tu_src(rel), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    static const char repl[] = {'"', '}', ']', ',', '1', '-', '\\', 'x', ' ', '\x80', '\0'};
    char *copy = malloc(len + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(copy);
    for (size_t cut = 0; cut < len; cut++) compare_mode(t, rel, text, cut, 0, 0);
    for (size_t at = 0; at < len; at++) {
        for (size_t k = 0; k < sizeof repl; k++) {
            if (text[at] == repl[k]) continue;
            memcpy(copy, text, len);
            copy[at] = repl[k];
            compare_mode(t, rel, copy, len, 0, 0);
        }
    }
    free(copy);
    free(text);
}

static void iprof_stream__damaged_files_read_as_the_tree_reads_them(void) {
    tally t = {0, 0};
    damage(&t, "tests/fuzz/iprof/min-1.1.0.iprof");
    damage(&t, "tests/fuzz/iprof/all-sections.iprof");
    CU_ASSERT(t.streamed > 0);
}

static CU_TestInfo stream_tests[] = {
    {"iprof_stream__every_file_reads_as_the_tree_reader_reads_it",
     iprof_stream__every_file_reads_as_the_tree_reader_reads_it},
    {"iprof_stream__edge_texts_read_as_the_tree_reads_them",
     iprof_stream__edge_texts_read_as_the_tree_reads_them},
    {"iprof_stream__damaged_files_read_as_the_tree_reads_them",
     iprof_stream__damaged_files_read_as_the_tree_reads_them},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_iprof_stream[] = {{"iprof_stream", NULL, NULL, NULL, NULL, stream_tests},
                                              CU_SUITE_INFO_NULL};
