/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * partial_codec.h -- the bytes of profbridge's own serializations (a
 * partial, a profile): an 8-byte head (6-byte magic, format version as
 * 16-bit little-endian), the body's length (64-bit little-endian) and the
 * body deflated by zlib. The body is varints (LEB128) and length-prefixed
 * strings. Reading checks every field against the bytes left before it
 * allocates: an error names the field and its offset in the body.
 */
#ifndef PBI_PARTIAL_CODEC_H
#define PBI_PARTIAL_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/error.h"
#include "util/buf.h"

#define PBI_CODEC_VERSION 1
#define PBI_CODEC_HEAD 16

void pbi_codec_put_uv(pb_buf *b, uint64_t v);
void pbi_codec_put_str(pb_buf *b, const char *s, size_t n);

/* Head + deflated body into a new malloc'ed *out. 0 or PB_ENOMEM. */
int pbi_codec_pack(const char magic[6], const pb_buf *body, uint8_t **out, size_t *len, pb_error *err);

/* Checks the head and inflates the body into *body (malloc'ed). Returns 0,
 * PB_EFORMAT (another magic or version, a bad deflate stream, a length
 * beyond what the bytes can inflate to), PB_ETRUNC or PB_ENOMEM. */
int pbi_codec_unpack(const char magic[6], const void *bytes, size_t len, const char *name, uint8_t **body,
                     size_t *body_len, pb_error *err);

/* A cursor over an inflated body: every get fails with PB_EFORMAT (field
 * and offset named) past the end. */
typedef struct pbi_cursor {
    const uint8_t *p;
    size_t len, at;
    const char *name;
    pb_error *err;
    int rc;
} pbi_cursor;

uint64_t pbi_cursor_uv(pbi_cursor *c, const char *field);
/* A varint that must be <= max. */
uint64_t pbi_cursor_uv_max(pbi_cursor *c, const char *field, uint64_t max);
/* A string: pointer into the body (not NUL-terminated), its length. */
const uint8_t *pbi_cursor_str(pbi_cursor *c, const char *field, size_t *n);
/* A string copied into dst (dst_len bytes, NUL-terminated); longer fails. */
void pbi_cursor_str_into(pbi_cursor *c, const char *field, char *dst, size_t dst_len);

#endif
