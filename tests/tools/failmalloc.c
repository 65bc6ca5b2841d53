/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * failmalloc.c -- an LD_PRELOAD library whose N-th allocation fails, for the
 * allocation-failure sweep (scripts/alloc-sweep.sh). Every call to malloc,
 * calloc, realloc, posix_memalign, aligned_alloc and strdup/strndup (glibc's
 * go through malloc) counts; the one numbered $PB_FAIL_AT (from 1) returns
 * NULL with errno ENOMEM, every other call is served by glibc. With
 * PB_FAIL_AT unset or 0 nothing fails and, if $PB_FAIL_COUNT_FILE is set, the
 * number of calls is written there at exit: the range to sweep. With
 * PB_FAIL_BACKTRACE set, the failing call's stack goes to stderr (to find
 * who ignored the failure).
 * Not for ASan builds (ASan owns malloc).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static unsigned long calls, fail_at, failed;
static int inited;

static void init(void) {
    if (inited) return;
    inited = 1;
    const char *s = getenv("PB_FAIL_AT");
    fail_at = s ? strtoul(s, NULL, 10) : 0;
}

/* 1 when this call is the one that fails. */
static int fails(void) {
    init();
    if (++calls != fail_at) return 0;
    failed++;
    if (getenv("PB_FAIL_BACKTRACE")) {
        void *frames[32];
        int n = backtrace(frames, 32); /* may allocate: those calls succeed */
        backtrace_symbols_fd(frames, n, 2);
    }
    return 1;
}

void *malloc(size_t n) {
    if (fails()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(n);
}

void *calloc(size_t a, size_t b) {
    if (fails()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_calloc(a, b);
}

void *realloc(void *p, size_t n) {
    if (fails()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(p, n);
}

int posix_memalign(void **out, size_t align, size_t n) {
    if (fails()) return ENOMEM;
    void *p = __libc_memalign(align, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t n) {
    if (fails()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_memalign(align, n);
}

/* The allocations failed so far: the library's JSON readers ask (a weak
 * reference, src/util/oom_watch.h), since jansson hides a failure inside its
 * lexer and errno does not keep it. */
unsigned long pb_alloc_failures(void) { return failed; }

__attribute__((destructor)) static void report(void) {
    const char *f = getenv("PB_FAIL_COUNT_FILE");
    if (!f || fail_at) return;
    char line[32];
    int n = snprintf(line, sizeof line, "%lu\n", calls);
    int fd = open(f, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        if (write(fd, line, (size_t)n) < 0) { /* nothing to do */ }
        close(fd);
    }
}
