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
 *
 * Errors (error.h): each function resets its pb_error on entry and checks
 * its pointers and options version (PB_EINVAL). The profile is only read
 * and may be shared with other threads reading it.
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
    unsigned version;   /* PB_ORDER_OPTIONS_VERSION: first, always (see error.h) */
    /* The LLVM release whose llvm-profdata order to reproduce (17..24;
     * order does not exist before 17); 0 = the default release (19). */
    int llvm_release;
    /* llvm-profdata's --num-test-traces: the last N traces are kept aside
     * and only used to print the area under the page fault curve of the
     * order (0 = none). Must be smaller than the number of traces; LLVM 19+. */
    uint64_t num_test_traces;
} pb_order_options;

/* err->path of the error about num_test_traces (not below the number of
 * traces): llvm-profdata names no file in it. */
#define PB_ORDER_NUM_TEST_TRACES "num_test_traces"

#define PB_ORDER_OPTIONS_VERSION 1
#define PB_ORDER_OPTIONS_INIT {PB_ORDER_OPTIONS_VERSION, 0, 0}
/* Fills *o with the defaults of layout `version` (PB_ORDER_OPTIONS_VERSION),
 * like PB_ORDER_OPTIONS_INIT. Returns PB_OK, or PB_EINVAL (o untouched) for a
 * NULL o or a version this library does not know. Thread-safe. */
int pb_order_options_init(pb_order_options *o, unsigned version);

/*
 * The order: *ids = the NameRefs (MD5) of the ordered functions, *n of them
 * (malloc'ed, the caller frees it; NULL when n is 0). A profile without
 * traces gives 0 functions. o may be NULL (the defaults).
 * Errors: PB_EINVAL (NULL p, ids or n; an unknown options version;
 * llvm_release outside 17..24, num_test_traces not below the number of
 * traces or given for LLVM 17/18; err says which), PB_ENOMEM. On failure
 * *ids is NULL and *n 0.
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
 * Errors: those of pb_profile_order (PB_EINVAL also for a NULL p or out),
 * and the sink's (PB_EIO); after a failure `out` holds part of the output.
 */
int pb_profile_order_write(const pb_profile *p, const pb_order_options *o, pb_sink *out,
                           size_t *num_ordered, pb_error *err) PB_WARN_UNUSED;

#ifdef __cplusplus
}
#endif

#endif
