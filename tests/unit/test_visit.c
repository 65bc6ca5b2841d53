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
    size_t inputs, all_bids, all_records_seen; /* end_input: calls, its head's binary ids, records before it */
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

static int on_end_input(void *ctx, const pb_profile *all, pb_error *err) {
    counts *c = ctx;
    (void)err;
    if (c->ends != c->begins) c->order_ok = 0; /* after the last profile */
    c->inputs++;
    c->all_bids = pb_profile_binary_id_count(all);
    for (size_t k = 0; k < 8; k++) c->all_records_seen += c->records[k];
    return 0;
}

static const pb_record_visitor visitor = {on_begin, on_record, on_end, on_end_input};

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

/* Three clang-19 raw files back to back, as a program and two libraries
 * write them into one file. */
static char *three_profiles(const char *const files[3], size_t *out_len) {
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
    *out_len = n;
    return all;
}

static const char *const three_files[3] = {"basic-ir.profraw", "simple-ir.profraw", "basic-ir.profraw"};

/* Visits the three profiles with plugin options kv (n of them). */
static void visit_three(counts *c, int release) {
    size_t n;
    char *all = three_profiles(three_files, &n);
    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, all, n, "three", &err), 0);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.llvm_release = release;
    memset(c, 0, sizeof *c);
    c->order_ok = 1;
    CU_ASSERT_EQUAL(pb_visit(src, &ro, &visitor, c, &err), 0);
    pb_source_free(src);
    free(all);
}

static void visit__a_raw_file_of_three_profiles_in_one_pass(void) {
    const char *const *files = three_files;
    counts c;
    visit_three(&c, 0);
    CU_ASSERT_EQUAL(c.begins, 3);
    CU_ASSERT_EQUAL(c.ends, 3);
    CU_ASSERT(c.order_ok);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(c.records[i], total_functions(files[i]));
        CU_ASSERT_EQUAL(c.bids[i], 1); /* each clang-19 file has one build id (show-binary-ids.txt) */
    }
    /* the whole input, once, after every record: LLVM 18+ keep every
     * profile's build id, each once (basic-ir's is there twice; llvm-profdata
     * show lists 3 from the profiles, merge writes 2: its writer sorts and
     * uniques them) */
    CU_ASSERT_EQUAL(c.inputs, 1);
    CU_ASSERT_EQUAL(c.all_records_seen, total_functions(files[0]) * 2 + total_functions(files[1]));
    CU_ASSERT_EQUAL(c.all_bids, 2);
}

/* LLVM 13-17 keep the binary ids of the last profile of a file only (their
 * reader takes them from the last header): one, while each profile still
 * has its own. */
static void visit__the_whole_input_keeps_the_ids_the_release_keeps(void) {
    counts c;
    visit_three(&c, 17);
    CU_ASSERT_EQUAL(c.inputs, 1);
    CU_ASSERT_EQUAL(c.all_bids, 1);
    for (int i = 0; i < 3; i++) CU_ASSERT_EQUAL(c.bids[i], 1);
}

/* pb_read_options.merge_into streams through the visit (src/registry/read_merge.c):
 * the result must be what reading the model and pb_profile_merge give. */
static void visit__merge_into_equals_reading_and_merging(void) {
    size_t n;
    char *bytes = three_profiles(three_files, &n);
    pb_error err;
    pb_error_clear(&err);
    pb_profile *model = NULL, *by_model = NULL, *by_visit = NULL;
    pb_source *src = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, bytes, n, "three", &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_read(&model, src, NULL, &err), 0);
    pb_source_free(src);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&by_model, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&by_visit, &err), 0);
    pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
    mo.weight = 3;
    for (int round = 0; round < 2; round++) { /* into an empty profile, then into a full one */
        CU_ASSERT_EQUAL(pb_profile_merge(by_model, model, &mo, &err), 0);
        pb_read_options ro = PB_READ_OPTIONS_INIT;
        ro.merge_into = by_visit;
        ro.merge = &mo;
        pb_profile *none = NULL;
        CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, bytes, n, "three", &err), 0);
        CU_ASSERT_EQUAL(pb_read(&none, src, &ro, &err), 0);
        CU_ASSERT_PTR_NULL(none);
        pb_source_free(src);
    }
    CU_ASSERT(pb_profile_record_count(by_visit) > 0);
    CU_ASSERT_EQUAL(pb_profile_record_count(by_visit), pb_profile_record_count(by_model));
    CU_ASSERT_EQUAL(pb_profile_binary_id_count(by_visit), pb_profile_binary_id_count(by_model));
    char why[256] = "";
    int same = pb_profile_equal(by_visit, by_model, why, sizeof why);
    if (!same) fprintf(stderr, "merge_into by visit differs: %s\n", why);
    CU_ASSERT(same);
    pb_profile_free(model);
    pb_profile_free(by_model);
    pb_profile_free(by_visit);
    free(bytes);
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
    {"visit__the_whole_input_keeps_the_ids_the_release_keeps", visit__the_whole_input_keeps_the_ids_the_release_keeps},
    {"visit__merge_into_equals_reading_and_merging", visit__merge_into_equals_reading_and_merging},
    {"visit__an_indexed_file_is_one_profile", visit__an_indexed_file_is_one_profile},
    {"visit__formats_say_whether_they_stream", visit__formats_say_whether_they_stream},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_visit[] = {{"visit", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
