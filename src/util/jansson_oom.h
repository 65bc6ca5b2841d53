/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * jansson_oom.h -- telling jansson's "out of memory" from a syntax error
 * (internal). When an allocation fails inside its lexer (a string or key
 * being built), jansson reports a syntax error ("string or '}' expected",
 * "invalid token") with json_error_invalid_syntax: the allocation-failure
 * sweep saw out of memory reported as invalid input (exit 1). jansson's
 * allocator is routed through a wrapper that notes, per thread, that an
 * allocation failed; a reader resets the note before parsing and asks it
 * after a failed parse. The wrapper calls the allocator that was installed
 * before (the host application's, or malloc/free).
 */
#ifndef PB_JANSSON_OOM_H
#define PB_JANSSON_OOM_H

/* Installs the wrapper once (thread-safe) and clears this thread's note. */
void pbi_jansson_oom_reset(void);

/* 1 if a jansson allocation failed on this thread since the last reset. */
int pbi_jansson_oom_seen(void);

#endif
