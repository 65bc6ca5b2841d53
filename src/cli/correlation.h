/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * correlation.h -- llvm-profdata's --debug-info / --binary-file on the
 * command line (correlation.c): merge's check of the binary before any input
 * is read, and show's listing of the functions found in the debug info.
 * The correlating itself is the raw reader's ("binary-file" and
 * "debug-info" read options, formats/raw/raw_correlate.c).
 */
#ifndef PB_CLI_CORRELATION_H
#define PB_CLI_CORRELATION_H

#include <stdio.h>

#include "opts.h"

/* merge: giving both is an error ("Expected only one of -debug-info,
 * -binary-file", in t's words); a binary that cannot be used is "error: FILE: why". At
 * most max_warnings correlation warnings are printed (0: all). Returns 0,
 * or the exit code after the message. */
int pbc_merge_correlation_check(int release, const char *debug_info, const char *binary_file,
                                unsigned max_warnings, pbc_diag_ctx *dc);

/* A --binary-file/--debug-info that is a pipe, FIFO or `<(...)` can be read
 * once, while merge opens it once to check it and once per raw input: its
 * bytes (at most --max-input-size) go into an anonymous memory file, and
 * *path becomes that file's name in /proc/self/fd (held in name[]), as
 * llvm-profdata reads it into memory. A regular file, a directory or a path
 * that cannot be opened is left as it is. Returns 0, or the exit code after
 * the message. */
int pbc_correlation_stream(const char **path, char *name, size_t name_len);

/* show --debug-info FILE [--show-format FMT] [-o OUT]: "Found N functions"
 * (FMT NULL or text), LLVM's YAML list of the probes (yaml), LLVM's error
 * for json; on OUT or standard output (out_path NULL). Returns 0 or the exit
 * code after the message. Self-contained, for show's option parser to call. */
int pbc_show_debug_info(const pbc_release *r, const char *path, const char *format, unsigned max_warnings,
                        const char *out_path);

#endif
