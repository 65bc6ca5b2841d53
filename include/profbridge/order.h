/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/order.h -- a function order from temporal profile traces, as
 * `llvm-profdata order` computes it (docs/order.md).
 *
 * The functions the profile's temporal traces touch are ordered by LLVM's
 * balanced partitioning (recursive bisection that keeps functions used at
 * the same time of the same traces together, so a start-up touches fewer
 * pages). The result is the same, function for function, as the one the
 * chosen LLVM release's llvm-profdata prints, random numbers included.
 */
#ifndef PROFBRIDGE_ORDER_H
#define PROFBRIDGE_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "io.h"
#include "profile.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pb_order_options {
    /* The LLVM release whose llvm-profdata order to reproduce (17..24;
     * order does not exist before 17); 0 = the default release (19). */
    int llvm_version;
    /* llvm-profdata's --num-test-traces: the last N traces are kept aside
     * and only used to print the area under the page fault curve of the
     * order (0 = none). Must be smaller than the number of traces; LLVM 19+. */
    uint64_t num_test_traces;
} pb_order_options;

#define PB_ORDER_OPTIONS_INIT {0, 0}

/*
 * The order: *ids = the NameRefs (MD5) of the ordered functions, *n of them
 * (malloc'ed, the caller frees it; NULL when n is 0). A profile without
 * traces gives 0 functions.
 * Errors: PB_EINVAL (llvm_version outside 17..24, num_test_traces not below
 * the number of traces or given for LLVM 17/18; err says which), PB_ENOMEM.
 */
int pb_profile_order(const pb_profile *p, const pb_order_options *o, uint64_t **ids, size_t *n,
                     pb_error *err) PB_WARN_UNUSED;

/*
 * Writes what `llvm-profdata order` prints on its standard output, byte for
 * byte: "# Ordered N functions" (LLVM 18+; LLVM 17 prints it as a note on
 * stderr, so the caller may print it from *num_ordered), the page-fault
 * area for test traces (LLVM 19+), the warning line (LLVM 18+), then one
 * function per line (a local function's file name on a "# FILE" line before
 * it; an empty line for a NameRef the profile has no name for).
 * *num_ordered (may be NULL) = the number of functions.
 * Errors: those of pb_profile_order, and the sink's (PB_EIO).
 */
int pb_profile_order_write(const pb_profile *p, const pb_order_options *o, pb_sink *out,
                           size_t *num_ordered, pb_error *err) PB_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif
