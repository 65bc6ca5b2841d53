/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * buf.h -- a growable byte buffer (internal).
 *
 * Used to build names, messages and output blocks. Allocation failures are
 * sticky: after one, every append is a no-op and pbu_buf_failed() is true,
 * so builders can append freely and check once at the end.
 */
#ifndef PB_BUF_H
#define PB_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct pb_buf {
    char *data; /* always NUL-terminated when not NULL */
    size_t len;
    size_t cap;
    int failed;
} pb_buf;

#define PB_BUF_INIT {NULL, 0, 0, 0}

void pbu_buf_free(pb_buf *b);
void pbu_buf_reset(pb_buf *b); /* len = 0, keeps memory */
int pbu_buf_reserve(pb_buf *b, size_t extra); /* 0 or -1 */
void pbu_buf_append(pb_buf *b, const void *data, size_t n);
/* pbu_buf_append's fast path, inline for hot callers: copies n > 0 bytes
 * when the room is already there and returns 1; else 0 and nothing
 * happened (n = 0 may come with data NULL, which memcpy may not take). */
static inline int pbu_buf_try_append(pb_buf *b, const void *data, size_t n) {
    if (!n || b->failed || n >= b->cap - b->len) return 0;
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 1;
}
void pbu_buf_putc(pb_buf *b, char c);
void pbu_buf_puts(pb_buf *b, const char *s);
void pbu_buf_printf(pb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void pbu_buf_vprintf(pb_buf *b, const char *fmt, va_list ap);
void pbu_buf_put_u64(pb_buf *b, uint64_t v);  /* decimal, fast */
void pbu_buf_put_i64(pb_buf *b, int64_t v);   /* decimal, fast */
static inline int pbu_buf_failed(const pb_buf *b) { return b->failed; }

#endif
