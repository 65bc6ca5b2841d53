/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_model_merge.c -- llvm-profdata merge semantics. Oracles: hand
 * computation, and the value-site cases were checked with llvm-profdata-19
 * merge --text (a: 100, memop site [5:10,3:10,33:50,1:10]; b: 7, [3:1,7:10];
 * "a" alone -> 33:50,5:10,3:10,1:10; "a + 2*b" -> 114, 33:50,3:12,1:10,5:10,7:10
 * (values new to the destination are NOT scaled); "2*b" alone -> 14, 7:20,3:2).
 * Also checked with llvm-profdata: [1, 2^64-6] + [1, 10] -> 2^64-3 (LLVM 19) and
 * 2^64-1 (LLVM 14); the counter-mismatch warning text; pseudo counts warm [-2,7] +
 * hot [-1,5] -> [-1,7], then + plain [3,4] -> counter-mismatch warning (LLVM 19). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static pb_profile *new_profile(void) {
    pb_profile *p = NULL;
    CU_ASSERT_FATAL(pb_profile_new(&p, NULL) == 0);
    return p;
}

static pb_record frec(pb_profile *p, const char *name, uint64_t hash, uint64_t *c, uint32_t n) {
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    CU_ASSERT_FATAL(pb_profile_intern(p, name, strlen(name), &r.name, NULL) == 0);
    r.hash = hash;
    r.counters = c;
    r.num_counters = n;
    return r;
}

static pb_merge_options opts(uint64_t w, uint64_t max) {
    pb_merge_options o = PB_MERGE_OPTIONS_INIT;
    o.weight = w;
    o.max_count = max;
    return o;
}

static void expect_site(const pb_site *s, const uint64_t (*vc)[2], uint32_t n) {
    CU_ASSERT_EQUAL_FATAL(s->num_values, n);
    for (uint32_t i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(s->values[i].value, vc[i][0]);
        CU_ASSERT_EQUAL(s->values[i].count, vc[i][1]);
    }
}

static void merge_record__adds_counters_times_weight_and_scales_new_records(void) {
    pb_profile *p = new_profile();
    uint64_t a[3] = {1, 2, 3}, b[3] = {10, 20, 30};
    pb_merge_options o = opts(2, PB_MAX_COUNT_LLVM);
    pb_record r = frec(p, "foo", 7, a, 3);
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0); /* new: x2 */
    const pb_record *g = pb_profile_record(p, 0);
    CU_ASSERT(g->counters[0] == 2 && g->counters[1] == 4 && g->counters[2] == 6);
    o.weight = 3;
    r.counters = b;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    g = pb_profile_record(p, 0);
    CU_ASSERT(g->counters[0] == 32 && g->counters[1] == 64 && g->counters[2] == 96);
    /* the caller's arrays are untouched */
    CU_ASSERT(a[0] == 1 && b[2] == 30);
    /* other hash: another record */
    r.hash = 8;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 2);
    CU_ASSERT_EQUAL(pb_profile_record(p, 1)->counters[0], 30);
    o.weight = 0;
    CU_ASSERT_EQUAL(pb_profile_merge_record(p, &r, &o, NULL), PB_EINVAL);
    pb_profile_free(p);
}

static void merge_record__saturates_at_each_maximum(void) {
    static const struct {
        uint64_t max, dst, src, w, expect;
    } cases[] = {
        {PB_MAX_COUNT_LLVM14, UINT64_MAX - 5, 10, 1, UINT64_MAX},
        {PB_MAX_COUNT_LLVM14, UINT64_MAX - 5, 5, 1, UINT64_MAX},
        {PB_MAX_COUNT_LLVM14, UINT64_MAX - 5, 4, 1, UINT64_MAX - 1},
        {PB_MAX_COUNT_LLVM, UINT64_MAX - 5, 10, 1, UINT64_MAX - 2},
        {PB_MAX_COUNT_LLVM, UINT64_MAX - 5, 2, 1, UINT64_MAX - 3},
        {PB_MAX_COUNT_LLVM, UINT64_MAX - 5, 3, 1, UINT64_MAX - 2},
        {PB_MAX_COUNT_LLVM, 1, UINT64_C(1) << 63, 2, UINT64_MAX - 2}, /* product overflows */
        {PB_MAX_COUNT_IPROF, (uint64_t)INT64_MAX - 1, 5, 1, (uint64_t)INT64_MAX},
        {PB_MAX_COUNT_IPROF, (uint64_t)INT64_MAX - 10, 3, 3, (uint64_t)INT64_MAX - 1},
        {PB_MAX_COUNT_IPROF, 100, 1000, 1000, 1000100},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pb_profile *p = new_profile();
        uint64_t d[2] = {1, cases[i].dst}, s[2] = {1, cases[i].src};
        pb_record r = frec(p, "f", 1, d, 2);
        CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
        pb_merge_options o = opts(cases[i].w, cases[i].max);
        r.counters = s;
        CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
        CU_ASSERT_EQUAL(pb_profile_record(p, 0)->counters[1], cases[i].expect);
        if (pb_profile_record(p, 0)->counters[1] != cases[i].expect) fprintf(stderr, "\n  case %zu\n", i);
        pb_profile_free(p);
    }
}

static void merge_record__warns_and_skips_on_counter_mismatch(void) {
    pb_profile *p = new_profile();
    uint64_t a[2] = {1, 2}, b[3] = {10, 20, 30};
    pb_record r = frec(p, "foo", 7, a, 2);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    tu_diag d;
    memset(&d, 0, sizeof d);
    pb_merge_options o = PB_MERGE_OPTIONS_INIT;
    o.diag = tu_diag_fn;
    o.diag_ctx = &d;
    o.source = "b.profdata";
    r.counters = b;
    r.num_counters = 3;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
    /* the path is LLVM's instrprof_error name (profile.h PB_MERGE_*) */
    CU_ASSERT_STRING_EQUAL(
        d.last, "b.profdata: count_mismatch: foo: function basic block count change detected (counter mismatch)");
    const pb_record *g = pb_profile_record(p, 0);
    CU_ASSERT(g->num_counters == 2 && g->counters[0] == 1 && g->counters[1] == 2);
    pb_profile_free(p);
}

static void merge_record__merges_pseudo_counts_only_with_pseudo_counts(void) {
    pb_profile *p = new_profile();
    uint64_t hot[2] = {UINT64_MAX, 5}, warm[2] = {UINT64_MAX - 1, 7}, plain[2] = {3, 4};
    pb_record r = frec(p, "w", 1, warm, 2);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    tu_diag d;
    memset(&d, 0, sizeof d);
    pb_merge_options o = PB_MERGE_OPTIONS_INIT;
    o.diag = tu_diag_fn;
    o.diag_ctx = &d;
    r.counters = hot;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    const pb_record *g = pb_profile_record(p, 0);
    /* hot wins; the other counters are left alone */
    CU_ASSERT(g->counters[0] == UINT64_MAX && g->counters[1] == 7);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 0);
    r.counters = plain;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
    CU_ASSERT(strstr(d.last, "counter mismatch") != NULL);
    CU_ASSERT(g->counters[0] == UINT64_MAX && g->counters[1] == 7);
    /* LLVM 14 knows no pseudo counts: -1 is a saturated count */
    pb_merge_options o14 = opts(1, PB_MAX_COUNT_LLVM14);
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o14, NULL) == 0);
    CU_ASSERT(g->counters[0] == UINT64_MAX && g->counters[1] == 11);
    pb_profile_free(p);
}

static void merge_record__orders_value_sites_like_llvm_profdata_19(void) {
    pb_profile *p = new_profile();
    uint64_t ca = 100, cb = 7;
    pb_value va[4] = {{5, 10, PB_NONE}, {3, 10, PB_NONE}, {33, 50, PB_NONE}, {1, 10, PB_NONE}};
    pb_value vb[2] = {{3, 1, PB_NONE}, {7, 10, PB_NONE}};
    pb_site sa = {4, va}, sb = {2, vb};
    pb_record r = frec(p, "foo", 10, &ca, 1);
    r.num_sites[PB_VK_MEMOP_SIZE] = 1;
    r.sites[PB_VK_MEMOP_SIZE] = &sa;
    pb_merge_options o = PB_MERGE_OPTIONS_INIT;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    static const uint64_t after_add[4][2] = {{33, 50}, {5, 10}, {3, 10}, {1, 10}};
    expect_site(&pb_profile_record(p, 0)->sites[PB_VK_MEMOP_SIZE][0], after_add, 4);
    r.counters = &cb;
    r.sites[PB_VK_MEMOP_SIZE] = &sb;
    o.weight = 2;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    static const uint64_t merged[5][2] = {{33, 50}, {3, 12}, {1, 10}, {5, 10}, {7, 10}};
    expect_site(&pb_profile_record(p, 0)->sites[PB_VK_MEMOP_SIZE][0], merged, 5);
    CU_ASSERT_EQUAL(pb_profile_record(p, 0)->counters[0], 114);
    pb_profile_free(p);

    /* "2*b" alone: counts and value counts scaled on insert */
    p = new_profile();
    r = frec(p, "foo", 10, &cb, 1);
    r.num_sites[PB_VK_MEMOP_SIZE] = 1;
    r.sites[PB_VK_MEMOP_SIZE] = &sb;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    static const uint64_t scaled[2][2] = {{7, 20}, {3, 2}};
    expect_site(&pb_profile_record(p, 0)->sites[PB_VK_MEMOP_SIZE][0], scaled, 2);
    CU_ASSERT_EQUAL(pb_profile_record(p, 0)->counters[0], 14);
    pb_profile_free(p);
}

static void merge_record__keeps_first_seen_order_of_ties_then_ascending_after_a_merge(void) {
    /* spec §3.7: one input site [1:10,2:10,3:10,33:50,4:10,5:10] */
    pb_profile *p = new_profile();
    uint64_t c = 1;
    pb_value v[6] = {{1, 10, PB_NONE}, {2, 10, PB_NONE}, {3, 10, PB_NONE},
                     {33, 50, PB_NONE}, {4, 10, PB_NONE}, {5, 10, PB_NONE}};
    pb_value w[6] = {{5, 10, PB_NONE}, {4, 10, PB_NONE}, {3, 10, PB_NONE},
                     {2, 10, PB_NONE}, {1, 10, PB_NONE}, {33, 50, PB_NONE}};
    pb_site s = {6, v};
    pb_record r = frec(p, "f", 1, &c, 1);
    r.num_sites[PB_VK_INDIRECT_CALL] = 1;
    r.sites[PB_VK_INDIRECT_CALL] = &s;
    pb_merge_options o = PB_MERGE_OPTIONS_INIT;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    static const uint64_t one[6][2] = {{33, 50}, {1, 10}, {2, 10}, {3, 10}, {4, 10}, {5, 10}};
    expect_site(&pb_profile_record(p, 0)->sites[0][0], one, 6);
    /* a second record whose ties come in descending order: after the merge
     * the ties are in ascending value order */
    pb_profile *q = new_profile();
    s.values = w;
    r = frec(q, "f", 1, &c, 1);
    r.num_sites[PB_VK_INDIRECT_CALL] = 1;
    r.sites[PB_VK_INDIRECT_CALL] = &s;
    CU_ASSERT_FATAL(pb_profile_merge_record(q, &r, &o, NULL) == 0);
    static const uint64_t desc[6][2] = {{33, 50}, {5, 10}, {4, 10}, {3, 10}, {2, 10}, {1, 10}};
    expect_site(&pb_profile_record(q, 0)->sites[0][0], desc, 6);
    CU_ASSERT_FATAL(pb_profile_merge_record(q, &r, &o, NULL) == 0);
    static const uint64_t two[6][2] = {{33, 100}, {1, 20}, {2, 20}, {3, 20}, {4, 20}, {5, 20}};
    expect_site(&pb_profile_record(q, 0)->sites[0][0], two, 6);
    pb_profile_free(p);
    pb_profile_free(q);
}

static void merge_record__cuts_sites_at_255_values(void) {
    pb_profile *p = new_profile();
    uint64_t c = 1;
    pb_value v[300];
    for (int i = 0; i < 300; i++) v[i] = (pb_value){(uint64_t)i + 1, (uint64_t)i + 1, PB_NONE};
    pb_site s = {300, v};
    pb_record r = frec(p, "f", 1, &c, 1);
    r.num_sites[PB_VK_INDIRECT_CALL] = 1;
    r.sites[PB_VK_INDIRECT_CALL] = &s;
    pb_merge_options o = PB_MERGE_OPTIONS_INIT;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    const pb_site *g = &pb_profile_record(p, 0)->sites[0][0];
    CU_ASSERT_EQUAL_FATAL(g->num_values, 255);
    CU_ASSERT(g->values[0].value == 300 && g->values[254].value == 46);
    /* merged again: union stays cut at 255, highest counts kept */
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    g = &pb_profile_record(p, 0)->sites[0][0];
    CU_ASSERT_EQUAL(g->num_values, 255);
    CU_ASSERT(g->values[0].value == 300 && g->values[0].count == 600);
    CU_ASSERT(g->values[254].value == 46 && g->values[254].count == 92);
    /* 0 = no limit */
    pb_profile *q = new_profile();
    r = frec(q, "f", 1, &c, 1);
    r.num_sites[PB_VK_INDIRECT_CALL] = 1;
    r.sites[PB_VK_INDIRECT_CALL] = &s;
    o.max_values_per_site = 0;
    CU_ASSERT_FATAL(pb_profile_merge_record(q, &r, &o, NULL) == 0);
    CU_ASSERT_EQUAL(pb_profile_record(q, 0)->sites[0][0].num_values, 300);
    pb_profile_free(p);
    pb_profile_free(q);
}

static void merge_record__ors_bitmaps_and_warns_on_size_or_site_mismatch(void) {
    pb_profile *p = new_profile();
    uint64_t c = 1;
    uint8_t b1[2] = {0x01, 0x80}, b2[2] = {0x02, 0x80}, b3[3] = {0xff, 0xff, 0xff};
    pb_value v = {9, 1, PB_NONE};
    pb_site s[2] = {{1, &v}, {0, NULL}};
    pb_record r = frec(p, "f", 1, &c, 1);
    r.bitmap = b1;
    r.num_bitmap_bytes = 2;
    r.num_sites[PB_VK_INDIRECT_CALL] = 1;
    r.sites[PB_VK_INDIRECT_CALL] = s;
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    tu_diag d;
    memset(&d, 0, sizeof d);
    pb_merge_options o = PB_MERGE_OPTIONS_INIT;
    o.diag = tu_diag_fn;
    o.diag_ctx = &d;
    r.bitmap = b2;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    const pb_record *g = pb_profile_record(p, 0);
    CU_ASSERT(g->bitmap[0] == 0x03 && g->bitmap[1] == 0x80);
    CU_ASSERT(g->counters[0] == 2 && g->sites[0][0].values[0].count == 2);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 0);
    /* bitmap size differs: counters merged, bitmap and values skipped (LLVM returns) */
    r.bitmap = b3;
    r.num_bitmap_bytes = 3;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
    CU_ASSERT(strstr(d.last, "bitmap size mismatch") != NULL);
    CU_ASSERT(g->counters[0] == 3 && g->bitmap[0] == 0x03 && g->sites[0][0].values[0].count == 2);
    /* site count differs: that kind skipped, the rest merged */
    r.bitmap = b1;
    r.num_bitmap_bytes = 2;
    r.num_sites[PB_VK_INDIRECT_CALL] = 2;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 2);
    CU_ASSERT(strstr(d.last, "f: function value site count change detected") != NULL);
    CU_ASSERT(g->counters[0] == 4 && g->sites[0][0].values[0].count == 2 && g->num_sites[0] == 1);
    pb_profile_free(p);
}

/* Java profile: method m(A)V of type T, call count and a vcall with types. */
static pb_profile *java_profile(int reversed, uint64_t base) {
    pb_profile *p = new_profile();
    uint32_t t, a, v, m, c;
    const char *names[3] = {"T", "A", "void"};
    uint32_t *ids[3] = {&t, &a, &v};
    for (int i = 0; i < 3; i++) {
        int k = reversed ? 2 - i : i;
        CU_ASSERT_FATAL(pb_profile_add_symbol(p, names[k], strlen(names[k]), ids[k], NULL) == 0);
    }
    uint32_t sig[3] = {t, v, a};
    CU_ASSERT_FATAL(pb_profile_add_method(p, "m", 1, sig, 3, &m, NULL) == 0);
    pb_frame f = {m, 4};
    CU_ASSERT_FATAL(pb_profile_intern_context(p, &f, 1, &c, NULL) == 0);
    uint64_t cnt = base, sum = 3 * base;
    pb_value vals[2] = {{pb_md5_ref("A", 1), base, a}, {pb_md5_ref("T", 1), 2 * base, t}};
    pb_site site = {2, vals};
    pb_record r;
    memset(&r, 0, sizeof r);
    r.name = PB_NONE;
    r.ctx = c;
    r.layout = PB_NONE;
    r.num_counters = 1;
    for (int i = 0; i < 2; i++) {
        int k = reversed ? 1 - i : i;
        r.kind = k ? PB_REC_JAVA_VIRTUAL_INVOKE : PB_REC_JAVA_CALL_COUNT;
        r.counters = k ? &sum : &cnt;
        r.num_sites[PB_VK_VTABLE] = k ? 1 : 0;
        r.sites[PB_VK_VTABLE] = k ? &site : NULL;
        CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    }
    pb_profile_set_flags(p, PB_VARIANT_IR | PB_VARIANT_ENTRY_FIRST);
    return p;
}

static void merge__imports_tables_by_content_and_adds_java_records(void) {
    pb_profile *dst = java_profile(0, 1), *src = java_profile(1, 10);
    CU_ASSERT(pb_profile_set_prop(src, "iprof.version", "1.0.0", 5, NULL) == 0);
    CU_ASSERT(pb_profile_set_prop(dst, "keep", "x", 1, NULL) == 0);
    CU_ASSERT(pb_profile_set_prop(src, "keep", "y", 1, NULL) == 0);
    uint8_t id[2] = {1, 2};
    uint64_t refs[1] = {99};
    CU_ASSERT(pb_profile_add_binary_id(src, id, 2, NULL) == 0);
    CU_ASSERT(pb_profile_add_trace(src, 1, refs, 1, NULL) == 0);
    uint32_t extra;
    CU_ASSERT(pb_profile_add_symbol(src, "Unused", 6, &extra, NULL) == 0);
    pb_merge_options o = PB_MERGE_OPTIONS_INIT;
    CU_ASSERT_FATAL(pb_profile_merge(dst, src, &o, NULL) == 0);
    CU_ASSERT_EQUAL(pb_profile_symbol_count(dst), 4);
    CU_ASSERT_EQUAL(pb_profile_method_count(dst), 1);
    CU_ASSERT_EQUAL(pb_profile_record_count(dst), 2);
    CU_ASSERT_STRING_EQUAL(pb_profile_prop(dst, "keep", NULL), "x");
    CU_ASSERT_STRING_EQUAL(pb_profile_prop(dst, "iprof.version", NULL), "1.0.0");
    CU_ASSERT_EQUAL(pb_profile_binary_id_count(dst), 1);
    CU_ASSERT_EQUAL(pb_profile_trace_count(dst), 1);
    CU_ASSERT_EQUAL(pb_profile_flags(dst), PB_VARIANT_IR | PB_VARIANT_ENTRY_FIRST);
    size_t idx[2];
    const char *n = "jcall:T.m(A)void:4";
    CU_ASSERT_FATAL(pb_profile_lookup(dst, n, strlen(n), idx, 2) == 1);
    CU_ASSERT_EQUAL(pb_profile_record(dst, idx[0])->counters[0], 11);
    n = "jvcall:T.m(A)void:4";
    CU_ASSERT_FATAL(pb_profile_lookup(dst, n, strlen(n), idx, 2) == 1);
    const pb_record *g = pb_profile_record(dst, idx[0]);
    CU_ASSERT_EQUAL(g->counters[0], 33);
    /* by value then by count: T (2+20) before A (1+10); symbols are dst's */
    const pb_site *s = &g->sites[PB_VK_VTABLE][0];
    CU_ASSERT_FATAL(s->num_values == 2);
    CU_ASSERT(s->values[0].value == pb_md5_ref("T", 1) && s->values[0].count == 22);
    CU_ASSERT(s->values[1].value == pb_md5_ref("A", 1) && s->values[1].count == 11);
    uint32_t t;
    CU_ASSERT(pb_profile_find_symbol(dst, "T", 1, &t) == 0 && s->values[0].symbol == t);
    CU_ASSERT_EQUAL(pb_profile_check(dst, NULL, NULL), 0);
    pb_profile_free(dst);
    pb_profile_free(src);
}

/* Merges a one-record profile of flags fb into a one-record profile of
 * flags fa (origin set when a_seen) with the rules of `release`; returns
 * pb_profile_merge's code and the record count and flags of the result. */
static int merge_kinds(int release, uint64_t fa, int a_seen, uint64_t fb, size_t *nrec, uint64_t *flags,
                       int *warnings) {
    pb_profile *a = new_profile(), *b = new_profile();
    uint64_t c = 1;
    pb_record r = frec(a, "f", 1, &c, 1);
    CU_ASSERT(pb_profile_add_record(a, &r, NULL, NULL) == 0);
    r = frec(b, "g", 1, &c, 1);
    CU_ASSERT(pb_profile_add_record(b, &r, NULL, NULL) == 0);
    if (!a_seen) { /* a never-merged destination: no record, no origin */
        pb_profile_free(a);
        CU_ASSERT(pb_profile_new(&a, NULL) == 0);
    }
    pb_profile_set_flags(a, fa);
    pb_profile_set_flags(b, fb);
    tu_diag d;
    memset(&d, 0, sizeof d);
    pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
    mo.diag = tu_diag_fn;
    mo.diag_ctx = &d;
    mo.source = "b";
    mo.llvm_release = release;
    pb_error err;
    pb_error_clear(&err);
    int rc = pb_profile_merge(a, b, &mo, &err);
    /* 24 says the conflict in its own words (llvm-profdata-24 merge of a ':fe'
     * text and an IR raw: "unsupported instrumentation profile format
     * version: cannot merge IR generated profile with Clang generated profile") */
    if (rc)
        CU_ASSERT(release >= 24 ? strstr(err.message, "unsupported instrumentation profile format version: cannot "
                                                      "merge IR generated profile with Clang generated profile") != NULL
                                : strstr(err.message, "Merge IR generated profile with Clang generated profile.") != NULL);
    *nrec = pb_profile_record_count(a);
    *flags = pb_profile_flags(a);
    *warnings = d.count[PB_DIAG_WARNING];
    pb_profile_free(a);
    pb_profile_free(b);
    return rc;
}

static void merge__front_end_and_ir_follow_the_release(void) {
    /* Expected: llvm-profdata-13/14/16/19 merge of front-end raw (no kind
     * bit), IR raw and hand-written ':fe' / header-less / ':ir' .proftext
     * files, checked on the real tools (tests/interop/merge_fe_ir.sh). */
    size_t n;
    uint64_t f;
    int w;
    const uint64_t IR = PB_VARIANT_IR, FE = PB_KIND_FRONTEND;
    for (int rel = 14; rel <= 24; rel += 5) {
        /* front-end raw/indexed (no bit) and IR: silently IR, both ways */
        CU_ASSERT_EQUAL(merge_kinds(rel, IR, 1, 0, &n, &f, &w), 0);
        CU_ASSERT(n == 2 && f == IR && w == 0);
        CU_ASSERT_EQUAL(merge_kinds(rel, 0, 1, IR, &n, &f, &w), 0);
        CU_ASSERT(n == 2 && f == IR && w == 0);
        /* ':fe' text against anything without it: refused, nothing merged */
        CU_ASSERT_EQUAL(merge_kinds(rel, IR, 1, FE, &n, &f, &w), PB_EFORMAT);
        CU_ASSERT(n == 1 && f == IR);
        CU_ASSERT_EQUAL(merge_kinds(rel, FE, 1, 0, &n, &f, &w), PB_EFORMAT);
        CU_ASSERT_EQUAL(merge_kinds(rel, FE, 1, IR, &n, &f, &w), PB_EFORMAT);
        /* ... but after inputs of no kind at all it is taken as it is */
        CU_ASSERT_EQUAL(merge_kinds(rel, 0, 1, FE, &n, &f, &w), 0);
        CU_ASSERT(n == 2 && f == FE);
        CU_ASSERT_EQUAL(merge_kinds(rel, FE, 1, FE, &n, &f, &w), 0);
    }
    /* LLVM 13: the first input sets the level, the other level is refused */
    CU_ASSERT_EQUAL(merge_kinds(13, IR, 1, 0, &n, &f, &w), PB_EFORMAT);
    CU_ASSERT(n == 1 && f == IR);
    CU_ASSERT_EQUAL(merge_kinds(13, 0, 1, IR, &n, &f, &w), PB_EFORMAT);
    CU_ASSERT_EQUAL(merge_kinds(13, 0, 1, FE, &n, &f, &w), 0);
    CU_ASSERT_EQUAL(merge_kinds(13, IR, 1, IR, &n, &f, &w), 0);
    CU_ASSERT_EQUAL(merge_kinds(13, 0, 0, IR, &n, &f, &w), 0); /* nothing merged yet */
    CU_ASSERT(n == 1 && f == IR);
}

/* Hand-computed against LLVM's InstrProfRecord::merge/scale: a count that
 * passes the maximum (2^64-3 from LLVM 16) is reported once per record, as
 * llvm-profdata-19 prints "FILE: FUNC: counter overflow" once for a record
 * with two saturating counters; pseudo-hot counts (2^64-1 in counter 0)
 * never overflow; a new record scaled by its weight overflows too. */
static void merge_record__reports_counter_overflow_once_per_record(void) {
    pb_profile *p = new_profile();
    uint64_t a[2] = {UINT64_MAX - 10, UINT64_MAX - 10}, b[2] = {20, 20};
    pb_record r = frec(p, "foo", 7, a, 2);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    tu_diag d;
    memset(&d, 0, sizeof d);
    pb_merge_options o = opts(1, PB_MAX_COUNT_LLVM);
    o.diag = tu_diag_fn;
    o.diag_ctx = &d;
    o.source = "b.proftext";
    r.counters = b;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &r, &o, NULL) == 0);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
    CU_ASSERT_STRING_EQUAL(d.last, "b.proftext: counter_overflow: foo: counter overflow");
    CU_ASSERT(pb_profile_record(p, 0)->counters[0] == PB_MAX_COUNT_LLVM);
    /* 2^64-4 + 1 = the maximum exactly: no overflow */
    uint64_t c[1] = {UINT64_MAX - 3}, one[1] = {1};
    pb_record q = frec(p, "bar", 1, c, 1);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &q, NULL, NULL) == 0);
    q.counters = one;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &q, &o, NULL) == 0);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
    /* pseudo-hot merged with pseudo-hot */
    uint64_t h[2] = {UINT64_MAX, 0};
    pb_record hr = frec(p, "hot", 2, h, 2);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &hr, NULL, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &hr, &o, NULL) == 0);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 1);
    /* a new record x weight 4 */
    uint64_t n[1] = {UINT64_MAX / 2};
    pb_record nr = frec(p, "new", 3, n, 1);
    o.weight = 4;
    CU_ASSERT_FATAL(pb_profile_merge_record(p, &nr, &o, NULL) == 0);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_WARNING], 2);
    CU_ASSERT_STRING_EQUAL(d.last, "b.proftext: counter_overflow: new: counter overflow");
    pb_profile_free(p);
}

/* llvm-profdata's SymbolRemapper rules, checked with llvm-profdata 13, 19
 * and 23 (tests/interop/merge_diag_llvm.sh compares whole merges). */
static void remap__reads_llvm_remapping_files(void) {
    static const char text[] = "# comment\n\nfoo bar\r\nfoo baz\n#x y z\na\tb c\n";
    pb_remap *r = NULL;
    CU_ASSERT_FATAL(pb_remap_parse(&r, text, sizeof text - 1, NULL) == 0);
    const char *to;
    size_t n;
    CU_ASSERT(pb_remap_lookup(r, "foo", 3, &to, &n) == 1 && n == 3 && memcmp(to, "bar", 3) == 0);
    CU_ASSERT(pb_remap_lookup(r, "a\tb", 3, &to, &n) == 1 && n == 1 && to[0] == 'c');
    CU_ASSERT(pb_remap_lookup(r, "fo", 2, &to, &n) == 0);
    CU_ASSERT(pb_remap_lookup(r, "bar", 3, &to, &n) == 0);
    pb_remap_free(r);
    static const char *const bad[] = {"foo\n", "foo  bar\n", " foo bar\n", "foo bar \n", "a b\n  \n", "x y\n\n #c\n"};
    static const int line[] = {1, 1, 1, 1, 2, 3};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        pb_error e;
        pb_error_clear(&e);
        r = NULL;
        CU_ASSERT(pb_remap_parse(&r, bad[i], strlen(bad[i]), &e) == PB_EFORMAT);
        CU_ASSERT(r == NULL);
        CU_ASSERT_EQUAL(e.line, line[i]);
        CU_ASSERT_STRING_EQUAL(e.message, "unexpected line in remapping file");
    }
}

/* Two records renamed to one name (and of one hash) add up under it. */
static void merge__remapped_records_add_up_under_the_new_name(void) {
    pb_profile *src = new_profile(), *dst = new_profile();
    uint64_t a[1] = {5}, b[1] = {7};
    pb_record r = frec(src, "_Z3foov", 9, a, 1);
    CU_ASSERT_FATAL(pb_profile_add_record(src, &r, NULL, NULL) == 0);
    r = frec(src, "foo", 9, b, 1);
    CU_ASSERT_FATAL(pb_profile_add_record(src, &r, NULL, NULL) == 0);
    static const char text[] = "_Z3foov foo\n";
    pb_remap *m = NULL;
    CU_ASSERT_FATAL(pb_remap_parse(&m, text, sizeof text - 1, NULL) == 0);
    pb_merge_options o = PB_MERGE_OPTIONS_INIT;
    o.remap = m;
    CU_ASSERT_FATAL(pb_profile_merge(dst, src, &o, NULL) == 0);
    CU_ASSERT_EQUAL(pb_profile_record_count(dst), 1);
    size_t n;
    const char *name = pb_profile_str(dst, pb_profile_record(dst, 0)->name, &n);
    CU_ASSERT(n == 3 && memcmp(name, "foo", 3) == 0);
    CU_ASSERT(pb_profile_record(dst, 0)->counters[0] == 12);
    pb_remap_free(m);
    pb_profile_free(src);
    pb_profile_free(dst);
}

/* The kinds' order and words are the public contract (profile.h); the
 * words are llvm-profdata's (InstrProf.cpp's instrprof_error messages). */
static void merge_problem__kinds_in_header_order_with_llvm_words(void) {
    CU_ASSERT_EQUAL(pb_merge_problem_kind(PB_MERGE_COUNTER_OVERFLOW), 0);
    CU_ASSERT_EQUAL(pb_merge_problem_kind(PB_MERGE_COUNT_MISMATCH), 1);
    CU_ASSERT_EQUAL(pb_merge_problem_kind(PB_MERGE_VALUE_SITE_COUNT_MISMATCH), 2);
    CU_ASSERT_EQUAL(pb_merge_problem_kind(PB_MERGE_BITMAP_MISMATCH), 3);
    CU_ASSERT_EQUAL(pb_merge_problem_kind("counter_overflow "), -1);
    CU_ASSERT_EQUAL(pb_merge_problem_kind(""), -1);
    CU_ASSERT_EQUAL(pb_merge_problem_kind(NULL), -1);
    CU_ASSERT_STRING_EQUAL(pb_merge_problem_words(0), "counter overflow");
    CU_ASSERT_STRING_EQUAL(pb_merge_problem_words(1), "function basic block count change detected (counter mismatch)");
    CU_ASSERT_STRING_EQUAL(pb_merge_problem_words(2), "function value site count change detected (counter mismatch)");
    CU_ASSERT_STRING_EQUAL(pb_merge_problem_words(3), "function bitmap size change detected (bitmap size mismatch)");
    CU_ASSERT_PTR_NULL(pb_merge_problem_words(-1));
    CU_ASSERT_PTR_NULL(pb_merge_problem_words(PB_MERGE_KINDS));
}

static CU_TestInfo tests[] = {
    {"merge_problem__kinds_in_header_order_with_llvm_words", merge_problem__kinds_in_header_order_with_llvm_words},
    {"merge_record__reports_counter_overflow_once_per_record", merge_record__reports_counter_overflow_once_per_record},
    {"remap__reads_llvm_remapping_files", remap__reads_llvm_remapping_files},
    {"merge__remapped_records_add_up_under_the_new_name", merge__remapped_records_add_up_under_the_new_name},
    {"merge_record__adds_counters_times_weight_and_scales_new_records",
     merge_record__adds_counters_times_weight_and_scales_new_records},
    {"merge_record__saturates_at_each_maximum", merge_record__saturates_at_each_maximum},
    {"merge_record__warns_and_skips_on_counter_mismatch", merge_record__warns_and_skips_on_counter_mismatch},
    {"merge_record__merges_pseudo_counts_only_with_pseudo_counts",
     merge_record__merges_pseudo_counts_only_with_pseudo_counts},
    {"merge_record__orders_value_sites_like_llvm_profdata_19",
     merge_record__orders_value_sites_like_llvm_profdata_19},
    {"merge_record__keeps_first_seen_order_of_ties_then_ascending_after_a_merge",
     merge_record__keeps_first_seen_order_of_ties_then_ascending_after_a_merge},
    {"merge_record__cuts_sites_at_255_values", merge_record__cuts_sites_at_255_values},
    {"merge_record__ors_bitmaps_and_warns_on_size_or_site_mismatch",
     merge_record__ors_bitmaps_and_warns_on_size_or_site_mismatch},
    {"merge__imports_tables_by_content_and_adds_java_records",
     merge__imports_tables_by_content_and_adds_java_records},
    {"merge__front_end_and_ir_follow_the_release", merge__front_end_and_ir_follow_the_release},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_model_merge[] = {{"model_merge", NULL, NULL, NULL, NULL, tests},
                                             CU_SUITE_INFO_NULL};
