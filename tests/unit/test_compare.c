/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_compare.c -- pb_profile_overlap and pb_profile_diff on small profiles
 * built in memory; every expected number is computed by hand in the comments. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Adds function `name`/`hash` with counters and, if nic > 0, one indirect-call
 * site holding values ic[0..nic) with counts icc[0..nic). */
static void add_fn(pb_profile *p, const char *name, uint64_t hash, const uint64_t *c, uint32_t n,
                   const uint64_t *ic, const uint64_t *icc, uint32_t nic) {
    pb_record r;
    memset(&r, 0, sizeof r);
    pb_value vals[8];
    pb_site site = {nic, vals};
    for (uint32_t i = 0; i < nic; i++) vals[i] = (pb_value){ic[i], icc[i], PB_NONE};
    r.kind = PB_REC_FUNCTION;
    r.ctx = r.layout = PB_NONE;
    r.hash = hash;
    r.num_counters = n;
    r.counters = (uint64_t *)c;
    if (nic) {
        r.num_sites[PB_VK_INDIRECT_CALL] = 1;
        r.sites[PB_VK_INDIRECT_CALL] = &site;
    }
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern(p, name, strlen(name), &r.name, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, NULL), 0);
}

static char *overlap_text(const pb_profile *b, const pb_profile *t, const pb_overlap_options *o) {
    pb_sink *s = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&s, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_overlap(b, t, o, s, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_sink_commit(s, NULL), 0);
    size_t len;
    const uint8_t *m = pb_sink_memory(s, &len);
    char *txt = malloc(len + 1);
    if (len) memcpy(txt, m, len);
    txt[len] = '\0';
    pb_sink_free(s);
    return txt;
}

/* base: f#1 [3,1], g#2 [4]; test: f#1 [1,3], h#3 [4]. Sums 8 and 8.
 * f: min(3/8,1/8) + min(1/8,3/8) = 25%; h only in test: 4/8 = 50%.
 * Function level for f (cutoff 0): same fractions of f's own sums 4/4: 50%. */
static void overlap__matches_hand_computed_report(void) {
    pb_profile *b = NULL, *t = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&b, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&t, NULL), 0);
    add_fn(b, "f", 1, (uint64_t[]){3, 1}, 2, NULL, NULL, 0);
    add_fn(b, "g", 2, (uint64_t[]){4}, 1, NULL, NULL, 0);
    add_fn(t, "f", 1, (uint64_t[]){1, 3}, 2, NULL, NULL, 0);
    add_fn(t, "h", 3, (uint64_t[]){4}, 1, NULL, NULL, 0);
    pb_overlap_options o = PB_OVERLAP_OPTIONS_INIT;
    o.base_name = "b";
    o.test_name = "t";
    char *txt = overlap_text(b, t, &o);
    CU_ASSERT_STRING_EQUAL(txt, "Profile overlap infomation for base_profile: b and test_profile: t\n"
                                "Program level:\n"
                                "  # of functions overlap: 1\n"
                                "  # of functions only in test_profile: 1\n"
                                "  Edge profile overlap: 25.000%\n"
                                "  Percentage of Edge profile only in test_profile: 50.000%\n"
                                "  Edge profile base count sum: 8\n"
                                "  Edge profile test count sum: 8\n");
    free(txt);
    o.value_cutoff = 0;
    txt = overlap_text(b, t, &o);
    CU_ASSERT_PTR_NOT_NULL(strstr(txt, "Function level:\n  Function: f (Hash=1)\n  # of edge counters overlap: 2\n"
                                       "  Edge profile overlap: 50.000%\n  Edge profile base count sum: 4\n"
                                       "  Edge profile test count sum: 4\nProfile overlap"));
    free(txt);
    /* --function is a substring: "x" matches nothing, so no function level. */
    o.value_cutoff = UINT64_MAX;
    o.function = "x";
    txt = overlap_text(b, t, &o);
    CU_ASSERT_PTR_NULL(strstr(txt, "Function level"));
    free(txt);
    pb_profile_free(b);
    pb_profile_free(t);
}

/* A: f#1 [5,5] IC {10:4, 20:6}; g#2 [7]; s#4 [1].
 * B: f#1 [5,9] IC {20:6, 30:1}; s#4 [1]; k#5 [2,2].
 * f changed: |9-5| + |0-4| (10) + |1-0| (30) = 9; g only in A: 7; k only in B: 4.
 * Order by impact: f 9, g 7, k 4; s the same. */
static void diff__lists_by_impact_with_hand_computed_deltas(void) {
    pb_profile *a = NULL, *b = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&a, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&b, NULL), 0);
    add_fn(a, "f", 1, (uint64_t[]){5, 5}, 2, (uint64_t[]){10, 20}, (uint64_t[]){4, 6}, 2);
    add_fn(a, "g", 2, (uint64_t[]){7}, 1, NULL, NULL, 0);
    add_fn(a, "s", 4, (uint64_t[]){1}, 1, NULL, NULL, 0);
    add_fn(b, "f", 1, (uint64_t[]){5, 9}, 2, (uint64_t[]){20, 30}, (uint64_t[]){6, 1}, 2);
    add_fn(b, "s", 4, (uint64_t[]){1}, 1, NULL, NULL, 0);
    add_fn(b, "k", 5, (uint64_t[]){2, 2}, 2, NULL, NULL, 0);
    pb_diff *d = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_profile_diff(a, b, &d, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_diff_count(d), 3);
    CU_ASSERT_EQUAL(pb_diff_same_count(d), 1);
    const pb_diff_entry *e0 = pb_diff_entry_at(d, 0), *e1 = pb_diff_entry_at(d, 1), *e2 = pb_diff_entry_at(d, 2);
    CU_ASSERT(e0->status == PB_DIFF_CHANGED && e0->impact == 9 && e0->hash == 1 && e0->name_len == 1 && e0->name[0] == 'f');
    CU_ASSERT(e1->status == PB_DIFF_ONLY_A && e1->impact == 7 && e1->name[0] == 'g' && e1->rec_b == SIZE_MAX);
    CU_ASSERT(e2->status == PB_DIFF_ONLY_B && e2->impact == 4 && e2->name[0] == 'k' && e2->rec_a == SIZE_MAX);
    CU_ASSERT_PTR_NULL(pb_diff_entry_at(d, 3));
    pb_diff_free(d);
    /* A profile against itself: nothing listed. */
    CU_ASSERT_EQUAL_FATAL(pb_profile_diff(a, a, &d, NULL), 0);
    CU_ASSERT_EQUAL(pb_diff_count(d), 0);
    CU_ASSERT_EQUAL(pb_diff_same_count(d), 3);
    pb_diff_free(d);
    pb_profile_free(a);
    pb_profile_free(b);
}

/* Value order inside a site does not matter; a changed hash is two records. */
static void diff__ignores_value_order_and_keys_by_hash(void) {
    pb_profile *a = NULL, *b = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&a, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&b, NULL), 0);
    add_fn(a, "f", 1, (uint64_t[]){1}, 1, (uint64_t[]){10, 20}, (uint64_t[]){4, 6}, 2);
    add_fn(b, "f", 1, (uint64_t[]){1}, 1, (uint64_t[]){20, 10}, (uint64_t[]){6, 4}, 2);
    add_fn(a, "g", 1, (uint64_t[]){3}, 1, NULL, NULL, 0);
    add_fn(b, "g", 2, (uint64_t[]){3}, 1, NULL, NULL, 0);
    pb_diff *d = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_profile_diff(a, b, &d, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_diff_count(d), 2);
    CU_ASSERT_EQUAL(pb_diff_same_count(d), 1);
    CU_ASSERT(pb_diff_entry_at(d, 0)->status == PB_DIFF_ONLY_A && pb_diff_entry_at(d, 0)->hash == 1);
    CU_ASSERT(pb_diff_entry_at(d, 1)->status == PB_DIFF_ONLY_B && pb_diff_entry_at(d, 1)->hash == 2);
    pb_diff_free(d);
    pb_profile_free(a);
    pb_profile_free(b);
}

/* 1 when the n bytes at m hold text. */
static int has_text(const char *m, size_t n, const char *text) {
    size_t k = strlen(text);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(m + i, text, k) == 0) return 1;
    return 0;
}

/* The report writers by style: text is pb_profile_overlap's bytes, JSON an
 * object, HTML a page naming both profiles; bad arguments are PB_EINVAL. */
static void reports__every_style_and_bad_arguments(void) {
    pb_profile *b = NULL, *t = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&b, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&t, NULL), 0);
    add_fn(b, "f", 1, (uint64_t[]){3, 1}, 2, NULL, NULL, 0);
    add_fn(t, "f", 1, (uint64_t[]){1, 3}, 2, NULL, NULL, 0);
    pb_overlap_options o = PB_OVERLAP_OPTIONS_INIT;
    o.base_name = "base-name";
    o.test_name = "test-name";
    char *want = overlap_text(b, t, &o);
    const char *starts[] = {"Profile overlap", "{", "<!DOCTYPE html>"};
    for (int style = PB_REPORT_TEXT; style <= PB_REPORT_HTML; style++) {
        pb_sink *s = NULL;
        CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&s, NULL), 0);
        CU_ASSERT_EQUAL(pb_profile_overlap_write(b, t, &o, style, s, NULL), 0);
        size_t len;
        const char *m = (const char *)pb_sink_memory(s, &len);
        CU_ASSERT(len > strlen(starts[style]) && memcmp(m, starts[style], strlen(starts[style])) == 0);
        if (style == PB_REPORT_TEXT) CU_ASSERT(len == strlen(want) && memcmp(m, want, len) == 0);
        if (style == PB_REPORT_HTML) CU_ASSERT(has_text(m, len, "test-name"));
        pb_sink_free(s);
    }
    free(want);
    pb_sink *s = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&s, NULL), 0);
    CU_ASSERT_EQUAL(pb_profile_overlap_write(b, t, &o, 3, s, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_profile_overlap_write(NULL, t, &o, PB_REPORT_HTML, s, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_profile_overlap_write(b, t, &o, PB_REPORT_HTML, NULL, &err), PB_EINVAL);
    o.version = 99;
    CU_ASSERT_EQUAL(pb_profile_overlap_write(b, t, &o, PB_REPORT_HTML, s, &err), PB_EINVAL);
    pb_diff *d = NULL;
    CU_ASSERT_EQUAL_FATAL(pb_profile_diff(b, t, &d, NULL), 0);
    CU_ASSERT_EQUAL(pb_diff_write_html(d, b, t, "A-name", "B-name", s, &err), 0);
    size_t len;
    const char *m = (const char *)pb_sink_memory(s, &len);
    CU_ASSERT(len > 15 && memcmp(m, "<!DOCTYPE html>", 15) == 0 && has_text(m, len, "B-name"));
    CU_ASSERT_EQUAL(pb_diff_write_html(NULL, b, t, "A", "B", s, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_diff_write_html(d, b, t, "A", "B", NULL, &err), PB_EINVAL);
    pb_diff_free(d);
    pb_sink_free(s);
    pb_profile_free(b);
    pb_profile_free(t);
}

static CU_TestInfo tests[] = {
    {"overlap__matches_hand_computed_report", overlap__matches_hand_computed_report},
    {"diff__lists_by_impact_with_hand_computed_deltas", diff__lists_by_impact_with_hand_computed_deltas},
    {"reports__every_style_and_bad_arguments", reports__every_style_and_bad_arguments},
    {"diff__ignores_value_order_and_keys_by_hash", diff__ignores_value_order_and_keys_by_hash},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_compare[] = {{"compare", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
