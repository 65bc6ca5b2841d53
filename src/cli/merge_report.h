/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merge_report.h -- `merge`'s words: the pb_merger's diagnostics and failed
 * inputs printed as llvm-profdata prints them (or profbridge's fuller lines),
 * the progress line, the old-raw-inputs hint and the check of OUT.
 */
#ifndef PBC_MERGE_REPORT_H
#define PBC_MERGE_REPORT_H

#include <stddef.h>

#include "merge_inputs.h"
#include "opts.h"
#include "progress.h"
#include "profbridge/merge.h"

/* pbc_merge_diag's context: diagnostics without a source get `name` (the
 * file read or written, never "<input>"); hinted: the PB_MERGE_* kinds
 * whose "same binary" hint was given. */
typedef struct pbc_merge_diag_ctx {
    pbc_diag_ctx *dc;
    const char *name;
    unsigned hinted;
    size_t failed; /* inputs pbc_merge_print_failure reported */
} pbc_merge_diag_ctx;

/* A pb_diag_fn: InstrProfWriter's problems as llvm-profdata's
 * handleMergeWriterError prints them, the PB_MERGER_* notices, the rest
 * through pbc_diag. */
void pbc_merge_diag(void *ctx, int severity, const pb_error *e);

/* A pb_merger_failure_fn (ctx: pbc_merge_diag_ctx *). */
void pbc_merge_print_failure(void *ctx, size_t input, const char *name, const pb_error *e);

/* "merged i/n inputs" on stderr: by default only on a terminal, after a
 * second, redrawn at most 4 times a second and erased at the end;
 * --progress: from the start, one line per input when stderr is not a
 * terminal; --quiet or the personality: never (progress.h). */
typedef struct pbc_merge_progress {
    int on, forced, tty;
    size_t n;
    double start, last;
    int shown;
} pbc_merge_progress;

void pbc_merge_progress_start(pbc_merge_progress *pg, size_t n, pbc_progress_mode mode);
void pbc_merge_progress_update(void *ctx, size_t done, size_t total); /* a pb_merger_progress_fn */
void pbc_merge_progress_end(pbc_merge_progress *pg);

/* The notice for raw inputs older than the target's indexed version. */
void pbc_merge_old_raw_hint(const pbc_merge_inputs *in, int release, const char *out_path,
                            pbc_diag_ctx *dc);

/* llvm-profdata's words when OUT cannot be written. Returns 0 or -1 after
 * the message. */
int pbc_merge_output_check(const char *out, int is_text);

#endif
