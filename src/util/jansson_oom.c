/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* jansson_oom.c -- see jansson_oom.h. */
#include "util/jansson_oom.h"

#include <pthread.h>
#include <stdlib.h>

#include <jansson.h>

static json_malloc_t prev_malloc;
static json_free_t prev_free;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static _Thread_local int failed;

static void *wrap_malloc(size_t n) {
    void *p = prev_malloc ? prev_malloc(n) : malloc(n);
    if (!p) failed = 1;
    return p;
}

static void wrap_free(void *p) {
    if (prev_free) prev_free(p);
    else free(p);
}

static void install(void) {
    json_get_alloc_funcs(&prev_malloc, &prev_free);
    json_set_alloc_funcs(wrap_malloc, wrap_free);
}

void pbi_jansson_oom_reset(void) {
    (void)pthread_once(&once, install);
    failed = 0;
}

int pbi_jansson_oom_seen(void) { return failed; }
