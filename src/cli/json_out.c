/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* json_out.c -- json_out.h: JSON members printed to a stream. */
#include "json_out.h"

#include "util/buf.h"
#include "util/json_text.h"

void pbc_json_fput_text_member(FILE *out, const char *key, const void *bytes, size_t len) {
    pb_buf b = PB_BUF_INIT;
    pbi_json_put_text_member(&b, key, bytes, len, PBI_JSON_HEX_SUFFIX);
    if (!b.failed) fwrite(b.data, 1, b.len, out);
    else fprintf(out, "\"%s\": \"\"", key); /* out of memory: the JSON stays whole */
    pbi_buf_free(&b);
}
