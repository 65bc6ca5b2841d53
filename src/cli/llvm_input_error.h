/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * llvm_input_error.h -- how show and overlap report an input they cannot
 * read when profbridge runs as llvm-profdata-N (the personality, main.c):
 * in llvm-profdata's words and shape, "error: FILE: why" (show) and
 * "error: error in getting profile count sums: why" (overlap, which names
 * no file), exit status 1. In profbridge's own name nothing changes.
 */
#ifndef PB_CLI_LLVM_INPUT_ERROR_H
#define PB_CLI_LLVM_INPUT_ERROR_H

#include "profbridge/profbridge.h"

/* As llvm-profdata-N only: when `path` cannot be opened as a file (it does
 * not exist, cannot be read, is a directory) or is empty, prints LLVM's line
 * for it -- `prefix` ("FILE" for show, "error in getting profile count sums"
 * for overlap) and the system's words ("No such file or directory") or
 * "empty raw profile file" -- and returns 1; else (or in profbridge's own
 * name, or for "-") 0. */
int pbc_llvm_input_unopenable(const char *path, const char *prefix);

/* How profbridge's own detail follows LLVM's line under the personality:
 * "  (profbridge: FILE: byte 0x18 (header.NumData): ...)" -- a line no
 * llvm-profdata prints, so scripts (and our tests) can drop it. */
#define PBC_LLVM_DETAIL_START "  (profbridge: "

/* As llvm-profdata-N: a reader's error `e` (e->source names the file) in
 * LLVM's words, "SEVERITY: PREFIX: WORDS" (PREFIX NULL: the file), LLVM's
 * note after an unrecognized format when SEVERITY is "error", then
 * profbridge's line as the detail line above. When the damage has no known
 * LLVM words, profbridge's line alone: "SEVERITY: FILE: ...". `cmd` names
 * the command for the release (pbc_release_of). */
void pbc_llvm_print_input_error(const char *cmd, const char *severity, const char *prefix, const pb_error *e);

/* Prints a reader's error: pbc_llvm_print_input_error("show", "error", NULL,
 * e) as llvm-profdata-N, pbc_print_error otherwise. */
void pbc_print_input_error(const pb_error *e);

#endif
