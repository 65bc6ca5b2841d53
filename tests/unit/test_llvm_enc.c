/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * test_llvm_enc.c -- the LLVM encodings of src/llvm/ (ULEB128, names,
 * ValueProfData, binary ids) against hand-computed bytes (spec §1.3, §2.9,
 * §2.11, §2.13, §3.7).
 */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "testutil.h"
#include "util/bytes.h"
#include "llvm/binary_ids.h"
#include "llvm/leb128.h"
#include "llvm/names.h"
#include "llvm/value_data.h"

/* ---- ULEB128 ---------------------------------------------------------------- */

static void leb128__decodes_and_encodes_hand_computed_values(void) {
    static const struct {
        uint64_t v;
        uint8_t n, b[10];
    } c[] = {
        {0, 1, {0x00}},
        {127, 1, {0x7f}},
        {128, 2, {0x80, 0x01}},
        {624485, 3, {0xe5, 0x8e, 0x26}},
        {UINT64_C(1) << 63, 10, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
        {UINT64_MAX, 10, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        uint64_t v = 12345;
        size_t pos = 0;
        CU_ASSERT_EQUAL(pbi_uleb_decode(c[i].b, c[i].n, &pos, &v), PBI_ULEB_OK);
        CU_ASSERT_EQUAL(pos, c[i].n);
        CU_ASSERT_EQUAL(v, c[i].v);
        uint8_t out[PBI_ULEB_MAX];
        CU_ASSERT_EQUAL(pbi_uleb_put(out, c[i].v), c[i].n);
        CU_ASSERT_EQUAL(memcmp(out, c[i].b, c[i].n), 0);
    }
    /* a non-minimal encoding is still a value (LLVM accepts padding bytes) */
    const uint8_t pad[] = {0x81, 0x80, 0x00};
    uint64_t v;
    size_t pos = 0;
    CU_ASSERT_EQUAL(pbi_uleb_decode(pad, sizeof pad, &pos, &v), PBI_ULEB_OK);
    CU_ASSERT_EQUAL(v, 1);
    CU_ASSERT_EQUAL(pos, 3);
}

static void leb128__refuses_an_11th_byte_bits_beyond_64_and_truncation(void) {
    uint64_t v = 7;
    size_t pos = 0;
    /* 10 continuation bytes (the 10th carrying only bit 63's slot) then an 11th */
    const uint8_t eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00};
    CU_ASSERT_EQUAL(pbi_uleb_decode(eleven, sizeof eleven, &pos, &v), PBI_ULEB_OVERFLOW);
    CU_ASSERT_EQUAL(pos, 10); /* the 11th byte is at fault */
    /* the 10th byte may hold bit 63 only: 0x02 would be bit 64 */
    const uint8_t bit64[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    pos = 0;
    CU_ASSERT_EQUAL(pbi_uleb_decode(bit64, sizeof bit64, &pos, &v), PBI_ULEB_OVERFLOW);
    CU_ASSERT_EQUAL(pos, 9);
    const uint8_t cut[] = {0x80, 0x80};
    pos = 0;
    CU_ASSERT_EQUAL(pbi_uleb_decode(cut, sizeof cut, &pos, &v), PBI_ULEB_TRUNCATED);
    CU_ASSERT_EQUAL(pos, 2);
    pos = 1; /* decoding starts at *pos and never reads at or past `end` */
    CU_ASSERT_EQUAL(pbi_uleb_decode(cut, 1, &pos, &v), PBI_ULEB_TRUNCATED);
    CU_ASSERT_EQUAL(v, 7); /* untouched on failure */
}

/* ---- names ------------------------------------------------------------------- */

typedef struct names_seen {
    char all[256];
    unsigned n;
} names_seen;

static int collect(void *ctx, const char *name, size_t len, pb_error *err) {
    (void)err;
    names_seen *s = ctx;
    size_t k = strlen(s->all);
    snprintf(s->all + k, sizeof s->all - k, "%s%.*s", s->n++ ? "|" : "", (int)len, name);
    return 0;
}

static int decode(const uint8_t *b, size_t n, names_seen *s, pb_error *err) {
    memset(s, 0, sizeof *s);
    pb_error_clear(err);
    return pbi_names_decode(b, n, 0x100, "names", collect, s, err);
}

static void names__plain_chunk_is_two_lengths_and_the_text(void) {
    pb_buf out = PB_BUF_INIT;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_names_encode("foo\x01" "bar\x01", 8, 0, &out, &err), 0);
    const uint8_t want[] = {0x07, 0x00, 'f', 'o', 'o', 0x01, 'b', 'a', 'r'};
    CU_ASSERT_EQUAL_FATAL(out.len, sizeof want);
    CU_ASSERT_EQUAL(memcmp(out.data, want, sizeof want), 0);
    names_seen s;
    CU_ASSERT_EQUAL(decode(want, sizeof want, &s, &err), 0);
    CU_ASSERT_STRING_EQUAL(s.all, "foo|bar");
    pbu_buf_free(&out);
}

static void names__zlib_chunk_round_trips_with_lengths_as_the_spec_example(void) {
    /* spec §2.9: "foo\x01bar\x01main" is 0c <clen> 78 da ... (zlib level 9) */
    pb_buf out = PB_BUF_INIT;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_names_encode("foo\x01" "bar\x01" "main", 12, 1, &out, &err), 0);
    const uint8_t *b = (const uint8_t *)out.data;
    CU_ASSERT_EQUAL_FATAL(out.len > 4, 1);
    CU_ASSERT_EQUAL(b[0], 0x0c);
    CU_ASSERT_EQUAL(b[1], out.len - 2); /* the compressed length, one ULEB byte */
    CU_ASSERT_EQUAL(b[2], 0x78);
    CU_ASSERT_EQUAL(b[3], 0xda);
    names_seen s;
    CU_ASSERT_EQUAL(decode(b, out.len, &s, &err), 0);
    CU_ASSERT_STRING_EQUAL(s.all, "foo|bar|main");
    pbu_buf_free(&out);
}

static void names__skips_zero_bytes_between_chunks(void) {
    const uint8_t b[] = {0x01, 0x00, 'a', 0x00, 0x00, 0x03, 0x00, 'b', 0x01, 'c', 0x00};
    names_seen s;
    pb_error err;
    CU_ASSERT_EQUAL(decode(b, sizeof b, &s, &err), 0);
    CU_ASSERT_STRING_EQUAL(s.all, "a|b|c");
    pb_buf text = PB_BUF_INIT;
    CU_ASSERT_EQUAL(pbi_names_decode_text(b, sizeof b, 0, "names", &text, &err), 0);
    CU_ASSERT_EQUAL(text.len, 6);
    CU_ASSERT_EQUAL(memcmp(text.data, "a\x01" "b\x01" "c\x01", 6), 0);
    pbu_buf_free(&text);
}

static void names__refuses_bad_chunks_at_their_offset(void) {
    names_seen s;
    pb_error err;
    /* a chunk length of 11 ULEB bytes: overflow, at the chunk (0x100 + 2) */
    const uint8_t big[] = {0x01, 0x00, 'a', 0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00};
    CU_ASSERT_EQUAL(decode(big, sizeof big, &s, &err), PB_EFORMAT);
    CU_ASSERT_EQUAL(err.offset, 0x104);
    CU_ASSERT_STRING_EQUAL(err.path, "names");
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "does not fit in 64 bits (byte 0x10e)"));
    /* stored bytes past the blob */
    const uint8_t cut[] = {0x09, 0x00, 'f'};
    CU_ASSERT_EQUAL(decode(cut, sizeof cut, &s, &err), PB_ETRUNC);
    CU_ASSERT_EQUAL(err.offset, 0x100);
    /* an empty name between two separators */
    const uint8_t empty[] = {0x04, 0x00, 'a', 0x01, 0x01, 'b'};
    CU_ASSERT_EQUAL(decode(empty, sizeof empty, &s, &err), PB_EFORMAT);
    /* zlib bytes that are not zlib */
    const uint8_t notz[] = {0x03, 0x02, 0x12, 0x34};
    CU_ASSERT_EQUAL(decode(notz, sizeof notz, &s, &err), PB_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "does not decompress"));
    /* an expansion zlib cannot produce must not drive an allocation */
    const uint8_t lie[] = {0xff, 0xff, 0xff, 0xff, 0x0f, 0x02, 0x78, 0xda};
    CU_ASSERT_EQUAL(decode(lie, sizeof lie, &s, &err), PB_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "more than zlib can produce"));
}

/* ---- ValueProfData ------------------------------------------------------------ */

/* spec §2.11's worked example (basic-ir main, LLVM 19): kind 0 with one site
 * of 3 values, kind 1 with one site of 6 values, TotalSize 184. */
static size_t example_blob(uint8_t *b, int order) {
    memset(b, 0, 184);
    pb_put_u32(b, 184, order);
    pb_put_u32(b + 4, 2, order);
    pb_put_u32(b + 8, 0, order);  /* Kind 0 */
    pb_put_u32(b + 12, 1, order); /* NumValueSites */
    b[16] = 3;                    /* SiteCountArray, then 7 zero bytes */
    for (unsigned i = 0; i < 3; i++) {
        pb_put_u64(b + 24 + 16 * i, 0x1000 + i, order);
        pb_put_u64(b + 32 + 16 * i, 10 * (i + 1), order);
    }
    pb_put_u32(b + 72, 1, order); /* Kind 1 at 8 + 64 */
    pb_put_u32(b + 76, 1, order);
    b[80] = 6;
    for (unsigned i = 0; i < 6; i++) {
        pb_put_u64(b + 88 + 16 * i, i + 1, order);
        pb_put_u64(b + 96 + 16 * i, 100 + i, order);
    }
    return 184;
}

static void value_data__parses_and_fills_the_spec_example(void) {
    for (int order = PB_ORDER_LE; order <= PB_ORDER_BE; order++) {
        uint8_t b[192];
        size_t n = example_blob(b, order);
        pbi_vpd v;
        pb_error err;
        pb_error_clear(&err);
        CU_ASSERT_EQUAL_FATAL(pbi_vpd_parse(b, 0, n, order, 3, "vpd", &v, &err), 0);
        CU_ASSERT_EQUAL(v.total, 184);
        CU_ASSERT_EQUAL(v.num_kinds, 2);
        CU_ASSERT_EQUAL(v.present, 3);
        CU_ASSERT_EQUAL(v.kind[0].at, 8);
        CU_ASSERT_EQUAL(v.kind[0].values, 24);
        CU_ASSERT_EQUAL(v.kind[1].at, 72);
        CU_ASSERT_EQUAL(v.kind[1].num_values, 6);
        CU_ASSERT_EQUAL(v.num_sites, 2);
        CU_ASSERT_EQUAL(v.num_values, 9);
        CU_ASSERT_EQUAL(pbi_vpd_record_size(1, 3), 64);
        pb_site sites[2];
        pb_value vals[9];
        pb_record r;
        memset(&r, 0, sizeof r);
        pbi_vpd_fill(b, &v, order, sites, vals, &r);
        CU_ASSERT_EQUAL(r.num_sites[0], 1);
        CU_ASSERT_EQUAL(r.num_sites[1], 1);
        CU_ASSERT_EQUAL(r.num_sites[2], 0);
        CU_ASSERT_EQUAL(r.sites[0][0].num_values, 3);
        CU_ASSERT_EQUAL(r.sites[0][0].values[2].value, 0x1002);
        CU_ASSERT_EQUAL(r.sites[0][0].values[2].count, 30);
        CU_ASSERT_EQUAL(r.sites[1][0].values[5].value, 6);
        CU_ASSERT_EQUAL(r.sites[1][0].values[5].count, 105);
        CU_ASSERT_EQUAL(r.sites[1][0].values[0].symbol, PB_NONE);
        /* and the encoder writes the very same bytes */
        pb_buf out = PB_BUF_INIT;
        pbi_vpd_stats st = {0, 0};
        CU_ASSERT_EQUAL(pbi_vpd_encode(&out, &r, 3, order, NULL, NULL, NULL, &st, &err), 0);
        CU_ASSERT_EQUAL_FATAL(out.len, 184);
        CU_ASSERT_EQUAL(memcmp(out.data, b, 184), 0);
        CU_ASSERT_EQUAL(st.values_dropped + st.sites_dropped, 0);
        pbu_buf_free(&out);
    }
}

static void value_data__refuses_broken_blobs_at_the_field(void) {
    uint8_t b[192];
    pbi_vpd v;
    pb_error err;
    size_t n = example_blob(b, PB_ORDER_LE);
    pb_put_u32(b, 180, PB_ORDER_LE); /* not a multiple of 8 */
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_vpd_parse(b, 0, n, PB_ORDER_LE, 3, "vpd", &v, &err), PB_EFORMAT);
    CU_ASSERT_STRING_EQUAL(err.path, "vpd.TotalSize");
    pb_put_u32(b, 192, PB_ORDER_LE); /* more than the bytes there are */
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_vpd_parse(b, 0, n, PB_ORDER_LE, 3, "vpd", &v, &err), PB_ETRUNC);
    example_blob(b, PB_ORDER_LE);
    pb_put_u32(b + 4, 3, PB_ORDER_LE); /* three kinds where the version has two */
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_vpd_parse(b, 0, n, PB_ORDER_LE, 2, "vpd", &v, &err), PB_EFORMAT);
    CU_ASSERT_EQUAL(err.offset, 4);
    CU_ASSERT_STRING_EQUAL(err.path, "vpd.NumValueKinds");
    example_blob(b, PB_ORDER_LE);
    pb_put_u32(b + 72, 0, PB_ORDER_LE); /* kind 0 twice */
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_vpd_parse(b, 0, n, PB_ORDER_LE, 3, "vpd", &v, &err), PB_EFORMAT);
    CU_ASSERT_EQUAL(err.offset, 72);
    CU_ASSERT_STRING_EQUAL(err.path, "vpd.Kind");
    example_blob(b, PB_ORDER_LE);
    b[80] = 7; /* one value more than TotalSize holds */
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_vpd_parse(b, 0, n, PB_ORDER_LE, 3, "vpd", &v, &err), PB_ETRUNC);
    CU_ASSERT_EQUAL(err.offset, 80);
    CU_ASSERT_STRING_EQUAL(err.path, "vpd.SiteCountArray");
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_vpd_parse(b, 0, 7, PB_ORDER_LE, 3, "vpd", &v, &err), PB_ETRUNC);
}

static void value_data__encoder_caps_sites_at_255_and_drops_kinds_the_target_lacks(void) {
    pb_value vals[300];
    for (unsigned i = 0; i < 300; i++) vals[i] = (pb_value){i, 1, PB_NONE};
    pb_site s0 = {300, vals}, s2 = {1, vals};
    pb_record r;
    memset(&r, 0, sizeof r);
    r.num_sites[0] = 1;
    r.sites[0] = &s0;
    r.num_sites[2] = 1;
    r.sites[2] = &s2;
    pb_buf out = PB_BUF_INIT;
    pbi_vpd_stats st = {0, 0};
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_vpd_encode(&out, &r, 2, PB_ORDER_LE, NULL, NULL, NULL, &st, &err), 0);
    const uint8_t *b = (const uint8_t *)out.data;
    CU_ASSERT_EQUAL(out.len, 8 + 16 + 16 * 255);
    CU_ASSERT_EQUAL(pb_get_u32(b, PB_ORDER_LE), out.len);
    CU_ASSERT_EQUAL(pb_get_u32(b + 4, PB_ORDER_LE), 1);
    CU_ASSERT_EQUAL(b[16], 255);
    CU_ASSERT_EQUAL(st.values_dropped, 45);
    CU_ASSERT_EQUAL(st.sites_dropped, 1);
    /* a record without sites: the 8-byte header alone (indexed §3.7) */
    memset(&r, 0, sizeof r);
    pbu_buf_reset(&out);
    CU_ASSERT_EQUAL(pbi_vpd_encode(&out, &r, 3, PB_ORDER_LE, NULL, NULL, NULL, &st, &err), 0);
    const uint8_t empty[] = {8, 0, 0, 0, 0, 0, 0, 0};
    CU_ASSERT_EQUAL_FATAL(out.len, 8);
    CU_ASSERT_EQUAL(memcmp(out.data, empty, 8), 0);
    pbu_buf_free(&out);
}

/* ---- binary ids ----------------------------------------------------------------- */

typedef struct ids_seen {
    size_t n, len[4];
    uint64_t off[4];
} ids_seen;

static int on_id(void *ctx, const uint8_t *id, size_t len, uint64_t off, pb_error *err) {
    (void)id;
    (void)err;
    ids_seen *s = ctx;
    if (s->n < 4) s->len[s->n] = len, s->off[s->n] = off;
    s->n++;
    return 0;
}

static void binary_ids__walk_the_spec_layout_and_refuse_length_0(void) {
    /* spec §2.13: 14 00 00 00 00 00 00 00 + 20 id bytes + 4 zero bytes */
    uint8_t b[64], id[20];
    for (unsigned i = 0; i < 20; i++) id[i] = (uint8_t)(0xa0 + i);
    memset(b, 0xee, sizeof b);
    CU_ASSERT_EQUAL(pbi_binary_id_put(b, id, 20, PB_ORDER_LE), 32);
    CU_ASSERT_EQUAL(pbi_binary_id_size(20), 32);
    const uint8_t head[8] = {0x14, 0, 0, 0, 0, 0, 0, 0}, pad[4] = {0, 0, 0, 0};
    CU_ASSERT_EQUAL(memcmp(b, head, 8), 0);
    CU_ASSERT_EQUAL(memcmp(b + 8, id, 20), 0);
    CU_ASSERT_EQUAL(memcmp(b + 28, pad, 4), 0);
    CU_ASSERT_EQUAL(pbi_binary_id_put(b + 32, id, 8, PB_ORDER_BE), 16);
    CU_ASSERT_EQUAL(b[32 + 7], 8); /* big-endian length */
    ids_seen s;
    memset(&s, 0, sizeof s);
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_binary_ids_decode(b, 0, 32, PB_ORDER_LE, "binary_ids", on_id, &s, &err), 0);
    CU_ASSERT_EQUAL(s.n, 1);
    CU_ASSERT_EQUAL(s.len[0], 20);
    memset(b + 32, 0, 8); /* a second id of length 0 */
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_binary_ids_decode(b, 0, 48, PB_ORDER_LE, "binary_ids", on_id, &s, &err), PB_EFORMAT);
    CU_ASSERT_EQUAL(err.offset, 32);
    CU_ASSERT_STRING_EQUAL(err.path, "binary_ids[1]");
    pb_error_clear(&err); /* the padding of the first one cut off */
    CU_ASSERT_EQUAL(pbi_binary_ids_decode(b, 0, 30, PB_ORDER_LE, "binary_ids", on_id, &s, &err), PB_EFORMAT);
    CU_ASSERT_EQUAL(err.offset, 0);
    pb_buf buf = PB_BUF_INIT;
    pbi_binary_id_append(&buf, id, 20, PB_ORDER_LE);
    CU_ASSERT_EQUAL_FATAL(buf.len, 32);
    CU_ASSERT_EQUAL(memcmp(buf.data, b, 32), 0);
    pbu_buf_free(&buf);
}

/* ---- the names' zlib trailer (Adler-32, checked by libdeflate) ---------------------- */

static void names__zlib_chunk_with_a_wrong_checksum_is_refused_as_zlib_does(void) {
    pb_buf out = PB_BUF_INIT;
    pb_error err;
    pb_error_clear(&err);
    CU_ASSERT_EQUAL(pbi_names_encode("foo\x01" "bar\x01" "main", 12, 1, &out, &err), 0);
    CU_ASSERT_EQUAL_FATAL(out.len > 8, 1);
    uint8_t *b = (uint8_t *)out.data;
    names_seen s;
    CU_ASSERT_EQUAL(decode(b, out.len, &s, &err), 0); /* as written: the checksum holds */
    b[out.len - 1] ^= 1; /* the Adler-32 trailer's last byte */
    CU_ASSERT_EQUAL(decode(b, out.len, &s, &err), PB_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "does not decompress: zlib says invalid data"));
    b[out.len - 1] ^= 1;
    b[2] ^= 0x20; /* CMF 0x58: the header check fails; zlib's verdict, not the fast path's */
    CU_ASSERT_EQUAL(decode(b, out.len, &s, &err), PB_EFORMAT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "does not decompress"));
    pbu_buf_free(&out);
}

static CU_TestInfo tests[] = {
    {"leb128__decodes_and_encodes_hand_computed_values", leb128__decodes_and_encodes_hand_computed_values},
    {"leb128__refuses_an_11th_byte_bits_beyond_64_and_truncation",
     leb128__refuses_an_11th_byte_bits_beyond_64_and_truncation},
    {"names__plain_chunk_is_two_lengths_and_the_text", names__plain_chunk_is_two_lengths_and_the_text},
    {"names__zlib_chunk_round_trips_with_lengths_as_the_spec_example",
     names__zlib_chunk_round_trips_with_lengths_as_the_spec_example},
    {"names__skips_zero_bytes_between_chunks", names__skips_zero_bytes_between_chunks},
    {"names__refuses_bad_chunks_at_their_offset", names__refuses_bad_chunks_at_their_offset},
    {"names__zlib_chunk_with_a_wrong_checksum_is_refused_as_zlib_does",
     names__zlib_chunk_with_a_wrong_checksum_is_refused_as_zlib_does},
    {"value_data__parses_and_fills_the_spec_example", value_data__parses_and_fills_the_spec_example},
    {"value_data__refuses_broken_blobs_at_the_field", value_data__refuses_broken_blobs_at_the_field},
    {"value_data__encoder_caps_sites_at_255_and_drops_kinds_the_target_lacks",
     value_data__encoder_caps_sites_at_255_and_drops_kinds_the_target_lacks},
    {"binary_ids__walk_the_spec_layout_and_refuse_length_0", binary_ids__walk_the_spec_layout_and_refuse_length_0},
    CU_TEST_INFO_NULL};

CU_SuiteInfo pb_suites_test_llvm_enc[] = {{"llvm_enc", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
