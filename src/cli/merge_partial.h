/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merge_partial.h -- `profbridge merge` through a partial merge
 * (profbridge/partial.h): with --partial (the result is written as a
 * .pbpart) or when an input is a .pbpart (it stands for its inputs, in
 * order). The library does the work; this prints what became of each
 * input.
 */
#ifndef PBC_MERGE_PARTIAL_H
#define PBC_MERGE_PARTIAL_H

#include "merge_inputs.h"
#include "merge_report.h"
#include "merge_summary.h"
#include "profbridge/profbridge.h"

/* 1 when some input is a serialized partial (its first bytes say so; only
 * regular files are looked at: a pipe is read once, by the merge). */
int pbc_merge_has_partial_input(const pbc_merge_inputs *in);

/* Every input added to a new partial of `rules` in order (progress on pg),
 * then the failed ones printed through rn, in input order. Returns 0 with
 * *out set, or the exit status after the message. */
int pbc_merge_partial(const pb_merger_options *rules, const pbc_merge_inputs *in, pbc_merge_diag_ctx *rn,
                      pbc_merge_progress *pg, pb_partial **out);

/* The partial's serialization written to path (through a temporary file).
 * Returns 0 or the exit status after the message. */
int pbc_merge_partial_save(const pb_partial *p, const char *path);

/* A --json-summary of the partial's inputs (its provenance); NULL when out
 * of memory. */
pbc_merge_summary *pbc_merge_partial_summary(const pb_partial *p);

#endif
