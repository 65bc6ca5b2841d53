/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merger_defer.h -- holds diagnostics back and replays them later, in order.
 * The merger streams an input into the accumulator, so the merge's warnings
 * (counter mismatches, IR + front end) would come out between the reader's
 * own warnings; read into a model first (the threaded path) the reader's all
 * come first. Holding the merge's warnings until the read is done gives the
 * same stderr for every thread count. Each is kept compact (its strings,
 * not a 1.3 KB pb_error), as an input may raise one per function.
 */
#ifndef PBI_MERGER_DEFER_H
#define PBI_MERGER_DEFER_H

#include <stddef.h>

#include "util/buf.h"
#include "profbridge/error.h"

typedef struct pbi_deferred_item {
    int severity, code;
    uint64_t offset;
    size_t source, path, message; /* offsets into text; path SIZE_MAX = none */
} pbi_deferred_item;

typedef struct pbi_diag_defer {
    pb_diag_fn fn; /* where pbi_defer_flush sends them */
    void *ctx;
    pbi_deferred_item *v;
    size_t n, cap;
    pb_buf text;
    int oom; /* some could not be kept: said once at the flush */
} pbi_diag_defer;

/* A pb_diag_fn (ctx: pbi_diag_defer *) that keeps the diagnostic. */
void pbi_defer_diag(void *ctx, int severity, const pb_error *e);

/* Sends every kept diagnostic to fn, in order, and forgets them. */
void pbi_defer_flush(pbi_diag_defer *d);

/* Forgets every kept diagnostic (a read that will be done again). */
void pbi_defer_drop(pbi_diag_defer *d);

void pbi_defer_free(pbi_diag_defer *d);

#endif
