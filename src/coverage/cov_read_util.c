/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_read_util.c -- the small helpers every piece of the coverage reader
 * shares (cov_read.h): the error of a malformed byte, the tracer call, the
 * release whose rules apply.
 */
#include <stdarg.h>
#include <stdio.h>

#include "coverage/cov_read.h"

void pbi_cov_tracef(const pbi_cov_trace *tr, const char *sec, const uint8_t *d, uint64_t off, uint64_t len,
                    const char *field, const char *fmt, ...) {
    if (!tr || !tr->fn) return;
    char v[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    tr->fn(tr->ctx, sec, d, off, len, field, v);
}

int pbi_cov_bad(pb_error *err, const char *obj, uint64_t off, const char *expected, const char *found,
                const char *pathfmt, ...) {
    char path[256];
    va_list ap;
    va_start(ap, pathfmt);
    vsnprintf(path, sizeof path, pathfmt, ap);
    va_end(ap);
    int rc = pb_error_set_ef(err, PB_EFORMAT, off, path, expected, found);
    pb_error_set_source(err, obj);
    return rc;
}

const pbi_llvm_target *pbi_cov_target(const pbi_cov_read_options *o, pbi_llvm_target *store) {
    if (o && o->t) return o->t;
    (void)pbi_llvm_target_of(PBI_LLVM_DEFAULT, store);
    return store;
}

