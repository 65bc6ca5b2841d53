/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * halves.h -- one job over [0, n) split in two halves, the second on a
 * thread of its own where the machine has two cores (internal).
 *
 * For work whose items are independent (the MD5 of each name): the result
 * is the same with one thread or two, and nothing fails: when no thread
 * can be started, the caller's thread does both halves.
 */
#ifndef PB_UTIL_HALVES_H
#define PB_UTIL_HALVES_H

#include <stddef.h>

/* Does items [from, to) of the job ctx. */
typedef void (*pbu_range_fn)(void *ctx, size_t from, size_t to);

/* Runs fn over [0, n): on one thread when n < min_parallel or the machine
 * has one core, else [n/2, n) on a second thread while this one does
 * [0, n/2). Returns when both are done. */
void pbu_run_halves(pbu_range_fn fn, void *ctx, size_t n, size_t min_parallel);

#endif
