/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_filter.h -- the filters of llvm-cov's command line (internal; see
 * cov_filter.c): compiled filename regexes and the SOURCES operands.
 */
#ifndef PB_COVERAGE_COV_FILTER_H
#define PB_COVERAGE_COV_FILTER_H

#include <regex.h>
#include <stddef.h>

#include "coverage/cov_state.h"

/* Compiles src[0..n) (POSIX extended); one that does not compile matches
 * nothing, as in llvm-cov. Returns 0 or PB_ENOMEM (nothing allocated). */
int pbi_cov_compile_regexes(const char *const *src, size_t n, const char *option, regex_t **out, size_t *nout,
                            pb_error *err);
void pbi_cov_free_regexes(regex_t *v, size_t n);

/* Reads the -name-allowlist files as llvm-cov does and reports the first
 * problem (a file that cannot be read, a malformed line) as an error
 * diagnostic, in SpecialCaseList's words; llvm-cov goes on after it. */
void pbi_cov_check_allowlists(const pb_cov_options *o);

/* Fills c->sources from o->sources (c->ev and the filename filters must be
 * set). Warnings go to o->diag. Returns 0, PB_EINVAL (a bad
 * -path-equivalence) or PB_ENOMEM; on failure c->sources is untouched. */
int pbi_cov_collect_sources(pb_coverage *c, const pb_cov_options *o, pb_error *err);

#endif
