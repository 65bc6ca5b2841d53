/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* json_text.c -- see json_text.h. */
#include "util/json_text.h"

#include <stdint.h>

/* The length of the valid UTF-8 sequence at s[0..len) (len >= 1), or 0
 * when s[0] does not start one (no overlongs, no surrogates, <= U+10FFFF). */
static size_t utf8_seq(const unsigned char *s, size_t len) {
    unsigned c = s[0];
    if (c < 0x80) return 1;
    size_t n;
    uint32_t cp, min;
    if ((c & 0xe0) == 0xc0) n = 1, cp = c & 0x1f, min = 0x80;
    else if ((c & 0xf0) == 0xe0) n = 2, cp = c & 0x0f, min = 0x800;
    else if ((c & 0xf8) == 0xf0) n = 3, cp = c & 0x07, min = 0x10000;
    else return 0;
    if (len <= n) return 0;
    for (size_t k = 1; k <= n; k++) {
        if ((s[k] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (s[k] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return n + 1;
}

int pbu_utf8_valid(const void *bytes, size_t len) {
    const unsigned char *s = bytes;
    for (size_t i = 0, n; i < len; i += n)
        if ((n = utf8_seq(s + i, len - i)) == 0) return 0;
    return 1;
}

/* bytes with '"', '\\' and controls escaped, without quotes */
static void put_escaped(pb_buf *b, const unsigned char *s, size_t len) {
    static const char hex[] = "0123456789abcdef";
    size_t run = 0; /* start of the current run of bytes that need no escape */
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        pbu_buf_append(b, s + run, i - run);
        run = i + 1;
        switch (c) {
        case '"': pbu_buf_append(b, "\\\"", 2); break;
        case '\\': pbu_buf_append(b, "\\\\", 2); break;
        case '\n': pbu_buf_append(b, "\\n", 2); break;
        case '\t': pbu_buf_append(b, "\\t", 2); break;
        case '\r': pbu_buf_append(b, "\\r", 2); break;
        default: {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            pbu_buf_append(b, e, 6);
        }
        }
    }
    pbu_buf_append(b, s + run, len - run);
}

void pbu_json_put_string(pb_buf *b, const void *bytes, size_t len) {
    pbu_buf_reserve(b, len + 2);
    pbu_buf_putc(b, '"');
    put_escaped(b, bytes, len);
    pbu_buf_putc(b, '"');
}

void pbu_put_hex(pb_buf *b, const void *bytes, size_t len) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = bytes;
    if (pbu_buf_reserve(b, 2 * len)) return;
    for (size_t i = 0; i < len; i++) {
        b->data[b->len++] = hex[s[i] >> 4];
        b->data[b->len++] = hex[s[i] & 15];
    }
    b->data[b->len] = '\0';
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int pbu_get_hex(const char *hex, size_t len, unsigned char *out) {
    if (len % 2) return -1;
    for (size_t i = 0; i < len; i += 2) {
        int hi = hexval(hex[i]), lo = hexval(hex[i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i / 2] = (unsigned char)(hi << 4 | lo);
    }
    return 0;
}

void pbu_json_put_text(pb_buf *b, const void *bytes, size_t len) {
    if (pbu_utf8_valid(bytes, len)) {
        pbu_json_put_string(b, bytes, len);
        return;
    }
    /* U+FFFD for each byte that starts no valid sequence, as a readable
     * approximation; the exact bytes go into the _hex member */
    const unsigned char *s = bytes;
    pbu_buf_putc(b, '"');
    size_t i = 0;
    while (i < len) {
        size_t run = i, n;
        while (i < len && (n = utf8_seq(s + i, len - i)) != 0) i += n;
        put_escaped(b, s + run, i - run);
        if (i < len) {
            pbu_buf_append(b, "\\ufffd", 6);
            i++;
        }
    }
    pbu_buf_putc(b, '"');
}

void pbu_json_put_text_member(pb_buf *b, const char *key, const void *bytes, size_t len, const char *hex_suffix) {
    pbu_buf_putc(b, '"');
    pbu_buf_puts(b, key);
    pbu_buf_puts(b, "\": ");
    pbu_json_put_text(b, bytes, len);
    if (pbu_utf8_valid(bytes, len)) return;
    pbu_buf_puts(b, ", \"");
    pbu_buf_puts(b, key);
    pbu_buf_puts(b, hex_suffix);
    pbu_buf_puts(b, "\": \"");
    pbu_put_hex(b, bytes, len);
    pbu_buf_putc(b, '"');
}
