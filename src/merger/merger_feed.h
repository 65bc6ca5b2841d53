/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merger_feed.h -- prepares a merger's inputs (pb_prepare) on
 * several threads and hands them out strictly in input order, so the merge
 * (done by the caller, on its own thread) and everything it prints are the
 * same whatever the thread count. Inputs are read at most `threads` ahead of
 * the one being merged (threads - 1 when they are prepared, not read whole),
 * so memory stays bounded by the output plus that many inputs.
 */
#ifndef PBI_MERGER_FEED_H
#define PBI_MERGER_FEED_H

#include <stddef.h>

#include "profbridge/format.h"

typedef struct pbi_feed pbi_feed;

/*
 * Starts reading paths[0..n) with `threads` threads in all (the caller's
 * included: threads - 1 workers are started; 1 = no thread, every input is
 * read inside pbi_feed_next). `ro` (its diag is replaced per input) and
 * `paths` must outlive the feed. Returns 0 or PB_ENOMEM.
 */
int pbi_feed_start(pbi_feed **out, const char *const *paths, size_t n, unsigned threads,
                   const pb_read_options *ro, pb_error *err);

/*
 * The next input, in order: *pr = it, prepared (the caller frees it), and 0, or
 * the read's error code with *err set. *src is the input's source when it
 * may still be needed (the caller frees it after *pr): a failed read, or a
 * prepared input whose state points into its bytes; else NULL. Diagnostics
 * of a successful read are passed to ro->diag first, on the calling thread,
 * in the order they were raised; those of a failed read are dropped (the merger
 * reads a failed input again from *src, rewound, streaming, and reports that
 * read).
 */
int pbi_feed_next(pbi_feed *f, pb_prepared **pr, pb_source **src, pb_error *err);

/* Stops the workers, waits for them and frees what was not handed out. */
void pbi_feed_free(pbi_feed *f);

#endif
