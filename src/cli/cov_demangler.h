/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_demangler.h -- llvm-cov's -Xdemangler PROGRAM -Xdemangler ARG...: the
 * program run over the coverage's function names, its lines the names
 * `report -show-functions` prints (pb_cov_report_options.demangle).
 */
#ifndef PBC_COV_DEMANGLER_H
#define PBC_COV_DEMANGLER_H

#include <stddef.h>

#include "profbridge/coverage.h"

typedef struct pbc_demangler pbc_demangler;

/* sys::findProgramByName: a name with a '/' verbatim, else the first
 * regular, readable and executable PATH entry/name. Returns 0 with *path
 * (malloc'd; the caller frees it), ENOENT or ENOMEM. */
int pbc_demangler_find(const char *name, char **path);

/* Runs argv (argv[0]: pbc_demangler_find's path; NULL-terminated) over c's
 * function names as llvm-cov does (lowercase: its errors start lower-case,
 * 18+). Returns 0 with *out the names
 * (NULL when the demangler failed: llvm-cov's error line is printed and the
 * names stay as the binary has them, the exit status unchanged), or -1 when
 * memory ran out (*out NULL). *out lives no longer than c. */
int pbc_demangler_run(pbc_demangler **out, const char *const *argv, const pb_coverage *c, int lowercase);

/* A pb_cov_demangle_fn over pbc_demangler_run's table (ctx: the table, or
 * NULL for none): the label, or NULL to keep the name. */
const char *pbc_demangler_name(void *ctx, const char *name, size_t len);

void pbc_demangler_free(pbc_demangler *d);

#endif
