/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* test_model_basic.c -- the model's tables, records and Java record names.
 * Oracles: spec llvm-instrprof.md §1.2 MD5 vectors; hand-written names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "model/profile_records.h"
#include "model/str_md5.h"
#include "util/intern.h"

static pb_profile *new_profile(void) {
    pb_profile *p = NULL;
    CU_ASSERT_FATAL(pb_profile_new(&p, NULL) == 0);
    return p;
}

static uint32_t sym(pb_profile *p, const char *name) {
    uint32_t s = PB_NONE;
    CU_ASSERT_FATAL(pb_profile_add_symbol(p, name, strlen(name), &s, NULL) == 0);
    return s;
}

/* Method from "decl", "ret", params... (NULL-terminated). */
static uint32_t meth(pb_profile *p, const char *name, const char *decl, const char *ret,
                     const char *p1) {
    uint32_t sig[3];
    size_t n = 0;
    if (decl) sig[n++] = sym(p, decl);
    if (ret) sig[n++] = sym(p, ret);
    if (p1) sig[n++] = sym(p, p1);
    uint32_t m = PB_NONE;
    CU_ASSERT_FATAL(pb_profile_add_method(p, name, strlen(name), sig, n, &m, NULL) == 0);
    return m;
}

static uint32_t ctx1(pb_profile *p, uint32_t m, int32_t bci) {
    pb_frame f = {m, bci};
    uint32_t c = PB_NONE;
    CU_ASSERT_FATAL(pb_profile_intern_context(p, &f, 1, &c, NULL) == 0);
    return c;
}

static void check_name(pb_profile *p, size_t i, const char *expected) {
    const char *n = NULL;
    size_t len = 0;
    uint64_t h = 0;
    CU_ASSERT_FATAL(pb_profile_record_name(p, pb_profile_record(p, i), &n, &len, &h, NULL) == 0);
    CU_ASSERT_EQUAL(len, strlen(expected));
    CU_ASSERT_STRING_EQUAL(n, expected);
    if (strcmp(n, expected) != 0) fprintf(stderr, "\n  got      %s\n  expected %s\n", n, expected);
    CU_ASSERT_EQUAL(h, pb_md5_ref(expected, strlen(expected)) & UINT64_C(0x0FFFFFFFFFFFFFFF));
}

static void md5_ref__matches_spec_vectors(void) {
    CU_ASSERT_EQUAL(pb_md5_ref("foo", 3), UINT64_C(0x5cf8c24cdb18bdac));
    CU_ASSERT_EQUAL(pb_md5_ref("main", 4), UINT64_C(0xdb956436e78dd5fa));
    CU_ASSERT_EQUAL(pb_md5_ref("basic.c;helper", 14), UINT64_C(0x1f1e560000d70085));
    CU_ASSERT_EQUAL(pb_md5_ref("_ZTV1A", 6), UINT64_C(0xa80047fd60784dd0));
    /* MD5("") = d41d8cd98f00b204...: bytes d4 1d 8c d9 8f 00 b2 04 read LE. */
    CU_ASSERT_EQUAL(pb_md5_ref("", 0), UINT64_C(0x04b2008fd98c1dd4));
    /* Around the one-block fast path (<= 55 bytes); values from Python's hashlib. */
    char x[57];
    memset(x, 'x', sizeof x);
    CU_ASSERT_EQUAL(pb_md5_ref(x, 55), UINT64_C(0x2f515ce220443604));
    memset(x, 'y', sizeof x);
    CU_ASSERT_EQUAL(pb_md5_ref(x, 56), UINT64_C(0xdb58df235d0a836c));
    CU_ASSERT_EQUAL(pb_md5_ref(x, 57), UINT64_C(0x942c2457760dafcf));
}

static void intern__gives_equal_ids_for_equal_bytes_and_keeps_nul_bytes(void) {
    pb_profile *p = new_profile();
    pb_str a, b, c, d;
    CU_ASSERT(pb_profile_intern(p, "abc", 3, &a, NULL) == 0);
    CU_ASSERT(pb_profile_intern(p, "a\0c", 3, &b, NULL) == 0);
    CU_ASSERT(pb_profile_intern(p, "abc", 3, &c, NULL) == 0);
    CU_ASSERT(pb_profile_intern(p, "", 0, &d, NULL) == 0);
    CU_ASSERT_EQUAL(a, c);
    CU_ASSERT_NOT_EQUAL(a, b);
    CU_ASSERT_NOT_EQUAL(d, a);
    size_t len;
    const char *s = pb_profile_str(p, b, &len);
    CU_ASSERT_EQUAL(len, 3);
    CU_ASSERT(memcmp(s, "a\0c", 4) == 0);
    CU_ASSERT_PTR_NULL(pb_profile_str(p, 99, &len));
    /* many strings: ids stay dense and stable through table growth */
    char buf[32];
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(buf, sizeof buf, "s%d", i);
        pb_str id;
        CU_ASSERT_FATAL(pb_profile_intern(p, buf, (size_t)n, &id, NULL) == 0);
        CU_ASSERT_EQUAL(id, (pb_str)(3 + i)); /* after "abc", "a\\0c", "" */
    }
    for (int i = 0; i < 5000; i += 97) {
        int n = snprintf(buf, sizeof buf, "s%d", i);
        pb_str id;
        CU_ASSERT(pb_profile_intern(p, buf, (size_t)n, &id, NULL) == 0);
        CU_ASSERT_STRING_EQUAL(pb_profile_str(p, id, NULL), buf);
    }
    pb_profile_free(p);
}

static void symbols__dedupe_by_name_and_placeholders_by_id(void) {
    pb_profile *p = new_profile();
    uint32_t a = sym(p, "java.lang.String"), b = sym(p, "int"), c = sym(p, "java.lang.String");
    CU_ASSERT_EQUAL(a, c);
    CU_ASSERT_NOT_EQUAL(a, b);
    CU_ASSERT_EQUAL(pb_profile_symbol(p, a)->md5, pb_md5_ref("java.lang.String", 16));
    uint32_t p1, p2, p3;
    CU_ASSERT(pb_profile_add_placeholder_symbol(p, 7, &p1, NULL) == 0);
    CU_ASSERT(pb_profile_add_placeholder_symbol(p, -7, &p2, NULL) == 0);
    CU_ASSERT(pb_profile_add_placeholder_symbol(p, 7, &p3, NULL) == 0);
    CU_ASSERT_EQUAL(p1, p3);
    CU_ASSERT_NOT_EQUAL(p1, p2);
    CU_ASSERT_EQUAL(pb_profile_symbol_count(p), 4);
    const pb_symbol *s = pb_profile_symbol(p, p1);
    CU_ASSERT(s->placeholder == 1 && s->placeholder_id == 7 && s->name == PB_NONE);
    CU_ASSERT_EQUAL(s->md5, pb_md5_ref("%#7", 3));
    CU_ASSERT_EQUAL(pb_profile_symbol(p, p2)->md5, pb_md5_ref("%#-7", 4));
    uint32_t f;
    CU_ASSERT(pb_profile_find_symbol(p, "int", 3, &f) == 0 && f == b);
    CU_ASSERT(pb_profile_find_symbol(p, "long", 4, &f) == PB_ENOTFOUND);
    CU_ASSERT(pb_profile_find_symbol_md5(p, pb_md5_ref("int", 3), &f) == 0 && f == b);
    CU_ASSERT(pb_profile_find_symbol_md5(p, pb_md5_ref("%#-7", 4), &f) == 0 && f == p2);
    CU_ASSERT(pb_profile_find_symbol_md5(p, 12345, &f) == PB_ENOTFOUND);
    /* a string interned without a symbol is not a symbol */
    pb_str x;
    CU_ASSERT(pb_profile_intern(p, "long", 4, &x, NULL) == 0);
    CU_ASSERT(pb_profile_find_symbol(p, "long", 4, &f) == PB_ENOTFOUND);
    pb_profile_free(p);
}

static void methods__dedupe_by_name_and_signature_including_return_type(void) {
    pb_profile *p = new_profile();
    uint32_t m1 = meth(p, "get", "A", "int", NULL);
    uint32_t m2 = meth(p, "get", "A", "long", NULL);
    uint32_t m3 = meth(p, "get", "A", "int", NULL);
    uint32_t m4 = meth(p, "get", "A", NULL, NULL);
    uint32_t m5 = meth(p, "get", NULL, NULL, NULL);
    CU_ASSERT_EQUAL(m1, m3);
    CU_ASSERT(m1 != m2 && m1 != m4 && m4 != m5);
    const pb_method *me = pb_profile_method(p, m1);
    CU_ASSERT_EQUAL(me->num_sig, 2);
    CU_ASSERT_STRING_EQUAL(pb_profile_str(p, me->name, NULL), "get");
    CU_ASSERT_STRING_EQUAL(pb_profile_str(p, pb_profile_symbol(p, me->sig[1])->name, NULL), "int");
    CU_ASSERT_EQUAL(pb_profile_method(p, m5)->num_sig, 0);
    uint32_t q1, q2;
    CU_ASSERT(pb_profile_add_placeholder_method(p, 3, &q1, NULL) == 0);
    CU_ASSERT(pb_profile_add_placeholder_method(p, 3, &q2, NULL) == 0);
    CU_ASSERT_EQUAL(q1, q2);
    CU_ASSERT(pb_profile_method(p, q1)->placeholder == 1);
    CU_ASSERT_EQUAL(pb_profile_method(p, q1)->placeholder_id, 3);
    CU_ASSERT_EQUAL(pb_profile_method_count(p), 5);
    /* a signature naming a missing symbol is refused */
    uint32_t badsig = 999, m;
    CU_ASSERT(pb_profile_add_method(p, "x", 1, &badsig, 1, &m, NULL) == PB_EINVAL);
    pb_profile_free(p);
}

static void contexts_and_ints__are_interned_by_content(void) {
    pb_profile *p = new_profile();
    uint32_t m = meth(p, "f", "A", "void", NULL);
    pb_frame f1[2] = {{m, 1}, {m, 2}}, f2[2] = {{m, 1}, {m, 2}}, f3[2] = {{m, 2}, {m, 1}};
    uint32_t a, b, c;
    CU_ASSERT(pb_profile_intern_context(p, f1, 2, &a, NULL) == 0);
    CU_ASSERT(pb_profile_intern_context(p, f2, 2, &b, NULL) == 0);
    CU_ASSERT(pb_profile_intern_context(p, f3, 2, &c, NULL) == 0);
    CU_ASSERT(a == b && a != c);
    size_t n;
    const pb_frame *got = pb_profile_context(p, c, &n);
    CU_ASSERT(n == 2 && got[0].bci == 2 && got[1].bci == 1);
    CU_ASSERT(pb_profile_intern_context(p, f1, 0, &a, NULL) == PB_EINVAL);
    pb_frame badf = {42, 0};
    CU_ASSERT(pb_profile_intern_context(p, &badf, 1, &a, NULL) == PB_EINVAL);
    int32_t v[4] = {20, 0, 53, 1};
    uint32_t i1, i2, i3;
    CU_ASSERT(pb_profile_intern_ints(p, v, 4, &i1, NULL) == 0);
    CU_ASSERT(pb_profile_intern_ints(p, NULL, 0, &i2, NULL) == 0);
    CU_ASSERT(pb_profile_intern_ints(p, v, 4, &i3, NULL) == 0);
    CU_ASSERT(i1 == i3 && i1 != i2);
    const int32_t *iv = pb_profile_ints(p, i2, &n);
    CU_ASSERT(iv != NULL && n == 0);
    iv = pb_profile_ints(p, i1, &n);
    CU_ASSERT(n == 4 && iv[2] == 53);
    pb_profile_free(p);
}

static void props_binary_ids_and_traces__keep_insertion_order(void) {
    pb_profile *p = new_profile();
    CU_ASSERT(pb_profile_set_prop(p, "b", "1", 1, NULL) == 0);
    CU_ASSERT(pb_profile_set_prop(p, "a", "xy", 2, NULL) == 0);
    CU_ASSERT(pb_profile_set_prop(p, "b", "22", 2, NULL) == 0);
    size_t len;
    CU_ASSERT_STRING_EQUAL(pb_profile_prop(p, "b", &len), "22");
    CU_ASSERT_EQUAL(len, 2);
    CU_ASSERT_PTR_NULL(pb_profile_prop(p, "c", &len));
    CU_ASSERT_EQUAL(pb_profile_prop_count(p), 2);
    const char *v;
    CU_ASSERT_STRING_EQUAL(pb_profile_prop_at(p, 0, &v, &len), "b");
    CU_ASSERT_STRING_EQUAL(pb_profile_prop_at(p, 1, &v, &len), "a");
    CU_ASSERT_STRING_EQUAL(v, "xy");
    pb_profile_remove_prop(p, "b");
    CU_ASSERT_EQUAL(pb_profile_prop_count(p), 1);
    CU_ASSERT_STRING_EQUAL(pb_profile_prop_at(p, 0, &v, &len), "a");
    uint8_t id1[3] = {1, 2, 3}, id2[2] = {9, 9};
    CU_ASSERT(pb_profile_add_binary_id(p, id1, 3, NULL) == 0);
    CU_ASSERT(pb_profile_add_binary_id(p, id2, 2, NULL) == 0);
    CU_ASSERT(pb_profile_add_binary_id(p, id1, 3, NULL) == 0);
    CU_ASSERT_EQUAL(pb_profile_binary_id_count(p), 2);
    CU_ASSERT(pb_profile_binary_id(p, 1, &len)[0] == 9 && len == 2);
    uint64_t refs[2] = {5, 6};
    CU_ASSERT(pb_profile_add_trace(p, 3, refs, 2, NULL) == 0);
    uint64_t w;
    size_t n;
    const uint64_t *t = pb_profile_trace(p, 0, &w, &n);
    CU_ASSERT(w == 3 && n == 2 && t[1] == 6);
    pb_profile_set_trace_stream_size(p, 9);
    CU_ASSERT_EQUAL(pb_profile_trace_stream_size(p), 9);
    pb_profile_set_flags(p, PB_VARIANT_IR | PB_VARIANT_ENTRY_FIRST);
    CU_ASSERT_EQUAL(pb_profile_flags(p), PB_VARIANT_IR | PB_VARIANT_ENTRY_FIRST);
    pb_origin o = {"iprof", 10100, 0, 0};
    pb_profile_set_origin(p, &o);
    CU_ASSERT_STRING_EQUAL(pb_profile_origin(p)->format, "iprof");
    pb_profile_free(p);
}

/* A Java record of `kind` in ctx with `n` counters. */
static pb_record jrec(int kind, uint32_t ctx, uint32_t layout, uint64_t *c, uint32_t n) {
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = (uint8_t)kind;
    r.name = PB_NONE;
    r.ctx = ctx;
    r.layout = layout;
    r.counters = c;
    r.num_counters = n;
    return r;
}

static void add_record__rejects_malformed_records_and_duplicate_keys(void) {
    pb_profile *p = new_profile();
    uint32_t m = meth(p, "f", "A", "void", NULL);
    uint32_t c = ctx1(p, m, 3);
    uint64_t cnt[3] = {5, 2, 3};
    pb_error err;
    /* no counters */
    pb_record r = jrec(PB_REC_JAVA_CALL_COUNT, c, PB_NONE, cnt, 0);
    pb_error_clear(&err);
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, &err) == PB_EINVAL);
    CU_ASSERT(strstr(err.message, "without counters") != NULL);
    /* Java kind without context */
    r = jrec(PB_REC_JAVA_CALL_COUNT, PB_NONE, PB_NONE, cnt, 1);
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == PB_EINVAL);
    /* monitor with a context */
    r = jrec(PB_REC_JAVA_MONITOR, c, PB_NONE, cnt, 1);
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == PB_EINVAL);
    /* branch without layout / with a mismatching counter count */
    int32_t lay[4] = {20, 0, 53, 1};
    uint32_t l;
    CU_ASSERT(pb_profile_intern_ints(p, lay, 4, &l, NULL) == 0);
    r = jrec(PB_REC_JAVA_BRANCH, c, PB_NONE, cnt, 3);
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == PB_EINVAL);
    r = jrec(PB_REC_JAVA_BRANCH, c, l, cnt, 2);
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == PB_EINVAL);
    r = jrec(PB_REC_JAVA_BRANCH, c, l, cnt, 3);
    size_t idx = 99;
    CU_ASSERT(pb_profile_add_record(p, &r, &idx, NULL) == 0);
    CU_ASSERT_EQUAL(idx, 0);
    /* same key again */
    pb_error_clear(&err);
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, &err) == PB_EEXIST);
    CU_ASSERT(strstr(err.message, "jbranch:A.f()void:3|20/0,53/1") != NULL);
    /* function without a name */
    pb_record fr;
    memset(&fr, 0, sizeof fr);
    fr.kind = PB_REC_FUNCTION;
    fr.name = PB_NONE;
    fr.counters = cnt;
    fr.num_counters = 1;
    CU_ASSERT(pb_profile_add_record(p, &fr, NULL, NULL) == PB_EINVAL);
    /* value whose symbol's NameRef differs, and a missing symbol */
    uint32_t s = sym(p, "B");
    pb_value val = {1234, 5, s};
    pb_site site = {1, &val};
    r = jrec(PB_REC_JAVA_VIRTUAL_INVOKE, c, PB_NONE, cnt, 1);
    r.num_sites[PB_VK_VTABLE] = 1;
    r.sites[PB_VK_VTABLE] = &site;
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == PB_EINVAL);
    val.symbol = 77;
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == PB_EINVAL);
    val.symbol = s;
    val.value = pb_md5_ref("B", 1);
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    /* a function and a Java record with the same counters coexist; names differ */
    CU_ASSERT(pb_profile_intern(p, "main", 4, &fr.name, NULL) == 0);
    fr.hash = 42;
    CU_ASSERT(pb_profile_add_record(p, &fr, NULL, NULL) == 0);
    fr.hash = 43; /* same name, other hash: another record */
    CU_ASSERT(pb_profile_add_record(p, &fr, NULL, NULL) == 0);
    CU_ASSERT(pb_profile_add_record(p, &fr, NULL, NULL) == PB_EEXIST);
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 4);
    pb_profile_free(p);
}

static void add_record__copies_every_array(void) {
    pb_profile *p = new_profile();
    pb_str name;
    CU_ASSERT(pb_profile_intern(p, "foo", 3, &name, NULL) == 0);
    uint64_t cnt[2] = {7, 8};
    uint8_t bm[2] = {0x81, 0x02};
    pb_value vals[2] = {{11, 1, PB_NONE}, {12, 2, PB_NONE}};
    pb_site sites[2] = {{2, vals}, {0, NULL}};
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.name = name;
    r.ctx = 5; /* ignored for functions */
    r.hash = 0x1234;
    r.counters = cnt;
    r.num_counters = 2;
    r.bitmap = bm;
    r.num_bitmap_bytes = 2;
    r.num_sites[PB_VK_INDIRECT_CALL] = 2;
    r.sites[PB_VK_INDIRECT_CALL] = sites;
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    cnt[0] = 0;
    bm[0] = 0;
    vals[1].count = 0;
    const pb_record *g = pb_profile_record(p, 0);
    CU_ASSERT(g->counters != cnt && g->counters[0] == 7 && g->counters[1] == 8);
    CU_ASSERT(g->bitmap[0] == 0x81 && g->num_bitmap_bytes == 2);
    CU_ASSERT(g->num_sites[0] == 2 && g->sites[0][0].num_values == 2);
    CU_ASSERT(g->sites[0][0].values[1].count == 2 && g->sites[0][1].num_values == 0);
    CU_ASSERT(g->ctx == PB_NONE && g->layout == PB_NONE);
    const char *n;
    size_t len;
    uint64_t h;
    CU_ASSERT(pb_profile_record_name(p, g, &n, &len, &h, NULL) == 0);
    CU_ASSERT(len == 3 && strcmp(n, "foo") == 0 && h == 0x1234);
    pb_record *mut = pb_profile_record_mut(p, 0);
    mut->counters[0] = 70;
    CU_ASSERT_EQUAL(pb_profile_record(p, 0)->counters[0], 70);
    CU_ASSERT_PTR_NULL(pb_profile_record(p, 1));
    pb_profile_free(p);
}

static void record_name__renders_each_kind_as_the_grammar_says(void) {
    pb_profile *p = new_profile();
    uint32_t fib = meth(p, "fibonacci", "Fib", "void", NULL);
    uint32_t print = meth(p, "print", "java.io.PrintStream", "void", "java.lang.String");
    uint32_t c_fib = ctx1(p, fib, 11);
    pb_frame fr[2] = {{print, 0}, {fib, 34}};
    uint32_t c_print;
    CU_ASSERT_FATAL(pb_profile_intern_context(p, fr, 2, &c_print, NULL) == 0);
    int32_t lay[4] = {20, 0, 53, 1};
    uint32_t l, l0;
    CU_ASSERT_FATAL(pb_profile_intern_ints(p, lay, 4, &l, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_intern_ints(p, NULL, 0, &l0, NULL) == 0);
    uint64_t c3[3] = {11, 10, 1}, c1[1] = {4};
    pb_record r = jrec(PB_REC_JAVA_BRANCH, c_fib, l, c3, 3);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    r = jrec(PB_REC_JAVA_CALL_COUNT, c_print, PB_NONE, c1, 1);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    r = jrec(PB_REC_JAVA_VIRTUAL_INVOKE, c_fib, PB_NONE, c1, 1);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    r = jrec(PB_REC_JAVA_INSTANCEOF, c_print, PB_NONE, c1, 1);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    r = jrec(PB_REC_JAVA_MONITOR, PB_NONE, PB_NONE, c1, 1);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    r = jrec(PB_REC_JAVA_SAMPLE, c_fib, PB_NONE, c1, 1);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    r = jrec(PB_REC_JAVA_BRANCH, c_print, l0, c1, 1);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    check_name(p, 0, "jbranch:Fib.fibonacci()void:11|20/0,53/1");
    check_name(p, 1, "jcall:java.io.PrintStream.print(java.lang.String)void:0<Fib.fibonacci()void:34");
    check_name(p, 2, "jvcall:Fib.fibonacci()void:11");
    check_name(p, 3, "jinstanceof:java.io.PrintStream.print(java.lang.String)void:0<Fib.fibonacci()void:34");
    check_name(p, 4, "jmonitor:");
    check_name(p, 5, "jsample:Fib.fibonacci()void:11");
    check_name(p, 6, "jbranch:java.io.PrintStream.print(java.lang.String)void:0<Fib.fibonacci()void:34|");
    /* the stored hash of a Java record is 0; the derived one has bits 60-63 clear */
    CU_ASSERT_EQUAL(pb_profile_record(p, 0)->hash, 0);
    pb_profile_free(p);
}

static void record_name__escapes_and_writes_placeholders_and_short_signatures(void) {
    pb_profile *p = new_profile();
    uint32_t ph_t, ph_m, s_empty, s_odd;
    CU_ASSERT_FATAL(pb_profile_add_placeholder_symbol(p, -3, &ph_t, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_add_placeholder_method(p, 12, &ph_m, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_add_symbol(p, "", 0, &s_empty, NULL) == 0);
    const char odd[] = "a b%(c),d:e.f<g>|h/\xc3\xbc";
    CU_ASSERT_FATAL(pb_profile_add_symbol(p, odd, sizeof odd - 1, &s_odd, NULL) == 0);
    uint32_t m0, m1, m2, m3;
    uint32_t sig1[1] = {s_odd};
    uint32_t sig4[4] = {ph_t, s_empty, s_odd, ph_t};
    CU_ASSERT_FATAL(pb_profile_add_method(p, "<init>", 6, NULL, 0, &m0, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_add_method(p, "a.b", 3, sig1, 1, &m1, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_add_method(p, "", 0, sig4, 4, &m2, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_add_method(p, "x%y", 3, sig4, 2, &m3, NULL) == 0);
    pb_frame f[5] = {{m0, -1}, {m1, 0}, {m2, 2147483647}, {ph_m, -2147483647 - 1}, {m3, 5}};
    uint32_t c;
    CU_ASSERT_FATAL(pb_profile_intern_context(p, f, 5, &c, NULL) == 0);
    uint64_t one = 1;
    pb_record r = jrec(PB_REC_JAVA_CALL_COUNT, c, PB_NONE, &one, 1);
    CU_ASSERT_FATAL(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    check_name(p, 0,
               "jcall:%-.<init>()%-:-1"
               "<a%20b%25%28c%29%2Cd%3Ae.f<g>|h/%C3%BC.a%2Eb()%-:0"
               "<%#-3.%_(a%20b%25%28c%29%2Cd%3Ae.f<g>|h/%C3%BC,%#-3)%_:2147483647"
               "<%#12:-2147483648"
               "<%#-3.x%25y()%_:5");
    pb_profile_free(p);
}

/* The key lookup is skipped for names newer than every record's name; a
 * repeated key must still be refused, before and after renumbering. */
static void add_record__finds_repeated_keys_with_new_and_old_names(void) {
    pb_profile *p = new_profile();
    uint64_t one = 1;
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.ctx = r.layout = PB_NONE;
    r.num_counters = 1;
    r.counters = &one;
    pb_str a, b, c;
    CU_ASSERT_FATAL(pb_profile_intern(p, "a", 1, &a, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_intern(p, "b", 1, &b, NULL) == 0);
    r.name = b;
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    r.name = a; /* older than b: looked up, new */
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == PB_EEXIST);
    r.name = b;
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == PB_EEXIST);
    CU_ASSERT_FATAL(pb_profile_intern(p, "c", 1, &c, NULL) == 0);
    r.name = c; /* newer than every record's name: no lookup needed */
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == PB_EEXIST);
    r.hash = 2; /* same name, other hash: another key */
    CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == 0);
    CU_ASSERT_FATAL(pb_profile_canonicalize(p, NULL) == 0);
    for (const char *n = "abc"; *n; n++) {
        CU_ASSERT_FATAL(pb_profile_intern(p, n, 1, &r.name, NULL) == 0);
        r.hash = 0;
        CU_ASSERT(pb_profile_add_record(p, &r, NULL, NULL) == PB_EEXIST);
    }
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 4);
    pb_profile_free(p);
}

/* pbu_intern_add_new: ids without a lookup slot until the next add or index;
 * found all along (one by one before), never twice under one id. */
static void intern__add_new_ids_are_found_before_and_after_indexing(void) {
    pbu_intern t = PBU_INTERN_INIT;
    uint32_t id = 99;
    int added = 0;
    CU_ASSERT_EQUAL(pbu_intern_add(&t, "a", 1, &id, &added), 0);
    CU_ASSERT_EQUAL(id, 0);
    CU_ASSERT_EQUAL(pbu_intern_add_new(&t, "b", 1, &id), 0);
    CU_ASSERT_EQUAL(id, 1);
    CU_ASSERT_EQUAL(pbu_intern_add_new(&t, "cc", 2, &id), 0);
    CU_ASSERT_EQUAL(id, 2);
    CU_ASSERT_EQUAL(t.indexed, 1);
    CU_ASSERT_EQUAL(pbu_intern_find(&t, "b", 1, &id), 0); /* not indexed: found one by one */
    CU_ASSERT_EQUAL(id, 1);
    CU_ASSERT_EQUAL(pbu_intern_find(&t, "c", 1, &id), PB_ENOTFOUND);
    CU_ASSERT_EQUAL(pbu_intern_add(&t, "cc", 2, &id, &added), 0); /* indexes, then finds it */
    CU_ASSERT_EQUAL(id, 2);
    CU_ASSERT_EQUAL(added, 0);
    CU_ASSERT_EQUAL(t.indexed, 3);
    CU_ASSERT_EQUAL(pbu_intern_add_new(&t, "d", 1, &id), 0);
    pbu_intern_pop(&t); /* an id without a slot */
    CU_ASSERT_EQUAL(t.count, 3);
    CU_ASSERT_EQUAL(pbu_intern_find(&t, "d", 1, &id), PB_ENOTFOUND);
    /* enough new ids that indexing them grows the slots several times */
    char buf[16];
    for (unsigned i = 0; i < 500; i++) {
        int n = snprintf(buf, sizeof buf, "n%u", i);
        CU_ASSERT_EQUAL(pbu_intern_add_new(&t, buf, (size_t)n, &id), 0);
        CU_ASSERT_EQUAL(id, 3 + i);
    }
    CU_ASSERT_EQUAL(pbu_intern_index(&t), 0);
    CU_ASSERT_EQUAL(t.indexed, t.count);
    for (unsigned i = 0; i < 500; i++) {
        int n = snprintf(buf, sizeof buf, "n%u", i);
        CU_ASSERT_EQUAL(pbu_intern_find(&t, buf, (size_t)n, &id), 0);
        CU_ASSERT_EQUAL(id, 3 + i);
    }
    CU_ASSERT_EQUAL(pbu_intern_add(&t, "n499", 4, &id, &added), 0);
    CU_ASSERT_EQUAL(id, 502);
    CU_ASSERT_EQUAL(added, 0);
    pbu_intern_free(&t);
}

/* pbu_intern_permute: the chosen ids in the given order, found by their
 * bytes (also those add_new never hashed), aux along; after
 * pbu_intern_take_storage the source can go and the bytes stay. */
static void intern__permute_keeps_bytes_and_lookups(void) {
    pbu_intern src = PBU_INTERN_INIT, dst = PBU_INTERN_INIT;
    uint32_t id = 99;
    int added = 0;
    char buf[16];
    for (unsigned i = 0; i < 300; i++) {
        int n = snprintf(buf, sizeof buf, "s%u", i);
        int rc = i < 200 ? pbu_intern_add(&src, buf, (size_t)n, &id, &added)
                         : pbu_intern_add_new(&src, buf, (size_t)n, &id);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(pbu_intern_set_aux(&src, id, 1000 + i), 0);
    }
    CU_ASSERT_EQUAL(src.indexed, 200);
    /* every third id, backwards: 297, 294, ..., 0 */
    uint32_t order[100];
    for (uint32_t i = 0; i < 100; i++) order[i] = 297 - 3 * i;
    CU_ASSERT_EQUAL_FATAL(pbu_intern_permute(&dst, &src, order, 100), 0);
    CU_ASSERT_EQUAL(dst.count, 100);
    pbu_intern_take_storage(&dst, &src);
    pbu_intern_free(&src);
    for (uint32_t i = 0; i < 100; i++) {
        int n = snprintf(buf, sizeof buf, "s%u", order[i]);
        size_t len = 0;
        const char *b = pbu_intern_get(&dst, i, &len);
        CU_ASSERT_EQUAL(len, (size_t)n);
        CU_ASSERT_STRING_EQUAL(b, buf);
        CU_ASSERT_EQUAL(pbu_intern_aux(&dst, i), 1000 + order[i]);
        CU_ASSERT_EQUAL(pbu_intern_find(&dst, buf, (size_t)n, &id), 0);
        CU_ASSERT_EQUAL(id, i);
    }
    CU_ASSERT_EQUAL(pbu_intern_find(&dst, "s1", 2, &id), PB_ENOTFOUND); /* not chosen */
    /* the table grows on: an id not chosen comes back as a new one */
    CU_ASSERT_EQUAL(pbu_intern_add(&dst, "s1", 2, &id, &added), 0);
    CU_ASSERT_EQUAL(id, 100);
    CU_ASSERT_EQUAL(added, 1);
    CU_ASSERT_EQUAL(pbu_intern_add(&dst, "s297", 4, &id, &added), 0);
    CU_ASSERT_EQUAL(id, 0);
    CU_ASSERT_EQUAL(added, 0);
    pbu_intern_free(&dst);
}

/* The model's side: a string added new is the same string to pb_profile_intern. */
static void intern__profile_intern_new_then_intern_gives_the_same_id(void) {
    pb_profile *p = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    CU_ASSERT_EQUAL(pbi_profile_str_count(p), 0);
    pb_str a = 0, b = 0, c = 0;
    CU_ASSERT_EQUAL(pbi_profile_intern_new(p, "main", 4, &a, &err), 0);
    CU_ASSERT_EQUAL(pbi_profile_intern_new(p, "foo", 3, &b, &err), 0);
    CU_ASSERT_EQUAL(pbi_profile_str_count(p), 2);
    CU_ASSERT_EQUAL(pb_profile_intern(p, "foo", 3, &c, &err), 0);
    CU_ASSERT_EQUAL(c, b);
    CU_ASSERT_EQUAL(pb_profile_intern(p, "main", 4, &c, &err), 0);
    CU_ASSERT_EQUAL(c, a);
    CU_ASSERT_EQUAL(pbi_profile_str_count(p), 2);
    pb_profile_free(p);
}

/* The room a merge grows a site's values in: exact the first time, then in
 * place while the block holds k, then the next power of two; a block left
 * behind goes to the next site that needs that much. */
static void values_room__grows_in_place_and_reuses_left_blocks(void) {
    pb_profile *p = new_profile();
    pb_value foreign[3];
    pb_value *a = pbi_profile_values_room(p, foreign, 3); /* first growth: exact 3 */
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_EQUAL(a, foreign);
    CU_ASSERT_PTR_EQUAL(pbi_profile_values_room(p, a, 3), a);
    pb_value *b = pbi_profile_values_room(p, a, 4); /* 3 -> 4: a new block of 4 */
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_EQUAL(b, a);
    for (int i = 0; i < 4; i++) b[i] = (pb_value){(uint64_t)i, (uint64_t)i, PB_NONE}; /* all of it is ours */
    CU_ASSERT_PTR_EQUAL(pbi_profile_values_room(p, b, 4), b);
    pb_value *c = pbi_profile_values_room(p, b, 5); /* 4 -> 5: 8, b is left */
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_EQUAL(pbi_profile_values_room(p, c, 8), c);
    /* another site's first growth to 4 takes b (capacity 4), to 2 takes a (3) */
    CU_ASSERT_PTR_EQUAL(pbi_profile_values_room(p, NULL, 4), b);
    CU_ASSERT_PTR_EQUAL(pbi_profile_values_room(p, foreign, 2), a);
    /* nothing left of capacity >= 2^2: a new block, not c */
    pb_value *d = pbi_profile_values_room(p, NULL, 3);
    CU_ASSERT_PTR_NOT_NULL(d);
    CU_ASSERT(d != a && d != b && d != c);
    pb_profile_free(p);
}

static CU_TestInfo tests[] = {
    {"add_record__finds_repeated_keys_with_new_and_old_names",
     add_record__finds_repeated_keys_with_new_and_old_names},
    {"md5_ref__matches_spec_vectors", md5_ref__matches_spec_vectors},
    {"intern__gives_equal_ids_for_equal_bytes_and_keeps_nul_bytes",
     intern__gives_equal_ids_for_equal_bytes_and_keeps_nul_bytes},
    {"symbols__dedupe_by_name_and_placeholders_by_id", symbols__dedupe_by_name_and_placeholders_by_id},
    {"methods__dedupe_by_name_and_signature_including_return_type",
     methods__dedupe_by_name_and_signature_including_return_type},
    {"contexts_and_ints__are_interned_by_content", contexts_and_ints__are_interned_by_content},
    {"props_binary_ids_and_traces__keep_insertion_order", props_binary_ids_and_traces__keep_insertion_order},
    {"add_record__rejects_malformed_records_and_duplicate_keys",
     add_record__rejects_malformed_records_and_duplicate_keys},
    {"add_record__copies_every_array", add_record__copies_every_array},
    {"record_name__renders_each_kind_as_the_grammar_says", record_name__renders_each_kind_as_the_grammar_says},
    {"record_name__escapes_and_writes_placeholders_and_short_signatures",
     record_name__escapes_and_writes_placeholders_and_short_signatures},
    {"intern__add_new_ids_are_found_before_and_after_indexing",
     intern__add_new_ids_are_found_before_and_after_indexing},
    {"intern__permute_keeps_bytes_and_lookups", intern__permute_keeps_bytes_and_lookups},
    {"intern__profile_intern_new_then_intern_gives_the_same_id",
     intern__profile_intern_new_then_intern_gives_the_same_id},
    {"values_room__grows_in_place_and_reuses_left_blocks", values_room__grows_in_place_and_reuses_left_blocks},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_model_basic[] = {{"model_basic", NULL, NULL, NULL, NULL, tests},
                                             CU_SUITE_INFO_NULL};
