/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* buf.c -- growable byte buffer; see buf.h. */
#include "util/buf.h"
#include "util/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pbu_buf_free(pb_buf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

void pbu_buf_reset(pb_buf *b) {
    b->len = 0;
    if (b->data) b->data[0] = '\0';
}

int pbu_buf_reserve(pb_buf *b, size_t extra) {
    if (b->failed) return -1;
    if (extra >= SIZE_MAX - b->len - 1) goto fail;
    size_t need = b->len + extra + 1;
    if (pbu_grow((void **)&b->data, &b->cap, need, 1)) goto fail;
    return 0;
fail:
    b->failed = 1;
    return -1;
}

void pbu_buf_append(pb_buf *b, const void *data, size_t n) {
    /* the room is nearly always there: no call to reserve then (show's
     * listing appends ten pieces a record, and the call was a tenth of it) */
    if (pbu_buf_try_append(b, data, n)) return;
    if (pbu_buf_reserve(b, n)) return;
    if (n) memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void pbu_buf_putc(pb_buf *b, char c) {
    if (b->len + 1 < b->cap && !b->failed) {
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
        return;
    }
    pbu_buf_append(b, &c, 1);
}

void pbu_buf_puts(pb_buf *b, const char *s) { pbu_buf_append(b, s, strlen(s)); }

void pbu_buf_vprintf(pb_buf *b, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || pbu_buf_reserve(b, (size_t)n)) {
        b->failed = 1;
        return;
    }
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void pbu_buf_printf(pb_buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pbu_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

/* Written in place (no vsnprintf): the coverage exporters print hundreds of
 * millions of numbers and formatting them was most of their time. */
static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

void pbu_buf_put_u64(pb_buf *b, uint64_t v) {
    char tmp[24];
    size_t i = sizeof tmp;
    /* two digits a division: half the divisions (the put was still 10%) */
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100) * 2;
        v /= 100;
        tmp[--i] = digit_pairs[d + 1];
        tmp[--i] = digit_pairs[d];
    }
    if (v >= 10) {
        tmp[--i] = digit_pairs[v * 2 + 1];
        tmp[--i] = digit_pairs[v * 2];
    } else {
        tmp[--i] = (char)('0' + v);
    }
    size_t n = sizeof tmp - i;
    if (b->failed || b->len + n >= b->cap) {
        pbu_buf_append(b, tmp + i, n);
        return;
    }
    memcpy(b->data + b->len, tmp + i, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void pbu_buf_put_i64(pb_buf *b, int64_t v) {
    if (v < 0) {
        pbu_buf_putc(b, '-');
        pbu_buf_put_u64(b, (uint64_t)0 - (uint64_t)v);
    } else {
        pbu_buf_put_u64(b, (uint64_t)v);
    }
}
