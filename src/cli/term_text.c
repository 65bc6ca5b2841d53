/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* term_text.c -- names on a terminal (term_text.h). */
#include "cli/term_text.h"

#include <string.h>

#include "util/escape.h"

void pbc_term_put(FILE *out, const char *s, size_t n) {
    /* straight to the stream, allocating nothing: a name is never dropped or
     * changed for want of memory (the allocation sweep checks that a run
     * either fails or prints what it prints with memory) */
    const unsigned char *u = (const unsigned char *)s;
    size_t run = 0; /* the printable bytes from here are not written yet */
    for (size_t i = 0; i < n;) {
        size_t k = pbi_utf8_seq(u + i, n - i);
        if (!pbi_esc_is_control(u + i, k)) {
            i += k;
            continue;
        }
        fwrite(u + run, 1, i - run, out);
        if (k == 0) k = 1;
        for (size_t j = 0; j < k; j++) fprintf(out, "\\x%02X", u[i + j]);
        i += k;
        run = i;
    }
    fwrite(u + run, 1, n - run, out);
}

void pbc_term_puts(FILE *out, const char *s) {
    if (s) pbc_term_put(out, s, strlen(s));
}
