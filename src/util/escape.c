/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* escape.c -- terminal and markup escaping (escape.h). */
#include "util/escape.h"

#include <stdint.h>
#include <string.h>

size_t pbu_utf8_seq(const unsigned char *s, size_t n) {
    size_t k;
    uint32_t cp;
    if (s[0] < 0x80) return 1;
    if ((s[0] & 0xE0) == 0xC0) k = 2, cp = s[0] & 0x1Fu;
    else if ((s[0] & 0xF0) == 0xE0) k = 3, cp = s[0] & 0x0Fu;
    else if ((s[0] & 0xF8) == 0xF0) k = 4, cp = s[0] & 0x07u;
    else return 0;
    if (k > n) return 0;
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3Fu);
    }
    if ((k == 2 && cp < 0x80) || (k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return k;
}

/* 0 when the sequence at u (of k bytes, pbu_utf8_seq) prints as itself;
 * else it is escaped byte by byte. */
int pbu_esc_is_control(const unsigned char *u, size_t k) {
    if (k == 0) return 1;
    if (k == 1) return u[0] < 0x20 || u[0] == 0x7F;
    return k == 2 && u[0] == 0xC2 && u[1] < 0xA0; /* C1: U+0080..U+009F */
}

static void put_hex(pb_buf *b, unsigned char c) {
    static const char hex[] = "0123456789ABCDEF";
    char t[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
    pbu_buf_append(b, t, 4);
}

/* The sequence at u (k bytes by pbu_utf8_seq, 0: an invalid byte) as "\xNN"
 * per byte when it is a control or invalid; returns the bytes consumed, or
 * 0 when it is printable and left to the caller. */
static size_t put_control(pb_buf *b, const unsigned char *u, size_t k) {
    if (!pbu_esc_is_control(u, k)) return 0;
    if (k == 0) k = 1;
    for (size_t j = 0; j < k; j++) put_hex(b, u[j]);
    return k;
}

void pbu_esc_term(pb_buf *b, const void *s, size_t n) {
    const unsigned char *u = s;
    for (size_t i = 0; i < n;) {
        size_t k = pbu_utf8_seq(u + i, n - i), done = put_control(b, u + i, k);
        if (!done) pbu_buf_append(b, u + i, done = k);
        i += done;
    }
}

void pbu_esc_markup(pb_buf *b, const void *s, size_t n) {
    const unsigned char *u = s;
    for (size_t i = 0; i < n;) {
        size_t k = pbu_utf8_seq(u + i, n - i), done = put_control(b, u + i, k);
        if (done) {
            i += done;
            continue;
        }
        switch (u[i]) {
        case '&': pbu_buf_puts(b, "&amp;"); break;
        case '<': pbu_buf_puts(b, "&lt;"); break;
        case '>': pbu_buf_puts(b, "&gt;"); break;
        case '"': pbu_buf_puts(b, "&quot;"); break;
        case '\'': pbu_buf_puts(b, "&#39;"); break;
        default: pbu_buf_append(b, u + i, k);
        }
        i += k;
    }
}

char *pbu_esc_term_str(const char *s, char *out, size_t n) {
    if (!n) return out;
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s), o = 0;
    for (size_t i = 0; i < len;) {
        size_t k = pbu_utf8_seq(u + i, len - i);
        int esc = pbu_esc_is_control(u + i, k);
        if (k == 0) k = 1;
        size_t need = esc ? 4 * k : k;
        if (o + need >= n) break;
        for (size_t j = 0; j < k; j++) {
            if (esc) {
                static const char hex[] = "0123456789ABCDEF";
                out[o++] = '\\', out[o++] = 'x', out[o++] = hex[u[i + j] >> 4], out[o++] = hex[u[i + j] & 15];
            } else {
                out[o++] = (char)u[i + j];
            }
        }
        i += k;
    }
    out[o] = '\0';
    return out;
}
