/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_visit.c -- the streaming contract (pb_visit, pb_record_visitor): a raw
 * file of three profiles is visited in one pass, each profile alone, and an
 * indexed file as one profile. The expected numbers are llvm-profdata-19's
 * own output for each file, stored next to it in ../shared/testdata
 * (llvm-real/llvm19/X.show.txt "Total functions", X.show-binary-ids.txt).
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

typedef struct counts {
    size_t begins, ends, records[8], bids[8];
    size_t k; /* the profile begun last */
    int order_ok;
} counts;

static int on_begin(void *ctx, size_t k, const pb_profile *head, pb_error *err) {
    counts *c = ctx;
    (void)head, (void)err;
    if (k != c->begins) c->order_ok = 0;
    c->k = k;
    c->begins++;
    return 0;
}

static int on_record(void *ctx, const pb_profile *head, const char *name, size_t len, const pb_record *r,
                     pb_error *err) {
    counts *c = ctx;
    (void)head, (void)err;
    if (!name || !len || r->kind != PB_REC_FUNCTION) c->order_ok = 0;
    if (c->k < 8) c->records[c->k]++;
    return 0;
}

static int on_end(void *ctx, size_t k, const pb_profile *head, pb_error *err) {
    counts *c = ctx;
    (void)err;
    if (k != c->k) c->order_ok = 0;
    if (k < 8) c->bids[k] = pb_profile_binary_id_count(head);
    c->ends++;
    return 0;
}

static const pb_record_visitor visitor = {on_begin, on_record, on_end};

/* "Total functions: N" of llvm-profdata-19 show's stored output. */
static size_t total_functions(const char *file) {
    char rel[256];
    snprintf(rel, sizeof rel, "testdata/llvm-real/llvm19/%s.show.txt", file);
    size_t len;
    char *t = tu_slurp(tu_shared(rel), &len);
    const char *at = t ? strstr(t, "Total functions: ") : NULL;
    size_t n = at ? (size_t)strtoul(at + 17, NULL, 10) : 0;
    free(t);
    return n;
}

static void visit__a_raw_file_of_three_profiles_in_one_pass(void) {
    const char *files[3] = {"basic-ir.profraw", "simple-ir.profraw", "basic-ir.profraw"};
    char *all = NULL;
    size_t n = 0;
    for (int i = 0; i < 3; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "testdata/llvm-real/llvm19/%s", files[i]);
        size_t len;
        char *b = tu_slurp(tu_shared(rel), &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        all = realloc(all, n + len);
        memcpy(all + n, b, len);
        n += len;
        free(b);
    }
    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, all, n, "three", &err), 0);
    counts c;
    memset(&c, 0, sizeof c);
    c.order_ok = 1;
    CU_ASSERT_EQUAL(pb_visit(src, NULL, &visitor, &c, &err), 0);
    CU_ASSERT_EQUAL(c.begins, 3);
    CU_ASSERT_EQUAL(c.ends, 3);
    CU_ASSERT(c.order_ok);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(c.records[i], total_functions(files[i]));
        CU_ASSERT_EQUAL(c.bids[i], 1); /* each clang-19 file has one build id (show-binary-ids.txt) */
    }
    pb_source_free(src);
    free(all);
}

static void visit__an_indexed_file_is_one_profile(void) {
    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_source_open_file(&src, tu_shared("testdata/llvm-real/llvm19/basic-ir.profdata"), &err), 0);
    counts c;
    memset(&c, 0, sizeof c);
    c.order_ok = 1;
    CU_ASSERT_EQUAL(pb_visit(src, NULL, &visitor, &c, &err), 0);
    CU_ASSERT_EQUAL(c.begins, 1);
    CU_ASSERT_EQUAL(c.ends, 1);
    CU_ASSERT(c.order_ok);
    CU_ASSERT_EQUAL(c.records[0], total_functions("basic-ir.profdata"));
    pb_source_free(src);
}

static void visit__formats_say_whether_they_stream(void) {
    CU_ASSERT(pb_format_streams(pb_format_lookup("raw")));
    CU_ASSERT(pb_format_streams(pb_format_lookup("indexed")));
    CU_ASSERT(!pb_format_streams(pb_format_lookup("iprof")));
    CU_ASSERT_EQUAL(pb_format_family_of(pb_format_lookup("text")), PB_FAMILY_LLVM);
    CU_ASSERT_EQUAL(pb_format_family_of(pb_format_lookup("iprof")), PB_FAMILY_JAVA);
    CU_ASSERT_EQUAL(pb_format_family_of(pb_format_lookup("json")), PB_FAMILY_MODEL);
    CU_ASSERT_STRING_EQUAL(pb_format_version_option(pb_format_lookup("raw")), "raw-version");
    CU_ASSERT_PTR_NULL(pb_format_version_option(pb_format_lookup("text")));
    CU_ASSERT_EQUAL(pb_format_form_of(pb_format_lookup("raw")), PB_FORM_RAW);
    CU_ASSERT_EQUAL(pb_format_form_of(pb_format_lookup("indexed")), PB_FORM_INDEXED);
    CU_ASSERT_EQUAL(pb_format_form_of(pb_format_lookup("text")), PB_FORM_TEXT);
    CU_ASSERT_EQUAL(pb_format_form_of(pb_format_lookup("iprof")), PB_FORM_OTHER);
    CU_ASSERT_EQUAL(pb_format_form_of(pb_format_lookup("json")), PB_FORM_OTHER);
    CU_ASSERT_EQUAL(pb_format_form_of(NULL), PB_FORM_OTHER);
}

static CU_TestInfo tests[] = {
    {"visit__a_raw_file_of_three_profiles_in_one_pass", visit__a_raw_file_of_three_profiles_in_one_pass},
    {"visit__an_indexed_file_is_one_profile", visit__an_indexed_file_is_one_profile},
    {"visit__formats_say_whether_they_stream", visit__formats_say_whether_they_stream},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_visit[] = {{"visit", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
