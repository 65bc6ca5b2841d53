/*
 * raw_names.c -- the names encoding of raw profiles (spec §2.9): chunks of
 * ULEB128 uncompressed length, ULEB128 compressed length (0 = stored), then
 * a zlib stream or the plain text; names inside a chunk are joined by '\x01';
 * zero bytes between chunks are skipped.
 */
#include <inttypes.h>
#include <string.h>

#include <zlib.h>

#include "raw_internal.h"

/* zlib cannot expand more than about 1032:1; a claim beyond that is a lie and
 * must not drive an allocation. */
#define ZLIB_MAX_RATIO 1032u

static int uleb(const uint8_t *p, uint64_t end, uint64_t *pos, uint64_t *out) {
    uint64_t v = 0;
    for (unsigned shift = 0; *pos < end; shift += 7) {
        uint8_t b = p[(*pos)++];
        if (shift >= 64 || (shift == 63 && (b & 0x7e))) return -1;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return 0;
        }
    }
    return -2;
}

/* Appends the names of one decoded chunk, each followed by '\x01'. */
static int add_chunk(const uint8_t *t, size_t n, uint64_t off, const char *path, pb_buf *text,
                     pb_error *err) {
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && t[i] != PBI_RAW_NAME_SEP) continue;
        if (i == start)
            return pb_error_set(err, PB_EFORMAT, off, path,
                                "empty name in a names chunk (names must be non-empty, "
                                "joined by \\x01)");
        pbi_buf_append(text, t + start, i - start);
        pbi_buf_putc(text, PBI_RAW_NAME_SEP);
        start = i + 1;
    }
    return pbi_buf_failed(text) ? pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory")
                                : 0;
}

int pbi_raw_names_decode(const uint8_t *data, uint64_t off, uint64_t size, const char *path,
                         pb_buf *text, pb_error *err) {
    uint64_t pos = off, end = off + size; /* caller checked off + size <= file length */
    pb_buf tmp = PB_BUF_INIT;
    int rc = 0;
    while (pos < end) {
        if (data[pos] == 0) { /* padding between chunks */
            pos++;
            continue;
        }
        uint64_t chunk = pos, ulen, clen;
        int r = uleb(data, end, &pos, &ulen);
        if (r == 0) r = uleb(data, end, &pos, &clen);
        if (r != 0) {
            rc = pb_error_set(err, r == -2 ? PB_ETRUNC : PB_EFORMAT, chunk, path,
                              r == -2 ? "names chunk header (two ULEB128 lengths) runs past the end "
                                        "of the section"
                                      : "names chunk length does not fit in 64 bits");
            goto out;
        }
        uint64_t stored = clen ? clen : ulen;
        if (stored > end - pos) {
            rc = pb_error_set(err, PB_ETRUNC, chunk, path,
                              "names chunk of %" PRIu64 " %s bytes runs past the end of the "
                              "section (%" PRIu64 " bytes left)",
                              stored, clen ? "compressed" : "plain", end - pos);
            goto out;
        }
        if (clen == 0) {
            rc = add_chunk(data + pos, (size_t)ulen, chunk, path, text, err);
        } else {
            if (ulen / ZLIB_MAX_RATIO > clen + 64) {
                rc = pb_error_set(err, PB_EFORMAT, chunk, path,
                                  "names chunk claims %" PRIu64 " bytes from %" PRIu64
                                  " compressed bytes, more than zlib can produce",
                                  ulen, clen);
                goto out;
            }
            pbi_buf_reset(&tmp);
            if (pbi_buf_reserve(&tmp, (size_t)ulen + 1) != 0) {
                rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
                goto out;
            }
            uLongf got = (uLongf)ulen;
            int zr = uncompress((Bytef *)tmp.data, &got, data + pos, (uLong)clen);
            if (zr != Z_OK || got != ulen) {
                rc = pb_error_set(err, PB_EFORMAT, chunk, path,
                                  "names chunk does not decompress: zlib says %s "
                                  "(expected %" PRIu64 " bytes from %" PRIu64 " compressed bytes)",
                                  zr == Z_OK ? "fewer bytes than claimed"
                                  : zr == Z_BUF_ERROR ? "more bytes than claimed"
                                                      : (zr == Z_DATA_ERROR ? "invalid data"
                                                                            : "error"),
                                  ulen, clen);
                goto out;
            }
            rc = add_chunk((const uint8_t *)tmp.data, (size_t)ulen, chunk, path, text, err);
        }
        if (rc) goto out;
        pos += stored;
    }
out:
    pbi_buf_free(&tmp);
    return rc;
}

static void put_uleb(pb_buf *b, uint64_t v) {
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        pbi_buf_putc(b, (char)(v ? c | 0x80 : c));
    } while (v);
}

int pbi_raw_names_encode(const char *text, size_t len, int compress, pb_buf *out, pb_error *err) {
    /* The last name carries no separator in the file. */
    size_t n = len && text[len - 1] == PBI_RAW_NAME_SEP ? len - 1 : len;
    if (n == 0) return 0;
    if (compress) {
        uLongf cap = compressBound((uLong)n);
        pb_buf z = PB_BUF_INIT;
        if (pbi_buf_reserve(&z, cap) != 0)
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        if (compress2((Bytef *)z.data, &cap, (const Bytef *)text, (uLong)n, 9) != Z_OK) {
            pbi_buf_free(&z);
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "zlib compress failed");
        }
        put_uleb(out, n);
        put_uleb(out, cap);
        pbi_buf_append(out, z.data, cap);
        pbi_buf_free(&z);
    } else {
        put_uleb(out, n);
        put_uleb(out, 0);
        pbi_buf_append(out, text, n);
    }
    return pbi_buf_failed(out) ? pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory") : 0;
}
