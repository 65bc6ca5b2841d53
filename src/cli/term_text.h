/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * term_text.h -- text from a profile printed on a terminal.
 *
 * A name is any bytes: printed raw, an ESC, BEL or CR drives the reader's
 * terminal. Our own listings (show of an iprof, dump, diff, validate and the
 * error lines) print names through here: util/escape.h's pbi_esc_term, one
 * rule for them all. The llvm-profdata-identical listings do not (they print
 * what llvm-profdata prints).
 */
#ifndef PB_CLI_TERM_TEXT_H
#define PB_CLI_TERM_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* Writes s[0..n) to out with control bytes and invalid UTF-8 as "\xNN". */
void pbc_term_put(FILE *out, const char *s, size_t n);

/* pbc_term_put of the NUL-terminated s (NULL: nothing). */
void pbc_term_puts(FILE *out, const char *s);

#endif
