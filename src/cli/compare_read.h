/*
 * compare_read.h -- reading the two inputs of `overlap` and `diff`.
 */
#ifndef PB_CLI_COMPARE_READ_H
#define PB_CLI_COMPARE_READ_H

#include "profbridge/profbridge.h"

/*
 * Reads `path` (any format, recognised by content; lenient = the readers'
 * lenient rules, as --lenient elsewhere). With as_llvm = 1 a
 * profile that did not come from an LLVM file (iprof, json) is written as
 * .profdata in memory and read back, so its records come in the order
 * llvm-profdata would read them from `profbridge convert IN -o X.profdata`.
 * Returns 0 or the exit code after printing the error.
 */
int pbc_read_for_compare(const char *path, int as_llvm, int lenient, pb_profile **out);

#endif
