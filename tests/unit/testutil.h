/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* testutil.h -- helpers shared by the CUnit suites. */
#ifndef PB_TESTUTIL_H
#define PB_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include <CUnit/CUnit.h>

#include "profbridge/profbridge.h"
#include "profbridge/sys/format.h" /* white-box: the tests call plugin operations */

/* Path of a file under the source tree / ../shared, in a static buffer
 * (one of 8 rotating buffers, so a few can be used in one expression). */
const char *tu_src(const char *rel);
const char *tu_shared(const char *rel);
/* 1 if the file exists (tests that need ../shared skip without it). */
int tu_exists(const char *path);
/* Reads a whole file (malloc'ed, NUL-appended); NULL on failure. */
char *tu_slurp(const char *path, size_t *len);
/* A diag callback that counts and records the last message (ctx: tu_diag*). */
typedef struct tu_diag {
    int count[3];
    char last[1024];
    char all[16384]; /* every message, one per line, cut when full */
} tu_diag;
void tu_diag_fn(void *ctx, int severity, const pb_error *e);
/* Prints "SKIP: why" once per test and returns (use: TU_SKIP_IF(cond, why)). */
#define TU_SKIP_IF(cond, why)                                   \
    do {                                                        \
        if (cond) {                                             \
            fprintf(stderr, "\n  SKIP %s: %s\n", __func__, why); \
            return;                                             \
        }                                                       \
    } while (0)

/* Writes p as format fmt with wo into memory; returns the bytes, NUL
 * terminated (caller frees; *len without the NUL), or NULL with *rc the
 * failure (0 when only the copy's malloc failed). */
char *tu_write_memory(const pb_profile *p, const char *fmt, const pb_write_options *wo, size_t *len, int *rc);

#endif
