/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * json_text.h -- writing JSON text fast (internal).
 *
 * The JSON writers build their output with these helpers instead of a jansson
 * tree: a tree of a 150 MB profile costs several times its size in memory.
 */
#ifndef PB_JSON_TEXT_H
#define PB_JSON_TEXT_H

#include <stddef.h>

#include "util/buf.h"

/* 1 if bytes[0..len) is valid UTF-8 (no overlongs, no surrogates, <= U+10FFFF). */
int pbi_utf8_valid(const void *bytes, size_t len);

/* Appends bytes as a JSON string literal with quotes: '"', '\\' and controls
 * escaped, everything else copied. The caller ensures valid UTF-8. */
void pbi_json_put_string(pb_buf *b, const void *bytes, size_t len);

/* Appends bytes as lowercase hex digits (two per byte). */
void pbi_put_hex(pb_buf *b, const void *bytes, size_t len);

/* Decodes lowercase/uppercase hex into out (len/2 bytes); -1 on a bad digit or odd length. */
int pbi_get_hex(const char *hex, size_t len, unsigned char *out);

#endif
