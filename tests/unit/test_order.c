/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_order.c -- the pieces of `order` (src/analysis/order.c) that must match
 * libstdc++ and LLVM exactly: the float draw, std::mt19937 with a seed,
 * std::nth_element's element order, and whole orders of a small profile.
 * The byte-level oracle for many more profiles is llvm-profdata-17..24 in
 * tests/interop/order_llvm.sh.
 *
 * Expected values were computed when this test was written:
 *  - draws and nth_element results by a C++ program compiled with g++ 12
 *    (libstdc++, Debian 12): std::uniform_real_distribution<float>(0.f, 1.f)
 *    over std::mt19937 (default seed, seed 1, and an engine returning a
 *    fixed word), printed with %a; std::nth_element on the arrays below;
 *  - the orders by llvm-profdata-17/-19/-24 order on the .proftext that
 *    holds the same four traces (functions f0..f9, each with a record).
 */
#include <stdlib.h>
#include <string.h>

#include "llvm/llvm_values.h"
#include "llvm/mt19937.h"
#include "profbridge/order.h"
#include "llvm/stl_algo.h"
#include "testutil.h"

/* g++: uniform_real_distribution<float>(0, 1) over a default std::mt19937:
 * one engine call per value (generate_canonical<float, 24> needs 24 bits,
 * the engine gives 32), so the values are the engine's words / 2^32. */
static void float_draws_match_libstdcxx(void) {
    static const float want[] = {0x1.a12376p-1f, 0x1.1574f8p-3f, 0x1.cfc3f6p-1f,
                                 0x1.ab863ep-1f, 0x1.0411aap-3f, 0x1.f00f7p-1f};
    pbi_mt19937 g;
    pbi_mt19937_seed(&g, PBI_MT19937_DEFAULT_SEED);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) CU_ASSERT_EQUAL(pbi_mt19937_canonical_float(&g), want[i]);
    /* bisect seeds its generator with the bucket: the root's is 1 */
    static const float want1[] = {0x1.ab07dp-2f, 0x1.fe8f02p-1f, 0x1.70ce6p-1f, 0x1.dd7828p-1f};
    pbi_mt19937_seed(&g, 1);
    for (size_t i = 0; i < sizeof want1 / sizeof *want1; i++) CU_ASSERT_EQUAL(pbi_mt19937_canonical_float(&g), want1[i]);
    pbi_mt19937_seed(&g, 1);
    CU_ASSERT_EQUAL(pbi_mt19937_next(&g), 1791095845u); /* std::mt19937(1)() */
    CU_ASSERT_EQUAL(pbi_mt19937_next(&g), 4282876139u);
}

/* g++, an engine returning a fixed word: words from 2^32 - 128 up round to
 * 1.0f and become the float below 1; 0x19999999 rounds to exactly 0.1f, so
 * LLVM's "draw <= SkipProbability" skips that move. */
static void float_edges_match_libstdcxx(void) {
    CU_ASSERT_EQUAL(pbi_canonical_float_of(0), 0.0f);
    CU_ASSERT_EQUAL(pbi_canonical_float_of(1), 0x1p-32f);
    CU_ASSERT_EQUAL(pbi_canonical_float_of(0xffffff7fu), 0x1.fffffep-1f);
    CU_ASSERT_EQUAL(pbi_canonical_float_of(0xffffff80u), 0x1.fffffep-1f);
    CU_ASSERT_EQUAL(pbi_canonical_float_of(0xffffffffu), 0x1.fffffep-1f);
    CU_ASSERT_EQUAL(pbi_canonical_float_of(0x19999999u), 0.1f);
    CU_ASSERT_EQUAL(pbi_canonical_float_of(0x199999a0u), 0.1f);
}

/* g++ std::nth_element: a quickselect case, and one (organ pipe, n = 43)
 * that runs out of depth and finishes with heap select. */
static void nth_element_leaves_libstdcxx_order(void) {
    uint32_t a[] = {5, 9, 1, 7, 3, 8, 0, 6, 2, 4, 11, 10};
    static const uint32_t wa[] = {5, 4, 1, 2, 3, 0, 6, 7, 8, 9, 11, 10};
    pbi_stl_nth_element_u32(a, 12, 6);
    CU_ASSERT_EQUAL(memcmp(a, wa, sizeof a), 0);

    uint32_t b[43];
    for (uint32_t i = 0; i < 22; i++) b[i] = 2 * i;
    for (uint32_t i = 0; i < 21; i++) b[22 + i] = 41 - 2 * i;
    static const uint32_t wb[] = {2,  0,  1,  8,  6,  4,  3,  5,  7,  20, 18, 10, 12, 14, 16,
                                  9,  11, 13, 15, 17, 19, 22, 21, 26, 24, 23, 25, 29, 28, 27,
                                  31, 30, 32, 33, 36, 35, 34, 37, 38, 39, 40, 41, 42};
    pbi_stl_nth_element_u32(b, 43, 33);
    CU_ASSERT_EQUAL(memcmp(b, wb, sizeof b), 0);

    uint32_t c[] = {3, 1, 2};
    pbi_stl_nth_element_u32(c, 3, 3); /* nth == last: untouched */
    CU_ASSERT_EQUAL(c[0], 3);
}

/* The generic algorithms on a struct type, keys with many ties: the ids
 * in the order g++ 12's std::sort, std::push_heap and std::pop_heap leave
 * them (comparator: key only). */
typedef struct keyed {
    unsigned key, id;
} keyed;

static int keyed_less(const void *a, const void *b, void *ctx) {
    (void)ctx;
    return ((const keyed *)a)->key < ((const keyed *)b)->key;
}

static void sort_and_heap_leave_libstdcxx_order(void) {
    keyed a[40];
    for (unsigned i = 0; i < 40; i++) a[i] = (keyed){(i * 7 + i / 5) % 3, i};
    pbi_stl_sort(a, 40, sizeof *a, keyed_less, NULL);
    static const unsigned wa[40] = {0,  23, 20, 25, 18, 28, 15, 13, 30, 10, 33, 8,  35, 5,  3,  38, 31, 34, 29, 26,
                                    36, 24, 39, 11, 1,  4,  6,  9,  14, 16, 19, 21, 12, 22, 32, 27, 7,  17, 37, 2};
    for (unsigned i = 0; i < 40; i++) CU_ASSERT_EQUAL(a[i].id, wa[i]);

    keyed h[16];
    size_t n = 0;
    for (unsigned i = 0; i < 12; i++) {
        h[n++] = (keyed){(i * 5) % 4, i};
        pbi_stl_push_heap(h, n, sizeof *h, keyed_less, NULL);
    }
    static const unsigned pops[5] = {3, 11, 7, 6, 10};
    for (unsigned k = 0; k < 5; k++) {
        pbi_stl_pop_heap(h, n, sizeof *h, keyed_less, NULL);
        CU_ASSERT_EQUAL(h[--n].id, pops[k]);
    }
    for (unsigned i = 12; i < 15; i++) {
        h[n++] = (keyed){i % 2, i};
        pbi_stl_push_heap(h, n, sizeof *h, keyed_less, NULL);
    }
    static const unsigned wh[10] = {2, 9, 1, 13, 8, 5, 4, 12, 0, 14};
    CU_ASSERT_EQUAL_FATAL(n, 10);
    for (unsigned i = 0; i < 10; i++) CU_ASSERT_EQUAL(h[i].id, wh[i]);
}

/* The value sites' sort (llvm_values.c) sorts up to PBI_STL_SORT_THRESHOLD
 * values on its own: it must leave ties where pbi_stl_sort (held to g++
 * above) leaves them, at every size on either side of the threshold. */
static int value_key_less(const void *a, const void *b, void *ctx) {
    (void)ctx;
    return ((const pb_value *)a)->value < ((const pb_value *)b)->value;
}

static void value_sort_matches_stl_sort(void) {
    uint32_t seed = 12345;
    for (size_t n = 0; n <= PBI_STL_SORT_THRESHOLD + 4; n++) {
        for (int round = 0; round < 200; round++) {
            pb_value a[PBI_STL_SORT_THRESHOLD + 4], b[PBI_STL_SORT_THRESHOLD + 4];
            memset(a, 0, sizeof a);
            for (size_t i = 0; i < n; i++) {
                seed = seed * 1103515245u + 12345u;
                a[i].value = (seed >> 16) % (round % 2 ? 4 : 64); /* many ties, or few */
                a[i].count = i;                                  /* the element's identity */
            }
            memcpy(b, a, sizeof a);
            pbi_llvm_std_sort_by_value(a, n);
            pbi_stl_sort(b, n, sizeof *b, value_key_less, NULL);
            for (size_t i = 0; i < n; i++) CU_ASSERT_EQUAL(a[i].count, b[i].count);
        }
    }
}

static pb_profile *small_profile(void) {
    static const int traces[4][10] = {{0, 1, 2, 3, 4, 5, 6, 7, -1},
                                      {8, 1, 0, 9, 3, 2, -1},
                                      {5, 4, 6, 7, 9, 8, 0, -1},
                                      {2, 3, 1, 0, 9, 6, 5, 4, 7, 8}};
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    if (pb_profile_new(&p, &err)) return NULL;
    uint64_t refs[10], counter = 1;
    for (int i = 0; i < 10; i++) {
        char name[4] = {'f', (char)('0' + i), 0, 0};
        refs[i] = pb_md5_ref(name, 2);
        pb_record r;
        memset(&r, 0, sizeof r);
        r.kind = PB_REC_FUNCTION;
        r.ctx = r.layout = PB_NONE;
        r.hash = (uint64_t)i;
        r.num_counters = 1;
        r.counters = &counter;
        if (pb_profile_intern(p, name, 2, &r.name, &err) || pb_profile_add_record(p, &r, NULL, &err)) goto fail;
    }
    for (int t = 0; t < 4; t++) {
        uint64_t tr[10];
        size_t n = 0;
        while (n < 10 && traces[t][n] >= 0) {
            tr[n] = refs[traces[t][n]];
            n++;
        }
        if (pb_profile_add_trace(p, 1, tr, n, &err)) goto fail;
    }
    return p;
fail:
    pb_profile_free(p);
    return NULL;
}

static void expect_order(const pb_profile *p, int release, const char *want) {
    pb_order_options o = PB_ORDER_OPTIONS_INIT;
    o.llvm_release = release;
    uint64_t *ids = NULL;
    size_t n = 0;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_order(p, &o, &ids, &n, &err), 0);
    CU_ASSERT_EQUAL(n, 10);
    for (size_t i = 0; i < n && i < 10; i++) {
        char name[3] = {'f', want[i], 0};
        CU_ASSERT_EQUAL(ids[i], pb_md5_ref(name, 2));
    }
    free(ids);
}

/* llvm-profdata-17 and -18: f1 f0 f2 f3 f8 f9 f7 f4 f5 f6;
 * llvm-profdata-19, -21 and -24: f2 f3 f0 f1 f8 f9 f5 f4 f6 f7. */
static void small_profile_orders_as_llvm(void) {
    pb_profile *p = small_profile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    expect_order(p, 17, "1023897456");
    expect_order(p, 18, "1023897456");
    expect_order(p, 19, "2301895467");
    expect_order(p, 0, "2301895467");
    expect_order(p, 24, "2301895467");
    pb_profile_free(p);
}

/* --num-test-traces must leave a trace to order (llvm-profdata's error), and
 * releases without order or without the option are refused. */
static void bad_options_are_refused(void) {
    pb_profile *p = small_profile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    pb_order_options o = PB_ORDER_OPTIONS_INIT;
    uint64_t *ids = NULL;
    size_t n = 0;
    pb_error err;
    pb_error_clear(&err);
    o.num_test_traces = 4;
    CU_ASSERT_EQUAL(pb_profile_order(p, &o, &ids, &n, &err), PB_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "expected: < 4, actual: 4"));
    o.num_test_traces = 3;
    CU_ASSERT_EQUAL(pb_profile_order(p, &o, &ids, &n, &err), 0);
    CU_ASSERT_EQUAL(n, 8); /* only the first trace is ordered: f0..f7 */
    free(ids);
    o.llvm_release = 18;
    CU_ASSERT_EQUAL(pb_profile_order(p, &o, &ids, &n, &err), PB_EINVAL);
    o.num_test_traces = 0;
    o.llvm_release = 16;
    CU_ASSERT_EQUAL(pb_profile_order(p, &o, &ids, &n, &err), PB_EINVAL);
    pb_profile_free(p);
}

/* No traces: nothing to order. */
static void no_traces_order_nothing(void) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    uint64_t *ids = (uint64_t *)&err;
    size_t n = 7;
    CU_ASSERT_EQUAL(pb_profile_order(p, NULL, &ids, &n, &err), 0);
    CU_ASSERT_EQUAL(n, 0);
    CU_ASSERT_PTR_NULL(ids);
    pb_profile_free(p);
}

static CU_TestInfo tests[] = {
    {"float__draws_match_libstdcxx", float_draws_match_libstdcxx},
    {"float__edges_match_libstdcxx", float_edges_match_libstdcxx},
    {"nth_element__leaves_libstdcxx_order", nth_element_leaves_libstdcxx_order},
    {"sort_and_heap__leave_libstdcxx_order", sort_and_heap_leave_libstdcxx_order},
    {"value_sort__matches_stl_sort", value_sort_matches_stl_sort},
    {"order__small_profile_orders_as_llvm", small_profile_orders_as_llvm},
    {"order__bad_options_are_refused", bad_options_are_refused},
    {"order__no_traces_order_nothing", no_traces_order_nothing},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_order[] = {{"order", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
