/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_model_check.c -- pb_profile_check catches each inconsistency,
 * pb_profile_equal finds differences, lookups by name and NameRef. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static pb_profile *new_profile(void) {
    pb_profile *p = NULL;
    CU_ASSERT_FATAL(pb_profile_new(&p, NULL) == 0);
    return p;
}

/* A small consistent profile: a function, a branch, a call, a vcall. */
static pb_profile *sample(uint64_t scale) {
    pb_profile *p = new_profile();
    uint32_t t, v, m, c, l;
    CU_ASSERT_FATAL(pb_profile_add_symbol(p, "T", 1, &t, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_add_symbol(p, "void", 4, &v, NULL) == 0);
    uint32_t sig[2] = {t, v};
    CU_ASSERT_FATAL(pb_profile_add_method(p, "run", 3, sig, 2, &m, NULL) == 0);
    pb_frame f = {m, 3};
    CU_ASSERT_FATAL(pb_profile_intern_context(p, &f, 1, &c, NULL) == 0);
    int32_t lay[4] = {10, 0, 20, 1};
    CU_ASSERT_FATAL(pb_profile_intern_ints(p, lay, 4, &l, NULL) == 0);
    pb_record r;
    memset(&r, 0, sizeof r);
    uint64_t fc[2] = {5 * scale, 6}, bc[3] = {9 * scale, 4 * scale, 5 * scale}, cc = 2, vc = 7;
    r.kind = PB_REC_FUNCTION;
    CU_ASSERT_FATAL(pb_profile_intern(p, "main", 4, &r.name, NULL) == 0);
    r.hash = 0x1234;
    r.counters = fc;
    r.num_counters = 2;
    r.ctx = r.layout = PB_NONE;
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    r.hash = 0x5678;
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    r.kind = PB_REC_JAVA_BRANCH;
    r.name = PB_NONE;
    r.hash = 0;
    r.ctx = c;
    r.layout = l;
    r.counters = bc;
    r.num_counters = 3;
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    r.kind = PB_REC_JAVA_CALL_COUNT;
    r.layout = PB_NONE;
    r.counters = &cc;
    r.num_counters = 1;
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    pb_value vals[2] = {{pb_md5_ref("T", 1), 3, t}, {pb_md5_ref("void", 4), 4, v}};
    pb_site site = {2, vals};
    r.kind = PB_REC_JAVA_VIRTUAL_INVOKE;
    r.counters = &vc;
    r.num_sites[PB_VK_VTABLE] = 1;
    r.sites[PB_VK_VTABLE] = &site;
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    pb_profile_set_flags(p, PB_VARIANT_IR);
    return p;
}

static size_t check_once(pb_profile *p, tu_diag *d) {
    memset(d, 0, sizeof *d);
    return pb_profile_check(p, tu_diag_fn, d);
}

static void check__accepts_a_consistent_profile(void) {
    pb_profile *p = sample(1);
    tu_diag d;
    CU_ASSERT_EQUAL(check_once(p, &d), 0);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_ERROR], 0);
    /* a branch sum saturated at LLVM's maximum is still consistent */
    pb_record *b = pb_profile_record_mut(p, 2);
    b->counters[0] = PB_MAX_COUNT_LLVM;
    b->counters[1] = PB_MAX_COUNT_LLVM;
    b->counters[2] = 5;
    CU_ASSERT_EQUAL(check_once(p, &d), 0);
    pb_profile_free(p);
}

static void check__reports_each_broken_rule(void) {
    tu_diag d;
    pb_profile *p = sample(1);
    pb_profile_record_mut(p, 2)->counters[0] = 10; /* 4 + 5 = 9 */
    CU_ASSERT_EQUAL(check_once(p, &d), 1);
    CU_ASSERT(strstr(d.last, "records[2]") && strstr(d.last, "not the sum of the successor counters"));
    pb_profile_free(p);

    p = sample(1);
    pb_profile_record_mut(p, 4)->counters[0] = 8; /* 3 + 4 = 7 */
    CU_ASSERT_EQUAL(check_once(p, &d), 1);
    CU_ASSERT(strstr(d.last, "records[4]") && strstr(d.last, "type-histogram counter (8)"));
    pb_profile_free(p);

    p = sample(1);
    pb_profile_record_mut(p, 4)->sites[PB_VK_VTABLE][0].values[1].value = 99;
    CU_ASSERT_EQUAL(check_once(p, &d), 1); /* the NameRef; the sum still holds */
    CU_ASSERT(strstr(d.all, "differs from its symbol's NameRef") != NULL);
    pb_profile_free(p);

    p = sample(1);
    pb_profile_record_mut(p, 4)->sites[PB_VK_VTABLE][0].values[1].symbol = 42;
    CU_ASSERT_EQUAL(check_once(p, &d), 1);
    CU_ASSERT(strstr(d.last, "value names symbol 42 of 2") != NULL);
    pb_profile_free(p);

    p = sample(1);
    {
        /* a call-count record with two counters is accepted by add, caught by check */
        pb_record r = *pb_profile_record(p, 3);
        uint64_t two[2] = {1, 1};
        uint32_t m2, c2;
        CU_ASSERT_FATAL(pb_profile_add_method(p, "other", 5, NULL, 0, &m2, NULL) == 0);
        pb_frame f = {m2, 0};
        CU_ASSERT_FATAL(pb_profile_intern_context(p, &f, 1, &c2, NULL) == 0);
        r.ctx = c2;
        r.counters = two;
        r.num_counters = 2;
        CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
        CU_ASSERT_EQUAL(check_once(p, &d), 1);
        CU_ASSERT(strstr(d.last, "has 2 counters, expected 1") != NULL);
    }
    pb_profile_free(p);

    p = sample(1);
    {
        /* a type histogram with a kind-0 site */
        pb_record *r = pb_profile_record_mut(p, 4);
        r->num_sites[PB_VK_INDIRECT_CALL] = 1;
        r->sites[PB_VK_INDIRECT_CALL] = r->sites[PB_VK_VTABLE];
        CU_ASSERT(check_once(p, &d) >= 1);
        CU_ASSERT(strstr(d.all, "value sites of kind 0 or 1") != NULL);
        r->num_sites[PB_VK_INDIRECT_CALL] = 0;
        r->sites[PB_VK_INDIRECT_CALL] = NULL;
    }
    pb_profile_free(p);

    p = sample(1);
    /* a key changed in place repeats another record's key */
    pb_profile_record_mut(p, 1)->hash = 0x1234;
    CU_ASSERT_EQUAL(check_once(p, &d), 1);
    CU_ASSERT(strstr(d.last, "records[1]") && strstr(d.last, "repeats the key of records[0]"));
    pb_profile_free(p);

    p = sample(1);
    pb_profile_record_mut(p, 3)->ctx = 77;
    pb_profile_record_mut(p, 3)->num_counters = 0;
    CU_ASSERT(check_once(p, &d) >= 2);
    CU_ASSERT(strstr(d.all, "names context 77 of 1") != NULL);
    CU_ASSERT(strstr(d.all, "has no counters") != NULL);
    pb_profile_free(p);
}

static void equal__finds_each_kind_of_difference(void) {
    char why[512];
    pb_profile *a = sample(1), *b = sample(1);
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 1);
    CU_ASSERT_STRING_EQUAL(why, "");

    pb_profile_record_mut(b, 2)->counters[1] = 5;
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 0);
    CU_ASSERT_STRING_EQUAL(why, "record jbranch:T.run()void:3|10/0,20/1: counter 1 differs: 4 vs 5");
    pb_profile_record_mut(b, 2)->counters[1] = 4;

    pb_profile_record_mut(b, 4)->sites[PB_VK_VTABLE][0].values[0].count = 9;
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 0);
    CU_ASSERT(strstr(why, "jvcall:T.run()void:3: kind-2 site 0 value 0 differs") != NULL);
    pb_profile_record_mut(b, 4)->sites[PB_VK_VTABLE][0].values[0].count = 3;
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 1);

    pb_profile_set_flags(b, 0);
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 0);
    CU_ASSERT(strstr(why, "flags differ") != NULL);
    pb_profile_set_flags(b, PB_VARIANT_IR);

    CU_ASSERT(pb_profile_set_prop(b, "k", "v", 1, NULL) == 0);
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 0);
    CU_ASSERT(pb_profile_set_prop(a, "k", "w", 1, NULL) == 0);
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 0);
    CU_ASSERT_STRING_EQUAL(why, "property k differs");
    pb_profile_remove_prop(a, "k");
    pb_profile_remove_prop(b, "k");

    uint32_t s;
    CU_ASSERT(pb_profile_add_symbol(b, "U", 1, &s, NULL) == 0);
    CU_ASSERT(pb_profile_add_symbol(a, "V", 1, &s, NULL) == 0);
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 0);
    CU_ASSERT_STRING_EQUAL(why, "symbol V is missing from the second profile");
    pb_profile_free(a);
    pb_profile_free(b);

    a = sample(1);
    b = sample(1);
    uint32_t m;
    CU_ASSERT(pb_profile_add_method(a, "x", 1, NULL, 0, &m, NULL) == 0);
    CU_ASSERT(pb_profile_add_placeholder_method(b, 4, &m, NULL) == 0);
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 0);
    CU_ASSERT_STRING_EQUAL(why, "method %-.x()%- is missing from the second profile");
    pb_profile_free(a);
    pb_profile_free(b);

    a = sample(1);
    b = sample(2);
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 0);
    CU_ASSERT_STRING_EQUAL(why, "record main: counter 0 differs: 5 vs 10");
    pb_profile_free(b);
    b = sample(1);
    pb_profile_record_mut(b, 1)->hash = 0x9999;
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 0);
    CU_ASSERT_STRING_EQUAL(why, "record main (hash 0x0000000000005678) is missing from the second profile");
    pb_profile_free(a);
    pb_profile_free(b);

    a = sample(1);
    b = sample(1);
    uint8_t id[1] = {7};
    uint64_t ref = 1;
    CU_ASSERT(pb_profile_add_binary_id(a, id, 1, NULL) == 0);
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 0);
    CU_ASSERT(strstr(why, "binary id") != NULL);
    CU_ASSERT(pb_profile_add_binary_id(b, id, 1, NULL) == 0);
    CU_ASSERT(pb_profile_add_trace(a, 1, &ref, 1, NULL) == 0);
    CU_ASSERT(pb_profile_add_trace(b, 2, &ref, 1, NULL) == 0);
    CU_ASSERT_EQUAL(pb_profile_equal(a, b, why, sizeof why), 0);
    CU_ASSERT_STRING_EQUAL(why, "trace 0 differs");
    pb_profile_free(a);
    pb_profile_free(b);
}

static void lookup__finds_records_by_name_and_name_ref(void) {
    pb_profile *p = sample(1);
    size_t idx[4];
    CU_ASSERT_EQUAL(pb_profile_lookup(p, "main", 4, idx, 4), 2);
    CU_ASSERT(idx[0] != idx[1] && idx[0] < 2 && idx[1] < 2);
    CU_ASSERT_EQUAL(pb_profile_lookup(p, "main", 4, idx, 1), 2); /* count beyond max */
    CU_ASSERT_EQUAL(pb_profile_lookup_ref(p, pb_md5_ref("main", 4), idx, 4), 2);
    const char *n = "jcall:T.run()void:3";
    CU_ASSERT_EQUAL(pb_profile_lookup(p, n, strlen(n), idx, 4), 1);
    CU_ASSERT_EQUAL(idx[0], 3);
    CU_ASSERT_EQUAL(pb_profile_lookup_ref(p, pb_md5_ref(n, strlen(n)), idx, 4), 1);
    CU_ASSERT_EQUAL(idx[0], 3);
    CU_ASSERT_EQUAL(pb_profile_lookup(p, "nope", 4, idx, 4), 0);
    CU_ASSERT_EQUAL(pb_profile_lookup_ref(p, 12345, idx, 4), 0);
    /* the index follows additions */
    pb_record r = *pb_profile_record(p, 0);
    uint64_t c = 1;
    r.counters = &c;
    r.num_counters = 1;
    CU_ASSERT_FATAL(pb_profile_intern(p, "late", 4, &r.name, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    CU_ASSERT_EQUAL(pb_profile_lookup(p, "late", 4, idx, 4), 1);
    CU_ASSERT_EQUAL(idx[0], 5);
    CU_ASSERT_EQUAL(pb_profile_lookup(p, "main", 4, NULL, 0), 2);
    pb_profile_free(p);
}

static CU_TestInfo tests[] = {
    {"check__accepts_a_consistent_profile", check__accepts_a_consistent_profile},
    {"check__reports_each_broken_rule", check__reports_each_broken_rule},
    {"equal__finds_each_kind_of_difference", equal__finds_each_kind_of_difference},
    {"lookup__finds_records_by_name_and_name_ref", lookup__finds_records_by_name_and_name_ref},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_model_check[] = {{"model_check", NULL, NULL, NULL, NULL, tests},
                                             CU_SUITE_INFO_NULL};
