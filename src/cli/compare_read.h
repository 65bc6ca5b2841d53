/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * compare_read.h -- reading the two inputs of `overlap` and `diff`.
 */
#ifndef PB_CLI_COMPARE_READ_H
#define PB_CLI_COMPARE_READ_H

#include "llvm/target.h"
#include "profbridge/profbridge.h"

/*
 * Reads `path` (any format, recognised by content; lenient = the readers'
 * lenient rules, as --lenient elsewhere). With as_llvm = 1 a
 * profile that did not come from an LLVM file (iprof, json) is written as
 * .profdata in memory and read back, so its records come in the order
 * llvm-profdata would read them from `profbridge convert IN -o X.profdata`.
 * With t (may be NULL), the profile as read must be one release t's
 * llvm-profdata reads (pbc_llvm_check_readable: a raw file of another raw
 * version is refused, exit 1, as that release refuses it), checked before
 * any conversion. The input is opened and read once.
 * Returns 0 or the exit code after printing the error.
 */
int pbc_read_for_compare(const char *path, int as_llvm, const pbi_llvm_target *t, int lenient, pb_profile **out);

#endif
