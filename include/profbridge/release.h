/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/release.h -- the LLVM releases profbridge can act as, and the
 * yes/no questions a front end asks about one.
 *
 * A release is carried as its number (13 .. 24), as the options'
 * llvm_release is; 0 there means the default release. The behaviours in
 * which releases differ are the rows of profbridge's one release table
 * (docs/llvm-releases.md lists them): a row has an id such as "ORDER"
 * (llvm-profdata has the order command) or, for llvm-cov's rows,
 * "cov.READS_COVMAP_V7", and the first and last release that has it.
 * This header answers by id, so the table stays the one source of truth;
 * a new rule is a new row there, not a new function here.
 *
 * Every function is thread-safe (the table is constant).
 */
#ifndef PROFBRIDGE_RELEASE_H
#define PROFBRIDGE_RELEASE_H

#include <stdint.h>

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The lowest and the highest release profbridge can act as, and the one it
 * acts as when none is named (README "Which LLVM release by default"). */
int pb_release_min(void);
int pb_release_max(void);
int pb_release_default(void);

/*
 * Parses a release number ("13" .. "24", decimal digits only) into *out.
 * Returns PB_OK, or PB_EINVAL when text is NULL, not a number or outside
 * the table (err names `what`, the option or field that gave it, and the
 * accepted range; *out is then untouched) or when out is NULL.
 */
int pb_release_parse(const char *text, const char *what, int *out, pb_error *err);

/* 1 when `release` is a release profbridge can act as, else 0. */
int pb_release_known(int release);

/* The raw profile version that release's compiler-rt writes (and the only
 * one its llvm-profdata reads), and the indexed version its merge writes
 * (the highest its readers accept); 0 for a release outside the table. */
uint32_t pb_release_raw_version(int release);
uint32_t pb_release_indexed_version(int release);

/* The lowest release whose readers accept indexed version v; 0 when none
 * does: what a notice names when older tools cannot read a file. */
int pb_release_first_reading_indexed(uint32_t v);

/*
 * 1 when `release` has the behaviour of row `rule` of the release table
 * (its id, "cov." before an llvm-cov row's id), else 0: also 0 for a
 * release outside the table, a NULL rule or an id the table does not have
 * (tests/interop/release_rules.sh checks the ids the tool asks for).
 */
int pb_release_has(int release, const char *rule);

#ifdef __cplusplus
}
#endif
#endif
