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
 * process's) and watch errno instead: a failed malloc, calloc or realloc
 * sets ENOMEM (POSIX; glibc, and the sweep's interposer
 * tests/tools/failmalloc.c, do), and nothing in a parse sets it otherwise.
 * errno is per thread, so parses on several threads do not mix.
 */
#ifndef PB_OOM_WATCH_H
#define PB_OOM_WATCH_H

#include <errno.h>

/* Starts watching: clears this thread's errno. Call right before the parse. */
static inline void pbi_oom_watch_start(void) { errno = 0; }

/* 1 when an allocation failed on this thread since the start; read it
 * right after the parse, before anything else can set errno. */
static inline int pbi_oom_watch_seen(void) { return errno == ENOMEM; }

#endif
