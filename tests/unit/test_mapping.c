/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_mapping.c -- the iprof -> LLVM record mapping of docs/mapping.md, checked
 * on fib-doc.iprof against names, hashes and NameRefs computed independently
 * (Python hashlib, see docs/mapping.md section 4), not by our code.
 */
#include <string.h>

#include "testutil.h"

static pb_profile *fib;

static int setup(void) {
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    return pb_read_file(&fib, tu_src("testdata/samples/fib-doc.iprof"), &ro, &err) ? 1 : 0;
}
static int teardown(void) {
    pb_profile_free(fib);
    return 0;
}

/* The record whose rendered name is `name`, or NULL. */
static const pb_record *by_name(const char *name) {
    size_t idx[4];
    size_t n = pb_profile_lookup(fib, name, strlen(name), idx, 4);
    CU_ASSERT_EQUAL(n, 1);
    return n == 1 ? pb_profile_record(fib, idx[0]) : NULL;
}

static void check_name_hash(const pb_record *r, const char *want_name, uint64_t want_hash) {
    const char *name;
    size_t len;
    uint64_t hash;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_record_name(fib, r, &name, &len, &hash, &err), 0);
    CU_ASSERT_EQUAL(len, strlen(want_name));
    CU_ASSERT_STRING_EQUAL(name, want_name);
    CU_ASSERT_EQUAL(hash, want_hash);
    CU_ASSERT_EQUAL(hash >> 60, 0); /* bits 60-63 clear: never taken for a CS record */
}

static void mapping__call_counts_have_documented_names(void) {
    const char *a = "jcall:Fib.fibonacci()void:0";
    const pb_record *r = by_name(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->kind, PB_REC_JAVA_CALL_COUNT);
    check_name_hash(r, a, UINT64_C(980964109094691378));
    CU_ASSERT_EQUAL(r->num_counters, 1);
    CU_ASSERT_EQUAL(r->counters[0], 1);
    const char *b = "jcall:java.io.PrintStream.print(java.lang.String)void:0<Fib.fibonacci()void:34";
    r = by_name(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    check_name_hash(r, b, UINT64_C(687912336852878987));
    CU_ASSERT_EQUAL(r->counters[0], 10);
}

static void mapping__branch_counters_are_sum_then_successors(void) {
    const char *n = "jbranch:Fib.fibonacci()void:11|20/0,53/1";
    const pb_record *r = by_name(n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->kind, PB_REC_JAVA_BRANCH);
    check_name_hash(r, n, UINT64_C(953306723799849040));
    CU_ASSERT_EQUAL_FATAL(r->num_counters, 3);
    CU_ASSERT_EQUAL(r->counters[0], 11);
    CU_ASSERT_EQUAL(r->counters[1], 10);
    CU_ASSERT_EQUAL(r->counters[2], 1);
}

static void mapping__receiver_types_are_kind2_values_with_type_symbols(void) {
    const char *n = "jvcall:java.lang.String.valueOf(java.lang.Object)java.lang.String:11"
                    "<java.io.PrintStream.print(java.lang.String)void:2<Fib.fibonacci()void:34";
    const pb_record *r = by_name(n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    check_name_hash(r, n, UINT64_C(378797558458472364));
    CU_ASSERT_EQUAL(r->counters[0], 10);
    CU_ASSERT_EQUAL_FATAL(r->num_sites[PB_VK_VTABLE], 1);
    CU_ASSERT_EQUAL(r->num_sites[PB_VK_INDIRECT_CALL], 0);
    const pb_site *s = &r->sites[PB_VK_VTABLE][0];
    CU_ASSERT_EQUAL_FATAL(s->num_values, 1);
    CU_ASSERT_EQUAL(s->values[0].value, UINT64_C(0x1f3fdba5e35bc242));
    CU_ASSERT_EQUAL(s->values[0].count, 10);
    const pb_symbol *sym = pb_profile_symbol(fib, s->values[0].symbol);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sym);
    CU_ASSERT_STRING_EQUAL(pb_profile_str(fib, sym->name, NULL), "java.lang.String");
}

static void mapping__monitor_is_one_record_summing_its_pairs(void) {
    const pb_record *r = by_name("jmonitor:");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    check_name_hash(r, "jmonitor:", UINT64_C(866627363027057748));
    CU_ASSERT_EQUAL(r->ctx, PB_NONE);
    /* 4+1+9+10+1+1+2+1+2+3+61+3+7+2+3+6, summed by hand from the file */
    CU_ASSERT_EQUAL(r->counters[0], 116);
    CU_ASSERT_EQUAL_FATAL(r->num_sites[PB_VK_VTABLE], 1);
    const pb_site *s = &r->sites[PB_VK_VTABLE][0];
    CU_ASSERT_EQUAL(s->num_values, 16);
    int found = 0;
    for (uint32_t i = 0; i < s->num_values; i++)
        if (s->values[i].value == UINT64_C(0x64687d0edf9a9a92)) found = s->values[i].count == 9;
    CU_ASSERT_TRUE(found); /* example.MonitorType579 -> 9 */
}

static void mapping__every_record_has_counters_and_the_profile_is_consistent(void) {
    CU_ASSERT_EQUAL(pb_profile_record_count(fib), 2 + 1 + 2 + 1 + 2);
    for (size_t i = 0; i < pb_profile_record_count(fib); i++)
        CU_ASSERT(pb_profile_record(fib, i)->num_counters >= 1);
    tu_diag d;
    memset(&d, 0, sizeof d);
    CU_ASSERT_EQUAL(pb_profile_check(fib, tu_diag_fn, &d), 0);
    CU_ASSERT_EQUAL(pb_profile_flags(fib), PB_VARIANT_IR | PB_VARIANT_ENTRY_FIRST);
    size_t len;
    CU_ASSERT_STRING_EQUAL(pb_profile_prop(fib, "iprof.version", &len), "1.1.0");
}

static CU_TestInfo tests[] = {
    {"mapping__call_counts_have_documented_names", mapping__call_counts_have_documented_names},
    {"mapping__branch_counters_are_sum_then_successors", mapping__branch_counters_are_sum_then_successors},
    {"mapping__receiver_types_are_kind2_values_with_type_symbols", mapping__receiver_types_are_kind2_values_with_type_symbols},
    {"mapping__monitor_is_one_record_summing_its_pairs", mapping__monitor_is_one_record_summing_its_pairs},
    {"mapping__every_record_has_counters_and_the_profile_is_consistent", mapping__every_record_has_counters_and_the_profile_is_consistent},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_mapping[] = {{"mapping", setup, teardown, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
