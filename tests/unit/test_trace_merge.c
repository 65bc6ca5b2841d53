/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_trace_merge.c -- temporal traces merged as llvm-profdata merges them
 * (src/merge/trace_merge.c). The byte-level oracle is llvm-profdata-19/-17 in
 * tests/interop/merge_traces.sh; here: the generator against the C++
 * standard's check value, and the reservoir rules on hand-made profiles
 * whose results follow from LLVM's code without any random draw.
 */
#include <stdlib.h>
#include <string.h>

#include "merge/trace_merge.h"
#include "testutil.h"

/* [rand.predef]: the 10000th consecutive invocation of a default-constructed
 * std::mt19937 produces 4123659995. */
static void mt19937_meets_the_standard_check_value(void) {
    pbi_trace_rng *g = pbi_trace_rng_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    uint32_t x = 0;
    for (int i = 0; i < 10000; i++) x = pbi_trace_rng_next(g);
    CU_ASSERT_EQUAL(x, 4123659995u);
    pbi_trace_rng_free(g);
}

/* uniform(0, hi) stays in range; hi = 0 is always 0; hi = 2^32-1 is the raw
 * word; the first value for hi = 99 is floor(first word * 100 / 2^32)
 * (Lemire's method: no rejection, as the low half of 3499211612 * 100 is not
 * below 2^32 mod 100 = 96). 3499211612 is mt19937's first output. */
static void uniform_follows_libstdcxx(void) {
    pbi_trace_rng *g = pbi_trace_rng_new(), *h = pbi_trace_rng_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_EQUAL(pbi_trace_rng_uniform(g, 99), (uint64_t)3499211612u * 100 >> 32);
    CU_ASSERT_EQUAL(pbi_trace_rng_next(h), 3499211612u);
    for (int i = 0; i < 1000; i++) {
        CU_ASSERT_EQUAL(pbi_trace_rng_uniform(g, 0), 0);
        CU_ASSERT(pbi_trace_rng_uniform(g, 6) <= 6);
        CU_ASSERT(pbi_trace_rng_uniform(g, UINT64_C(1) << 40) <= UINT64_C(1) << 40);
    }
    pbi_trace_rng_free(g);
    pbi_trace_rng_free(h);
}

static pb_profile *with_traces(const char *origin, uint64_t stream, size_t n, const size_t *lens) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    if (pb_profile_new(&p, &err)) return NULL;
    uint64_t refs[8] = {11, 12, 13, 14, 15, 16, 17, 18};
    for (size_t i = 0; i < n; i++)
        if (pb_profile_add_trace(p, 5, refs, lens[i], &err)) return NULL;
    pb_profile_set_trace_stream_size(p, stream);
    pb_origin og;
    memset(&og, 0, sizeof og);
    strcpy(og.format, origin);
    pb_profile_set_origin(p, &og);
    return p;
}

/* Below the reservoir nothing is drawn: traces are appended, cut to the
 * maximum length, empty ones dropped, each adds 1 to the stream whatever
 * the input's stream size says; raw traces take the input's weight, text
 * and indexed ones keep theirs; an input without traces adds nothing. */
static void below_the_reservoir_traces_are_appended(void) {
    size_t l1[] = {3, 0, 8}, l2[] = {1};
    pb_profile *dst = with_traces("text", 7, 3, l1), *raw = with_traces("raw", 1, 1, l2),
               *none = with_traces("indexed", 40, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dst);
    CU_ASSERT_PTR_NOT_NULL_FATAL(raw);
    CU_ASSERT_PTR_NOT_NULL_FATAL(none);
    pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
    mo.trace_max_length = 4;
    mo.weight = 3;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_apply_weight(dst, &mo, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_trace_count(dst), 2);     /* the empty one dropped */
    CU_ASSERT_EQUAL(pb_profile_trace_stream_size(dst), 2); /* not 7: one per trace added */
    uint64_t w;
    size_t n;
    const uint64_t *t = pb_profile_trace(dst, 1, &w, &n);
    CU_ASSERT_EQUAL(n, 4); /* cut from 8 */
    CU_ASSERT_EQUAL(w, 5); /* text keeps its weight */
    CU_ASSERT_EQUAL(t[3], 14);
    CU_ASSERT_EQUAL_FATAL(pb_profile_merge(dst, raw, &mo, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_merge(dst, none, &mo, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_trace_count(dst), 3);
    CU_ASSERT_EQUAL(pb_profile_trace_stream_size(dst), 3); /* none's 40 is not added */
    pb_profile_trace(dst, 2, &w, &n);
    CU_ASSERT_EQUAL(w, 3); /* raw: the input's weight */
    pb_profile_free(dst);
    pb_profile_free(raw);
    pb_profile_free(none);
}

/* A sampled input (stream above the reservoir) into a profile that is not
 * sampled: the two swap, so the result holds the sampled input's traces and
 * stream size, and the other's single trace is then added as a draw over
 * stream + 1 slots: the count stays, the stream grows by one. */
static void a_sampled_input_takes_the_place_of_the_accumulator(void) {
    size_t l1[] = {2}, l2[] = {1, 1, 1};
    pb_profile *dst = with_traces("text", 1, 1, l1), *big = with_traces("indexed", 500, 3, l2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dst);
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
    mo.trace_reservoir = 3;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_merge(dst, big, &mo, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_trace_count(dst), 3);
    CU_ASSERT_EQUAL(pb_profile_trace_stream_size(dst), 501);
    pb_profile_free(dst);
    pb_profile_free(big);
}

static CU_TestInfo tests[] = {
    {"mt19937__meets_the_standard_check_value", mt19937_meets_the_standard_check_value},
    {"uniform__follows_libstdcxx", uniform_follows_libstdcxx},
    {"merge__below_the_reservoir_traces_are_appended", below_the_reservoir_traces_are_appended},
    {"merge__a_sampled_input_takes_the_place_of_the_accumulator",
     a_sampled_input_takes_the_place_of_the_accumulator},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_trace_merge[] = {{"trace_merge", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
