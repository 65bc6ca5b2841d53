/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_raw_read.c -- the raw reader: real files from ../shared/testdata,
 * hand-made malformed files built from the layout table, truncation sweeps.
 *
 * Oracles: the llvm-profdata outputs stored beside the real files (compared
 * in test_show_llvm.c), the README's stated contents of the synthetic files,
 * and values computed by hand from spec §2 for the built files.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "util/bytes.h"
#include "testutil.h"
#include "../../formats/raw/raw_layout.h"

/* ---- a small raw file builder that uses only the layout table --------------- */

typedef struct tfn {
    const char *name;
    uint64_t hash;
    uint32_t nc;
    uint64_t c[4];
} tfn;

typedef struct tfile {
    uint8_t d[4096];
    size_t len;
    pbi_raw_layout l;
    pbi_raw_header h;
    int order;
    size_t data_off, cnt_off, names_off, end_of_names;
} tfile;

static const tfn two_fns[] = {{"foo", 0x11, 2, {19, 7}}, {"bar", 0x22, 3, {55, 65, 3}}};

/* Builds a profile: header, data, 8-byte counters, one names chunk (plain or
 * zlib), padding; no binary ids, bitmap, vtables or value data. v5/v7 get
 * absolute CounterPtr values, v8+ relative ones. */
static void build(tfile *t, unsigned v, unsigned ptr, int order, const tfn *f, size_t n, int zlib) {
    memset(t, 0, sizeof *t);
    t->order = order;
    CU_ASSERT_EQUAL_FATAL(pbi_raw_layout_get(&t->l, v, ptr), 0);
    uint64_t *h = t->h.f;
    h[PBI_RH_Magic] = ptr == 8 ? PBI_RAW_MAGIC64 : PBI_RAW_MAGIC32;
    h[PBI_RH_Version] = v;
    h[PBI_RH_NumData] = n;
    t->data_off = t->l.header_size;
    t->cnt_off = t->data_off + n * t->l.record_size;
    const uint64_t data_begin = 0x10000, cnt_begin = data_begin + n * t->l.record_size;
    int absolute = v < 8;
    h[PBI_RH_CountersDelta] = absolute ? cnt_begin : cnt_begin - data_begin;
    if (ptr == 4) h[PBI_RH_CountersDelta] &= 0xffffffffu;
    uint64_t coff = 0;
    char text[256] = "";
    for (size_t i = 0; i < n; i++) {
        uint8_t *r = t->d + t->data_off + i * t->l.record_size;
        pbi_raw_rec_put(&t->l, r, PBI_RD_NameRef, 0, pb_md5_ref(f[i].name, strlen(f[i].name)), order);
        pbi_raw_rec_put(&t->l, r, PBI_RD_FuncHash, 0, f[i].hash, order);
        uint64_t cp = absolute ? cnt_begin + coff : (cnt_begin + coff) - (data_begin + i * t->l.record_size);
        pbi_raw_rec_put(&t->l, r, PBI_RD_CounterPtr, 0, cp, order);
        pbi_raw_rec_put(&t->l, r, PBI_RD_NumCounters, 0, f[i].nc, order);
        for (uint32_t k = 0; k < f[i].nc; k++) pb_put_u64(t->d + t->cnt_off + coff + 8 * k, f[i].c[k], order);
        coff += 8u * f[i].nc;
        if (i) strcat(text, "\x01");
        strcat(text, f[i].name);
    }
    h[PBI_RH_NumCounters] = coff / 8;
    t->names_off = t->cnt_off + coff;
    uint8_t *p = t->d + t->names_off;
    size_t tl = strlen(text);
    if (zlib) {
        uLongf cl = 1024;
        CU_ASSERT_EQUAL_FATAL(compress2(p + 2, &cl, (const Bytef *)text, tl, 9), Z_OK);
        p[0] = (uint8_t)tl;
        p[1] = (uint8_t)cl;
        h[PBI_RH_NamesSize] = 2 + cl;
    } else {
        p[0] = (uint8_t)tl;
        p[1] = 0;
        memcpy(p + 2, text, tl);
        h[PBI_RH_NamesSize] = 2 + tl;
    }
    t->end_of_names = t->names_off + h[PBI_RH_NamesSize];
    t->len = t->end_of_names + pb_pad8(h[PBI_RH_NamesSize]);
    pbi_raw_header_encode(&t->l, &t->h, order, t->d);
}

static void reencode(tfile *t) { pbi_raw_header_encode(&t->l, &t->h, t->order, t->d); }
static uint8_t *rec(tfile *t, size_t i) { return t->d + t->data_off + i * t->l.record_size; }

/* Reads bytes; returns the code and writes the one-line error into msg. */
static int read_mem(const uint8_t *d, size_t len, pb_profile **out, char *msg, size_t cap) {
    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "raw";
    *out = NULL;
    msg[0] = '\0';
    int rc = pb_source_open_memory(&src, d, len, "t.profraw", &err);
    if (rc == 0) rc = pb_read(out, src, &ro, &err);
    if (rc) pb_error_format(&err, msg, cap);
    pb_source_free(src);
    return rc;
}

/* read_mem with the plugin option key=value. */
/* Reads d as raw with plugin option key = value (key NULL: none) as LLVM
 * release `release` reads (0: the default). */
static int read_mem_as(const uint8_t *d, size_t len, const char *key, const char *value, int release,
                       pb_profile **out, char *msg, size_t cap) {
    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_kv kv = {key, value};
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "raw";
    ro.kv = key ? &kv : NULL;
    ro.nkv = key ? 1 : 0;
    ro.llvm_release = release;
    *out = NULL;
    msg[0] = '\0';
    int rc = pb_source_open_memory(&src, d, len, "t.profraw", &err);
    if (rc == 0) rc = pb_read(out, src, &ro, &err);
    if (rc) pb_error_format(&err, msg, cap);
    pb_source_free(src);
    return rc;
}

static int read_mem_opt(const uint8_t *d, size_t len, const char *key, const char *value, pb_profile **out,
                        char *msg, size_t cap) {
    return read_mem_as(d, len, key, value, 0, out, msg, cap);
}

static int read_mem_release(const uint8_t *d, size_t len, int release, pb_profile **out, char *msg, size_t cap) {
    return read_mem_as(d, len, NULL, NULL, release, out, msg, cap);
}

/* read_mem with the plugin option raw-profile=k. */
static int read_mem_part(const uint8_t *d, size_t len, const char *k, pb_profile **out, char *msg, size_t cap) {
    return read_mem_opt(d, len, "raw-profile", k, out, msg, cap);
}

static const pb_record *find_rec(const pb_profile *p, const char *name) {
    size_t idx;
    if (pb_profile_lookup(p, name, strlen(name), &idx, 1) != 1) return NULL;
    return pb_profile_record(p, idx);
}

static void expect_counts(const pb_profile *p, const char *name, uint64_t hash, uint32_t n, const uint64_t *c) {
    const pb_record *r = find_rec(p, name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->hash, hash);
    CU_ASSERT_EQUAL_FATAL(r->num_counters, n);
    for (uint32_t k = 0; k < n; k++) CU_ASSERT_EQUAL(r->counters[k], c[k]);
}

static void expect_two_fns(const pb_profile *p) {
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 2);
    expect_counts(p, "foo", 0x11, 2, two_fns[0].c);
    expect_counts(p, "bar", 0x22, 3, two_fns[1].c);
}

/* ---- built files that must read ------------------------------------------------ */

static void raw_read__reads_built_files_of_every_version_width_and_byte_order(void) {
    static const unsigned versions[] = {5, 7, 8, 9, 10, 11};
    for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++)
        for (unsigned ptr = 4; ptr <= 8; ptr += 4)
            for (int order = PB_ORDER_LE; order <= PB_ORDER_BE; order++)
                for (int z = 0; z < 2; z++) {
                    tfile t;
                    pb_profile *p;
                    char msg[1024];
                    build(&t, versions[v], ptr, order, two_fns, 2, z);
                    int rc = read_mem(t.d, t.len, &p, msg, sizeof msg);
                    if (rc) fprintf(stderr, "\nv%u ptr %u order %d zlib %d: %s\n", versions[v], ptr, order, z, msg);
                    CU_ASSERT_EQUAL_FATAL(rc, 0);
                    expect_two_fns(p);
                    const pb_origin *o = pb_profile_origin(p);
                    CU_ASSERT_STRING_EQUAL(o->format, "raw");
                    CU_ASSERT_EQUAL(o->version, versions[v]);
                    CU_ASSERT_EQUAL(o->pointer_width, ptr);
                    CU_ASSERT_EQUAL(o->byte_order, order);
                    pb_profile_free(p);
                }
}

static void raw_read__reads_v7_with_relative_counter_pointers_too(void) {
    /* late-2021 development builds wrote v7 with v8's relative encoding (§2.7) */
    tfile t;
    pb_profile *p;
    char msg[1024];
    build(&t, 8, 8, PB_ORDER_LE, two_fns, 2, 0);
    t.h.f[PBI_RH_Version] = 7;
    /* relative delta is positive here (data before counters), so the absolute
     * rule is tried first and must fail: record 1 would start at 8 bytes + 64 */
    reencode(&t);
    CU_ASSERT_EQUAL_FATAL(read_mem(t.d, t.len, &p, msg, sizeof msg), 0);
    expect_two_fns(p);
    pb_profile_free(p);
}

static void raw_read__reads_two_concatenated_profiles_into_one_model(void) {
    static const tfn other[] = {{"baz", 0x33, 1, {5}}};
    tfile a, b;
    pb_profile *p;
    char msg[1024];
    build(&a, 10, 8, PB_ORDER_LE, two_fns, 2, 1);
    build(&b, 10, 8, PB_ORDER_LE, other, 1, 0);
    uint8_t cat[8192];
    memcpy(cat, a.d, a.len);
    memcpy(cat + a.len, b.d, b.len);
    CU_ASSERT_EQUAL_FATAL(read_mem(cat, a.len + b.len, &p, msg, sizeof msg), 0);
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 3);
    expect_counts(p, "baz", 0x33, 1, other[0].c);
    pb_profile_free(p);
}

static void raw_read__reads_one_profile_of_several_with_raw_profile(void) {
    /* the same function in both profiles: merged without the option, apart with it */
    static const tfn second[] = {{"foo", 0x11, 2, {100, 200}}, {"baz", 0x33, 1, {5}}};
    tfile a, b;
    pb_profile *p;
    char msg[1024];
    build(&a, 10, 8, PB_ORDER_LE, two_fns, 2, 1);
    build(&b, 10, 8, PB_ORDER_LE, second, 2, 1);
    uint8_t cat[8192];
    memcpy(cat, a.d, a.len);
    memcpy(cat + a.len, b.d, b.len);
    CU_ASSERT_EQUAL_FATAL(read_mem_part(cat, a.len + b.len, "0", &p, msg, sizeof msg), 0);
    expect_two_fns(p);
    pb_profile_free(p);
    CU_ASSERT_EQUAL_FATAL(read_mem_part(cat, a.len + b.len, "1", &p, msg, sizeof msg), 0);
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 2);
    expect_counts(p, "foo", 0x11, 2, second[0].c);
    expect_counts(p, "baz", 0x33, 1, second[1].c);
    pb_profile_free(p);
    CU_ASSERT_EQUAL(read_mem_part(cat, a.len + b.len, "2", &p, msg, sizeof msg), PB_ENOTFOUND);
    CU_ASSERT_STRING_EQUAL(msg, "t.profraw: raw-profile: there is no profile 2: the file holds 2");
    CU_ASSERT_EQUAL(read_mem_part(a.d, a.len, "1", &p, msg, sizeof msg), PB_ENOTFOUND);
    CU_ASSERT_EQUAL(read_mem_part(a.d, a.len, "x", &p, msg, sizeof msg), PB_EINVAL);
}

static void raw_read__turns_byte_coverage_zero_into_count_one(void) {
    tfile t;
    pb_profile *p;
    char msg[1024];
    static const tfn one[] = {{"foo", 1, 1, {0}}};
    build(&t, 10, 8, PB_ORDER_LE, one, 1, 0);
    t.h.f[PBI_RH_Version] = 10 | PB_VARIANT_BYTE_COVERAGE;
    /* 8 counter bytes now hold 8 one-byte counters: 0 means covered */
    t.h.f[PBI_RH_NumCounters] = 8;
    pbi_raw_rec_put(&t.l, rec(&t, 0), PBI_RD_NumCounters, 0, 3, t.order);
    t.d[t.cnt_off + 1] = 0xff;
    reencode(&t);
    CU_ASSERT_EQUAL_FATAL(read_mem(t.d, t.len, &p, msg, sizeof msg), 0);
    static const uint64_t want[] = {1, 0, 1};
    expect_counts(p, "foo", 1, 3, want);
    CU_ASSERT((pb_profile_flags(p) & PB_VARIANT_BYTE_COVERAGE) != 0);
    pb_profile_free(p);
}

/* ---- malformed files: exact messages --------------------------------------------- */

static void expect_error(tfile *t, size_t len, int code, const char *want) {
    pb_profile *p;
    char msg[1024];
    int rc = read_mem(t->d, len, &p, msg, sizeof msg);
    CU_ASSERT_EQUAL(rc, code);
    CU_ASSERT_PTR_NULL(p);
    if (strcmp(msg, want) != 0) fprintf(stderr, "\n  want: %s\n  got:  %s\n", want, msg);
    CU_ASSERT_STRING_EQUAL(msg, want);
    pb_profile_free(p);
}

static void raw_read__rejects_a_bad_magic(void) {
    tfile t;
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    t.d[0] = 0x80;
    expect_error(&t, t.len, PB_EFORMAT,
                 "t.profraw: byte 0x0 (header.Magic): expected a raw profile magic (lprofr/lprofR, "
                 "either byte order), found 8 bytes that are none");
}

static void raw_read__refuses_memprof_raw_profiles(void) {
    tfile t;
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    pb_put_u64(t.d, PBI_MEMPROF_MAGIC, PB_ORDER_LE);
    expect_error(&t, t.len, PB_EUNSUPPORTED,
                 "t.profraw: byte 0x0 (header.Magic): MemProf raw profile (magic \"memprofr\"): heap "
                 "profiles are not instrumentation profiles; profbridge does not read them");
}

static void raw_read__refuses_llvm_sample_profiles_by_their_magic(void) {
    /* the first 9 bytes of LLVM 19's sample-multiple-nametables.profdata
     * (llvm-profparser test data): ULEB128 of "SPROF42" << 8 | 4 (ext-binary) */
    uint8_t d[32] = {0x84, 0xe4, 0xd0, 0xb1, 0xf4, 0xc9, 0x94, 0xa8, 0x53};
    pb_profile *p;
    char msg[1024];
    CU_ASSERT_EQUAL(pb_format_lookup("raw")->probe(d, sizeof d), 4); /* recognised, so it can be refused */
    CU_ASSERT_EQUAL(read_mem(d, sizeof d, &p, msg, sizeof msg), PB_EUNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(msg, "t.profraw: byte 0x0 (header.Magic): LLVM sample profile (magic SPROF42, "
                                "extensible binary format): sample-based (AutoFDO/SPGO) profiles are not "
                                "instrumentation profiles; profbridge does not read them");
    d[0] = 0x82; /* LLVM 12's compat-sample.profdata: compact binary */
    CU_ASSERT_EQUAL(read_mem(d, sizeof d, &p, msg, sizeof msg), PB_EUNSUPPORTED);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "compact binary format"));
    d[8] = 0x54; /* one bit off: not the magic any more */
    CU_ASSERT_EQUAL(pb_format_lookup("raw")->probe(d, sizeof d), 0);
}

static void raw_read__rejects_an_unknown_version(void) {
    tfile t;
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    t.h.f[PBI_RH_Version] = 12;
    reencode(&t);
    expect_error(&t, t.len, PB_EVERSION,
                 "t.profraw: byte 0x8 (header.Version): raw profile version 12 is not supported "
                 "(supported: 5, 7, 8, 9, 10, 11)");
}

static void raw_read__refuses_debug_info_correlated_profiles(void) {
    tfile t;
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    t.h.f[PBI_RH_Version] = 10 | PB_VARIANT_DBG_CORRELATE;
    reencode(&t);
    /* llvm-profdata 14-17: "debug info for correlation is required" */
    pb_profile *p;
    char msg[1024];
    CU_ASSERT_EQUAL(read_mem_release(t.d, t.len, 17, &p, msg, sizeof msg), PB_EUNSUPPORTED);
    CU_ASSERT_STRING_EQUAL(msg, "t.profraw: byte 0x8 (header.Version): debug info for correlation is required: a "
                                "debug-info-correlated raw profile (variant bit 59) has its names and data in the "
                                "binary; read it together with that binary");
    pb_profile_free(p);
    /* 18+ read the file as it is (a lightweight one has no records) */
    CU_ASSERT_EQUAL(read_mem(t.d, t.len, &p, msg, sizeof msg), 0);
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 2);
    pb_profile_free(p);
}

static void raw_read__rejects_header_sizes_that_overflow(void) {
    tfile t;
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    t.h.f[PBI_RH_NumData] = UINT64_C(1) << 60;
    reencode(&t);
    expect_error(&t, t.len, PB_EFORMAT,
                 "t.profraw: byte 0x18 (header.NumData): 1152921504606846976 x 64 bytes overflows 64 bits");
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    t.h.f[PBI_RH_NamesSize] = UINT64_MAX;
    reencode(&t);
    /* header 0x80 + 2 records of 64 bytes + 5 counters of 8 = names at 0x128 */
    expect_error(&t, t.len, PB_ETRUNC,
                 "t.profraw: byte 0x48 (header.NamesSize): the names (0xffffffffffffffff bytes from "
                 "byte 0x128) run past the end of the file (0x138 bytes)");
}

static void raw_read__rejects_a_counter_offset_outside_the_counters(void) {
    tfile t;
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    uint8_t *r = rec(&t, 1);
    uint64_t cp = pbi_raw_rec_get(&t.l, r, PBI_RD_CounterPtr, 0, t.order);
    pbi_raw_rec_put(&t.l, r, PBI_RD_CounterPtr, 0, cp + 0x1f40 - 16, t.order);
    /* record 1 sits at 0x80 + 64 = 0xc0, its CounterPtr at +16 */
    expect_error(&t, t.len, PB_EFORMAT,
                 "t.profraw: byte 0xd0 (data[1].CounterPtr): counter offset 0x1f40 lies outside the "
                 "counters section (size 0x28)");
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    pbi_raw_rec_put(&t.l, rec(&t, 1), PBI_RD_NumCounters, 0, 4, t.order);
    expect_error(&t, t.len, PB_EFORMAT,
                 "t.profraw: byte 0xf0 (data[1].CounterPtr): 4 counters of 8 bytes at counter offset "
                 "0x10 run past the end of the counters section (size 0x28)");
}

static void raw_read__rejects_a_negative_counter_offset(void) {
    tfile t;
    build(&t, 8, 8, PB_ORDER_LE, two_fns, 2, 0);
    uint8_t *r = rec(&t, 0);
    uint64_t cp = pbi_raw_rec_get(&t.l, r, PBI_RD_CounterPtr, 0, t.order);
    pbi_raw_rec_put(&t.l, r, PBI_RD_CounterPtr, 0, cp - 8, t.order);
    /* CountersDelta = 2 records x 48 = 0x60; CounterPtr 0x60 - 8 */
    expect_error(&t, t.len, PB_EFORMAT,
                 "t.profraw: byte 0x68 (data[0].CounterPtr): counter offset -8 is negative "
                 "(CounterPtr 0x58 - delta 0x60)");
}

static void raw_read__rejects_zero_counters(void) {
    tfile t;
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    pbi_raw_rec_put(&t.l, rec(&t, 0), PBI_RD_NumCounters, 0, 0, t.order);
    expect_error(&t, t.len, PB_EFORMAT,
                 "t.profraw: byte 0xb0 (data[0].NumCounters): number of counters is zero");
}

static void raw_read__rejects_names_that_do_not_decompress(void) {
    tfile t;
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 1);
    t.d[t.names_off + 2 + 5] ^= 0x55; /* inside the deflate data */
    pb_profile *p;
    char msg[1024];
    int rc = read_mem(t.d, t.len, &p, msg, sizeof msg);
    CU_ASSERT_EQUAL(rc, PB_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "t.profraw: byte 0x128 (names): names chunk does not decompress: zlib says "));
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "(expected 7 bytes from "));
}

/* LLVM's raw reader names such a record "" (llvm-profdata-19 show and merge,
 * any failure mode: issue 12); validate, which reports every problem, calls
 * the file invalid. */
static void raw_read__keeps_a_name_ref_with_no_name_as_llvm_does_and_validate_refuses_it(void) {
    tfile t;
    pb_profile *p;
    char msg[1024];
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    pbi_raw_rec_put(&t.l, rec(&t, 1), PBI_RD_NameRef, 0, 0x1234, t.order);
    CU_ASSERT_EQUAL_FATAL(read_mem(t.d, t.len, &p, msg, sizeof msg), 0);
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 2);
    expect_counts(p, "foo", 0x11, 2, two_fns[0].c);
    expect_counts(p, "", 0x22, 3, two_fns[1].c);
    pb_profile_free(p);

    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = "raw";
    ro.report_all = 1;
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&src, t.d, t.len, "t.profraw", &err), 0);
    CU_ASSERT_EQUAL(pb_read(&p, src, &ro, &err), PB_EFORMAT);
    CU_ASSERT_PTR_NULL(p);
    pb_error_format(&err, msg, sizeof msg);
    CU_ASSERT_STRING_EQUAL(msg, "t.profraw: byte 0xc0 (data[1].NameRef): NameRef 0x0000000000001234 is the MD5 of "
                                "no name in the names section");
    pb_source_free(src);
}

static void raw_read__rejects_value_data_past_its_section(void) {
    tfile t;
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    pbi_raw_rec_put(&t.l, rec(&t, 1), PBI_RD_NumValueSites01, 0, 1, t.order);
    expect_error(&t, t.len, PB_ETRUNC,
                 "t.profraw: byte 0x138 (data[1].value_data): value data of data record 1 (8-byte "
                 "header) runs past the end of the file");
    /* a blob that claims more than the file holds */
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    pbi_raw_rec_put(&t.l, rec(&t, 1), PBI_RD_NumValueSites01, 0, 1, t.order);
    pb_put_u32(t.d + t.len, 0x40, PB_ORDER_LE);
    pb_put_u32(t.d + t.len + 4, 1, PB_ORDER_LE);
    expect_error(&t, t.len + 16, PB_ETRUNC,
                 "t.profraw: byte 0x138 (data[1].value_data): TotalSize 64 runs past the end of the "
                 "file (0x10 bytes left)");
}

static void raw_read__rejects_garbage_after_the_last_profile(void) {
    tfile t;
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    memset(t.d + t.len, 0xab, 8);
    expect_error(&t, t.len + 8, PB_EFORMAT,
                 "t.profraw: byte 0x138 (trailer): bytes after profile 0: expected zero padding or "
                 "another raw profile (magic 0xff6c70726f667281), found garbage");
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    t.d[t.len + 3] = 1;
    expect_error(&t, t.len + 8, PB_EFORMAT,
                 "t.profraw: byte 0x13b (trailer): bytes after profile 0: expected zero padding or "
                 "another raw profile at an 8-byte boundary, found byte 0x01 at a position that is not");
}

static void raw_read__rejects_a_second_profile_of_another_width(void) {
    tfile a, b;
    build(&a, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    build(&b, 10, 4, PB_ORDER_LE, two_fns, 2, 0);
    memcpy(a.d + a.len, b.d, b.len);
    expect_error(&a, a.len + b.len, PB_EFORMAT,
                 "t.profraw: byte 0x138 (profile[1].header.Magic): expected the magic of the first "
                 "profile (64-bit, little-endian), found 0xff6c70726f665281");
}

static void raw_read__rejects_an_empty_file_and_a_short_header(void) {
    tfile t;
    build(&t, 10, 8, PB_ORDER_LE, two_fns, 2, 0);
    expect_error(&t, 0, PB_ETRUNC, "t.profraw: byte 0x0 (header): empty raw profile file");
    expect_error(&t, 100, PB_ETRUNC,
                 "t.profraw: byte 0x0 (header): a raw v10 header needs 128 bytes, the file has 0x64 left");
}

/* ---- real files ------------------------------------------------------------------- */

typedef struct found {
    char path[64][512];
    size_t n;
} found;

static void find_profraws(const char *dir, found *f) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && f->n < 64) {
        if (e->d_name[0] == '.') continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        size_t l = strlen(e->d_name);
        if (l > 8 && strcmp(e->d_name + l - 8, ".profraw") == 0) snprintf(f->path[f->n++], 512, "%s", p);
        else if (!strchr(e->d_name, '.')) find_profraws(p, f);
    }
    closedir(d);
}

static void raw_read__reads_every_real_raw_file(void) {
    const char *roots[] = {"testdata/llvm-real", "testdata/llvm-profparser"};
    size_t total = 0;
    for (int k = 0; k < 2; k++) {
        const char *root = tu_shared(roots[k]);
        TU_SKIP_IF(!tu_exists(root), "../shared/testdata is absent");
        found *f = calloc(1, sizeof *f);
        find_profraws(root, f);
        for (size_t i = 0; i < f->n; i++) {
            const char *path = f->path[i];
            if (strstr(path, "syn-lit-v11-ucnt-") && !strstr(path, "ucnt-ok")) continue; /* errors, below */
            pb_profile *p = NULL;
            pb_error err;
            pb_error_clear(&err);
            pb_read_options ro = PB_READ_OPTIONS_INIT;
            int rc = pb_read_file(&p, path, &ro, &err);
            if (rc && strstr(err.message, "merge not implemented")) { /* core's merge still a stub */
                fprintf(stderr, "\n  SKIP %s: needs pb_profile_merge_record\n", path);
                continue;
            }
            if (rc) {
                char msg[1024];
                pb_error_format(&err, msg, sizeof msg);
                fprintf(stderr, "\n  %s\n", msg);
            }
            CU_ASSERT_EQUAL(rc, 0);
            if (p) CU_ASSERT(pb_profile_record_count(p) > 0);
            if (p) CU_ASSERT_EQUAL(pb_profile_check(p, NULL, NULL), 0);
            pb_profile_free(p);
            total++;
        }
        free(f);
    }
    CU_ASSERT(total >= 60);
}

static pb_profile *read_shared(const char *rel, char *msg, size_t cap) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    msg[0] = 0;
    if (pb_read_file(&p, tu_shared(rel), &ro, &err)) pb_error_format(&err, msg, cap);
    return p;
}

static void raw_read__reads_the_v11_lit_vectors_as_their_check_lines_say(void) {
    const char *files[] = {"syn-lit-v11-64le", "syn-lit-v11-64be", "syn-lit-v11-32le", "syn-lit-v11-32be"};
    TU_SKIP_IF(!tu_exists(tu_shared("testdata/llvm-real/synthetic")), "../shared/testdata is absent");
    for (int i = 0; i < 4; i++) {
        char rel[256], msg[1024];
        snprintf(rel, sizeof rel, "testdata/llvm-real/synthetic/%s.profraw", files[i]);
        pb_profile *p = read_shared(rel, msg, sizeof msg);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        static const uint64_t foo[] = {19}, bar[] = {55, 65};
        expect_counts(p, "foo", 1, 1, foo);
        expect_counts(p, "bar", 2, 2, bar);
        const pb_record *r = find_rec(p, "foo");
        CU_ASSERT_EQUAL_FATAL(r->num_bitmap_bytes, 3);
        CU_ASSERT(r->bitmap[0] == 0x55 && r->bitmap[1] == 0x55 && r->bitmap[2] == 0x55);
        r = find_rec(p, "bar");
        CU_ASSERT_EQUAL_FATAL(r->num_bitmap_bytes, 1);
        CU_ASSERT_EQUAL(r->bitmap[0], 0x2a);
        pb_profile_free(p);
    }
    char msg[1024];
    pb_profile *p = read_shared("testdata/llvm-real/synthetic/syn-lit-v11-ucnt-ok.profraw", msg, sizeof msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    static const uint64_t bar[] = {55, 65};
    expect_counts(p, "bar", 2, 2, bar);
    pb_profile_free(p);
}

static void raw_read__rejects_the_malformed_uniform_counter_vectors_with_llvms_words(void) {
    static const struct { const char *file, *text; } c[] = {
        {"neg", "uniform counter offset -1 is negative"},
        {"past", "uniform counter offset 16 is greater than the maximum uniform counter offset 15"},
        {"toomany", "number of uniform counters 2 is greater than the maximum number of uniform counters 1"}};
    TU_SKIP_IF(!tu_exists(tu_shared("testdata/llvm-real/synthetic")), "../shared/testdata is absent");
    for (int i = 0; i < 3; i++) {
        char rel[256], msg[1024];
        snprintf(rel, sizeof rel, "testdata/llvm-real/synthetic/syn-lit-v11-ucnt-%s.profraw", c[i].file);
        pb_profile *p = read_shared(rel, msg, sizeof msg);
        CU_ASSERT_PTR_NULL(p);
        if (!strstr(msg, c[i].text)) fprintf(stderr, "\n  got: %s\n", msg);
        CU_ASSERT_PTR_NOT_NULL(strstr(msg, c[i].text));
        CU_ASSERT_PTR_NOT_NULL(strstr(msg, "(data[0].UniformCounterPtr)"));
        pb_profile_free(p);
    }
}

static void raw_read__maps_indirect_call_and_vtable_addresses_to_names(void) {
    char msg[1024];
    TU_SKIP_IF(!tu_exists(tu_shared("testdata/llvm-real/llvm19")), "../shared/testdata is absent");
    pb_profile *p = read_shared("testdata/llvm-real/llvm19/vtable-ir.profraw", msg, sizeof msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    const pb_record *r = find_rec(p, "_Z4callP4Basei");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL_FATAL(r->num_sites[PB_VK_VTABLE], 1);
    CU_ASSERT_EQUAL_FATAL(r->sites[PB_VK_VTABLE][0].num_values, 2);
    /* llvm-profdata-19 show: [ 0, _ZTV1B, 4 ], [ 0, _ZTV1A, 6 ]; §1.2: NameRef(_ZTV1A) */
    const pb_value *v = &r->sites[PB_VK_VTABLE][0].values[1];
    CU_ASSERT_EQUAL(v->value, UINT64_C(0xa80047fd60784dd0));
    CU_ASSERT_EQUAL(v->count, 6);
    CU_ASSERT_NOT_EQUAL_FATAL(v->symbol, PB_NONE);
    size_t len;
    CU_ASSERT_STRING_EQUAL(pb_profile_str(p, pb_profile_symbol(p, v->symbol)->name, &len), "_ZTV1A");
    const pb_value *ic = &r->sites[PB_VK_INDIRECT_CALL][0].values[0];
    CU_ASSERT_EQUAL(ic->value, pb_md5_ref("_ZN1B1fEi", 9));
    CU_ASSERT_EQUAL(ic->symbol, PB_NONE);
    pb_profile_free(p);
}

static void raw_read__builds_one_temporal_trace_by_timestamp(void) {
    char msg[1024];
    TU_SKIP_IF(!tu_exists(tu_shared("testdata/llvm-real/llvm19")), "../shared/testdata is absent");
    pb_profile *p = read_shared("testdata/llvm-real/llvm19/temporal-ir.profraw", msg, sizeof msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL_FATAL(pb_profile_trace_count(p), 1);
    uint64_t w;
    size_t n;
    const uint64_t *refs = pb_profile_trace(p, 0, &w, &n);
    CU_ASSERT_EQUAL(w, 1);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_EQUAL(refs[0], pb_md5_ref("main", 4));
    CU_ASSERT_EQUAL(refs[1], pb_md5_ref("bar", 3));
    CU_ASSERT_EQUAL(refs[2], pb_md5_ref("foo", 3));
    CU_ASSERT_EQUAL(pb_profile_trace_stream_size(p), 1);
    static const uint64_t foo[] = {9, 11};
    expect_counts(p, "foo", UINT64_C(0x0209aa3e3852da94), 2, foo);
    pb_profile_free(p);
}

static void raw_read__reads_both_v7_encodings_of_the_same_program_alike(void) {
    char m1[1024], m2[1024];
    TU_SKIP_IF(!tu_exists(tu_shared("testdata/llvm-profparser")), "../shared/testdata is absent");
    /* §2.7: c-general.profraw is absolute (LLVM 13), compressed.profraw relative */
    pb_profile *a = read_shared("testdata/llvm-profparser/tests/data/profdata/llvm-13/c-general.profraw", m1, sizeof m1);
    pb_profile *b = read_shared("testdata/llvm-profparser/tests/data/profdata/llvm-13/compressed.profraw", m2, sizeof m2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL_FATAL(pb_profile_record_count(a), 12);
    CU_ASSERT_EQUAL_FATAL(pb_profile_record_count(b), 12);
    for (size_t i = 0; i < 12; i++) {
        const pb_record *x = pb_profile_record(a, i), *y = pb_profile_record(b, i);
        CU_ASSERT_EQUAL(x->hash, y->hash);
        CU_ASSERT_EQUAL_FATAL(x->num_counters, y->num_counters);
        CU_ASSERT_EQUAL(memcmp(x->counters, y->counters, 8 * x->num_counters), 0);
    }
    pb_profile_free(a);
    pb_profile_free(b);
}

/* ---- truncation sweep ------------------------------------------------------------- */

static void raw_read__every_prefix_of_real_files_fails_cleanly(void) {
    const char *files[] = {"testdata/llvm-real/llvm19/basic-ir.profraw", "testdata/llvm-real/llvm19/vtable-ir.profraw",
                           "testdata/llvm-real/llvm19/mcdc-fe.profraw", "testdata/llvm-real/llvm14/basic-ir.profraw",
                           "testdata/llvm-real/synthetic/syn-v10-32be.profraw",
                           "testdata/llvm-real/synthetic/syn-lit-v11-64le.profraw"};
    TU_SKIP_IF(!tu_exists(tu_shared("testdata/llvm-real")), "../shared/testdata is absent");
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t len;
        char *d = tu_slurp(tu_shared(files[f]), &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        size_t bad = 0;
        for (size_t n = 0; n < len; n++) {
            uint8_t *copy = malloc(n ? n : 1); /* exact size: ASan sees any overread */
            memcpy(copy, d, n);
            pb_profile *p;
            char msg[1024];
            int rc = read_mem(copy, n, &p, msg, sizeof msg);
            /* a prefix ending inside trailing padding may still be complete */
            if (rc == 0) {
                int zeros = 1;
                for (size_t k = n; k < len; k++) zeros &= d[k] == 0;
                if (!zeros) bad++;
            } else if (rc != PB_ETRUNC && rc != PB_EFORMAT) {
                bad++;
            }
            pb_profile_free(p);
            free(copy);
        }
        CU_ASSERT_EQUAL(bad, 0);
        free(d);
    }
}

static CU_TestInfo tests[] = {
    {"raw_read__reads_built_files_of_every_version_width_and_byte_order",
     raw_read__reads_built_files_of_every_version_width_and_byte_order},
    {"raw_read__reads_v7_with_relative_counter_pointers_too", raw_read__reads_v7_with_relative_counter_pointers_too},
    {"raw_read__reads_two_concatenated_profiles_into_one_model", raw_read__reads_two_concatenated_profiles_into_one_model},
    {"raw_read__reads_one_profile_of_several_with_raw_profile", raw_read__reads_one_profile_of_several_with_raw_profile},
    {"raw_read__turns_byte_coverage_zero_into_count_one", raw_read__turns_byte_coverage_zero_into_count_one},
    {"raw_read__rejects_a_bad_magic", raw_read__rejects_a_bad_magic},
    {"raw_read__refuses_memprof_raw_profiles", raw_read__refuses_memprof_raw_profiles},
    {"raw_read__refuses_llvm_sample_profiles_by_their_magic", raw_read__refuses_llvm_sample_profiles_by_their_magic},
    {"raw_read__rejects_an_unknown_version", raw_read__rejects_an_unknown_version},
    {"raw_read__refuses_debug_info_correlated_profiles", raw_read__refuses_debug_info_correlated_profiles},
    {"raw_read__rejects_header_sizes_that_overflow", raw_read__rejects_header_sizes_that_overflow},
    {"raw_read__rejects_a_counter_offset_outside_the_counters", raw_read__rejects_a_counter_offset_outside_the_counters},
    {"raw_read__rejects_a_negative_counter_offset", raw_read__rejects_a_negative_counter_offset},
    {"raw_read__rejects_zero_counters", raw_read__rejects_zero_counters},
    {"raw_read__rejects_names_that_do_not_decompress", raw_read__rejects_names_that_do_not_decompress},
    {"raw_read__keeps_a_name_ref_with_no_name_as_llvm_does_and_validate_refuses_it",
     raw_read__keeps_a_name_ref_with_no_name_as_llvm_does_and_validate_refuses_it},
    {"raw_read__rejects_value_data_past_its_section", raw_read__rejects_value_data_past_its_section},
    {"raw_read__rejects_garbage_after_the_last_profile", raw_read__rejects_garbage_after_the_last_profile},
    {"raw_read__rejects_a_second_profile_of_another_width", raw_read__rejects_a_second_profile_of_another_width},
    {"raw_read__rejects_an_empty_file_and_a_short_header", raw_read__rejects_an_empty_file_and_a_short_header},
    {"raw_read__reads_every_real_raw_file", raw_read__reads_every_real_raw_file},
    {"raw_read__reads_the_v11_lit_vectors_as_their_check_lines_say",
     raw_read__reads_the_v11_lit_vectors_as_their_check_lines_say},
    {"raw_read__rejects_the_malformed_uniform_counter_vectors_with_llvms_words",
     raw_read__rejects_the_malformed_uniform_counter_vectors_with_llvms_words},
    {"raw_read__maps_indirect_call_and_vtable_addresses_to_names", raw_read__maps_indirect_call_and_vtable_addresses_to_names},
    {"raw_read__builds_one_temporal_trace_by_timestamp", raw_read__builds_one_temporal_trace_by_timestamp},
    {"raw_read__reads_both_v7_encodings_of_the_same_program_alike", raw_read__reads_both_v7_encodings_of_the_same_program_alike},
    {"raw_read__every_prefix_of_real_files_fails_cleanly", raw_read__every_prefix_of_real_files_fails_cleanly},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_raw_read[] = {{"raw_read", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
