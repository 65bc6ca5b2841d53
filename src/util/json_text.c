/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* json_text.c -- see json_text.h. */
#include "util/json_text.h"

#include <stdint.h>

int pbi_utf8_valid(const void *bytes, size_t len) {
    const unsigned char *s = bytes;
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n;
        uint32_t cp, min;
        if ((c & 0xe0) == 0xc0) n = 1, cp = c & 0x1f, min = 0x80;
        else if ((c & 0xf0) == 0xe0) n = 2, cp = c & 0x0f, min = 0x800;
        else if ((c & 0xf8) == 0xf0) n = 3, cp = c & 0x07, min = 0x10000;
        else return 0;
        if (len - i <= n) return 0;
        for (size_t k = 1; k <= n; k++) {
            if ((s[i + k] & 0xc0) != 0x80) return 0;
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
        i += n + 1;
    }
    return 1;
}

void pbi_json_put_string(pb_buf *b, const void *bytes, size_t len) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = bytes;
    pbi_buf_reserve(b, len + 2);
    pbi_buf_putc(b, '"');
    size_t run = 0; /* start of the current run of bytes that need no escape */
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        pbi_buf_append(b, s + run, i - run);
        run = i + 1;
        switch (c) {
        case '"': pbi_buf_append(b, "\\\"", 2); break;
        case '\\': pbi_buf_append(b, "\\\\", 2); break;
        case '\n': pbi_buf_append(b, "\\n", 2); break;
        case '\t': pbi_buf_append(b, "\\t", 2); break;
        case '\r': pbi_buf_append(b, "\\r", 2); break;
        default: {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            pbi_buf_append(b, e, 6);
        }
        }
    }
    pbi_buf_append(b, s + run, len - run);
    pbi_buf_putc(b, '"');
}

void pbi_put_hex(pb_buf *b, const void *bytes, size_t len) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = bytes;
    if (pbi_buf_reserve(b, 2 * len)) return;
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

int pbi_get_hex(const char *hex, size_t len, unsigned char *out) {
    if (len % 2) return -1;
    for (size_t i = 0; i < len; i += 2) {
        int hi = hexval(hex[i]), lo = hexval(hex[i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i / 2] = (unsigned char)(hi << 4 | lo);
    }
    return 0;
}
