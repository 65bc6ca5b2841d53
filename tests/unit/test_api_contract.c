/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_api_contract.c -- the promises of include/profbridge/error.h that
 * hold for every public function: a call that fails fills the caller's
 * pb_error afresh (nothing of an earlier error shows through), a call that
 * succeeds leaves it clear, NULL arguments are PB_EINVAL with a message, and
 * options structs of an unknown version are refused.
 *
 * Each case starts from an error an earlier call left ("STALE", PB_EIO,
 * source "old.iprof", a byte offset), which the old first-error-wins rule
 * kept: one call then returned PB_EFORMAT while the error still said
 * "/nonexistent.iprof: cannot open".
 */
#include <string.h>

#include "profbridge/compare.h"
#include "profbridge/order.h"
#include "profbridge/profbridge.h"
#include "testutil.h"

static void stale(pb_error *err) {
    pb_error_clear(err);
    pb_error_set_source(err, "old.iprof");
    pb_error_set(err, PB_EIO, 0x28, "header.Old", "STALE");
    err->line = 3;
    err->column = 4;
}

/* Nothing of stale() is left, and the new code is `code`. */
static int fresh(const pb_error *err, int code) {
    return err->code == code && !strstr(err->message, "STALE") && strcmp(err->source, "old.iprof") != 0 &&
           strcmp(err->path, "header.Old") != 0 && err->line != 3 && err->column != 4;
}

static int clear(const pb_error *err) {
    return err->code == 0 && err->message[0] == 0 && err->source[0] == 0 && err->path[0] == 0 &&
           err->offset == PB_NO_OFFSET && err->line == 0 && err->column == 0;
}

/* The sequence: a missing file, then a different failure with the
 * same pb_error: the second message is the second failure's. */
static void reused_error_reports_the_second_failure(void) {
    pb_error err;
    pb_error_clear(&err);
    pb_profile *p = NULL;
    CU_ASSERT_EQUAL(pb_read_file(&p, "/nonexistent.iprof", NULL, &err), PB_EIO);
    CU_ASSERT_STRING_EQUAL(err.source, "/nonexistent.iprof");
    pb_source *src = NULL;
    static const char junk[] = "this is not a profile";
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, junk, sizeof junk - 1, "junk.bin", &err), 0);
    CU_ASSERT(clear(&err));
    CU_ASSERT_EQUAL(pb_read(&p, src, NULL, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.source, "junk.bin");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "not a profile any plugin recognises"));
    CU_ASSERT_PTR_NULL(strstr(err.message, "--from")); /* no CLI words in the library */
    pb_source_free(src);
    CU_ASSERT_PTR_NULL(p);
}

/* Every public function that takes a pb_error, failing on a NULL argument
 * (or an unknown options version): PB_EINVAL, a message naming the function,
 * and nothing of the stale error. */
static void every_entry_point_fails_afresh(void) {
    pb_error err;
    pb_profile *p = NULL, *q = NULL, *tmpp = NULL;
    pb_source *src = NULL;
    pb_sink *sink = NULL;
    pb_prepared *pr = NULL;
    pb_diff *d = NULL;
    pb_remap *rm = NULL;
    const pb_format *f = NULL;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&q, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&sink, &err), 0);
    static const char text[] = "# IR level Instrumentation Flag\n:ir\nf\n1\n1\n5\n";
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, text, sizeof text - 1, "t.proftext", &err), 0);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
    pb_overlap_options oo = PB_OVERLAP_OPTIONS_INIT;
    pb_order_options ord = PB_ORDER_OPTIONS_INIT;
    pb_record rec;
    memset(&rec, 0, sizeof rec);
    uint64_t *ids = NULL;
    size_t n = 0;
    uint32_t u = 0;
    pb_str s = 0;
    const uint8_t *bytes = NULL;

#define FAILS(call, code)                                                          \
    do {                                                                           \
        stale(&err);                                                               \
        int rc_ = (call);                                                          \
        CU_ASSERT_EQUAL(rc_, code);                                                \
        CU_ASSERT(fresh(&err, code));                                              \
        if (rc_ != (code) || !fresh(&err, code))                                   \
            fprintf(stderr, "\n  %s: rc %d, message '%s'\n", #call, rc_, err.message); \
    } while (0)
    FAILS(pb_read(NULL, src, &ro, &err), PB_EINVAL);
    FAILS(pb_read_file(&tmpp, NULL, &ro, &err), PB_EINVAL); /* crashed before */
    FAILS(pb_prepare_file(&pr, NULL, &ro, &err), PB_EINVAL);
    FAILS(pb_prepare(&pr, NULL, &ro, &err), PB_EINVAL);
    FAILS(pb_read_prepared(&tmpp, NULL, &ro, &err), PB_EINVAL);
    FAILS(pb_write(p, sink, NULL, &wo, &err), PB_EINVAL);
    FAILS(pb_write(NULL, sink, pb_format_lookup("text"), &wo, &err), PB_EINVAL);
    FAILS(pb_write_file(p, NULL, NULL, &wo, &err), PB_EINVAL);
    FAILS(pb_format_detect(NULL, &f, &err), PB_EINVAL);
    FAILS(pb_source_open_file(NULL, "x", &err), PB_EINVAL);
    pb_source *src2 = src;
    FAILS(pb_source_open_file(&src2, NULL, &err) == PB_EINVAL && src2 == NULL ? PB_EINVAL : 1, PB_EINVAL);
    FAILS(pb_source_open_memory(NULL, text, 1, NULL, &err), PB_EINVAL);
    FAILS(pb_sink_open_file(NULL, "x", 0, &err), PB_EINVAL);
    FAILS(pb_sink_open_memory(NULL, &err), PB_EINVAL);
    FAILS(pb_sink_check(NULL, &err), PB_EINVAL);
    FAILS(pb_profile_new(NULL, &err), PB_EINVAL);
    FAILS(pb_profile_merge(p, NULL, &mo, &err), PB_EINVAL);
    FAILS(pb_profile_merge_record(p, NULL, &mo, &err), PB_EINVAL);
    FAILS(pb_profile_apply_weight(NULL, &mo, &err), PB_EINVAL);
    FAILS(pb_profile_add_run_data(p, NULL, &err), PB_EINVAL);
    FAILS(pb_profile_add_record(p, NULL, NULL, &err), PB_EINVAL);
    FAILS(pb_profile_add_record(p, &rec, NULL, &err), PB_EINVAL); /* no counters */
    FAILS(pb_profile_canonicalize(NULL, &err), PB_EINVAL);
    FAILS(pb_profile_overlap(p, NULL, &oo, sink, &err), PB_EINVAL);
    FAILS(pb_profile_diff(p, NULL, &d, &err), PB_EINVAL);
    FAILS(pb_diff_write(NULL, p, q, "a", "b", 0, sink, &err), PB_EINVAL);
    FAILS(pb_profile_order(p, &ord, NULL, &n, &err), PB_EINVAL);
    FAILS(pb_profile_order_write(p, &ord, NULL, &n, &err), PB_EINVAL);
    FAILS(pb_remap_parse(NULL, "a b\n", 4, &err), PB_EINVAL);
    FAILS(pb_remap_parse(&rm, "a\n", 2, &err), PB_EFORMAT);
    FAILS(pb_indexed_lookup(NULL, 0, "f", 1, &tmpp, &err), PB_EINVAL);
    FAILS(pb_indexed_foreach(NULL, 8, NULL, NULL, NULL, NULL, NULL, NULL, &err), PB_EINVAL);
    FAILS(pb_visit(NULL, NULL, NULL, NULL, &err), PB_EINVAL);
    FAILS(pb_source_rewind(src, &err), 0);
    FAILS(pb_source_peek(src, &bytes, &n, &err), 0);
    FAILS(pb_source_read_all(src, &bytes, &n, &err), 0);
    FAILS(pb_source_read(src, &u, sizeof u, &n, &err), 0);
    FAILS(pb_source_map(src, &bytes, &n, &err), 0);
    FAILS(pb_sink_write(sink, "x", 1, &err), 0);
    FAILS(pb_sink_printf(sink, &err, "%d", 1), 0);
    FAILS(pb_profile_set_prop(p, "k", "v", 1, &err), 0);
    FAILS(pb_profile_add_binary_id(p, (const uint8_t *)"id", 2, &err), 0);
    FAILS(pb_profile_add_trace(p, 1, NULL, 0, &err), 0);
    FAILS(pb_profile_intern(p, "f", 1, &s, &err), 0);
    FAILS(pb_profile_add_symbol(p, "_ZTV1A", 6, &u, &err), 0);
    FAILS(pb_profile_add_placeholder_symbol(p, 5, &u, &err), 0);
    FAILS(pb_profile_add_method(p, "m", 1, NULL, 0, &u, &err), 0);
    FAILS(pb_profile_add_placeholder_method(p, 6, &u, &err), 0);
    FAILS(pb_profile_intern_ints(p, NULL, 0, &u, &err), 0);
    FAILS(pb_sink_commit(sink, &err), 0);

    /* Unknown options versions: refused, with the struct's name. */
    ro.version = 7;
    FAILS(pb_read(&tmpp, src, &ro, &err), PB_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "pb_read_options: version 7 unknown (this library knows 3)");
    FAILS(pb_read_file(&tmpp, "x", &ro, &err), PB_EINVAL);
    wo.version = 0;
    FAILS(pb_write(p, sink, pb_format_lookup("text"), &wo, &err), PB_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.message, "pb_write_options: version 0 unknown (this library knows 2)");
    mo.version = 2;
    FAILS(pb_profile_merge(p, q, &mo, &err), PB_EINVAL);
    oo.version = 99;
    FAILS(pb_profile_overlap(p, q, &oo, sink, &err), PB_EINVAL);
    ord.version = 3;
    FAILS(pb_profile_order(p, &ord, &ids, &n, &err), PB_EINVAL);
#undef FAILS
    pb_sink_free(sink);
    pb_source_free(src);
    pb_profile_free(p);
    pb_profile_free(q);
}

/* A successful call leaves the pb_error clear, whatever it held. */
static void success_leaves_the_error_clear(void) {
    pb_error err;
    pb_profile *p = NULL;
    stale(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    CU_ASSERT(clear(&err));
    stale(&err);
    pb_str s;
    CU_ASSERT_EQUAL(pb_profile_intern(p, "x", 1, &s, &err), 0);
    CU_ASSERT(clear(&err));
    pb_profile_free(p);
}

/* pb_*_options_init gives the INIT macro's values and refuses versions it
 * does not know, leaving the struct untouched. */
static void options_init_matches_the_macros(void) {
    pb_read_options a = PB_READ_OPTIONS_INIT, b;
    memset(&b, 0x5a, sizeof b);
    CU_ASSERT_EQUAL(pb_read_options_init(&b, PB_READ_OPTIONS_VERSION), PB_OK);
    CU_ASSERT_EQUAL(b.version, 3);
    CU_ASSERT(b.format == NULL && b.max_input_size == 0 && b.merge_into == NULL && b.llvm_release == 0 &&
              b.llvm_view == 0);
    CU_ASSERT_EQUAL(a.version, b.version);
    /* layout 2 (no llvm_view): its struct ends before the field */
    memset(&b, 0x5a, sizeof b);
    CU_ASSERT_EQUAL(pb_read_options_init(&b, 2), PB_OK);
    CU_ASSERT(b.version == 2 && b.llvm_release == 0);
    CU_ASSERT_EQUAL(b.llvm_view, 0x5a5a5a5a);
    pb_show_options sh;
    memset(&sh, 0x5a, sizeof sh);
    CU_ASSERT_EQUAL(pb_show_options_init(&sh, 2), PB_EINVAL);
    CU_ASSERT_EQUAL(sh.version, 0x5a5a5a5au); /* untouched */
    CU_ASSERT_EQUAL(pb_show_options_init(&sh, PB_SHOW_OPTIONS_VERSION), PB_OK);
    CU_ASSERT(sh.version == 1 && sh.llvm_release == 0 && sh.function == NULL && sh.topn == 0 && sh.diag == NULL);
    /* a caller built against layout 1 (no llvm_release): its struct ends
     * before the field, which init leaves alone */
    memset(&b, 0x5a, sizeof b);
    CU_ASSERT_EQUAL(pb_read_options_init(&b, 1), PB_OK);
    CU_ASSERT_EQUAL(b.version, 1);
    CU_ASSERT(b.format == NULL && b.max_inflation == 0);
    CU_ASSERT_EQUAL(b.llvm_release, 0x5a5a5a5a);
    pb_write_options w1;
    memset(&w1, 0x5a, sizeof w1);
    CU_ASSERT_EQUAL(pb_write_options_init(&w1, 1), PB_OK);
    CU_ASSERT(w1.version == 1 && w1.kv == NULL && w1.nkv == 0);
    CU_ASSERT_EQUAL(w1.llvm_release, 0x5a5a5a5a);
    pb_merge_options m;
    memset(&m, 0x5a, sizeof m);
    CU_ASSERT_EQUAL(pb_merge_options_init(&m, 2), PB_EINVAL);
    CU_ASSERT_EQUAL(m.version, 0x5a5a5a5au); /* untouched */
    CU_ASSERT_EQUAL(pb_merge_options_init(&m, 1), PB_OK);
    CU_ASSERT_EQUAL(m.weight, 1);
    CU_ASSERT_EQUAL(m.max_count, PB_MAX_COUNT_LLVM);
    CU_ASSERT_EQUAL(pb_write_options_init(NULL, 1), PB_EINVAL);
    pb_write_options w;
    CU_ASSERT_EQUAL(pb_write_options_init(&w, 0), PB_EINVAL);
    pb_dump_options du;
    CU_ASSERT_EQUAL(pb_dump_options_init(&du, 1), PB_OK);
    pb_overlap_options ov;
    CU_ASSERT_EQUAL(pb_overlap_options_init(&ov, 1), PB_OK);
    CU_ASSERT_EQUAL(ov.value_cutoff, UINT64_MAX);
    pb_order_options or;
    CU_ASSERT_EQUAL(pb_order_options_init(&or, 1), PB_OK);
    CU_ASSERT_EQUAL(or.llvm_release, 0);
}

/* The documented edge returns. */
static void edge_returns_are_as_documented(void) {
    pb_error err;
    pb_profile *p = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    size_t len = 7;
    CU_ASSERT_PTR_NULL(pb_profile_str(p, PB_NONE, &len)); /* profile.h: NULL, *len = 0 */
    CU_ASSERT_EQUAL(len, 0);
    CU_ASSERT_PTR_NULL(pb_profile_record(p, 0));
    CU_ASSERT_PTR_NULL(pb_profile_symbol(p, 0));
    CU_ASSERT_PTR_NULL(pb_profile_prop(p, "missing", &len));
    CU_ASSERT_STRING_EQUAL(pb_strerror(12345), "unknown error");
    pb_profile_free(p);
}

static CU_TestInfo tests[] = {
    {"reused_error_reports_the_second_failure", reused_error_reports_the_second_failure},
    {"every_entry_point_fails_afresh", every_entry_point_fails_afresh},
    {"success_leaves_the_error_clear", success_leaves_the_error_clear},
    {"options_init_matches_the_macros", options_init_matches_the_macros},
    {"edge_returns_are_as_documented", edge_returns_are_as_documented},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_api_contract[] = {{"api_contract", NULL, NULL, NULL, NULL, tests},
                                              CU_SUITE_INFO_NULL};
