/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * release_compat.h -- TRANSITIONAL: the release as cmd_show.c and the show
 * printers (src/cli/show_*.c) still carry it, an internal pbi_llvm_target.
 * Helper "show" moves them into the library (issue 21 item 2); once that
 * lands, cmd_show.c calls pbc_release_of and this header and its include in
 * opts.h go. No other CLI file may use it.
 */
#ifndef PB_CLI_RELEASE_COMPAT_H
#define PB_CLI_RELEASE_COMPAT_H

#include "llvm/target.h"

/* pbc_release_of, filling the release's internal target. */
static inline int pbc_llvm_target(const char *cmd, const char *value, pbi_llvm_target *t) {
    pbc_release r;
    int rc = pbc_release_of(cmd, value, &r);
    if (rc) return rc;
    if (pbi_llvm_target_of(r.release, t)) return PBC_EXIT_USAGE;
    t->chosen = r.chosen;
    return 0;
}

/* The internal target of r (NULL for a NULL r), for compare_read.c's calls
 * of the show printer's pbc_llvm_check_readable and pbc_llvm_view. */
static inline const pbi_llvm_target *pbc_release_target(const pbc_release *r, pbi_llvm_target *t) {
    if (!r || pbi_llvm_target_of(r->release, t)) return NULL;
    t->chosen = r->chosen;
    return t;
}

#endif
