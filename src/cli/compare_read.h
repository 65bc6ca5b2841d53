/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * compare_read.h -- reading a profile as llvm-profdata sees it: the inputs of
 * `overlap` and `diff`, and show's LLVM view.
 *
 * The one rule (docs/overlap-diff.md, "What LLVM sees"): a raw, indexed or
 * text file is what llvm-profdata reads in it; any other input (iprof, json)
 * is the .profdata that `profbridge convert IN -o X.profdata [--llvm-version
 * N]` writes, read back -- its records, in its order, jmeta: records
 * included. So show --llvm, overlap and diff see the same records of a file,
 * and the same as llvm-profdata-N sees in the converted file.
 */
#ifndef PB_CLI_COMPARE_READ_H
#define PB_CLI_COMPARE_READ_H

#include "opts.h"
#include "profbridge/profbridge.h"


/*
 * Reads `path` (any format, recognised by content; lenient = the readers'
 * lenient rules, as --lenient elsewhere). With as_llvm = 1 the profile is the
 * one llvm-profdata sees (pb_read_options.llvm_view for inputs of other
 * formats, written for release t, or the default release when t is NULL).
 * With t chosen by the user, a note says when release t's own llvm-profdata
 * would refuse the file (pb_show_release_note; never an error). The input
 * is opened and read once.
 * Returns 0 or the exit code after printing the error.
 */
int pbc_read_for_compare(const char *path, int as_llvm, const pbc_release *t, int lenient, pb_profile **out);

#endif
