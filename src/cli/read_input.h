/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * read_input.h -- reading the one input profile of an analysis command
 * (types, flame): open, detect (or --from), read, print the error.
 */
#ifndef PB_CLI_READ_INPUT_H
#define PB_CLI_READ_INPUT_H

#include "profbridge/profbridge.h"

/*
 * Reads `path` ("-" = stdin) as format `from` (NULL = by content), leniently
 * if asked; notices and warnings go to stderr. Returns PBC_EXIT_OK with *out
 * set, or the exit code after printing the error (and the --lenient hint).
 */
int pbc_read_input(const char *path, const char *from, int lenient, pb_profile **out);

/* Writes `len` bytes to `path` ("-" = stdout) through a sink, so a failed run
 * leaves no truncated file. Returns PBC_EXIT_OK or the exit code after the message. */
int pbc_write_output(const char *path, const void *data, size_t len);

#endif
