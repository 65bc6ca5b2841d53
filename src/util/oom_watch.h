/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * oom_watch.h -- did an allocation fail inside a library we call (internal)?
 *
 * When an allocation fails inside jansson's lexer (a string or key being
 * built), jansson reports a syntax error ("string or '}' expected",
 * "invalid token") with json_error_invalid_syntax, and it can even lose a
 * byte of a string and return a document: the allocation-failure sweep saw
 * out of memory reported as invalid input. The JSON readers leave the
 * host's jansson allocator alone (no json_set_alloc_funcs: it is the whole
 * process's) and watch two things around the parse:
 *   - errno: a failed malloc, calloc or realloc sets ENOMEM (POSIX; glibc
 *     does). But jansson sets errno to 0 before it converts each number, so
 *     a failure before a number is forgotten: errno alone catches only a
 *     failure after the last number (the sweep found one in `types`);
 *   - pb_alloc_failures(), when the process has it: the count of failed
 *     allocations kept by an allocator wrapper that provides the function,
 *     as the allocation-failure sweep's interposer does
 *     (tests/tools/failmalloc.c, LD_PRELOAD). A weak reference: without one
 *     (a normal run) only errno watches.
 * errno is per thread; the count is the process's, so with several threads
 * parsing, another thread's failure may be taken for this one's (a
 * PB_ENOMEM for an input that was fine: never a bad input taken for good).
 */
#ifndef PB_OOM_WATCH_H
#define PB_OOM_WATCH_H

#include <errno.h>

/* The failed allocations an allocator wrapper counted, when one provides it. */
extern unsigned long pb_alloc_failures(void) __attribute__((weak));

typedef struct pbu_oom_watch {
    unsigned long failures; /* pb_alloc_failures() at the start */
} pbu_oom_watch;

static inline unsigned long pbu_alloc_failures_now(void) { return pb_alloc_failures ? pb_alloc_failures() : 0; }

/* Starts watching: clears this thread's errno. Call right before the parse. */
static inline void pbu_oom_watch_start(pbu_oom_watch *w) {
    w->failures = pbu_alloc_failures_now();
    errno = 0;
}

/* 1 when an allocation failed since the start (as far as the two signs
 * tell); read it right after the parse, before anything else can set errno. */
static inline int pbu_oom_watch_seen(const pbu_oom_watch *w) {
    return errno == ENOMEM || pbu_alloc_failures_now() != w->failures;
}

#endif
