/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merge_summary.h -- `merge --json-summary FILE`: what a merge did, as JSON
 * (docs/schemas/merge-summary.schema.json): every input with its weight and
 * what became of it, the output's path and format, the records written.
 *
 * It goes to its own file because merge may write the profile itself to
 * standard output (llvm-profdata merge without -o): a report there would
 * corrupt it. FILE "-" is standard output, allowed only when the profile
 * goes to a file.
 */
#ifndef PBC_MERGE_SUMMARY_H
#define PBC_MERGE_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/profbridge.h"

typedef struct pbc_merge_summary pbc_merge_summary;

/* What became of an input. */
enum pbc_merge_input_status {
    PBC_MERGE_MERGED = 0,  /* read and merged */
    PBC_MERGE_SKIPPED = 1, /* an empty file, skipped as llvm-profdata skips it */
    PBC_MERGE_FAILED = 2   /* failed (records read before the error may be kept) */
};

/* A summary of n inputs; NULL when out of memory. */
pbc_merge_summary *pbc_merge_summary_new(size_t n);

/* Records input i (path and weight are copied); err the failure, or NULL.
 * s NULL: nothing (no summary was asked for). */
void pbc_merge_summary_input(pbc_merge_summary *s, size_t i, const char *path, uint64_t weight, int status,
                             const pb_error *err);

/* Before the profile is written: writes the summary of a successful merge
 * into FILE's temporary file (io.h), so that once the profile is written
 * only a rename is left, and a failure to make the summary (out of memory,
 * an unwritable FILE) stops the merge before the profile replaces OUT.
 * Nothing for "-". Returns 0, or PBC_EXIT_USAGE after a message. */
int pbc_merge_summary_stage(pbc_merge_summary *s, const char *path, const char *out_path, const char *out_format,
                            const pb_profile *merged, int release, const char *failure_mode);

/* At the end: commits the staged summary when exit_status is 0, else
 * writes the summary of the failure to `path` ("-" = stdout): the output
 * (out_path, the format's name), the merged profile (NULL: none), the
 * release, the failure mode and the merge's exit status.
 * Returns 0, or PBC_EXIT_USAGE after a message. */
int pbc_merge_summary_write(pbc_merge_summary *s, const char *path, const char *out_path, const char *out_format,
                            const pb_profile *merged, int release, const char *failure_mode, int exit_status);

void pbc_merge_summary_free(pbc_merge_summary *s);

#endif
