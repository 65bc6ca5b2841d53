/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* halves.c -- see halves.h. One copy of the two-thread split that the raw
 * reader's, the indexed reader's and the Java name hashing share. */
#include "util/halves.h"

#include <pthread.h>
#include <unistd.h>

typedef struct half {
    pbu_range_fn fn;
    void *ctx;
    size_t from, to;
} half;

static void *run_half(void *arg) {
    half *h = arg;
    h->fn(h->ctx, h->from, h->to);
    return NULL;
}

void pbu_run_halves(pbu_range_fn fn, void *ctx, size_t n, size_t min_parallel) {
    if (n < min_parallel || n < 2 || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
        fn(ctx, 0, n);
        return;
    }
    half second = {fn, ctx, n / 2, n};
    pthread_t t;
    if (pthread_create(&t, NULL, run_half, &second) != 0) {
        fn(ctx, 0, n);
        return;
    }
    fn(ctx, 0, n / 2);
    pthread_join(t, NULL);
}
