/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * json_out.h -- JSON text the tool prints straight to a stream.
 *
 * The library writes only into a pb_buf or a pb_sink; printing to a FILE *
 * is the tool's business, so the stream form of json_text.h's helpers lives
 * here.
 */
#ifndef PBC_JSON_OUT_H
#define PBC_JSON_OUT_H

#include <stddef.h>
#include <stdio.h>

/* Prints `"KEY": TEXT` to out and, when the bytes are not valid UTF-8,
 * `, "KEY_hex": "HEX"` (pbi_json_put_text_member with PBI_JSON_HEX_SUFFIX).
 * Out of memory prints `"KEY": ""`, so the JSON stays whole. */
void pbc_json_fput_text_member(FILE *out, const char *key, const void *bytes, size_t len);

#endif
