/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_access.c -- profbridge/access.h: heap errors and their getters,
 * options set by key (values copied, replaced, refused with the key as the
 * path and the options unchanged), records, value sites and Java contexts
 * by index with every index checked. Expectations are hand-computed from the
 * small profiles below.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* foo: [10, 0, 7], one indirect-call site: bar x5 and "77" x3 (a name without a record) */
static const char text[] = ":ir\nfoo\n1234\n3\n10\n0\n7\n1\n0\n1\n2\nbar:5\n77:3\n\nbar\n1\n1\n5\n";

static pb_profile *read_text(void) {
    pb_profile *p = NULL;
    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, text, sizeof text - 1, NULL, &err), 0);
    CU_ASSERT_EQUAL(pb_read(&p, src, NULL, &err), 0);
    pb_source_free(src);
    return p;
}

static void test_error_getters(void) {
    pb_error *e = pb_error_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(pb_error_code(e), 0);
    CU_ASSERT_EQUAL(pb_error_offset(e), PB_NO_OFFSET);
    CU_ASSERT_STRING_EQUAL(pb_error_path(e), "");
    pb_error_set_ef(e, PB_EFORMAT, 0x28, "header.NumCounters", "<= 1024", "4294967295");
    pb_error_set_source(e, "big.profraw");
    CU_ASSERT_EQUAL(pb_error_code(e), PB_EFORMAT);
    CU_ASSERT_EQUAL(pb_error_offset(e), 0x28);
    CU_ASSERT_STRING_EQUAL(pb_error_source(e), "big.profraw");
    CU_ASSERT_STRING_EQUAL(pb_error_path(e), "header.NumCounters");
    CU_ASSERT_STRING_EQUAL(pb_error_expected(e), "<= 1024");
    CU_ASSERT_STRING_EQUAL(pb_error_found(e), "4294967295");
    CU_ASSERT_EQUAL(pb_error_line(e), 0);
    CU_ASSERT_EQUAL(pb_error_column(e), 0);
    char buf[256];
    pb_error_format(e, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "big.profraw: byte 0x28 (header.NumCounters): expected <= 1024, found 4294967295");
    pb_error_free(e);
    pb_error_free(NULL);
}

static void test_read_options_by_key(void) {
    pb_read_options *o = NULL;
    pb_error *e = pb_error_new();
    CU_ASSERT_EQUAL_FATAL(pb_read_options_new(&o, e), PB_OK);
    CU_ASSERT_PTR_NULL(o->format);
    CU_ASSERT_EQUAL(pb_read_options_set(o, "format", "text", e), PB_OK);
    CU_ASSERT_STRING_EQUAL(o->format, "text");
    CU_ASSERT_EQUAL(pb_read_options_set(o, "lenient", "yes", e), PB_OK);
    CU_ASSERT_EQUAL(o->lenient, 1);
    CU_ASSERT_EQUAL(pb_read_options_set(o, "max-input-size", "unlimited", e), PB_OK);
    CU_ASSERT_EQUAL(o->max_input_size, PB_NO_LIMIT);
    CU_ASSERT_EQUAL(pb_read_options_set(o, "llvm-version", "14", e), PB_OK);
    CU_ASSERT_EQUAL(pb_read_options_set(o, "llvm-version", "16", e), PB_OK); /* replaces */
    CU_ASSERT_EQUAL(o->llvm_release, 16); /* the one carrier of the release, no plugin option */
    CU_ASSERT_EQUAL(o->nkv, 0);
    static const char *const bad[] = {"12", "25", "19x", "", "-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CU_ASSERT_EQUAL(pb_read_options_set(o, "llvm-version", bad[i], e), PB_EINVAL);
        CU_ASSERT_STRING_EQUAL(pb_error_path(e), "llvm-version");
        CU_ASSERT_EQUAL(o->llvm_release, 16);
    }
    /* refused: the key is the path, the options stay as they were */
    CU_ASSERT_EQUAL(pb_read_options_set(o, "format", "nosuch", e), PB_EINVAL);
    CU_ASSERT_STRING_EQUAL(pb_error_path(e), "format");
    CU_ASSERT_STRING_EQUAL(pb_error_found(e), "nosuch");
    CU_ASSERT_STRING_EQUAL(o->format, "text");
    CU_ASSERT_EQUAL(pb_read_options_set(o, "lenient", "maybe", e), PB_EINVAL);
    CU_ASSERT_EQUAL(o->lenient, 1);
    CU_ASSERT_EQUAL(pb_read_options_set(o, "max-inflation", "-3", e), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_read_options_set(o, "lenient", "0", e), PB_OK); /* clears the old error */
    CU_ASSERT_EQUAL(pb_error_code(e), 0);
    /* the handle is a pb_read_options: pb_read uses it as it is */
    pb_profile *p = NULL;
    pb_source *src = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, text, sizeof text - 1, NULL, e), 0);
    CU_ASSERT_EQUAL(pb_read(&p, src, o, e), 0);
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 2);
    pb_profile_free(p);
    pb_source_free(src);
    pb_read_options_free(o);
    pb_read_options_free(NULL);
    pb_error_free(e);
}

static void test_merger_and_overlap_options_by_key(void) {
    pb_merger_options *m = NULL;
    pb_overlap_options *ov = NULL;
    pb_error *e = pb_error_new();
    CU_ASSERT_EQUAL_FATAL(pb_merger_options_new(&m, e), PB_OK);
    CU_ASSERT_EQUAL(m->version, PB_MERGER_OPTIONS_VERSION);
    CU_ASSERT_EQUAL(pb_merger_options_set(m, "threads", "5000", e), PB_OK);
    CU_ASSERT_EQUAL(m->threads, 1024);
    CU_ASSERT_EQUAL(pb_merger_options_set(m, "failure-mode", "warn", e), PB_OK);
    CU_ASSERT_EQUAL(m->failure_mode, PB_MERGE_FAIL_WARN);
    CU_ASSERT_EQUAL(pb_merger_options_set(m, "llvm-version", "14", e), PB_OK);
    CU_ASSERT_EQUAL(m->llvm_release, 14);
    CU_ASSERT_EQUAL(pb_merger_options_set(m, "llvm-version", "12", e), PB_EINVAL);
    CU_ASSERT_EQUAL(m->llvm_release, 14);
    CU_ASSERT_EQUAL(pb_merger_options_set(m, "keep-functions", "^f", e), PB_OK);
    CU_ASSERT_STRING_EQUAL(m->keep_functions, "^f");
    CU_ASSERT_EQUAL(pb_merger_options_set(m, "weight", "2", e), PB_EINVAL); /* weights are per input */
    CU_ASSERT_STRING_EQUAL(pb_error_path(e), "weight");
    pb_merger_options_free(m);
    CU_ASSERT_EQUAL_FATAL(pb_overlap_options_new(&ov, e), PB_OK);
    CU_ASSERT_EQUAL(ov->value_cutoff, UINT64_MAX);
    CU_ASSERT_EQUAL(pb_overlap_options_set(ov, "value-cutoff", "10", e), PB_OK);
    CU_ASSERT_EQUAL(ov->value_cutoff, 10);
    CU_ASSERT_EQUAL(pb_overlap_options_set(ov, "base-name", "a.profdata", e), PB_OK);
    CU_ASSERT_STRING_EQUAL(ov->base_name, "a.profdata");
    CU_ASSERT_EQUAL(pb_overlap_options_set(ov, "cs", "2", e), PB_EINVAL);
    pb_overlap_options_free(ov);
    pb_error_free(e);
}

static void test_records_by_index(void) {
    pb_profile *p = read_text();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(pb_profile_origin_format(p), "text");
    size_t foo = SIZE_MAX;
    for (size_t i = 0; i < pb_profile_record_count(p); i++) {
        const char *name;
        size_t len;
        uint64_t hash;
        CU_ASSERT_EQUAL(pb_record_name(p, i, &name, &len, &hash, NULL), PB_OK);
        if (len == 3 && memcmp(name, "foo", 3) == 0) foo = i;
    }
    CU_ASSERT_FATAL(foo != SIZE_MAX);
    CU_ASSERT_EQUAL(pb_record_kind(p, foo), PB_REC_FUNCTION);
    size_t n = 0;
    const uint64_t *c = pb_record_counters(p, foo, &n);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT(c[0] == 10 && c[1] == 0 && c[2] == 7);
    CU_ASSERT_PTR_NULL(pb_record_bitmap(p, foo, &n));
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_EQUAL(pb_record_site_count(p, foo, PB_VK_INDIRECT_CALL), 1);
    CU_ASSERT_EQUAL(pb_record_site_count(p, foo, PB_VK_MEMOP_SIZE), 0);
    CU_ASSERT_EQUAL(pb_record_site_value_count(p, foo, PB_VK_INDIRECT_CALL, 0), 2);
    int seen_bar = 0, seen_77 = 0;
    for (size_t j = 0; j < 2; j++) {
        uint64_t v, cnt;
        const char *nm;
        size_t nl;
        CU_ASSERT_EQUAL(pb_record_site_value(p, foo, PB_VK_INDIRECT_CALL, 0, j, &v, &cnt, &nm, &nl), PB_OK);
        if (nm && nl == 3 && memcmp(nm, "bar", 3) == 0 && cnt == 5 && v == pb_md5_ref("bar", 3)) seen_bar = 1;
        /* a text file names every target: "77" has no record, the reader keeps its name */
        if (nm && nl == 2 && memcmp(nm, "77", 2) == 0 && v == pb_md5_ref("77", 2) && cnt == 3) seen_77 = 1;
    }
    CU_ASSERT(seen_bar && seen_77);
    /* bad indices: nothing read out of bounds */
    size_t count = pb_profile_record_count(p);
    CU_ASSERT_EQUAL(pb_record_kind(p, count), -1);
    CU_ASSERT_PTR_NULL(pb_record_counters(p, count, &n));
    CU_ASSERT_EQUAL(pb_record_site_count(p, foo, 3), 0);
    CU_ASSERT_EQUAL(pb_record_site_count(p, foo, -1), 0);
    CU_ASSERT_EQUAL(pb_record_site_value(p, foo, PB_VK_INDIRECT_CALL, 0, 2, NULL, NULL, NULL, NULL), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_record_site_value(p, foo, PB_VK_INDIRECT_CALL, 1, 0, NULL, NULL, NULL, NULL), PB_EINVAL);
    const char *name = "x";
    size_t len;
    uint64_t hash;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pb_record_name(p, count, &name, &len, &hash, &err), PB_EINVAL);
    CU_ASSERT_PTR_NULL(name);
    CU_ASSERT_EQUAL(pb_record_context(p, foo), PB_NONE);
    CU_ASSERT_EQUAL(pb_context_frame_count(p, PB_NONE), 0);
    CU_ASSERT_EQUAL(pb_context_frame(p, PB_NONE, 0, NULL, NULL), PB_EINVAL);
    CU_ASSERT_PTR_NULL(pb_method_name(p, 0, &len));
    pb_profile_free(p);
}

static void test_java_contexts(void) {
    /* one call-count entry: m2 (its entry, bci 0) inlined into m1 at bci 7 */
    static const char iprof[] =
        "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"void\"},{\"id\":1,\"name\":\"p.A\"},"
        "{\"id\":2,\"name\":\"int\"}],\"methods\":[{\"id\":1,\"name\":\"m1\",\"signature\":[1,0]},"
        "{\"id\":2,\"name\":\"m2\",\"signature\":[1,0,2,2]}],\"callCountProfiles\":[{\"ctx\":\"2:0<1:7\","
        "\"records\":[42]}],\"conditionalProfiles\":[],\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],"
        "\"samplingProfiles\":[],\"instanceOfProfiles\":[]}";
    pb_profile *p = NULL;
    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, iprof, sizeof iprof - 1, NULL, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_read(&p, src, NULL, &err), 0);
    pb_source_free(src);
    CU_ASSERT_EQUAL_FATAL(pb_profile_record_count(p), 1);
    CU_ASSERT_EQUAL(pb_record_kind(p, 0), PB_REC_JAVA_CALL_COUNT);
    uint32_t ctx = pb_record_context(p, 0);
    CU_ASSERT_EQUAL_FATAL(pb_context_frame_count(p, ctx), 2);
    uint32_t m;
    int32_t bci;
    char buf[64];
    size_t len;
    CU_ASSERT_EQUAL(pb_context_frame(p, ctx, 0, &m, &bci), PB_OK);
    CU_ASSERT_EQUAL(bci, 0);
    CU_ASSERT_EQUAL(pb_method_format(p, m, buf, sizeof buf), strlen("p.A.m2(int,int)void"));
    CU_ASSERT_STRING_EQUAL(buf, "p.A.m2(int,int)void");
    const char *nm = pb_method_name(p, m, &len);
    CU_ASSERT(nm && len == 2 && memcmp(nm, "m2", 2) == 0);
    CU_ASSERT_EQUAL(pb_method_format(p, m, buf, 4), strlen("p.A.m2(int,int)void")); /* cut, NUL-terminated */
    CU_ASSERT_STRING_EQUAL(buf, "p.A");
    CU_ASSERT_EQUAL(pb_context_frame(p, ctx, 1, &m, &bci), PB_OK);
    CU_ASSERT_EQUAL(bci, 7);
    pb_method_format(p, m, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "p.A.m1()void");
    CU_ASSERT_EQUAL(pb_context_frame(p, ctx, 2, &m, &bci), PB_EINVAL);
    size_t n;
    const uint64_t *c = pb_record_counters(p, 0, &n);
    CU_ASSERT(n == 1 && c[0] == 42);
    pb_profile_free(p);
}

static CU_TestInfo tests[] = {
    {"error_getters", test_error_getters},
    {"read_options_by_key", test_read_options_by_key},
    {"merger_and_overlap_options_by_key", test_merger_and_overlap_options_by_key},
    {"records_by_index", test_records_by_index},
    {"java_contexts", test_java_contexts},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_access[] = {{"access", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
