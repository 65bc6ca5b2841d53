/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_indexed.c -- the LLVM indexed plugin. Oracles: the spec's numbers
 * (header sizes, §3.13 worked example, §3.4 summary examples) and files
 * written by llvm-profdata-14/-19 (byte identity), plus llvm-profdata run
 * at test time where installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dirent.h>

#include "../../formats/indexed/indexed_internal.h"
#include "llvm/summary.h"
#include "util/bytes.h"
#include "profbridge/indexed.h"
#include "testutil.h"

/* ---- helpers ------------------------------------------------------------ */

static int read_mem(const void *data, size_t len, const char *fmt, pb_profile **p, pb_error *err) {
    pb_source *s = NULL;
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = fmt;
    pb_error_clear(err);
    *p = NULL;
    int rc = pb_source_open_memory(&s, data, len, "mem", err);
    if (rc == 0) rc = pb_read(p, s, &ro, err);
    pb_source_free(s);
    return rc;
}

/* Writes p with plugin fmt and options "k=v" (NULL-terminated); returns malloc'ed bytes. */
static uint8_t *write_mem(const pb_profile *p, const char *fmt, const char *const *opts, size_t *len,
                          tu_diag *d) {
    pb_kv kv[8];
    char keys[8][64];
    size_t n = 0;
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    for (size_t i = 0; opts && opts[i] && i < 8; i++) {
        const char *eq = strchr(opts[i], '=');
        size_t kl = eq ? (size_t)(eq - opts[i]) : strlen(opts[i]);
        if (eq && strncmp(opts[i], "llvm-version=", 13) == 0) { /* the release, not a plugin option */
            wo.llvm_release = atoi(eq + 1);
            continue;
        }
        snprintf(keys[n], sizeof keys[n], "%.*s", (int)kl, opts[i]);
        kv[n].key = keys[n];
        kv[n].value = eq ? eq + 1 : "1";
        n++;
    }
    wo.kv = kv;
    wo.nkv = n;
    if (d) {
        wo.diag = tu_diag_fn;
        wo.diag_ctx = d;
    }
    pb_error err;
    pb_error_clear(&err);
    pb_sink *s = NULL;
    uint8_t *out = NULL;
    if (pb_sink_open_memory(&s, &err) == 0 && pb_write(p, s, pb_format_lookup(fmt), &wo, &err) == 0) {
        const uint8_t *m = pb_sink_memory(s, len);
        out = malloc(*len + 1);
        if (out) memcpy(out, m, *len);
    } else {
        char line[1024];
        pb_error_format(&err, line, sizeof line);
        fprintf(stderr, "\n  write failed: %s\n", line);
    }
    pb_sink_free(s);
    return out;
}

static const char *const real_indexed[] = {
    "llvm19/basic-fe", "llvm19/basic-ir", "llvm19/concat-ir", "llvm19/cs-merged", "llvm19/entry-ir",
    "llvm19/fentry-ir", "llvm19/many-ir", "llvm19/mcdc-fe", "llvm19/sbc-fe", "llvm19/simple-ir",
    "llvm19/static-ir", "llvm19/temporal-ir", "llvm19/vtable-ir", "llvm14/basic-fe", "llvm14/basic-ir",
    "llvm14/cs-merged", "llvm14/entry-ir", "llvm14/many-ir", "llvm14/simple-ir", "llvm14/static-ir", NULL};

static const char *real_path(const char *stem, const char *ext) {
    char rel[256];
    snprintf(rel, sizeof rel, "testdata/llvm-real/%s%s", stem, ext);
    return tu_shared(rel);
}

/* ---- layout ------------------------------------------------------------- */

static void indexed_layout__header_sizes_match_the_spec(void) {
    static const unsigned want[15] = {0, 40, 40, 40, 40, 40, 40, 40, 48, 56, 64, 64, 72, 72, 72};
    for (uint32_t v = 1; v <= 14; v++) CU_ASSERT_EQUAL(pbi_idx_header_size(v), want[v]);
    CU_ASSERT_EQUAL(pbi_idx_header_fields[PBI_IDX_W_vtable_names_offset].since, 12);
    CU_ASSERT_EQUAL(pbi_idx_header_fields[PBI_IDX_W_memprof_offset].since, 8);
    CU_ASSERT_FALSE(pbi_idx_layout(10).bitmap);
    CU_ASSERT_TRUE(pbi_idx_layout(11).bitmap);
    CU_ASSERT_FALSE(pbi_idx_layout(13).bitmap_packed);
    CU_ASSERT_TRUE(pbi_idx_layout(14).uniformity);
    CU_ASSERT_FALSE(pbi_idx_layout(1).num_counters);
    CU_ASSERT_FALSE(pbi_idx_layout(2).value_data);
    CU_ASSERT_TRUE(pbi_idx_layout(4).summary);
}

/* ---- summary (§3.4: hand-computed examples of the spec) ----------------- */

static void indexed_summary__follows_llvm14_and_llvm19_special_count_rules(void) {
    const uint64_t M = UINT64_MAX;
    const uint64_t p[] = {M, 3}, q[] = {M - 1, 1, 2}, r[] = {4, M}, y[] = {5, 1};
    uint64_t w[PBI_SUM_WORDS];
    pbi_sum_builder b;
    pbi_sum_init(&b, PBI_SUM_LLVM14);
    pbi_sum_add(&b, p, 2);
    pbi_sum_add(&b, q, 3);
    pbi_sum_add(&b, r, 2);
    pbi_sum_add(&b, y, 2);
    CU_ASSERT_EQUAL(pbi_sum_finish(&b, w, NULL), 0);
    pbi_sum_free(&b);
    CU_ASSERT_EQUAL(w[2], 4);         /* NumFunctions */
    CU_ASSERT_EQUAL(w[3], 7);         /* NumCounts */
    CU_ASSERT_EQUAL(w[4], M - 1);     /* MaxFunctionCount */
    CU_ASSERT_EQUAL(w[5], M - 1);     /* MaxCount */
    CU_ASSERT_EQUAL(w[6], 3);         /* MaxInternal */
    CU_ASSERT_EQUAL(w[7], 14);        /* Total, wrapped */
    CU_ASSERT_EQUAL(w[8], 10000);     /* first entry (10000,0,0) */
    CU_ASSERT_EQUAL(w[9], 0);
    CU_ASSERT_EQUAL(w[10], 0);
    pbi_sum_init(&b, PBI_SUM_LLVM19);
    pbi_sum_add(&b, p, 2);
    pbi_sum_add(&b, q, 3);
    pbi_sum_add(&b, r, 2);
    pbi_sum_add(&b, y, 2);
    CU_ASSERT_EQUAL(pbi_sum_finish(&b, w, NULL), 0);
    pbi_sum_free(&b);
    CU_ASSERT_EQUAL(w[2], 2);
    CU_ASSERT_EQUAL(w[3], 4);
    CU_ASSERT_EQUAL(w[4], 5);
    CU_ASSERT_EQUAL(w[5], M);
    CU_ASSERT_EQUAL(w[6], M);
    CU_ASSERT_EQUAL(w[7], 9);
}

static void indexed_summary__simple_ir_cutoffs_match_the_spec(void) {
    /* §3.4/§3.13: main [1], foo [9,11], bar [20,1]: Total 42, entries
     * (10000,0,0), (100000,20,1), ..., (950000,9,3), (990000,1,5). */
    const uint64_t a[] = {1}, b2[] = {9, 11}, c[] = {20, 1};
    uint64_t w[PBI_SUM_WORDS];
    pbi_sum_builder b;
    pbi_sum_init(&b, PBI_SUM_LLVM19);
    pbi_sum_add(&b, a, 1);
    pbi_sum_add(&b, b2, 2);
    pbi_sum_add(&b, c, 2);
    CU_ASSERT_EQUAL(pbi_sum_finish(&b, w, NULL), 0);
    pbi_sum_free(&b);
    const uint64_t want_fields[6] = {3, 5, 20, 20, 11, 42};
    for (int i = 0; i < 6; i++) CU_ASSERT_EQUAL(w[2 + i], want_fields[i]);
    const uint64_t *e = w + 8;
    CU_ASSERT_EQUAL(e[0 * 3 + 1], 0);
    CU_ASSERT_EQUAL(e[0 * 3 + 2], 0);
    CU_ASSERT_EQUAL(e[1 * 3 + 1], 20);
    CU_ASSERT_EQUAL(e[1 * 3 + 2], 1);
    CU_ASSERT_EQUAL(e[10 * 3 + 1], 9);
    CU_ASSERT_EQUAL(e[10 * 3 + 2], 3);
    CU_ASSERT_EQUAL(e[11 * 3 + 1], 1);
    CU_ASSERT_EQUAL(e[11 * 3 + 2], 5);
}


/* Oracle: libxxhash 0.8.1's XXH3_64bits on bytes (i*7+3) & 0xff, i < n. */
static void indexed_xxh3__matches_the_reference_implementation(void) {
    static const struct { size_t n; uint64_t h; } v[] = {
        {0, UINT64_C(0x2d06800538d394c2)},    {1, UINT64_C(0x13e608bc156defed)},
        {3, UINT64_C(0xa9088dda485b481c)},    {6, UINT64_C(0xf9f1d99ef1edd356)},
        {12, UINT64_C(0x6829454be0cc3199)},   {16, UINT64_C(0xb8c859b0f030b585)},
        {17, UINT64_C(0x714a04408e79b80f)},   {100, UINT64_C(0xb5937857f0d78c9f)},
        {129, UINT64_C(0xc664bf3311c6abc4)},  {200, UINT64_C(0x746cd0025327bf5b)},
        {240, UINT64_C(0x64556dc6b462a6cf)},  {241, UINT64_C(0x8beadd3a8874fe17)},
        {1024, UINT64_C(0x9b81661c641c72b1)}, {1500, UINT64_C(0x636eb3103aa644e2)},
        {2048, UINT64_C(0xabe604813ba62ed1)}};
    static uint8_t buf[2048];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)((i * 7 + 3) & 0xff);
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) CU_ASSERT_EQUAL(pbi_xxh3_64(buf, v[i].n), v[i].h);
}

/* ---- reading ------------------------------------------------------------ */

static void indexed_read__simple_ir_matches_the_worked_example(void) {
    const char *path = real_path("llvm19/simple-ir", ".profdata");
    TU_SKIP_IF(!tu_exists(path), "shared testdata/llvm-real absent");
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_read_file(&p, path, NULL, &err), 0);
    CU_ASSERT_STRING_EQUAL(pb_profile_origin(p)->format, "indexed");
    CU_ASSERT_EQUAL(pb_profile_origin(p)->version, 12);
    CU_ASSERT_EQUAL(pb_profile_flags(p), PB_VARIANT_IR);
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 3);
    size_t idx;
    CU_ASSERT_EQUAL_FATAL(pb_profile_lookup(p, "foo", 3, &idx, 1), 1);
    const pb_record *r = pb_profile_record(p, idx);
    CU_ASSERT_EQUAL(r->hash, UINT64_C(0x0209aa3e3852da94));
    CU_ASSERT_EQUAL_FATAL(r->num_counters, 2);
    CU_ASSERT_EQUAL(r->counters[0], 9);
    CU_ASSERT_EQUAL(r->counters[1], 11);
    CU_ASSERT_EQUAL(pb_profile_binary_id_count(p), 1);
    size_t n;
    (void)pb_profile_binary_id(p, 0, &n);
    CU_ASSERT_EQUAL(n, 20);
    pb_profile_free(p);
}

static void indexed_read__every_profparser_indexed_version_reads(void) {
    static const char *const files[] = {
        "llvm-12/compat.profdata.v1", "llvm-12/compat.profdata.v2", "llvm-11/weight-instr-bar.profdata",
        "llvm-12/compat.profdata.v4", "misc/merged.profdata", "llvm-19/compat.profdata.v10", NULL};
    static const size_t want_records[] = {3, 2, 4, 3, 2, 3};
    char rel[256];
    snprintf(rel, sizeof rel, "testdata/llvm-profparser/tests/data/profdata/%s", files[0]);
    TU_SKIP_IF(!tu_exists(tu_shared(rel)), "shared testdata/llvm-profparser absent");
    for (int i = 0; files[i]; i++) {
        snprintf(rel, sizeof rel, "testdata/llvm-profparser/tests/data/profdata/%s", files[i]);
        pb_profile *p = NULL;
        pb_error err;
        pb_error_clear(&err);
        int rc = pb_read_file(&p, tu_shared(rel), NULL, &err);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc == 0) {
            /* "ok (N fn)" in the README counts names; records >= names */
            CU_ASSERT(pb_profile_record_count(p) >= want_records[i]);
        }
        pb_profile_free(p);
    }
}


/* MemProf (flag 62, v8+): skipped with a notice, flag kept; the writer,
 * which writes no MemProf section, drops the flag with a notice. */
static void indexed_read__skips_memprof_and_keeps_its_flag(void) {
    const char *path = real_path("llvm19/simple-ir", ".profdata");
    TU_SKIP_IF(!tu_exists(path), "shared testdata/llvm-real absent");
    size_t len;
    uint8_t *d = (uint8_t *)tu_slurp(path, &len);
    const size_t ver = (size_t)pbi_idx_word_offset(12, PBI_IDX_W_version);
    pb_put_u64(d + ver, pb_get_u64(d + ver, PB_ORDER_LE) | PB_VARIANT_MEMPROF, PB_ORDER_LE);
    pb_put_u64(d + pbi_idx_word_offset(12, PBI_IDX_W_memprof_offset), 0x200, PB_ORDER_LE); /* never followed */
    pb_source *s = NULL;
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    tu_diag dg;
    memset(&dg, 0, sizeof dg);
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.diag = tu_diag_fn;
    ro.diag_ctx = &dg;
    CU_ASSERT_EQUAL_FATAL(pb_source_open_memory(&s, d, len, "mem", &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_read(&p, s, &ro, &err), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(dg.all, "MemProf section skipped"));
    CU_ASSERT((pb_profile_flags(p) & PB_VARIANT_MEMPROF) != 0);
    CU_ASSERT_EQUAL(pb_profile_record_count(p), 3);
    tu_diag dw;
    memset(&dw, 0, sizeof dw);
    size_t olen;
    uint8_t *out = write_mem(p, "indexed", NULL, &olen, &dw);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(dw.all, "MemProf flag dropped"));
    CU_ASSERT((pb_get_u64(out + ver, PB_ORDER_LE) & PB_VARIANT_MEMPROF) == 0);
    free(out);
    pb_profile_free(p);
    pb_source_free(s);
    free(d);
}

static void indexed_lookup__reads_only_the_named_function(void) {
    const char *path = real_path("llvm19/many-ir", ".profdata");
    TU_SKIP_IF(!tu_exists(path), "shared testdata/llvm-real absent");
    size_t len;
    char *data = tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(data);
    pb_profile *all = NULL, *one = NULL;
    pb_error err;
    CU_ASSERT_EQUAL_FATAL(read_mem(data, len, NULL, &all, &err), 0);
    size_t found = 0;
    for (size_t i = 0; i < pb_profile_record_count(all); i++) {
        const pb_record *r = pb_profile_record(all, i);
        size_t nl;
        const char *name = pb_profile_str(all, r->name, &nl);
        pb_error_clear(&err);
        CU_ASSERT_EQUAL_FATAL(pb_indexed_lookup(data, len, name, nl, &one, &err), 0);
        CU_ASSERT_EQUAL(pb_profile_record_count(one), 1);
        const pb_record *o = pb_profile_record(one, 0);
        CU_ASSERT_EQUAL(o->hash, r->hash);
        CU_ASSERT_EQUAL(o->num_counters, r->num_counters);
        if (o->num_counters == r->num_counters)
            CU_ASSERT_EQUAL(memcmp(o->counters, r->counters, 8 * o->num_counters), 0);
        pb_profile_free(one);
        found++;
    }
    CU_ASSERT(found >= 300);
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pb_indexed_lookup(data, len, "no_such_function", 16, &one, &err), PB_ENOTFOUND);
    CU_ASSERT_PTR_NULL(one);
    CU_ASSERT_EQUAL(err.code, 0);
    pb_profile_free(all);
    free(data);
}

static void indexed_lookup__returns_both_records_of_a_cs_key(void) {
    const char *path = real_path("llvm19/cs-merged", ".profdata");
    TU_SKIP_IF(!tu_exists(path), "shared testdata/llvm-real absent");
    size_t len;
    char *data = tu_slurp(path, &len);
    pb_profile *one = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_indexed_lookup(data, len, "main", 4, &one, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_record_count(one), 2);
    int cs = 0;
    for (size_t i = 0; i < pb_profile_record_count(one); i++)
        cs += (pb_profile_record(one, i)->hash & PB_HASH_CS_BIT) != 0;
    CU_ASSERT_EQUAL(cs, 1);
    pb_profile_free(one);
    free(data);
}


static void indexed_lookup__rejects_bucket_offsets_outside_the_payload(void) {
    const char *path = real_path("llvm19/simple-ir", ".profdata");
    TU_SKIP_IF(!tu_exists(path), "shared testdata/llvm-real absent");
    size_t len;
    uint8_t *d = (uint8_t *)tu_slurp(path, &len);
    CU_ASSERT_EQUAL_FATAL(len, 872);
    /* "main" hashes to bucket 2 of 8: its offset word is at 0x2e8 + 16 + 2*8. */
    const size_t at = 0x2e8 + 16 + 2 * 8;
    const uint64_t bad[] = {UINT64_MAX, UINT64_MAX - 1, 0x2e7, 0x2e8, 0x100, 872};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t *c = malloc(len);
        memcpy(c, d, len);
        pb_put_u64(c + at, bad[i], PB_ORDER_LE);
        pb_profile *one = NULL;
        pb_error err;
        pb_error_clear(&err);
        CU_ASSERT_EQUAL(pb_indexed_lookup(c, len, "main", 4, &one, &err), PB_EFORMAT);
        CU_ASSERT_EQUAL(err.offset, at);
        CU_ASSERT_STRING_EQUAL(err.path, "hash_table.BucketOffset");
        CU_ASSERT_PTR_NULL(one);
        /* pointing into the middle of an item: garbage, but a clean answer */
        pb_put_u64(c + at, 0x20a + 5, PB_ORDER_LE);
        pb_error_clear(&err);
        int rc = pb_indexed_lookup(c, len, "main", 4, &one, &err);
        CU_ASSERT(rc == PB_ENOTFOUND || rc == PB_EFORMAT || rc == PB_ETRUNC || rc == 0);
        pb_profile_free(one);
        free(c);
    }
    free(d);
}

/* ---- corrupt input: precise errors, never a crash ------------------------ */

typedef struct patch_case {
    size_t at;       /* byte offset to overwrite (u64 LE) */
    uint64_t value;
    int code;        /* expected error code */
    uint64_t offset; /* expected error offset */
    const char *path;
} patch_case;

static void check_patch(const uint8_t *orig, size_t len, const patch_case *c) {
    uint8_t *d = malloc(len);
    memcpy(d, orig, len);
    pb_put_u64(d + c->at, c->value, PB_ORDER_LE);
    pb_profile *p = NULL;
    pb_error err;
    int rc = read_mem(d, len, "indexed", &p, &err);
    CU_ASSERT_EQUAL(rc, c->code);
    CU_ASSERT_PTR_NULL(p);
    if (c->offset != PB_NO_OFFSET) CU_ASSERT_EQUAL(err.offset, c->offset);
    if (c->path) CU_ASSERT_STRING_EQUAL(err.path, c->path);
    if (rc != c->code || (c->path && strcmp(err.path, c->path) != 0)) {
        char line[1024];
        pb_error_format(&err, line, sizeof line);
        fprintf(stderr, "\n  patch @0x%zx: %s\n", c->at, line);
    }
    pb_profile_free(p);
    free(d);
}

static void indexed_read__rejects_damaged_fields_with_offset_and_field(void) {
    const char *path = real_path("llvm19/simple-ir", ".profdata");
    TU_SKIP_IF(!tu_exists(path), "shared testdata/llvm-real absent");
    size_t len;
    uint8_t *d = (uint8_t *)tu_slurp(path, &len);
    CU_ASSERT_EQUAL_FATAL(len, 872);
    /* Offsets from the worked example (§3.13): table at 0x2e8, first key at 0x208. */
    /* header words from indexed_layout.h (v12) */
#define W(f) (size_t)pbi_idx_word_offset(12, PBI_IDX_W_##f)
    const size_t sum = pbi_idx_header_size(12); /* the summary follows the header */
    const patch_case cases[] = {
        {W(magic), 0x1122334455667788, PB_EFORMAT, W(magic), "header.Magic"},
        {W(version), 15, PB_EVERSION, W(version), "header.Version"},
        {W(hash_type), 1, PB_EFORMAT, W(hash_type), "header.HashType"},
        {W(hash_offset), 0x10000, PB_EFORMAT, W(hash_offset), "header.HashOffset"},
        {W(hash_offset), 0x10, PB_EFORMAT, W(hash_offset), "header.HashOffset"},
        {sum, UINT64_C(1) << 40, PB_EFORMAT, sum, "summary.NumSummaryFields"},
        {sum, 2, PB_EFORMAT, sum, "summary.NumSummaryFields"},
        {sum + 8, UINT64_C(0xfffffff), PB_ETRUNC, sum, "summary"},
        {0x2e8, 6, PB_EFORMAT, 0x2e8, "hash_table.NumBuckets"},
        {0x2e8, UINT64_C(1) << 62, PB_ETRUNC, 0x2e8, "hash_table.NumBuckets"},
        {0x2f0, 1000, PB_EFORMAT, 0x2f0, "hash_table.NumEntries"},
        {0x20a + 8, UINT64_MAX - 4, PB_ETRUNC, 0x20a + 8, "hash_table.item.KeyLen"},
        {0x20a + 16, UINT64_MAX, PB_ETRUNC, 0x20a + 16, "hash_table.item.DataLen"},
        {0x20a + 16, 41, PB_EFORMAT, 0x20a + 16, "hash_table.item.DataLen"},
        {0x20a + 24 + 4 + 8, 0, PB_EFORMAT, 0x20a + 24 + 4 + 8, "record.NumCounters"},
        {0x20a + 24 + 4 + 8, UINT64_C(1) << 61, PB_ETRUNC, 0x20a + 24 + 4 + 8, "record.NumCounters"},
        {0x20a + 24 + 4 + 24, 1000, PB_ETRUNC, 0x20a + 24 + 4 + 24, "record.NumBitmapBytes"},
        {0x20a + 24 + 4 + 32, 0xffff000000000008, PB_EFORMAT, 0x20a + 24 + 4 + 36, "record.ValueProfData.NumValueKinds"},
        {0x338, 7, PB_EFORMAT, 0x338, "binary_ids.SectionSize"},
        {W(binary_id_offset), 0x100000, PB_EFORMAT, W(binary_id_offset), "header.BinaryIdOffset"},
    };
#undef W
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_patch(d, len, &cases[i]);
    free(d);
}

static void indexed_read__every_prefix_and_byte_flip_fails_cleanly(void) {
    const char *path = real_path("llvm19/cs-merged", ".profdata");
    TU_SKIP_IF(!tu_exists(path), "shared testdata/llvm-real absent");
    size_t len;
    uint8_t *d = (uint8_t *)tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    for (size_t n = 0; n < len; n++) {
        pb_profile *p = NULL;
        pb_error err;
        int rc = read_mem(d, n, "indexed", &p, &err);
        /* Prefixes that still hold the header, table and records read (the
         * sections after the table are optional); the rest must fail cleanly. */
        if (rc) CU_ASSERT(rc == PB_ETRUNC || rc == PB_EFORMAT);
        pb_profile_free(p);
    }
    for (size_t i = 0; i < len; i++) {
        uint8_t keep = d[i];
        d[i] ^= 0xa5;
        pb_profile *p = NULL;
        pb_error err;
        (void)read_mem(d, len, "indexed", &p, &err);
        pb_profile_free(p);
        d[i] = keep;
    }
    free(d);
}

/* ---- streaming (pb_indexed_foreach, used by `show`) ---------------------- */

/* Compares each streamed record with record `next` of the model read of the
 * same bytes (the reader that the LLVM-oracle tests above check). */
typedef struct stream_cmp {
    const pb_profile *model; /* NULL: only count */
    size_t next, mismatches;
    uint64_t flags;
    int started;
} stream_cmp;

static int cmp_start(void *ctx, uint64_t flags, pb_error *err) {
    (void)err;
    stream_cmp *c = ctx;
    c->flags = flags;
    c->started++;
    return 0;
}

static int same_record(const pb_profile *m, const pb_record *a, const char *name, size_t len, const pb_record *b) {
    const char *n;
    size_t nl;
    uint64_t h;
    if (pb_profile_record_name(m, a, &n, &nl, &h, NULL) || nl != len || memcmp(n, name, len) || h != b->hash)
        return 0;
    if (a->num_counters != b->num_counters || memcmp(a->counters, b->counters, 8 * (size_t)a->num_counters))
        return 0;
    if (a->num_bitmap_bytes != b->num_bitmap_bytes ||
        (a->num_bitmap_bytes && memcmp(a->bitmap, b->bitmap, a->num_bitmap_bytes)))
        return 0;
    for (int k = 0; k < PB_VK_COUNT; k++) {
        if (a->num_sites[k] != b->num_sites[k]) return 0;
        for (uint32_t s = 0; s < a->num_sites[k]; s++) {
            const pb_site *x = &a->sites[k][s], *y = &b->sites[k][s];
            if (x->num_values != y->num_values) return 0;
            for (uint32_t v = 0; v < x->num_values; v++)
                if (x->values[v].value != y->values[v].value || x->values[v].count != y->values[v].count) return 0;
        }
    }
    return 1;
}

static int cmp_each(void *ctx, const char *name, size_t len, const pb_record *r, pb_error *err) {
    (void)err;
    stream_cmp *c = ctx;
    if (c->model) {
        const pb_record *m = pb_profile_record(c->model, c->next);
        if (!m || !same_record(c->model, m, name, len, r)) c->mismatches++;
    }
    c->next++;
    return 0;
}

/* Streams data and reads it into a model: both succeed with the same records
 * in the same order and the same profile-level data, or both fail with the
 * same code, offset and field. Returns 1 when both read. */
static int stream_matches_read(const uint8_t *d, size_t len, const char *what) {
    pb_profile *p = NULL, *side = NULL;
    pb_error e1, e2;
    int r1 = read_mem(d, len, "indexed", &p, &e1);
    pb_error_clear(&e2);
    stream_cmp c = {p, 0, 0, 0, 0};
    int r2 = pb_indexed_foreach(d, len, "mem", NULL, cmp_start, cmp_each, &c, &side, &e2);
    CU_ASSERT_EQUAL(r1, r2);
    if (r1 && r2) {
        CU_ASSERT_EQUAL(e1.offset, e2.offset);
        CU_ASSERT_STRING_EQUAL(e1.path, e2.path);
        CU_ASSERT_STRING_EQUAL(e1.source, e2.source);
        CU_ASSERT_PTR_NULL(side);
    }
    if (r1 == 0 && r2 == 0) {
        CU_ASSERT_EQUAL(c.started, 1);
        CU_ASSERT_EQUAL(c.flags, pb_profile_flags(p));
        CU_ASSERT_EQUAL(c.next, pb_profile_record_count(p));
        CU_ASSERT_EQUAL(c.mismatches, 0);
        CU_ASSERT_EQUAL(pb_profile_origin(side)->version, pb_profile_origin(p)->version);
        CU_ASSERT_STRING_EQUAL(pb_profile_origin(side)->format, "indexed");
        CU_ASSERT_EQUAL(pb_profile_binary_id_count(side), pb_profile_binary_id_count(p));
        CU_ASSERT_EQUAL(pb_profile_trace_count(side), pb_profile_trace_count(p));
        CU_ASSERT_EQUAL(pb_profile_record_count(side), 0);
    }
    if (r1 != r2 || c.mismatches)
        fprintf(stderr, "\n  stream and read differ on %s: rc %d vs %d, %zu mismatches\n", what, r1, r2, c.mismatches);
    pb_profile_free(p);
    pb_profile_free(side);
    return r1 == 0 && r2 == 0;
}

static void indexed_stream__hands_out_what_the_reader_reads(void) {
    TU_SKIP_IF(!tu_exists(real_path("llvm19/simple-ir", ".profdata")), "shared testdata/llvm-real absent");
    for (int i = 0; real_indexed[i]; i++) {
        size_t len;
        uint8_t *d = (uint8_t *)tu_slurp(real_path(real_indexed[i], ".profdata"), &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        CU_ASSERT_TRUE(stream_matches_read(d, len, real_indexed[i]));
        free(d);
    }
}

/* Every prefix and byte flip of a real file, and the fuzz seeds: the stream
 * fails exactly where the reader fails (code, offset, field) and never
 * crashes (ASan). The reader's MD5(key) check only warns, so a flipped
 * KeyHash reads in both. */
static void indexed_stream__fails_where_the_reader_fails(void) {
    const char *path = real_path("llvm19/cs-merged", ".profdata");
    TU_SKIP_IF(!tu_exists(path), "shared testdata/llvm-real absent");
    size_t len;
    uint8_t *d = (uint8_t *)tu_slurp(path, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    char what[64];
    for (size_t n = 0; n < len; n++) {
        snprintf(what, sizeof what, "prefix %zu", n);
        (void)stream_matches_read(d, n, what);
    }
    for (size_t i = 0; i < len; i++) {
        uint8_t keep = d[i];
        d[i] ^= 0xa5;
        snprintf(what, sizeof what, "flip at %zu", i);
        (void)stream_matches_read(d, len, what);
        d[i] = keep;
    }
    free(d);
    DIR *dir = opendir(tu_src("tests/fuzz/indexed"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.') continue;
        char rel[512];
        snprintf(rel, sizeof rel, "tests/fuzz/indexed/%s", e->d_name);
        uint8_t *f = (uint8_t *)tu_slurp(tu_src(rel), &len);
        if (!f) continue;
        files++;
        (void)stream_matches_read(f, len, rel);
        free(f);
    }
    closedir(dir);
    CU_ASSERT(files >= 10);
}

/* ---- writing ------------------------------------------------------------ */

static void indexed_write__real_files_round_trip_byte_for_byte(void) {
    TU_SKIP_IF(!tu_exists(real_path("llvm19/simple-ir", ".profdata")), "shared testdata/llvm-real absent");
    for (int i = 0; real_indexed[i]; i++) {
        size_t len, olen = 0;
        char *orig = tu_slurp(real_path(real_indexed[i], ".profdata"), &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(orig);
        pb_profile *p = NULL;
        pb_error err;
        CU_ASSERT_EQUAL_FATAL(read_mem(orig, len, NULL, &p, &err), 0);
        const char *opts[] = {strncmp(real_indexed[i], "llvm14", 6) == 0 ? "indexed-version=7" : "indexed-version=12", NULL};
        uint8_t *out = write_mem(p, "indexed", opts, &olen, NULL);
        CU_ASSERT_PTR_NOT_NULL(out);
        int same = out && olen == len && memcmp(out, orig, len) == 0;
        CU_ASSERT_TRUE(same);
        if (!same) fprintf(stderr, "\n  not identical: %s (%zu vs %zu bytes)\n", real_indexed[i], olen, len);
        free(out);
        pb_profile_free(p);
        free(orig);
    }
}

static void indexed_write__text_input_gives_llvm_profdata_bytes(void) {
    /* Oracle: llvm-profdata-14/-19 merge of the same .proftext, run now. */
    TU_SKIP_IF(!tu_exists(real_path("llvm14/simple-ir", ".proftext")), "shared testdata/llvm-real absent");
    TU_SKIP_IF(access("/usr/bin/llvm-profdata-19", X_OK) != 0 || access("/usr/bin/llvm-profdata-14", X_OK) != 0,
               "llvm-profdata-14/-19 not installed");
    for (int i = 0; real_indexed[i]; i++) {
        int is14 = strncmp(real_indexed[i], "llvm14", 6) == 0;
        char cmd[1024], tmp[64];
        snprintf(tmp, sizeof tmp, "/tmp/pb_idx_t2i_%d.profdata", (int)getpid());
        snprintf(cmd, sizeof cmd, "llvm-profdata-%s merge '%s' -o %s", is14 ? "14" : "19",
                 real_path(real_indexed[i], ".proftext"), tmp);
        CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
        const char *want_path = tmp;
        size_t tlen, wlen, olen = 0;
        char *text = tu_slurp(real_path(real_indexed[i], ".proftext"), &tlen);
        char *want = tu_slurp(want_path, &wlen);
        unlink(tmp);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(want);
        pb_profile *p = NULL;
        pb_error err;
        CU_ASSERT_EQUAL_FATAL(read_mem(text, tlen, "text", &p, &err), 0);
        const char *opts[] = {is14 ? "llvm-version=14" : "llvm-version=19", NULL};
        uint8_t *out = write_mem(p, "indexed", opts, &olen, NULL);
        int same = out && olen == wlen && memcmp(out, want, wlen) == 0;
        CU_ASSERT_TRUE(same);
        if (!same) fprintf(stderr, "\n  text->indexed differs from llvm-profdata: %s\n", real_indexed[i]);
        free(out);
        pb_profile_free(p);
        free(text);
        free(want);
    }
}

static void indexed_write__drops_what_v7_cannot_hold_with_notices(void) {
    const char *path = real_path("llvm19/vtable-ir", ".profdata");
    TU_SKIP_IF(!tu_exists(path), "shared testdata/llvm-real absent");
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_read_file(&p, path, NULL, &err), 0);
    tu_diag d;
    memset(&d, 0, sizeof d);
    const char *opts[] = {"llvm-version=14", NULL};
    size_t olen;
    uint8_t *out = write_mem(p, "indexed", opts, &olen, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "kind 2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.all, "binary ids dropped"));
    /* The v7 output reads back: version 7, no kind-2 sites. */
    pb_profile *q = NULL;
    CU_ASSERT_EQUAL_FATAL(read_mem(out, olen, NULL, &q, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_origin(q)->version, 7);
    for (size_t i = 0; i < pb_profile_record_count(q); i++)
        CU_ASSERT_EQUAL(pb_profile_record(q, i)->num_sites[PB_VK_VTABLE], 0);
    pb_profile_free(q);
    free(out);
    pb_profile_free(p);
}

static void indexed_write__keeps_vtable_names_lossless_by_default(void) {
    /* Build a profile with a vtable value: the default writer keeps the
     * name (like llvm-profdata-19 --keep-vtable-symbols), so it reads back as
     * a symbol; with no-keep-vtable-symbols the section is empty. */
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    pb_profile_set_flags(p, PB_VARIANT_IR);
    uint32_t sym;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "_ZTV1A", 6, &sym, &err), 0);
    uint64_t counts[2] = {5, 7};
    pb_value v = {pb_md5_ref("_ZTV1A", 6), 5, sym};
    pb_site site = {1, &v};
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.ctx = r.layout = PB_NONE;
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern(p, "f", 1, &r.name, &err), 0);
    r.hash = 0x1234;
    r.num_counters = 2;
    r.counters = counts;
    r.num_sites[PB_VK_VTABLE] = 1;
    r.sites[PB_VK_VTABLE] = &site;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, &err), 0);
    size_t olen;
    uint8_t *out = write_mem(p, "indexed", NULL, &olen, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    pb_profile *q = NULL;
    CU_ASSERT_EQUAL_FATAL(read_mem(out, olen, NULL, &q, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_symbol_count(q), 1);
    const pb_record *qr = pb_profile_record(q, 0);
    CU_ASSERT_EQUAL_FATAL(qr->num_sites[PB_VK_VTABLE], 1);
    CU_ASSERT_NOT_EQUAL(qr->sites[PB_VK_VTABLE][0].values[0].symbol, PB_NONE);
    pb_profile_free(q);
    free(out);
    const char *opts[] = {"no-keep-vtable-symbols", NULL};
    tu_diag d;
    memset(&d, 0, sizeof d);
    out = write_mem(p, "indexed", opts, &olen, &d);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_EQUAL(d.count[PB_DIAG_NOTICE] > 0, 1);
    CU_ASSERT_EQUAL_FATAL(read_mem(out, olen, NULL, &q, &err), 0);
    CU_ASSERT_EQUAL(pb_profile_symbol_count(q), 0);
    pb_profile_free(q);
    free(out);
    pb_profile_free(p);
}


/* Java records (iprof entries) are written under their rendered LLVM name
 * and hash; their type values keep their names through the vtable-names
 * section (indexed) and value names (text). */
static void indexed_write__java_records_use_their_rendered_names(void) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    pb_profile_set_flags(p, PB_VARIANT_IR | PB_VARIANT_ENTRY_FIRST);
    uint32_t t_fib, t_int, t_sub, m, ctx;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "Fib", 3, &t_fib, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "int", 3, &t_int, &err), 0);
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, "SubFib", 6, &t_sub, &err), 0);
    uint32_t sig[3] = {t_fib, t_int, t_int};
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_method(p, "fib", 3, sig, 3, &m, &err), 0);
    pb_frame fr = {m, 0};
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern_context(p, &fr, 1, &ctx, &err), 0);
    uint64_t c1[1] = {42}, c2[1] = {7};
    pb_value v = {pb_md5_ref("SubFib", 6), 7, t_sub};
    pb_site site = {1, &v};
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_JAVA_CALL_COUNT;
    r.name = PB_NONE;
    r.ctx = ctx;
    r.layout = PB_NONE;
    r.num_counters = 1;
    r.counters = c1;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, &err), 0);
    pb_frame fr2 = {m, 5};
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern_context(p, &fr2, 1, &ctx, &err), 0);
    r.kind = PB_REC_JAVA_VIRTUAL_INVOKE;
    r.ctx = ctx;
    r.counters = c2;
    r.num_sites[PB_VK_VTABLE] = 1;
    r.sites[PB_VK_VTABLE] = &site;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, &err), 0);
    const char *fmts[2] = {"indexed", "text"};
    for (int f = 0; f < 2; f++) {
        size_t olen;
        uint8_t *out = write_mem(p, fmts[f], NULL, &olen, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        pb_profile *q = NULL;
        CU_ASSERT_EQUAL_FATAL(read_mem(out, olen, fmts[f], &q, &err), 0);
        /* + the meta records (docs/mapping.md §6); hashes from Python's hashlib:
         * low 60 bits of the MD5 NameRef. Every method is referenced: no
         * jmeta:methods record. */
        CU_ASSERT_EQUAL(pb_profile_record_count(q), 4);
        static const struct { const char *name; uint64_t hash; } meta[2] = {
            {"jmeta:version:1.1.0", UINT64_C(0x5626479080d49a7)},
            {"jmeta:types:0:Fib,SubFib,int", UINT64_C(0x166843a4ec55bd9)}};
        for (size_t i = 0; i < 2; i++) {
            size_t idx;
            CU_ASSERT_EQUAL_FATAL(pb_profile_lookup(q, meta[i].name, strlen(meta[i].name), &idx, 1), 1);
            const pb_record *mr = pb_profile_record(q, idx);
            CU_ASSERT_EQUAL(mr->hash, meta[i].hash);
            CU_ASSERT_EQUAL_FATAL(mr->num_counters, 1);
            CU_ASSERT_EQUAL(mr->counters[0], 1);
        }
        for (size_t i = 0; i < 2; i++) {
            const pb_record *orig = pb_profile_record(p, i);
            const char *name;
            size_t nlen;
            uint64_t hash;
            CU_ASSERT_EQUAL_FATAL(pb_profile_record_name(p, orig, &name, &nlen, &hash, &err), 0);
            CU_ASSERT_EQUAL(hash & ~UINT64_C(0x0fffffffffffffff), 0); /* bits 60-63 clear */
            size_t idx;
            CU_ASSERT_EQUAL_FATAL(pb_profile_lookup(q, name, nlen, &idx, 1), 1);
            const pb_record *back = pb_profile_record(q, idx);
            CU_ASSERT_EQUAL(back->hash, hash);
            CU_ASSERT_EQUAL(back->counters[0], orig->counters[0]);
            if (orig->num_sites[PB_VK_VTABLE]) {
                CU_ASSERT_EQUAL_FATAL(back->num_sites[PB_VK_VTABLE], 1);
                const pb_value *bv = &back->sites[PB_VK_VTABLE][0].values[0];
                CU_ASSERT_EQUAL(bv->value, v.value);
                CU_ASSERT_NOT_EQUAL_FATAL(bv->symbol, PB_NONE);
                size_t sl;
                const char *sn = pb_profile_str(q, pb_profile_symbol(q, bv->symbol)->name, &sl);
                CU_ASSERT_EQUAL(sl, 6);
                CU_ASSERT_EQUAL(memcmp(sn, "SubFib", 6), 0);
            }
        }
        pb_profile_free(q);
        free(out);
    }
    pb_profile_free(p);
}


/* §3.14: v14 packs bitmap bytes (padded to 8) and adds NumUniformityBytes;
 * v13 is v12's layout with another number. Built record: 2 counters, bitmap
 * 55 55 55, no value sites. */
static void indexed_write__v13_and_v14_record_layouts_follow_the_spec(void) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    pb_profile_set_flags(p, PB_VARIANT_IR);
    uint64_t counts[2] = {19, 7};
    uint8_t bm[3] = {0x55, 0x55, 0x55};
    pb_record r;
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.ctx = r.layout = PB_NONE;
    CU_ASSERT_EQUAL_FATAL(pb_profile_intern(p, "foo", 3, &r.name, &err), 0);
    r.hash = 1;
    r.num_counters = 2;
    r.counters = counts;
    r.num_bitmap_bytes = 3;
    r.bitmap = bm;
    CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, &err), 0);
    static const struct { const char *opt; uint64_t datalen; } cases[] = {
        {"indexed-version=12", 8 + 8 + 16 + 8 + 24 + 8},     /* bitmap: 3 u64 words */
        {"indexed-version=13", 8 + 8 + 16 + 8 + 24 + 8},
        {"indexed-version=14", 8 + 8 + 16 + 8 + 8 + 8 + 8}, /* packed + U=0 */
        {"indexed-version=10", 8 + 8 + 16 + 8},             /* no bitmap before v11 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *opts[] = {cases[i].opt, NULL};
        size_t olen;
        uint8_t *out = write_mem(p, "indexed", opts, &olen, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        pbi_idx_file f;
        CU_ASSERT_EQUAL_FATAL(pbi_idx_open(&f, out, olen, &err), 0);
        CU_ASSERT_EQUAL(f.header_size, f.version >= 12 ? 72u : 64u);
        pbi_idx_item it;
        CU_ASSERT_EQUAL_FATAL(pbi_idx_find(&f, "foo", 3, &it, &err), 0);
        CU_ASSERT_EQUAL(it.data_len, cases[i].datalen);
        if (f.version == 14) {
            const uint8_t want[8] = {0x55, 0x55, 0x55, 0, 0, 0, 0, 0};
            CU_ASSERT_EQUAL(memcmp(out + it.data_off + 40, want, 8), 0);
        }
        pb_profile *q = NULL;
        CU_ASSERT_EQUAL_FATAL(read_mem(out, olen, NULL, &q, &err), 0);
        const pb_record *b = pb_profile_record(q, 0);
        CU_ASSERT_EQUAL(b->num_bitmap_bytes, f.version >= 11 ? 3u : 0u);
        if (b->num_bitmap_bytes == 3) CU_ASSERT_EQUAL(memcmp(b->bitmap, bm, 3), 0);
        CU_ASSERT_EQUAL(b->counters[1], 7);
        pb_profile_free(q);
        free(out);
    }
    pb_profile_free(p);
}

static void indexed_probe__bids_8_on_the_magic_only(void) {
    const pb_format *f = pb_format_lookup("indexed");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    const uint8_t magic[16] = {0xff, 0x6c, 0x70, 0x72, 0x6f, 0x66, 0x69, 0x81, 12};
    CU_ASSERT_EQUAL(f->probe(magic, 16), 8);
    CU_ASSERT_EQUAL(f->probe(magic, 7), 0);
    const uint8_t raw[8] = {0x81, 0x72, 0x66, 0x6f, 0x72, 0x70, 0x6c, 0xff};
    CU_ASSERT_EQUAL(f->probe(raw, 8), 0);
    CU_ASSERT_PTR_EQUAL(pb_format_for_path("x/a.profdata"), f);
}

/* The distinct counts of n records {i + 1, 7, 0, i % 3 + 1}, counted by hand:
 * small n stays in the summary's map, large n goes on in its array (the map
 * would outgrow it); both must give every distinct count, descending. */
static void check_distinct_counts(uint32_t n) {
    pbi_summary s;
    pbi_summary_init(&s, PBI_SUM_LLVM19, 1);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t c[4] = {i + 1, 7, 0, i % 3 + 1};
        pbi_summary_add(&s, c, 4);
    }
    CU_ASSERT_EQUAL_FATAL(pbi_summary_finish(&s), 0);
    CU_ASSERT_EQUAL(s.array_mode, n > 1000); /* both ways are tested */
    CU_ASSERT_EQUAL_FATAL(s.nf, (size_t)n + (n < 7) + 1);
    size_t k = 0;
    for (uint64_t v = n > 7 ? n : 7; v >= 1; v--) {
        uint32_t want = (v <= n) + (v == 7) * n;
        if (v <= 3) want += n / 3 + (n % 3 > v - 1);
        if (!want) continue;
        CU_ASSERT_EQUAL(s.f[k].count, v);
        CU_ASSERT_EQUAL(s.f[k].n, want);
        k++;
    }
    CU_ASSERT_EQUAL(s.f[k].count, 0); /* the zeros last */
    CU_ASSERT_EQUAL(s.f[k].n, n);
    CU_ASSERT_EQUAL(s.num_counts, 4 * n);
    pbi_summary_free(&s);
}

static void summary__distinct_counts_in_the_map_and_past_it(void) {
    check_distinct_counts(5);
    check_distinct_counts(10);
    check_distinct_counts(40000); /* 40,003 distinct of 120,000: the array */
}

/* The writer's 32-bit entries: past pbi_indexed_write_max_records (INT32_MAX)
 * records it refuses with PB_ELIMIT, reached here with the limit lowered. */
static void indexed_write__refuses_more_records_than_its_limit(void) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    pb_profile_set_flags(p, PB_VARIANT_IR);
    uint64_t counts[1] = {1};
    const char *names[3] = {"a", "b", "c"};
    for (int i = 0; i < 3; i++) {
        pb_record r;
        memset(&r, 0, sizeof r);
        r.kind = PB_REC_FUNCTION;
        r.ctx = r.layout = PB_NONE;
        CU_ASSERT_EQUAL_FATAL(pb_profile_intern(p, names[i], 1, &r.name, &err), 0);
        r.hash = 1;
        r.num_counters = 1;
        r.counters = counts;
        CU_ASSERT_EQUAL_FATAL(pb_profile_add_record(p, &r, NULL, &err), 0);
    }
    size_t keep = pbi_indexed_write_max_records;
    for (size_t max = 2; max <= 3; max++) {
        pbi_indexed_write_max_records = max;
        pb_sink *sink = NULL;
        CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&sink, &err), 0);
        pb_error_clear(&err);
        int rc = pbi_indexed_write(p, sink, NULL, &err);
        CU_ASSERT_EQUAL(rc, max == 2 ? PB_ELIMIT : 0);
        if (max == 2) {
            CU_ASSERT_STRING_EQUAL(err.path, "records");
            CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "more than 2 records"));
        }
        pb_sink_free(sink);
    }
    pbi_indexed_write_max_records = keep;
    pb_profile_free(p);
}


/* iprof -> indexed with Java names streamed (rendered to be hashed, ordered
 * without rendering, rendered again when written) gives the bytes of the
 * writer that keeps every rendered name: every iprof sample, releases whose
 * keys are sorted (17+) and the StringMap one (14, not streamed), plain and
 * --sparse. */
static void indexed_write__streamed_java_names_give_the_cached_names_bytes(void) {
    static const char *const files[] = {"testdata/samples/fib-doc.iprof", "testdata/types/receivers.iprof",
                                        "testdata/types/samples.iprof", "tests/fuzz/iprof/all-sections.iprof",
                                        "tests/fuzz/iprof/stream-extras.iprof", "tests/fuzz/iprof/pretty.iprof"};
    static const char *const releases[] = {"14", "17", "19", "24"};
    const pb_format *f = pb_format_lookup("indexed");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    int keep = pbi_indexed_write_stream_java;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        pb_profile *p = NULL;
        pb_error err;
        pb_error_clear(&err);
        CU_ASSERT_EQUAL_FATAL(pb_read_file(&p, tu_src(files[i]), NULL, &err), 0);
        for (size_t r = 0; r < sizeof releases / sizeof *releases; r++)
            for (int sparse = 0; sparse < 2; sparse++) {
                pb_kv kv[1] = {{"sparse", "1"}};
                pb_write_options wo = PB_WRITE_OPTIONS_INIT;
                wo.kv = kv;
                wo.nkv = sparse ? 1 : 0;
                wo.llvm_release = atoi(releases[r]);
                const uint8_t *out[2];
                size_t n[2];
                pb_sink *s[2] = {NULL, NULL};
                for (int stream = 0; stream < 2; stream++) {
                    pbi_indexed_write_stream_java = stream;
                    CU_ASSERT_EQUAL_FATAL(pb_sink_open_memory(&s[stream], &err), 0);
                    CU_ASSERT_EQUAL(pb_write(p, s[stream], f, &wo, &err), 0);
                    out[stream] = pb_sink_memory(s[stream], &n[stream]);
                }
                CU_ASSERT(n[0] > 0 && n[0] == n[1] && memcmp(out[0], out[1], n[0]) == 0);
                if (n[0] != n[1] || memcmp(out[0], out[1], n[0]) != 0)
                    fprintf(stderr, "\n%s, LLVM %s%s: streamed names give other bytes\n", files[i], releases[r],
                            sparse ? ", sparse" : "");
                pb_sink_free(s[0]);
                pb_sink_free(s[1]);
            }
        pb_profile_free(p);
    }
    pbi_indexed_write_stream_java = keep;
}


/* Writes p as indexed for LLVM `release` with Java names streamed and
 * cached; 1 when both give the same bytes. */
static int streamed_same(const pb_profile *p, int release, int sparse) {
    const pb_format *f = pb_format_lookup("indexed");
    pb_kv kv[1] = {{"sparse", "1"}};
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    wo.kv = kv;
    wo.nkv = sparse ? 1 : 0;
    wo.llvm_release = release;
    const uint8_t *out[2];
    size_t n[2];
    pb_sink *s[2] = {NULL, NULL};
    pb_error err;
    int keep = pbi_indexed_write_stream_java, rc[2] = {-1, -1};
    for (int stream = 0; stream < 2; stream++) {
        pbi_indexed_write_stream_java = stream;
        pb_error_clear(&err);
        if (pb_sink_open_memory(&s[stream], &err)) break;
        rc[stream] = pb_write(p, s[stream], f, &wo, &err);
        out[stream] = pb_sink_memory(s[stream], &n[stream]);
    }
    pbi_indexed_write_stream_java = keep;
    int same = rc[0] == 0 && rc[1] == 0 && n[0] > 0 && n[0] == n[1] && memcmp(out[0], out[1], n[0]) == 0;
    pb_sink_free(s[0]);
    pb_sink_free(s[1]);
    return same;
}

/* A profile of 4,000 Java records over methods whose descriptors start
 * one another ("a.m" and "a.mm", "<init>", a '|' in a name), frames
 * that agree for a while, bcis that order differently as text than as
 * numbers (12, 123, 5, -1), a jmonitor entry and function records (the
 * jmeta: records): enough keys that buckets hold several, so the order
 * the keys are inserted in shows in the bytes. */
static void indexed_write__streamed_java_names_order_like_their_bytes(void) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(pb_profile_new(&p, &err), 0);
    static const char *const types[] = {"a", "ab", "a.b", "x|y", "Z"};
    static const char *const names[] = {"m", "mm", "<init>", "m|n", "n"};
    static const int32_t bcis[] = {0, 1, 5, 12, 123, -1, 50, 1000};
    uint32_t sym[5], meth[25];
    for (int i = 0; i < 5; i++)
        CU_ASSERT_EQUAL_FATAL(pb_profile_add_symbol(p, types[i], strlen(types[i]), &sym[i], &err), 0);
    for (int t = 0; t < 5; t++)
        for (int m = 0; m < 5; m++) {
            uint32_t sig[3] = {sym[t], sym[(t + m) % 5], sym[m]};
            CU_ASSERT_EQUAL_FATAL(
                pb_profile_add_method(p, names[m], strlen(names[m]), sig, 2 + (size_t)(m & 1), &meth[t * 5 + m], &err), 0);
        }
    static const uint8_t kinds[] = {PB_REC_JAVA_CALL_COUNT, PB_REC_JAVA_VIRTUAL_INVOKE, PB_REC_JAVA_SAMPLE,
                                    PB_REC_JAVA_INSTANCEOF};
    uint64_t seed = 12345, counts[1] = {7};
    size_t added = 0;
    for (int i = 0; i < 4000; i++) {
        pb_frame fr[5];
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        size_t nf = 1 + (size_t)(seed >> 60) % 5;
        for (size_t k = 0; k < nf; k++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            /* few methods near the top of the stack: frames agree for a while */
            fr[k].method = meth[(seed >> 40) % (k == 0 ? 3 : 25)];
            fr[k].bci = bcis[(seed >> 20) % 8];
        }
        pb_record r;
        memset(&r, 0, sizeof r);
        r.kind = kinds[(seed >> 10) % 4];
        r.name = PB_NONE;
        r.layout = PB_NONE;
        r.num_counters = 1;
        r.counters = counts;
        CU_ASSERT_EQUAL_FATAL(pb_profile_intern_context(p, fr, nf, &r.ctx, &err), 0);
        int rc = pb_profile_add_record(p, &r, NULL, &err);
        CU_ASSERT(rc == 0 || rc == PB_EEXIST);
        added += rc == 0;
    }
    CU_ASSERT(added > 2000);
    CU_ASSERT(streamed_same(p, 19, 0));
    CU_ASSERT(streamed_same(p, 17, 1));
    CU_ASSERT(streamed_same(p, 24, 0));
    pb_profile_free(p);
}

static CU_TestInfo indexed_tests[] = {
    {"indexed_write__streamed_java_names_order_like_their_bytes",
     indexed_write__streamed_java_names_order_like_their_bytes},
    {"indexed_write__streamed_java_names_give_the_cached_names_bytes",
     indexed_write__streamed_java_names_give_the_cached_names_bytes},
    {"indexed_write__refuses_more_records_than_its_limit", indexed_write__refuses_more_records_than_its_limit},
    {"summary__distinct_counts_in_the_map_and_past_it", summary__distinct_counts_in_the_map_and_past_it},
    {"indexed_layout__header_sizes_match_the_spec", indexed_layout__header_sizes_match_the_spec},
    {"indexed_summary__follows_llvm14_and_llvm19_special_count_rules",
     indexed_summary__follows_llvm14_and_llvm19_special_count_rules},
    {"indexed_summary__simple_ir_cutoffs_match_the_spec", indexed_summary__simple_ir_cutoffs_match_the_spec},
    {"indexed_xxh3__matches_the_reference_implementation", indexed_xxh3__matches_the_reference_implementation},
    {"indexed_read__simple_ir_matches_the_worked_example", indexed_read__simple_ir_matches_the_worked_example},
    {"indexed_read__every_profparser_indexed_version_reads", indexed_read__every_profparser_indexed_version_reads},
    {"indexed_read__skips_memprof_and_keeps_its_flag", indexed_read__skips_memprof_and_keeps_its_flag},
    {"indexed_lookup__reads_only_the_named_function", indexed_lookup__reads_only_the_named_function},
    {"indexed_lookup__returns_both_records_of_a_cs_key", indexed_lookup__returns_both_records_of_a_cs_key},
    {"indexed_lookup__rejects_bucket_offsets_outside_the_payload",
     indexed_lookup__rejects_bucket_offsets_outside_the_payload},
    {"indexed_read__rejects_damaged_fields_with_offset_and_field",
     indexed_read__rejects_damaged_fields_with_offset_and_field},
    {"indexed_read__every_prefix_and_byte_flip_fails_cleanly", indexed_read__every_prefix_and_byte_flip_fails_cleanly},
    {"indexed_stream__hands_out_what_the_reader_reads", indexed_stream__hands_out_what_the_reader_reads},
    {"indexed_stream__fails_where_the_reader_fails", indexed_stream__fails_where_the_reader_fails},
    {"indexed_write__real_files_round_trip_byte_for_byte", indexed_write__real_files_round_trip_byte_for_byte},
    {"indexed_write__text_input_gives_llvm_profdata_bytes", indexed_write__text_input_gives_llvm_profdata_bytes},
    {"indexed_write__drops_what_v7_cannot_hold_with_notices", indexed_write__drops_what_v7_cannot_hold_with_notices},
    {"indexed_write__keeps_vtable_names_lossless_by_default", indexed_write__keeps_vtable_names_lossless_by_default},
    {"indexed_write__java_records_use_their_rendered_names", indexed_write__java_records_use_their_rendered_names},
    {"indexed_write__v13_and_v14_record_layouts_follow_the_spec",
     indexed_write__v13_and_v14_record_layouts_follow_the_spec},
    {"indexed_probe__bids_8_on_the_magic_only", indexed_probe__bids_8_on_the_magic_only},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_indexed[] = {{"indexed", NULL, NULL, NULL, NULL, indexed_tests}, CU_SUITE_INFO_NULL};
