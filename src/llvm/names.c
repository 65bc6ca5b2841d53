/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* names.c -- the names codec of names.h (spec §2.9). */
#include "llvm/names.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <zlib.h>

#include "llvm/leb128.h"
#include "util/grow.h"
#include "profbridge/io.h"

/* zlib cannot expand more than about 1032:1; a claim beyond that is a lie and
 * must not drive an allocation. */
#define ZLIB_MAX_RATIO 1032u

int pbi_names_next_chunk(const uint8_t *blob, size_t len, size_t *pos, pbi_names_chunk *c, uint64_t base_off,
                         const char *path, pb_error *err) {
    size_t p = *pos;
    while (p < len && blob[p] == 0) p++; /* padding between chunks */
    if (p >= len) {
        *pos = p;
        return 0;
    }
    c->at = p;
    int r = pbi_uleb_decode(blob, len, &p, &c->ulen);
    if (r == PBI_ULEB_OK) r = pbi_uleb_decode(blob, len, &p, &c->clen);
    if (r != PBI_ULEB_OK)
        return pb_error_set(err, r == PBI_ULEB_TRUNCATED ? PB_ETRUNC : PB_EFORMAT, base_off + c->at, path,
                            r == PBI_ULEB_TRUNCATED
                                ? "names chunk header (two ULEB128 lengths) runs past the end of the section"
                                : "names chunk length does not fit in 64 bits (byte 0x%" PRIx64 ")",
                            base_off + p);
    c->data = p;
    uint64_t stored = c->clen ? c->clen : c->ulen;
    if (stored > len - p)
        return pb_error_set(err, PB_ETRUNC, base_off + c->at, path,
                            "names chunk of %" PRIu64 " %s bytes runs past the end of the section (%zu bytes left)",
                            stored, c->clen ? "compressed" : "plain", len - p);
    *pos = p + (size_t)stored;
    return 1;
}

static int empty_name(uint64_t off, const char *path, pb_error *err) {
    return pb_error_set(err, PB_EFORMAT, off, path, "empty name in a names chunk (names must be non-empty, joined by \\x01)");
}

/* Calls fn for each name of one decoded chunk. memchr finds the separators:
 * a byte-by-byte loop here was 10% of a raw -> indexed conversion of 100k
 * 150-byte C++ names (callgrind, bench/shapes.sh cxx). */
static int split(const uint8_t *t, size_t n, uint64_t off, const char *path, pbi_name_fn fn, void *ctx,
                 pb_error *err) {
    size_t start = 0;
    for (;;) {
        const uint8_t *q = n > start ? memchr(t + start, PBI_NAME_SEP, n - start) : NULL;
        size_t i = q ? (size_t)(q - t) : n;
        if (i == start) return empty_name(off, path, err);
        int rc = fn(ctx, (const char *)t + start, i - start, err);
        if (rc) return rc;
        if (!q) return 0;
        start = i + 1;
    }
}

/* The checks of split for the text form: no name of t[0..n) is empty.
 * *good = the length of the prefix of whole names before an empty one (what
 * split would have handed out before its error). */
static int check_names(const uint8_t *t, size_t n, uint64_t off, const char *path, size_t *good, pb_error *err) {
    size_t start = 0;
    for (;;) {
        const uint8_t *q = n > start ? memchr(t + start, PBI_NAME_SEP, n - start) : NULL;
        size_t i = q ? (size_t)(q - t) : n;
        *good = start;
        if (i == start) return empty_name(off, path, err);
        if (!q) return 0;
        start = i + 1;
    }
}

/* A compressed chunk's sizes, before it is inflated. The whole blob
 * inflates as a gzip input may (io.h): any ratio up to PB_INFLATION_FLOOR,
 * then at most PB_DEFAULT_MAX_INFLATION:1 -- chunk by chunk, 1 MB of
 * compressed vtable names took 2.1 GB and 168 s. *total_u and *total_c
 * count the chunks so far. */
static int check_chunk_sizes(const pbi_names_chunk *c, uint64_t *total_u, uint64_t *total_c, uint64_t at,
                             const char *path, pb_error *err) {
    *total_u += c->ulen; /* each <= 1032 x clen + 64 (checked below): no overflow */
    *total_c += c->clen;
    if (*total_u > PB_INFLATION_FLOOR && *total_u / PB_DEFAULT_MAX_INFLATION > *total_c &&
        c->ulen / ZLIB_MAX_RATIO <= c->clen + 64)
        return pb_error_set(err, PB_ELIMIT, at, path,
                            "compressed names inflate to %" PRIu64 " bytes from %" PRIu64
                            " (more than %u:1 past %" PRIu64 " MiB, the limit of a gzip input)",
                            *total_u, *total_c, (unsigned)PB_DEFAULT_MAX_INFLATION,
                            (uint64_t)PB_INFLATION_FLOOR >> 20);
    if (c->ulen / ZLIB_MAX_RATIO > c->clen + 64 || c->ulen >= SIZE_MAX - 1)
        return pb_error_set(err, PB_EFORMAT, at, path,
                            "names chunk claims %" PRIu64 " bytes from %" PRIu64
                            " compressed bytes, more than zlib can produce",
                            c->ulen, c->clen);
    return 0;
}

/*
 * Inflates a zlib stream of exactly ulen bytes into dst as uncompress()
 * does when it succeeds, but checks the trailer with libdeflate's Adler-32
 * (zlib's own, one byte at a time, was 8% of a raw -> indexed merge of 100k
 * C++ names, 58.5M Ir: callgrind, bench/shapes.sh cxx-19; libdeflate's,
 * 16-32 bytes a step, 4.5M). zlib still inflates, so what
 * is accepted is what zlib accepts: the header checked as zlib checks it,
 * the deflate data raw, then the stored checksum. Returns 1 when all of
 * that holds; 0 for anything else (a bad header, a preset dictionary, an
 * error, a short or long result, a missing or wrong trailer, memory), for
 * which the caller runs uncompress() to get zlib's own verdict.
 */
static int inflate_checked(uint8_t *dst, uint64_t ulen, const uint8_t *src, uint64_t clen) {
    if (clen < 6 || clen > UINT32_MAX || ulen > UINT32_MAX) return 0;
    unsigned cmf = src[0], flg = src[1];
    if ((cmf & 0x0f) != Z_DEFLATED || (cmf >> 4) > 7 || (cmf * 256 + flg) % 31 || (flg & 0x20)) return 0;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return 0;
    z.next_in = (Bytef *)(uintptr_t)(src + 2);
    z.avail_in = (uInt)(clen - 2);
    z.next_out = dst;
    z.avail_out = (uInt)ulen;
    int zr = inflate(&z, Z_FINISH);
    int ok = zr == Z_STREAM_END && z.total_out == ulen && z.avail_in >= 4;
    if (ok) {
        const uint8_t *t = z.next_in;
        uint32_t stored = (uint32_t)t[0] << 24 | (uint32_t)t[1] << 16 | (uint32_t)t[2] << 8 | t[3];
        ok = stored == libdeflate_adler32(1, dst, (size_t)ulen);
    }
    inflateEnd(&z);
    return ok;
}

/* Inflates chunk c into dst (c->ulen bytes, room for one more). */
static int inflate_chunk(const uint8_t *blob, const pbi_names_chunk *c, uint8_t *dst, uint64_t at, const char *path,
                         pb_error *err) {
    if (inflate_checked(dst, c->ulen, blob + c->data, c->clen)) return 0;
    uLongf got = (uLongf)c->ulen;
    int zr = uncompress(dst, &got, blob + c->data, (uLong)c->clen);
    if (zr == Z_MEM_ERROR) /* zlib's own allocation failed: not the input's fault */
        return pb_error_set(err, PB_ENOMEM, at, path, "out of memory while decompressing names");
    if (zr != Z_OK || got != c->ulen)
        return pb_error_set(err, PB_EFORMAT, at, path,
                            "names chunk does not decompress: zlib says %s "
                            "(expected %" PRIu64 " bytes from %" PRIu64 " compressed bytes)",
                            zr == Z_OK ? "fewer bytes than claimed"
                            : zr == Z_BUF_ERROR ? "more bytes than claimed"
                            : zr == Z_DATA_ERROR ? "invalid data"
                                                 : "error",
                            c->ulen, c->clen);
    return 0;
}

/* Where chunk c's plain bytes go: the end of text (decoded in place), or
 * the scratch *tmp. */
static int chunk_target(pb_buf *text, const pbi_names_chunk *c, uint8_t **tmp, size_t *cap, uint8_t **dst,
                        pb_error *err) {
    if (!text) {
        *dst = NULL;
        if (pbu_grow_err((void **)tmp, cap, (size_t)c->ulen + 1, 1, err)) return PB_ENOMEM;
        *dst = *tmp;
        return 0;
    }
    if (pbu_buf_reserve(text, (size_t)c->ulen + 1))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    *dst = (uint8_t *)text->data + text->len;
    return 0;
}

/* The chunk's names, checked, onto text (then one separator). */
static int take_chunk(pb_buf *text, const pbi_names_chunk *c, const uint8_t *plain, uint64_t at, const char *path,
                      pb_error *err) {
    size_t good = 0;
    int rc = check_names(plain, (size_t)c->ulen, at, path, &good, err);
    size_t keep = rc ? good : (size_t)c->ulen; /* on error: the names before the empty one */
    if (c->clen == 0) pbu_buf_append(text, plain, keep);
    else if (text->data) text->len += keep, text->data[text->len] = '\0'; /* decoded in place */
    if (!rc) pbu_buf_putc(text, PBI_NAME_SEP);
    if (!rc && pbu_buf_failed(text)) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    return rc;
}

/* The bytes every chunk of the blob decodes to, each followed by its
 * separator, when every header reads and every compressed size passes
 * check_chunk_sizes; else 0 (the walk that decodes reports what is wrong).
 * The text is then made that size at once: grown chunk by chunk it was
 * copied at each doubling, and the fresh pages of each size faulted in (a
 * raw -> indexed merge of 100k C++ names: 15 MB of names in chunks). */
static size_t planned_text(const uint8_t *blob, size_t len, uint64_t base_off, const char *path) {
    pb_error quiet;
    pb_error_clear(&quiet);
    pbi_names_chunk c;
    size_t pos = 0, total = 0;
    uint64_t total_u = 0, total_c = 0;
    int rc;
    while ((rc = pbi_names_next_chunk(blob, len, &pos, &c, base_off, path, &quiet)) == 1) {
        if (c.clen && check_chunk_sizes(&c, &total_u, &total_c, base_off + c.at, path, &quiet)) return 0;
        if (c.ulen >= SIZE_MAX / 2 || total > SIZE_MAX / 2 - (size_t)c.ulen) return 0;
        total += (size_t)c.ulen + 1;
    }
    return rc == 0 ? total : 0;
}

/* The chunk walk of both decoders. text != NULL: each chunk is decoded
 * straight into text, followed by one separator (decoding into a scratch
 * buffer and copying name by name cost a second copy of all names, the peak
 * memory of reading 100k C++ names, and a tenth of the time); else fn gets
 * each name. */
static int decode(const uint8_t *blob, size_t len, uint64_t base_off, const char *path, pb_buf *text,
                  pbi_name_fn fn, void *ctx, pb_error *err) {
    size_t pos = 0, cap = 0;
    uint8_t *tmp = NULL;
    pbi_names_chunk c;
    uint64_t total_u = 0, total_c = 0;
    int rc;
    size_t plan = text && !text->len ? planned_text(blob, len, base_off, path) : 0;
    if (plan && pbu_buf_reserve(text, plan))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    while ((rc = pbi_names_next_chunk(blob, len, &pos, &c, base_off, path, err)) == 1) {
        uint64_t at = base_off + c.at;
        const uint8_t *plain = blob + c.data;
        if (c.clen != 0) {
            uint8_t *dst = NULL;
            if ((rc = check_chunk_sizes(&c, &total_u, &total_c, at, path, err)) ||
                (rc = chunk_target(text, &c, &tmp, &cap, &dst, err)))
                break;
            if ((rc = inflate_chunk(blob, &c, dst, at, path, err))) {
                if (text) text->data[text->len] = '\0'; /* nothing of this chunk is kept */
                break;
            }
            plain = dst;
        }
        rc = text ? take_chunk(text, &c, plain, at, path, err) : split(plain, (size_t)c.ulen, at, path, fn, ctx, err);
        if (rc) break;
    }
    free(tmp);
    return rc < 0 ? rc : 0;
}

int pbi_names_decode(const uint8_t *blob, size_t len, uint64_t base_off, const char *path, pbi_name_fn fn,
                     void *ctx, pb_error *err) {
    return decode(blob, len, base_off, path, NULL, fn, ctx, err);
}

int pbi_names_decode_text(const uint8_t *blob, size_t len, uint64_t base_off, const char *path, pb_buf *text,
                          pb_error *err) {
    return decode(blob, len, base_off, path, text, NULL, NULL, err);
}

int pbi_names_encode(const char *text, size_t len, int compress, pb_buf *out, pb_error *err) {
    /* The last name carries no separator in the file. */
    size_t n = len && text[len - 1] == PBI_NAME_SEP ? len - 1 : len;
    if (n == 0) return 0;
    if (compress) {
        uLongf cap = compressBound((uLong)n);
        uint8_t *z = malloc(cap);
        if (!z) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        if (compress2(z, &cap, (const Bytef *)text, (uLong)n, Z_BEST_COMPRESSION) != Z_OK) {
            free(z);
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "zlib compress failed");
        }
        pbi_uleb_append(out, n);
        pbi_uleb_append(out, cap);
        pbu_buf_append(out, z, cap);
        free(z);
    } else {
        pbi_uleb_append(out, n);
        pbi_uleb_append(out, 0);
        pbu_buf_append(out, text, n);
    }
    return pbu_buf_failed(out) ? pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory") : 0;
}

int pbi_names_writable(const char *name, size_t len, const char *what, size_t idx, pb_error *err) {
    if (!memchr(name, PBI_NAME_SEP, len)) return 0;
    return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL,
                        "%s %zu: its name (%zu bytes) holds byte 0x01, the separator of LLVM's names "
                        "section, so it cannot be written (it would read back as two names)",
                        what, idx, len);
}
