/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* term_text.c -- names on a terminal (term_text.h). */
#include "cli/term_text.h"

#include <string.h>

#include "util/buf.h"
#include "util/escape.h"

void pbc_term_put(FILE *out, const char *s, size_t n) {
    /* in pieces, so a long name costs a bounded buffer */
    for (size_t i = 0; i < n;) {
        size_t take = n - i < 256 ? n - i : 256;
        /* do not split a UTF-8 sequence between pieces: pull back to a lead byte */
        while (take < n - i && take > 1 && ((unsigned char)s[i + take] & 0xC0) == 0x80) take--;
        pb_buf b = PB_BUF_INIT;
        pbi_esc_term(&b, s + i, take);
        if (b.failed || !b.data) {
            /* out of memory for a piece: never the raw bytes */
            for (size_t j = 0; j < take; j++) fputc('?', out);
        } else {
            fwrite(b.data, 1, b.len, out);
        }
        pbi_buf_free(&b);
        i += take;
    }
}

void pbc_term_puts(FILE *out, const char *s) {
    if (s) pbc_term_put(out, s, strlen(s));
}
