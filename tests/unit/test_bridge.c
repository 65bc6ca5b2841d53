/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_bridge.c -- the iprof <-> LLVM bridge (src/bridge*.c, docs/mapping.md
 * §6-§9) at the edges the interop tests do not reach: meta-record chunking
 * of a long type list, counts above 2^63-1 in native functions, and an
 * edited native call count. Oracles are the inputs the tests build (names,
 * counts) and hand-worked values, never an earlier output of ours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Writes p with plugin `name` (and options) and reads it back. */
static pb_profile *through(const pb_profile *p, const char *name, const pb_kv *kv, size_t nkv) {
    pb_error err;
    pb_error_clear(&err);
    pb_sink *s = NULL;
    pb_source *src = NULL;
    pb_profile *q = NULL;
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    wo.kv = kv;
    wo.nkv = nkv;
    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&s, &err), 0);
    int rc = pb_write(p, s, pb_format_lookup(name), &wo, &err);
    if (rc) fprintf(stderr, "\n  write %s: %s\n", name, err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL_FATAL(pb_sink_commit(s, &err), 0);
    size_t len;
    const uint8_t *d = pb_sink_memory(s, &len);
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, d, len, "mem", &err), 0);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    rc = pb_read(&q, src, &ro, &err);
    if (rc) fprintf(stderr, "\n  read %s: %s\n", name, err.message);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    pb_source_free(src);
    pb_sink_free(s);
    return q;
}

static void add_call_count(pb_profile *p, uint32_t m, uint64_t count) {
    pb_error err;
    pb_frame fr = {m, 0};
    uint32_t ctx;
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern_context(p, &fr, 1, &ctx, &err), 0);
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_JAVA_CALL_COUNT;
    r.name = PB_NONE;
    r.ctx = ctx;
    r.layout = PB_NONE;
    r.num_counters = 1;
    r.counters = &count;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, &err), 0);
}

/* 4000 types of 40+ bytes (> 160 KB of names) and 3000 unreferenced
 * methods: several chunks, each name below 64 KiB, all back in iprof. */
static void bridge__meta_records_chunk_long_lists_and_bring_them_back(void) {
    pb_profile *p = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    char name[96];
    uint32_t sym[4000], m;
    for (int i = 0; i < 4000; i++) {
        int n = snprintf(name, sizeof name, "com.example.generated.package%04d.Type%04d", i % 97, i);
        CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, name, (size_t)n, &sym[i], &err), 0);
    }
    for (int i = 0; i < 3000; i++) {
        uint32_t sig[3] = {sym[i], sym[(i + 1) % 4000], sym[(i + 7) % 4000]};
        int n = snprintf(name, sizeof name, "method%d", i);
        CU_ASSERT_EQUAL_FATAL(pb_profile_add_method(p, name, (size_t)n, sig, 3, &m, &err), 0);
    }
    add_call_count(p, 0, 9); /* method 0 is referenced: 2999 are not */
    pb_profile *q = through(p, "indexed", NULL, 0);
    size_t types = 0, methods = 0;
    for (size_t i = 0; i < pb_profile_record_count(q); i++) {
        const pb_record *r = pb_profile_record(q, i);
        size_t len;
        const char *n = pb_profile_str(q, r->name, &len);
        CU_ASSERT(len < 65536);
        if (strncmp(n, "jmeta:types:", 12) == 0) types++;
        if (strncmp(n, "jmeta:methods:", 14) == 0) methods++;
    }
    CU_ASSERT(types >= 3); /* > 160 KB in chunks below 60 000 bytes */
    CU_ASSERT(methods >= 2);
    pb_profile *back = through(q, "iprof", NULL, 0);
    CU_ASSERT_EQUAL(pb_profile_symbol_count(back), 4000);
    CU_ASSERT_EQUAL(pb_profile_method_count(back), 3000);
    for (int i = 0; i < 4000; i += 397) {
        int n = snprintf(name, sizeof name, "com.example.generated.package%04d.Type%04d", i % 97, i);
        uint32_t s;
        CU_ASSERT_EQUAL(pb_profile_find_symbol(back, name, (size_t)n, &s), 0);
    }
    pb_profile_free(back);
    pb_profile_free(q);
    pb_profile_free(p);
}

static pb_profile *native_profile(uint64_t c0, uint64_t c1) {
    pb_profile *p = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    pb_profile_set_flags(p, PB_VARIANT_IR);
    uint64_t c[2] = {c0, c1};
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.ctx = PB_NONE;
    r.layout = PB_NONE;
    r.hash = UINT64_C(0x0123456789abcdef);
    r.num_counters = 2;
    r.counters = c;
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern(p, "native_fn", 9, &r.name, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, &err), 0);
    return p;
}

/* iprof holds 2^63-1 at most; the "llvm" key keeps the true count. */
static void bridge__native_counts_above_int64_survive_iprof(void) {
    const uint64_t big = UINT64_MAX - 2; /* LLVM's largest count */
    pb_profile *p = native_profile(big, 7);
    pb_profile *ip = through(p, "iprof", NULL, 0);
    /* iprof view: call count clamped to 2^63-1, conditional (1, 1, 7) */
    size_t n_cc = 0;
    for (size_t i = 0; i < pb_profile_record_count(ip); i++) {
        const pb_record *r = pb_profile_record(ip, i);
        if (r->kind == PB_REC_JAVA_CALL_COUNT) {
            n_cc++;
            CU_ASSERT_EQUAL(r->counters[0], (uint64_t)INT64_MAX);
        }
        if (r->kind == PB_REC_JAVA_BRANCH) {
            CU_ASSERT_EQUAL_FATAL(r->num_counters, 2);
            CU_ASSERT_EQUAL(r->counters[1], 7);
        }
    }
    CU_ASSERT_EQUAL(n_cc, 1);
    pb_profile *back = through(ip, "indexed", NULL, 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_record_count(back), 1);
    const pb_record *r = pb_profile_record(back, 0);
    CU_ASSERT_EQUAL(r->hash, UINT64_C(0x0123456789abcdef));
    CU_ASSERT_EQUAL_FATAL(r->num_counters, 2);
    CU_ASSERT_EQUAL(r->counters[0], big);
    CU_ASSERT_EQUAL(r->counters[1], 7);
    pb_profile_free(back);
    pb_profile_free(ip);
    pb_profile_free(p);
}

/* The iprof entries are the data: a changed call count goes back to LLVM. */
static void bridge__edited_native_entries_win_over_the_key(void) {
    pb_profile *p = native_profile(10, 4);
    pb_profile *ip = through(p, "iprof", NULL, 0);
    for (size_t i = 0; i < pb_profile_record_count(ip); i++) {
        pb_record *r = pb_profile_record_mut(ip, i);
        if (r->kind == PB_REC_JAVA_CALL_COUNT) r->counters[0] = 25;
        if (r->kind == PB_REC_JAVA_BRANCH) r->counters[1] = 6;
    }
    pb_profile *back = through(ip, "text", NULL, 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_record_count(back), 1);
    const pb_record *r = pb_profile_record(back, 0);
    CU_ASSERT_EQUAL_FATAL(r->num_counters, 2);
    CU_ASSERT_EQUAL(r->counters[0], 25);
    CU_ASSERT_EQUAL(r->counters[1], 6);
    pb_profile_free(back);
    pb_profile_free(ip);
    pb_profile_free(p);
}

/* A named vtable site of a native function is a virtualInvokeProfiles
 * entry "m:j" (type = vtable name); its edited count goes back by value. */
static void bridge__native_vtable_sites_are_virtual_invoke_entries(void) {
    pb_profile *p = native_profile(3, 1);
    pb_error err;
    uint32_t sa, sb;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "_ZTV1A", 6, &sa, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "_ZTV1B", 6, &sb, &err), 0);
    /* a second record, same name, another hash: two methods in iprof */
    uint64_t c = 2;
    pb_value vals[2] = {{pb_md5_ref("_ZTV1B", 6), 5, sb}, {pb_md5_ref("_ZTV1A", 6), 9, sa}};
    pb_site sites[2] = {{0, NULL}, {2, vals}};
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.ctx = PB_NONE;
    r.layout = PB_NONE;
    r.hash = 0x77;
    r.num_counters = 1;
    r.counters = &c;
    r.num_sites[PB_VK_VTABLE] = 2;
    r.sites[PB_VK_VTABLE] = sites;
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern(p, "native_fn", 9, &r.name, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, &err), 0);
    pb_profile *ip = through(p, "iprof", NULL, 0);
    CU_ASSERT_EQUAL(pb_profile_method_count(ip), 2);
    size_t nvi = 0;
    for (size_t i = 0; i < pb_profile_record_count(ip); i++) {
        pb_record *e = pb_profile_record_mut(ip, i);
        if (e->kind != PB_REC_JAVA_VIRTUAL_INVOKE) continue;
        nvi++;
        size_t nf;
        const pb_frame *f = pb_profile_context(ip, e->ctx, &nf);
        CU_ASSERT_EQUAL(nf, 1);
        /* the empty site 0 has an entry with no pairs, site 1 the two types */
        CU_ASSERT_EQUAL(e->sites[PB_VK_VTABLE][0].num_values, f[0].bci == 0 ? 0 : 2);
        if (f[0].bci != 1) continue;
        CU_ASSERT_EQUAL_FATAL(e->sites[PB_VK_VTABLE][0].num_values, 2);
        for (uint32_t x = 0; x < 2; x++) {
            pb_value *v = &e->sites[PB_VK_VTABLE][0].values[x];
            size_t len;
            const char *n = pb_profile_str(ip, pb_profile_symbol(ip, v->symbol)->name, &len);
            CU_ASSERT(len == 6 && (memcmp(n, "_ZTV1A", 6) == 0 || memcmp(n, "_ZTV1B", 6) == 0));
            if (memcmp(n, "_ZTV1B", 6) == 0) v->count = 50;
        }
    }
    CU_ASSERT_EQUAL(nvi, 2);
    pb_profile *back = through(ip, "indexed", NULL, 0);
    size_t idx[2];
    CU_ASSERT_EQUAL_FATAL(pb_profile_lookup(back, "native_fn", 9, idx, 2), 2);
    const pb_record *b = pb_profile_record(back, idx[0]);
    if (b->hash != 0x77) b = pb_profile_record(back, idx[1]);
    CU_ASSERT_EQUAL_FATAL(b->hash, 0x77);
    CU_ASSERT_EQUAL_FATAL(b->num_sites[PB_VK_VTABLE], 2);
    /* the indexed writer sorts a site by count: B (50) before A (9) */
    const pb_site *s1 = &b->sites[PB_VK_VTABLE][1];
    CU_ASSERT_EQUAL_FATAL(s1->num_values, 2);
    CU_ASSERT_EQUAL(s1->values[0].value, pb_md5_ref("_ZTV1B", 6));
    CU_ASSERT_EQUAL(s1->values[0].count, 50);
    CU_ASSERT_EQUAL(s1->values[1].count, 9);
    pb_profile_free(back);
    pb_profile_free(ip);
    pb_profile_free(p);
}


/* An LLVM profile with Java records (through indexed, with their meta
 * records) and one native function: both halves of the iprof bridge. */
static pb_profile *mixed_llvm_profile(void) {
    pb_profile *p = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    uint32_t sym, m;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "com.example.A", 13, &sym, &err), 0);
    uint32_t sig[2] = {sym, sym};
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_method(p, "run", 3, sig, 2, &m, &err), 0);
    add_call_count(p, m, 42);
    pb_profile *q = through(p, "indexed", NULL, 0);
    pb_profile_free(p);
    pb_profile *n = native_profile(10, 4);
    const pb_record *r = pb_profile_record(n, 0);
    pb_record t = *r;
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern(q, "native_fn", 9, &t.name, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(q, &t, NULL, &err), 0);
    pb_profile_free(n);
    return q;
}

/* pb_write_file_take writes what pb_write_file writes (iprof: the model
 * freed before the view is put in order; indexed: after the write) and
 * frees the profile on every path, failures included (ASan: no leak). */
static void bridge__write_file_take_writes_the_same_bytes(void) {
    char dir[] = "/tmp/pb-take-XXXXXX", a[64], b[64];
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    const char *fmts[] = {"iprof", "indexed"};
    pb_error err;
    for (int k = 0; k < 2; k++) {
        snprintf(a, sizeof a, "%s/a.%d", dir, k);
        snprintf(b, sizeof b, "%s/b.%d", dir, k);
        const pb_format *f = pb_format_lookup(fmts[k]);
        pb_profile *p = mixed_llvm_profile();
        CU_ASSERT_EQUAL_FATAL(pb_write_file(p, a, f, NULL, &err), 0);
        pb_profile_free(p);
        CU_ASSERT_EQUAL_FATAL(pb_write_file_take(mixed_llvm_profile(), b, f, NULL, &err), 0);
        size_t la = 0, lb = 0;
        char *da = tu_slurp(a, &la), *db = tu_slurp(b, &lb);
        CU_ASSERT_PTR_NOT_NULL_FATAL(da);
        CU_ASSERT_PTR_NOT_NULL_FATAL(db);
        CU_ASSERT(la > 0 && la == lb && memcmp(da, db, la) == 0);
        /* the iprof file has both halves: the Java method and the native one */
        if (k == 0) CU_ASSERT(strstr(da, "\"run\"") && strstr(da, "\"llvm:function\""));
        free(da);
        free(db);
        remove(a);
        remove(b);
    }
    snprintf(a, sizeof a, "%s/missing/x.iprof", dir);
    CU_ASSERT_NOT_EQUAL(pb_write_file_take(mixed_llvm_profile(), a, pb_format_lookup("iprof"), NULL, &err), 0);
    CU_ASSERT_EQUAL(pb_write_file_take(mixed_llvm_profile(), "x.unknown-ext", NULL, NULL, &err), PB_EINVAL);
    CU_ASSERT_EQUAL(pb_write_file_take(NULL, b, NULL, NULL, &err), PB_EINVAL);
    remove(dir);
}

static CU_TestInfo tests[] = {
    {"bridge__write_file_take_writes_the_same_bytes", bridge__write_file_take_writes_the_same_bytes},
    {"bridge__native_vtable_sites_are_virtual_invoke_entries",
     bridge__native_vtable_sites_are_virtual_invoke_entries},
    {"bridge__meta_records_chunk_long_lists_and_bring_them_back",
     bridge__meta_records_chunk_long_lists_and_bring_them_back},
    {"bridge__native_counts_above_int64_survive_iprof", bridge__native_counts_above_int64_survive_iprof},
    {"bridge__edited_native_entries_win_over_the_key", bridge__edited_native_entries_win_over_the_key},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_bridge[] = {{"bridge", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
