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

#include "llvm/target.h" /* pbc_llvm_view, the show printer's (helper "show" removes it) */
#include "opts.h"
#include "profbridge/profbridge.h"


/*
 * Replaces *pp (read from `path`, a file llvm-profdata cannot read) by the
 * profile `convert -o X.profdata` writes of it, read back. t (may be NULL:
 * the writer's default release) is the release the file is written for, as
 * convert --llvm-version N. On failure *pp is kept and err says why.
 */
int pbc_llvm_view(pb_profile **pp, const char *path, const pbi_llvm_target *t, pb_error *err);

/*
 * Reads `path` (any format, recognised by content; lenient = the readers'
 * lenient rules, as --lenient elsewhere). With as_llvm = 1 the profile is the
 * one llvm-profdata sees (pbc_llvm_view for inputs of other formats, written
 * for release t, or the default release when t is NULL).
 * With t (may be NULL), the profile as read must be one release t's
 * llvm-profdata reads (pbc_llvm_check_readable: a raw file of another raw
 * version is refused, exit 1, as that release refuses it), checked before
 * any conversion. The input is opened and read once.
 * Returns 0 or the exit code after printing the error.
 */
int pbc_read_for_compare(const char *path, int as_llvm, const pbc_release *t, int lenient, pb_profile **out);

#endif
