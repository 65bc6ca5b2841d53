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
int pbu_utf8_valid(const void *bytes, size_t len);

/* Appends bytes as a JSON string literal with quotes: '"', '\\' and controls
 * escaped, everything else copied. The caller ensures valid UTF-8. */
void pbu_json_put_string(pb_buf *b, const void *bytes, size_t len);

/*
 * The one rule for strings that are not valid UTF-8 (LLVM names are any
 * bytes; docs/json-model.md "JSON conventions"): member KEY holds the text
 * with U+FFFD for each byte that starts no valid UTF-8 sequence (readable,
 * lossy), and member KEY + suffix holds the exact bytes in lowercase hex.
 * Readers take the hex member when it is there. The reports use "_hex"
 * (snake_case like their other keys), the model "Hex" (camelCase).
 */
#define PBU_JSON_HEX_SUFFIX "_hex"

/* Appends bytes as a JSON string: valid UTF-8 as pbu_json_put_string, else
 * with U+FFFD for each byte that starts no valid sequence. */
void pbu_json_put_text(pb_buf *b, const void *bytes, size_t len);

/* Appends `"KEY": TEXT` and, when the bytes are not valid UTF-8,
 * `, "KEY<hex_suffix>": "HEX"`. */
void pbu_json_put_text_member(pb_buf *b, const char *key, const void *bytes, size_t len, const char *hex_suffix);

/* Appends bytes as lowercase hex digits (two per byte). */
void pbu_put_hex(pb_buf *b, const void *bytes, size_t len);

/* Decodes lowercase/uppercase hex into out (len/2 bytes); -1 on a bad digit or odd length. */
int pbu_get_hex(const char *hex, size_t len, unsigned char *out);

#endif
