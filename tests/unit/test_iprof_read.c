/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_iprof_read.c -- the iprof reader and writer on small known inputs:
 * facts hand-counted from fib-doc.iprof (GraalVM's documented example),
 * writer conventions, versions, extra members, gzip, truncation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>

#include <jansson.h>

#include "iprof_test.h"
#include "../../formats/iprof/iprof_int.h"

static char *fib_text(size_t *len) { return tu_slurp(tu_src("tests/fuzz/iprof/fib-doc.iprof"), len); }

static pb_profile *read_fib(void) {
    size_t len = 0;
    char *t = fib_text(&len);
    pb_profile *p = NULL;
    pb_error err;
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int rc = it_read(&p, t, len, "fib-doc.iprof", 0, 0, NULL, &err);
    if (rc) fprintf(stderr, "\n  %s\n", it_fmt_err(&err));
    free(t);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return p;
}

static uint64_t value_count(const pb_profile *p, const pb_record *r, const char *type) {
    uint32_t sym;
    if (pb_profile_find_symbol(p, type, strlen(type), &sym)) return UINT64_MAX;
    const pb_site *s = r->sites[PB_VK_VTABLE];
    for (uint32_t i = 0; i < s->num_values; i++)
        if (s->values[i].symbol == sym) {
            CU_ASSERT_EQUAL(s->values[i].value, pb_md5_ref(type, strlen(type)));
            return s->values[i].count;
        }
    return UINT64_MAX;
}

static void iprof_read__fib_doc_gives_the_hand_counted_model(void) {
    pb_profile *p = read_fib();
    size_t n = 0;
    CU_ASSERT_STRING_EQUAL(pb_profile_prop(p, "iprof.version", &n), "1.1.0");
    CU_ASSERT_STRING_EQUAL(pb_profile_origin(p)->format, "iprof");
    CU_ASSERT_EQUAL(pb_profile_origin(p)->version, 10100);
    CU_ASSERT_EQUAL(pb_profile_flags(p), PB_VARIANT_IR | PB_VARIANT_ENTRY_FIRST);
    CU_ASSERT_EQUAL(pb_profile_symbol_count(p), 34);
    CU_ASSERT_EQUAL(pb_profile_method_count(p), 27);
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 8);
    CU_ASSERT_EQUAL(it_count_kind(p, PB_REC_JAVA_CALL_COUNT), 2);
    CU_ASSERT_EQUAL(it_count_kind(p, PB_REC_JAVA_BRANCH), 1);
    CU_ASSERT_EQUAL(it_count_kind(p, PB_REC_JAVA_VIRTUAL_INVOKE), 2);
    CU_ASSERT_EQUAL(it_count_kind(p, PB_REC_JAVA_MONITOR), 1);
    CU_ASSERT_EQUAL(it_count_kind(p, PB_REC_JAVA_SAMPLE), 2);
    CU_ASSERT_EQUAL(it_count_kind(p, PB_REC_JAVA_INSTANCEOF), 0);

    /* fibonacci(Fib) void: signature [10 Fib, 8 void] */
    uint32_t fib = it_method(p, "fibonacci");
    CU_ASSERT_NOT_EQUAL_FATAL(fib, PB_NONE);
    const pb_method *m = pb_profile_method(p, fib);
    CU_ASSERT_EQUAL_FATAL(m->num_sig, 2);
    CU_ASSERT_STRING_EQUAL(pb_profile_str(p, pb_profile_symbol(p, m->sig[0])->name, &n), "Fib");
    CU_ASSERT_STRING_EQUAL(pb_profile_str(p, pb_profile_symbol(p, m->sig[1])->name, &n), "void");

    /* "19551:0" -> 1, "4669:0<19551:34" -> 10 */
    const pb_record *r = it_record(p, PB_REC_JAVA_CALL_COUNT, "fibonacci", 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->num_counters, 1);
    CU_ASSERT_EQUAL(r->counters[0], 1);
    r = it_record(p, PB_REC_JAVA_CALL_COUNT, "print", 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->counters[0], 10);
    const pb_frame *f = pb_profile_context(p, r->ctx, &n);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(f[1].method, fib);
    CU_ASSERT_EQUAL(f[1].bci, 34);

    /* "19551:11" [20,0,10,53,1,1] -> counters [11,10,1], layout [20,0,53,1] */
    r = it_record(p, PB_REC_JAVA_BRANCH, "fibonacci", 11);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL_FATAL(r->num_counters, 3);
    CU_ASSERT_EQUAL(r->counters[0], 11);
    CU_ASSERT_EQUAL(r->counters[1], 10);
    CU_ASSERT_EQUAL(r->counters[2], 1);
    const int32_t *lay = pb_profile_ints(p, r->layout, &n);
    CU_ASSERT_EQUAL_FATAL(n, 4);
    CU_ASSERT(lay[0] == 20 && lay[1] == 0 && lay[2] == 53 && lay[3] == 1);

    /* "6886:9<6882:23" [1322,2,2280,60,3660,56] -> sum 118, one kind-2 site */
    r = it_record(p, PB_REC_JAVA_VIRTUAL_INVOKE, "placeholder6886", 9);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->counters[0], 118);
    CU_ASSERT_EQUAL_FATAL(r->num_sites[PB_VK_VTABLE], 1);
    CU_ASSERT_EQUAL(r->num_sites[PB_VK_INDIRECT_CALL], 0);
    CU_ASSERT_EQUAL(r->sites[PB_VK_VTABLE][0].num_values, 3);
    CU_ASSERT_EQUAL(value_count(p, r, "example.MonitorType1322"), 2);
    CU_ASSERT_EQUAL(value_count(p, r, "java.lang.String"), 60);
    CU_ASSERT_EQUAL(value_count(p, r, "example.MonitorType3660"), 56);
    r = it_record(p, PB_REC_JAVA_VIRTUAL_INVOKE, "valueOf", 11);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->counters[0], 10);
    CU_ASSERT_EQUAL(value_count(p, r, "java.lang.String"), 10);
    pb_profile_context(p, r->ctx, &n);
    CU_ASSERT_EQUAL(n, 3);

    /* monitor: 16 pairs summing to 116, no context */
    r = it_record(p, PB_REC_JAVA_MONITOR, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->ctx, PB_NONE);
    CU_ASSERT_EQUAL(r->counters[0], 116);
    CU_ASSERT_EQUAL(r->sites[PB_VK_VTABLE][0].num_values, 16);
    CU_ASSERT_EQUAL(value_count(p, r, "java.lang.Object"), 4);
    CU_ASSERT_EQUAL(value_count(p, r, "example.MonitorType3654"), 61);

    /* samples: 13-frame stack seen 10 times, 10-frame stack once */
    r = it_record(p, PB_REC_JAVA_SAMPLE, "sleep", 38);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->counters[0], 10);
    pb_profile_context(p, r->ctx, &n);
    CU_ASSERT_EQUAL(n, 13);
    r = it_record(p, PB_REC_JAVA_SAMPLE, "placeholder22500", 23);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->counters[0], 1);
    pb_profile_context(p, r->ctx, &n);
    CU_ASSERT_EQUAL(n, 10);
    CU_ASSERT_EQUAL(pb_profile_check(p, NULL, NULL), 0);
    pb_profile_free(p);
}

static void iprof_read__fib_doc_round_trips_and_writes_graalvm_style(void) {
    pb_profile *p = read_fib(), *q = NULL;
    char *t1 = NULL, *t2 = NULL, *t3 = NULL;
    size_t n1 = 0, n2 = 0, n3 = 0;
    pb_error err;
    char why[512];
    CU_ASSERT_EQUAL_FATAL(it_write(p, NULL, &t1, &n1, NULL, &err), 0);
    CU_ASSERT_EQUAL_FATAL(it_write(p, NULL, &t2, &n2, NULL, &err), 0);
    CU_ASSERT(n1 == n2 && memcmp(t1, t2, n1) == 0); /* byte-stable */
    CU_ASSERT_EQUAL(strncmp(t1, "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"", 44), 0);
    CU_ASSERT_PTR_NULL(strpbrk(t1, " \n\t\r")); /* compact, no trailing newline */
    /* top-level order and every section present */
    const char *keys[] = {"\"types\":", "\"methods\":", "\"callCountProfiles\":", "\"conditionalProfiles\":",
                          "\"virtualInvokeProfiles\":", "\"monitorProfiles\":", "\"samplingProfiles\":",
                          "\"instanceOfProfiles\":[]}", NULL};
    const char *at = t1;
    for (size_t i = 0; keys[i]; i++) {
        const char *k = strstr(at, keys[i]);
        CU_ASSERT_PTR_NOT_NULL(k);
        if (k) at = k;
    }
    CU_ASSERT_STRING_EQUAL(at, "\"instanceOfProfiles\":[]}");
    CU_ASSERT_PTR_NOT_NULL(strstr(t1, "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":["));
    CU_ASSERT_PTR_NOT_NULL(strstr(t1, ",\"records\":[20,0,10,53,1,1]}"));
    int rc = it_read(&q, t1, n1, "out.iprof", 0, 0, NULL, &err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT(pb_profile_equal(p, q, why, sizeof why));
    CU_ASSERT_EQUAL_FATAL(it_write(q, NULL, &t3, &n3, NULL, &err), 0);
    CU_ASSERT(n1 == n3 && memcmp(t1, t3, n1) == 0); /* writing is a fixed point */
    /* jansson agrees it is one valid JSON object */
    json_error_t je;
    json_t *j = json_loadb(t1, n1, 0, &je);
    CU_ASSERT_PTR_NOT_NULL(j);
    CU_ASSERT_EQUAL(json_object_size(j), 9);
    json_decref(j);
    free(t1);
    free(t2);
    free(t3);
    pb_profile_free(p);
    pb_profile_free(q);
}

static void iprof_read__writer_follows_the_version_option(void) {
    pb_profile *p = read_fib();
    char *t = NULL;
    pb_error err;
    size_t n = 0;
    CU_ASSERT_EQUAL(it_write(p, "1.0.0", &t, &n, NULL, &err), 0);
    CU_ASSERT_EQUAL(strncmp(t, "{\"version\":\"1.0.0\"", 18), 0);
    CU_ASSERT_PTR_NULL(strstr(t, "instanceOfProfiles"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"monitorProfiles\":[{\"ctx\":\"0:0\""));
    CU_ASSERT_EQUAL(t[n - 1], '}');
    CU_ASSERT_EQUAL(t[n - 2], ']'); /* samplingProfiles is the last member */
    free(t);
    CU_ASSERT_EQUAL(it_write(p, "0.4.0", &t, &n, NULL, &err), 0);
    CU_ASSERT_EQUAL(strncmp(t, "{\"version\":\"0.4.0\"", 18), 0);
    free(t);
    CU_ASSERT_EQUAL(it_write(p, "0.2.0", &t, &n, NULL, &err), PB_EINVAL);
    CU_ASSERT_STRING_EQUAL(it_fmt_err(&err), "<input>: iprof-version: cannot write iprof version \"0.2.0\": choose 1.1.0, 1.0.0 or 0.4.0");
    CU_ASSERT_EQUAL(it_write(p, "9.9.9", &t, &n, NULL, &err), PB_EINVAL);
    pb_profile_free(p);

    /* instanceof entries need 1.1.0 */
    const char *doc = "{\"version\":\"1.1.0\",\"types\":[{\"id\":3,\"name\":\"T\"}],"
                      "\"methods\":[{\"id\":4,\"name\":\"m\",\"signature\":[3,3]}],"
                      "\"instanceofProfiles\":[{\"ctx\":\"4:7\",\"records\":[3,5]}]}";
    CU_ASSERT_EQUAL_FATAL(it_read_str(&p, doc, 0, &err), 0);
    CU_ASSERT_EQUAL(it_count_kind(p, PB_REC_JAVA_INSTANCEOF), 1);
    CU_ASSERT_EQUAL(it_write(p, "1.0.0", &t, &n, NULL, &err), PB_EINVAL);
    CU_ASSERT_STRING_EQUAL(it_fmt_err(&err), "<input>: iprof-version: cannot write iprof 1.0.0: the profile has 1 instanceof entries, which need 1.1.0");
    CU_ASSERT_EQUAL(it_write(p, NULL, &t, &n, NULL, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, ",\"instanceOfProfiles\":[{\"ctx\":\"0:7\",\"records\":[0,5]}]}"));
    free(t);
    pb_profile_free(p);
}

static void iprof_read__legacy_0_2_0_is_converted_and_written_as_1_0_0(void) {
    const char *doc =
        "{\n  \"version\": \"0.2.0\",\n  \"types\": [ { \"id\": 7, \"typeName\": \"T\" },"
        " { \"id\": 2, \"typeName\": \"void\" } ],\n  \"methods\": [ { \"id\": 9, \"methodName\": \"m\","
        " \"signature\": [7, 2] }, { \"id\": 1, \"methodName\": \"c\", \"signature\": [7, 2] } ],\n"
        "  \"hotnessPoints\": [ { \"methodBciList\": \"9:0,1:-6\", \"records\": [5] } ],\n"
        "  \"conditionalPoints\": [ { \"methodBciList\": \"9:3\", \"records\": [8, 0, 2, -5, 0, 1] } ],\n"
        "  \"invokePoints\": [ { \"methodBciList\": \"9:4,1:2\", \"records\": [7, 3] } ],\n"
        "  \"monitorsProfile\": { \"records\": [7, 11] }\n}";
    pb_profile *p = NULL;
    pb_error err;
    tu_diag d;
    char *t = NULL;
    size_t n = 0;
    int rc = it_read_str(&p, doc, 0, &err);
    if (rc) fprintf(stderr, "\n  %s\n", it_fmt_err(&err));
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_STRING_EQUAL(pb_profile_prop(p, "iprof.version", &n), "0.2.0");
    CU_ASSERT_EQUAL(pb_profile_origin(p)->version, 200);
    const pb_record *r = it_record(p, PB_REC_JAVA_CALL_COUNT, "m", 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->counters[0], 5);
    const pb_frame *f = pb_profile_context(p, r->ctx, &n);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(f[1].bci, -6);
    CU_ASSERT_EQUAL(f[1].method, it_method(p, "c"));
    r = it_record(p, PB_REC_JAVA_BRANCH, "m", 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT(r->num_counters == 3 && r->counters[0] == 3 && r->counters[2] == 1);
    CU_ASSERT_EQUAL(it_count_kind(p, PB_REC_JAVA_VIRTUAL_INVOKE), 1);
    r = it_record(p, PB_REC_JAVA_MONITOR, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->counters[0], 11);
    memset(&d, 0, sizeof d);
    CU_ASSERT_EQUAL_FATAL(it_write(p, NULL, &t, &n, &d, &err), 0);
    CU_ASSERT_EQUAL(strncmp(t, "{\"version\":\"1.0.0\",", 19), 0);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_NOTICE], 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "0.2.0, whose layout is not written: writing 1.0.0"));
    /* types sorted by name: T=0, void=1; methods c=0, m=1 */
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"callCountProfiles\":[{\"ctx\":\"1:0<0:-6\",\"records\":[5]}]"));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"monitorProfiles\":[{\"ctx\":\"0:0\",\"records\":[0,11]}]"));
    free(t);
    pb_profile_free(p);
}

static void iprof_read__extra_members_are_kept_and_written_after_the_sections(void) {
    const char *doc = "{\"zeta\":{\"b\":[1, 2],\"a\":null},\"version\":\"1.0.0\",\"types\":[],"
                      "\"methods\":[],\"alpha\":\"x\\u0000y\",\"callCountProfiles\":[]}";
    pb_profile *p = NULL, *q = NULL;
    pb_error err;
    char *t = NULL;
    size_t n = 0;
    char why[256];
    CU_ASSERT_EQUAL_FATAL(it_read_str(&p, doc, 0, &err), 0);
    CU_ASSERT_STRING_EQUAL(pb_profile_prop(p, "iprof.extra.zeta", &n), "{\"b\":[1,2],\"a\":null}");
    CU_ASSERT_EQUAL(n, 20);
    const char *v = pb_profile_prop(p, "iprof.extra.alpha", &n);
    CU_ASSERT(v && n == 10 && memcmp(v, "\"x\\u0000y\"", 10) == 0);
    CU_ASSERT_EQUAL_FATAL(it_write(p, NULL, &t, &n, NULL, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"samplingProfiles\":[],\"zeta\":{\"b\":[1,2],\"a\":null},\"alpha\":\"x\\u0000y\"}"));
    CU_ASSERT_EQUAL_FATAL(it_read(&q, t, n, "o.iprof", 0, 0, NULL, &err), 0);
    CU_ASSERT(pb_profile_equal(p, q, why, sizeof why));
    free(t);
    pb_profile_free(p);
    pb_profile_free(q);
}

static void iprof_read__unknown_members_in_entries_are_dropped_with_a_notice(void) {
    const char *doc = "{\"version\":\"1.1.0\",\"types\":[{\"id\":1,\"name\":\"T\",\"x\":1}],"
                      "\"methods\":[{\"id\":2,\"name\":\"m\",\"signature\":[1,1]}],"
                      "\"callCountProfiles\":[{\"ctx\":\"2:0\",\"records\":[4],\"extra\":[]},"
                      "{\"ctx\":\"2:0<2:1\",\"records\":[4],\"extra\":[]}]}";
    pb_profile *p = NULL;
    pb_error err;
    tu_diag d;
    memset(&d, 0, sizeof d);
    CU_ASSERT_EQUAL_FATAL(it_read(&p, doc, strlen(doc), "u.iprof", 0, 0, &d, &err), 0);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_NOTICE], 2); /* once per place, not per entry */
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "u.iprof: callCountProfiles[0]: unknown member \"extra\" dropped"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "u.iprof: types[0]: unknown member \"x\" dropped"));
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 2);
    CU_ASSERT_EQUAL(pb_profile_prop_count(p), 1);
    pb_profile_free(p);
}

/* An LLVM function becomes a native method (docs/mapping.md §7): expected
 * text worked out by hand from the convention: types sorted by name, counter
 * 0 as call count, counters 1.. as conditional triples (i, i, count). */
static void iprof_read__writer_maps_llvm_functions_to_native_methods(void) {
    pb_profile *p = NULL;
    pb_error err;
    pb_str name;
    uint64_t c[3] = {5, 3, 0};
    char *t = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern(p, "main", 4, &name, &err), 0);
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.name = name;
    r.ctx = PB_NONE;
    r.layout = PB_NONE;
    r.hash = 0x1234;
    r.num_counters = 3;
    r.counters = c;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, &err), 0);
    CU_ASSERT_EQUAL_FATAL(it_write(p, NULL, &t, &n, NULL, &err), 0);
    static const char want[] =
        "{\"version\":\"1.1.0\",\"types\":[{\"id\":0,\"name\":\"llvm:function\"},"
        "{\"id\":1,\"name\":\"llvm:hash:0x0000000000001234\"}],"
        "\"methods\":[{\"id\":0,\"name\":\"main\",\"signature\":[0,1]}],"
        "\"callCountProfiles\":[{\"ctx\":\"0:0\",\"records\":[5]}],"
        "\"conditionalProfiles\":[{\"ctx\":\"0:0\",\"records\":[1,1,3,2,2,0]}],"
        "\"virtualInvokeProfiles\":[],\"monitorProfiles\":[],\"samplingProfiles\":[],"
        "\"instanceOfProfiles\":[],\"llvm\":{\"profbridge\":\"model\",";
    CU_ASSERT_FATAL(n > sizeof want);
    CU_ASSERT_EQUAL(memcmp(t, want, sizeof want - 1), 0);
    CU_ASSERT_PTR_NULL(memchr(t, '\n', n)); /* compact, the extension key too */
    free(t);
    pb_profile_free(p);
}

static void iprof_read__writer_escapes_names_and_keeps_json_valid(void) {
    pb_profile *p = NULL, *q = NULL;
    pb_error err;
    uint32_t s1, s2, s3, m;
    char *t = NULL;
    size_t n = 0;
    tu_diag d;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "a\"b\\c\n\x01", 7, &s1, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "caf\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 12, &s2, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "bad\xff\xc3", 5, &s3, &err), 0);
    uint32_t sig[3] = {s1, s2, s3};
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_method(p, "n\0ul", 4, sig, 3, &m, &err), 0);
    memset(&d, 0, sizeof d);
    CU_ASSERT_EQUAL_FATAL(it_write(p, NULL, &t, &n, &d, &err), 0);
    CU_ASSERT_EQUAL(strncmp(t, "{\"version\":\"1.1.0\",", 19), 0); /* no iprof.version: 1.1.0 */
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"name\":\"a\\\"b\\\\c\\n\\u0001\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"name\":\"caf\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"name\":\"bad\\u00ff\\u00c3\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(t, "\"name\":\"n\\u0000ul\""));
    CU_ASSERT_EQUAL(d.count[PB_DIAG_NOTICE], 1);
    CU_ASSERT_EQUAL_FATAL(it_read(&q, t, n, "e.iprof", 0, 0, NULL, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_find_symbol(q, "a\"b\\c\n\x01", 7, &s1), 0);
    CU_ASSERT_EQUAL(pb_profile_find_symbol(q, "caf\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 12, &s1), 0);
    CU_ASSERT_EQUAL(pb_profile_find_symbol(q, "bad\xc3\xbf\xc3\x83", 7, &s1), 0); /* Latin-1 reading */
    CU_ASSERT_EQUAL(pb_profile_method_count(q), 1);
    free(t);
    pb_profile_free(p);
    pb_profile_free(q);
}

static void iprof_read__gzip_in_and_out(void) {
    pb_profile *p = read_fib(), *q = NULL;
    pb_error err;
    char why[256];
    const char *gz = PB_BINARY_DIR "/iprof_test_out.iprof.gz";
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_write_file(p, gz, NULL, NULL, &err), 0);
    size_t len = 0;
    char *raw = tu_slurp(gz, &len);
    CU_ASSERT_FATAL(raw && len > 2);
    CU_ASSERT((uint8_t)raw[0] == 0x1f && (uint8_t)raw[1] == 0x8b);
    free(raw);
    pb_read_options o = PB_READ_OPTIONS_INIT;
    CU_ASSERT_EQUAL_FATAL(pb_read_file(&q, gz, &o, &err), 0); /* detected by content */
    CU_ASSERT(pb_profile_equal(p, q, why, sizeof why));
    pb_profile_free(q);
    q = NULL;
    /* a gzip made by the gzip tool */
    const char *gz2 = PB_BINARY_DIR "/iprof_test_gzip_tool.iprof.gz";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "gzip -c '%s' > '%s'", tu_src("tests/fuzz/iprof/fib-doc.iprof"), gz2);
    if (system(cmd) == 0) {
        CU_ASSERT_EQUAL(pb_read_file(&q, gz2, &o, &err), 0);
        CU_ASSERT(q && pb_profile_equal(p, q, why, sizeof why));
        pb_profile_free(q);
        remove(gz2);
    } else {
        fprintf(stderr, "\n  SKIP part: no gzip tool\n");
    }
    remove(gz);
    pb_profile_free(p);
}

static void iprof_read__every_truncation_of_fib_doc_is_an_error(void) {
    size_t len = 0;
    char *t = fib_text(&len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    size_t bad = 0;
    for (size_t k = 0; k < len; k++) {
        pb_profile *p = NULL;
        pb_error err;
        for (int lenient = 0; lenient < 2; lenient++) {
            int rc = it_read(&p, t, k, "cut.iprof", lenient, 0, NULL, &err);
            if (rc != PB_ETRUNC && rc != PB_EFORMAT) bad++;
            if (rc != PB_ETRUNC && rc != PB_EFORMAT) fprintf(stderr, "\n  cut at %zu: rc %d\n", k, rc);
            pb_profile_free(p);
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(t);
}

static void iprof_read__accepts_a_byte_order_mark_and_whitespace(void) {
    const char *doc = "\xEF\xBB\xBF \n{ \"version\" : \"1.0.0\" ,\r\n\t\"types\" : [ ] , \"methods\" : [ ] }\n";
    pb_profile *p = NULL;
    pb_error err;
    CU_ASSERT_EQUAL(it_read_str(&p, doc, 0, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(p);
    pb_profile_free(p);
}

/* The fuzz target's invariants over the seed corpus (tests/fuzz/iprof/):
 * whatever reads also writes, and our output reads back to an equal model. */
static void iprof_read__fuzz_seed_corpus_keeps_the_fuzz_invariants(void) {
    DIR *d = opendir(tu_src("tests/fuzz/iprof"));
    struct dirent *de;
    size_t files = 0, accepted = 0;
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    while ((de = readdir(d))) {
        char rel[512];
        if (de->d_name[0] == '.') continue;
        snprintf(rel, sizeof rel, "tests/fuzz/iprof/%s", de->d_name);
        size_t len = 0;
        char *t = tu_slurp(tu_src(rel), &len);
        if (!t) continue;
        files++;
        for (int lenient = 0; lenient < 2; lenient++) {
            pb_profile *p = NULL, *q = NULL;
            pb_error err;
            char *out = NULL;
            size_t n = 0;
            char why[256] = "";
            if (it_read(&p, t, len, de->d_name, lenient, 0, NULL, &err)) continue;
            accepted++;
            CU_ASSERT_EQUAL(it_write(p, NULL, &out, &n, NULL, &err), 0);
            CU_ASSERT_EQUAL(out ? it_read(&q, out, n, "o.iprof", lenient, 0, NULL, &err) : -1, 0);
            size_t vl;
            const char *v = pb_profile_prop(p, "iprof.version", &vl);
            if (q && !(v && strcmp(v, "0.2.0") == 0)) {
                int eq = pb_profile_equal(p, q, why, sizeof why);
                if (!eq) fprintf(stderr, "\n  %s: %s\n", de->d_name, why);
                CU_ASSERT(eq);
            }
            free(out);
            pb_profile_free(p);
            pb_profile_free(q);
        }
        free(t);
    }
    closedir(d);
    CU_ASSERT(files >= 7);
    CU_ASSERT(accepted >= 10);
}

/* The iprof tree reader alone (iprof_read.c), which the fast path hands every
 * input it does not read itself: the jansson tests below are about it. */
static int read_tree(pb_profile **out, const void *data, size_t len, const char *name, pb_error *err) {
    pb_source *src = NULL;
    pb_read_options o = PB_READ_OPTIONS_INIT;
    pb_error_clear(err);
    *out = NULL;
    int rc = pb_source_open_memory(&src, data, len, name, err);
    if (rc) return rc;
    rc = pbi_iprof_read_tree(out, src, &o, err);
    pb_source_free(src);
    return rc;
}

/* jansson with no memory at all: the read fails with PB_ENOMEM, not as a
 * syntax error (jansson returns NULL without a message when its first
 * allocation fails). Both JSON readers: iprof (its tree reader) and json. */
static void *no_memory(size_t n) {
    (void)n;
    errno = ENOMEM; /* as malloc fails: the readers watch errno (util/oom_watch.h) */
    return NULL;
}

static void iprof_read__jansson_out_of_memory_is_enomem(void) {
    size_t len = 0;
    char *t = fib_text(&len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    json_malloc_t m0;
    json_free_t f0;
    json_get_alloc_funcs(&m0, &f0);
    json_set_alloc_funcs(no_memory, f0);
    pb_profile *p = NULL;
    pb_error err;
    int rc = read_tree(&p, t, len, "fib.iprof", &err);
    pb_source *src = NULL;
    pb_error e2;
    pb_error_clear(&e2);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "json";
    int rc2 = pb_source_open_memory(&src, "{\"a\": 1}", 8, "x.json", &e2);
    pb_profile *q = NULL;
    if (rc2 == 0) rc2 = pb_read(&q, src, &ro, &e2);
    json_set_alloc_funcs(m0, f0);
    CU_ASSERT_EQUAL(rc, PB_ENOMEM);
    CU_ASSERT_EQUAL(rc2, PB_ENOMEM);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_PTR_NULL(q);
    pb_source_free(src);
    free(t);
}

/* An allocator wrapper that counts its failures, as the allocation sweep's
 * interposer does: the readers ask pb_alloc_failures (util/oom_watch.h). */
static unsigned long failures, calls, fail_at;
static json_malloc_t real_malloc;
unsigned long pb_alloc_failures(void);
unsigned long pb_alloc_failures(void) { return failures; }
static void *fail_nth(size_t n) {
    if (++calls == fail_at) {
        failures++;
        errno = ENOMEM;
        return NULL;
    }
    return real_malloc(n);
}

/* Each of jansson's allocations failing in turn (the tree reader): the read fails with
 * PB_ENOMEM or gives the very model of a read without failures, never a
 * syntax error nor another model (jansson drops a byte of a string when an
 * allocation in its lexer fails, and sets errno to 0 before each number, so
 * errno alone lost the failure: the sweep's 'types' case). */
static void iprof_read__every_jansson_allocation_failing_is_enomem_or_the_same(void) {
    size_t len = 0;
    char *t = fib_text(&len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    pb_profile *want = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(it_read(&want, t, len, "fib.iprof", 0, 0, NULL, &err), 0);
    json_free_t f0;
    json_get_alloc_funcs(&real_malloc, &f0);
    int enomem = 0, same = 0;
    for (fail_at = 1; fail_at < 4000; fail_at++) {
        calls = 0;
        json_set_alloc_funcs(fail_nth, f0);
        pb_profile *p = NULL;
        int rc = read_tree(&p, t, len, "fib.iprof", &err);
        json_set_alloc_funcs(real_malloc, f0);
        if (rc == 0) {
            char why[256];
            int eq = pb_profile_equal(p, want, why, sizeof why);
            if (!eq) fprintf(stderr, "\n  allocation %lu failing: another model (%s)\n", fail_at, why);
            CU_ASSERT_TRUE(eq);
            same++;
        } else {
            if (rc != PB_ENOMEM) fprintf(stderr, "\n  allocation %lu failing: %d, %s\n", fail_at, rc, err.message);
            CU_ASSERT_EQUAL(rc, PB_ENOMEM);
            enomem++;
        }
        pb_profile_free(p);
        if (calls < fail_at) break; /* past jansson's last allocation */
    }
    CU_ASSERT(enomem > 10);
    CU_ASSERT(same > 0); /* some failures jansson survives */
    pb_profile_free(want);
    free(t);
}

static CU_TestInfo read_tests[] = {
    {"iprof_read__jansson_out_of_memory_is_enomem", iprof_read__jansson_out_of_memory_is_enomem},
    {"iprof_read__every_jansson_allocation_failing_is_enomem_or_the_same",
     iprof_read__every_jansson_allocation_failing_is_enomem_or_the_same},
    {"iprof_read__fib_doc_gives_the_hand_counted_model", iprof_read__fib_doc_gives_the_hand_counted_model},
    {"iprof_read__fib_doc_round_trips_and_writes_graalvm_style", iprof_read__fib_doc_round_trips_and_writes_graalvm_style},
    {"iprof_read__writer_follows_the_version_option", iprof_read__writer_follows_the_version_option},
    {"iprof_read__legacy_0_2_0_is_converted_and_written_as_1_0_0", iprof_read__legacy_0_2_0_is_converted_and_written_as_1_0_0},
    {"iprof_read__extra_members_are_kept_and_written_after_the_sections",
     iprof_read__extra_members_are_kept_and_written_after_the_sections},
    {"iprof_read__unknown_members_in_entries_are_dropped_with_a_notice",
     iprof_read__unknown_members_in_entries_are_dropped_with_a_notice},
    {"iprof_read__writer_maps_llvm_functions_to_native_methods", iprof_read__writer_maps_llvm_functions_to_native_methods},
    {"iprof_read__writer_escapes_names_and_keeps_json_valid", iprof_read__writer_escapes_names_and_keeps_json_valid},
    {"iprof_read__gzip_in_and_out", iprof_read__gzip_in_and_out},
    {"iprof_read__every_truncation_of_fib_doc_is_an_error", iprof_read__every_truncation_of_fib_doc_is_an_error},
    {"iprof_read__accepts_a_byte_order_mark_and_whitespace", iprof_read__accepts_a_byte_order_mark_and_whitespace},
    {"iprof_read__fuzz_seed_corpus_keeps_the_fuzz_invariants", iprof_read__fuzz_seed_corpus_keeps_the_fuzz_invariants},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_iprof_read[] = {{"iprof_read", NULL, NULL, NULL, NULL, read_tests},
                                            CU_SUITE_INFO_NULL};
