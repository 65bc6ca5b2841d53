/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* partial_codec.c -- see partial_codec.h. */
#include "partial_codec.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

void pbi_codec_put_uv(pb_buf *b, uint64_t v) {
    uint8_t t[10];
    size_t n = 0;
    do {
        t[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v) t[n] |= 0x80;
        n++;
    } while (v);
    pbu_buf_append(b, t, n);
}

void pbi_codec_put_str(pb_buf *b, const char *s, size_t n) {
    pbi_codec_put_uv(b, n);
    if (n) pbu_buf_append(b, s, n);
}

static void put_le(uint8_t *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

int pbi_codec_pack(const char magic[6], const pb_buf *body, uint8_t **out, size_t *len, pb_error *err) {
    *out = NULL;
    *len = 0;
    uLong bound = compressBound((uLong)body->len);
    uint8_t *o = malloc(PBI_CODEC_HEAD + bound);
    if (!o) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    memcpy(o, magic, 6);
    put_le(o + 6, PBI_CODEC_VERSION, 2);
    put_le(o + 8, body->len, 8);
    uLongf n = bound;
    if (compress2(o + PBI_CODEC_HEAD, &n, (const Bytef *)(body->data ? body->data : ""), (uLong)body->len, 6) !=
        Z_OK) {
        free(o);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot deflate (out of memory)");
    }
    *out = o;
    *len = PBI_CODEC_HEAD + n;
    return 0;
}

int pbi_codec_unpack(const char magic[6], const void *bytes, size_t len, const char *name, uint8_t **body,
                     size_t *body_len, pb_error *err) {
    *body = NULL;
    *body_len = 0;
    const uint8_t *b = bytes;
    if (len < 8 || memcmp(b, magic, 6) != 0)
        return pb_error_set(err, len < 8 && len && memcmp(b, magic, len < 6 ? len : 6) == 0 ? PB_ETRUNC : PB_EFORMAT,
                            0, "magic", "%s: not a profbridge %s file (expected the magic '%.6s')",
                            name ? name : "<memory>", magic[3] == 'A' ? "partial merge" : "profile", magic);
    uint64_t version = get_le(b + 6, 2);
    if (version != PBI_CODEC_VERSION)
        return pb_error_set(err, PB_EFORMAT, 6, "version", "format version %llu (this library reads %d)",
                            (unsigned long long)version, PBI_CODEC_VERSION);
    if (len < PBI_CODEC_HEAD) return pb_error_set(err, PB_ETRUNC, 8, "length", "the bytes end in the header");
    uint64_t n = get_le(b + 8, 8);
    /* deflate shrinks at most about 1032:1: a larger length is a lie, and
     * refused before anything is allocated */
    uint64_t most = (uint64_t)(len - PBI_CODEC_HEAD) * 1032 + 64;
    if (n > most || n > (uint64_t)SIZE_MAX / 2)
        return pb_error_set(err, PB_EFORMAT, 8, "length", "body of %llu bytes cannot come from %zu deflated bytes",
                            (unsigned long long)n, len - PBI_CODEC_HEAD);
    uint8_t *o = malloc(n ? (size_t)n : 1);
    if (!o) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    uLongf got = (uLongf)n;
    uLong src_len = (uLong)(len - PBI_CODEC_HEAD);
    int zrc = uncompress2(o, &got, b + PBI_CODEC_HEAD, &src_len);
    if (zrc != Z_OK || got != n) {
        free(o);
        if (zrc == Z_MEM_ERROR) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        return pb_error_set(err, zrc == Z_BUF_ERROR && got < n ? PB_ETRUNC : PB_EFORMAT, PBI_CODEC_HEAD, "body",
                            "the deflated body is damaged (zlib: %s)", zrc == Z_OK ? "length differs" : zError(zrc));
    }
    *body = o;
    *body_len = (size_t)n;
    return 0;
}

static void fail(pbi_cursor *c, const char *field, const char *what) {
    if (c->rc) return;
    c->rc = pb_error_set(c->err, PB_EFORMAT, c->at, field, "%s: %s", c->name ? c->name : "<memory>", what);
}

uint64_t pbi_cursor_uv(pbi_cursor *c, const char *field) {
    if (c->rc) return 0;
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (c->at >= c->len) {
            fail(c, field, "the body ends inside a number");
            return 0;
        }
        uint8_t byte = c->p[c->at++];
        if (shift == 63 && (byte & 0x7e)) break;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return v;
    }
    fail(c, field, "a number longer than 64 bits");
    return 0;
}

uint64_t pbi_cursor_uv_max(pbi_cursor *c, const char *field, uint64_t max) {
    size_t at = c->at;
    uint64_t v = pbi_cursor_uv(c, field);
    if (!c->rc && v > max) {
        c->at = at;
        fail(c, field, "a value out of range");
        return 0;
    }
    return v;
}

const uint8_t *pbi_cursor_str(pbi_cursor *c, const char *field, size_t *n) {
    *n = 0;
    uint64_t len = pbi_cursor_uv(c, field);
    if (c->rc) return NULL;
    if (len > c->len - c->at) {
        fail(c, field, "a string longer than the bytes left");
        return NULL;
    }
    const uint8_t *s = c->p + c->at;
    c->at += (size_t)len;
    *n = (size_t)len;
    return s;
}

void pbi_cursor_str_into(pbi_cursor *c, const char *field, char *dst, size_t dst_len) {
    size_t at = c->at, n;
    const uint8_t *s = pbi_cursor_str(c, field, &n);
    dst[0] = 0;
    if (c->rc) return;
    if (n >= dst_len || memchr(s, 0, n)) {
        c->at = at;
        fail(c, field, n >= dst_len ? "a string too long for its field" : "a NUL byte inside a string");
        return;
    }
    memcpy(dst, s, n);
    dst[n] = 0;
}
