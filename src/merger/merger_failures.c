/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merger_failures.c -- the inputs a merge could not use: kept while the
 * inputs are merged, reported at the end in the order llvm-profdata prints
 * its "warning: FILE: ..." lines, and the failure mode's verdict.
 */
#include <stdint.h>
#include <stdlib.h>

#include "merger_internal.h"
#include "util/grow.h"

int pbi_merger_fail(pbi_merger_failures *f, size_t input, int code, const pb_error *e) {
    if (!f->first_code) f->first_code = code;
    if (pbu_grow((void **)&f->v, &f->cap, f->n + 1, sizeof *f->v)) return PB_ENOMEM;
    f->v[f->n].input = input;
    f->v[f->n].code = code;
    f->v[f->n].err = *e;
    if (!f->v[f->n].err.code) f->v[f->n].err.code = code;
    f->n++;
    return 0;
}

/*
 * The order in which llvm-profdata warns about failed inputs: with T
 * threads input i is loaded into writer context i % T, each context keeps
 * its failures in input order, and the contexts are merged pairwise
 * (mergeWriterContexts: ctx[i] takes ctx[i + mid]'s for i < mid, then
 * ctx[0] takes ctx[end - 1]'s when end is odd; mid halves until 0), so
 * ctx[0] ends with the contexts' lists in the order computed here.
 * rank[c] = position of context c. Returns -1 when out of memory.
 */
static int context_ranks(size_t t, size_t *rank) {
    size_t *next = malloc(t * sizeof *next), *tail = malloc(t * sizeof *tail);
    if (!next || !tail) {
        free(next);
        free(tail);
        return -1;
    }
    for (size_t c = 0; c < t; c++) next[c] = SIZE_MAX, tail[c] = c;
    for (size_t end = t, mid = t / 2; mid > 0; end = mid, mid /= 2) {
        for (size_t i = 0; i < mid; i++) next[tail[i]] = i + mid, tail[i] = tail[i + mid];
        if (end & 1) next[tail[0]] = end - 1, tail[0] = tail[end - 1];
    }
    size_t r = 0;
    for (size_t c = 0; c != SIZE_MAX; c = next[c]) rank[c] = r++;
    free(next);
    free(tail);
    return 0;
}

static int cmp_failure(const void *a, const void *b) {
    const pbi_failed_input *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return x->input < y->input ? -1 : x->input > y->input;
}

int pbi_merger_report_failures(pb_merger *m, pbi_merger_failures *f, size_t threads) {
    if (f->n) {
        if (threads < 1) threads = 1;
        size_t *rank = malloc(threads * sizeof *rank);
        if (!rank || context_ranks(threads, rank)) {
            free(rank);
            return -1;
        }
        for (size_t k = 0; k < f->n; k++) f->v[k].rank = rank[f->v[k].input % threads];
        free(rank);
        qsort(f->v, f->n, sizeof *f->v, cmp_failure);
        if (m->o.failed)
            for (size_t k = 0; k < f->n; k++)
                m->o.failed(m->o.failed_ctx, f->v[k].input, m->in[f->v[k].input].path, &f->v[k].err);
    }
    /* "no profile can be merged": every input failed (unless warn), or any did with any */
    if (m->o.failure_mode == PB_MERGE_FAIL_WARN) return 0;
    return (f->n && f->n == m->n) || (f->n && m->o.failure_mode == PB_MERGE_FAIL_ANY);
}

void pbi_merger_failures_free(pbi_merger_failures *f) {
    free(f->v);
    f->v = NULL;
    f->n = f->cap = 0;
}
