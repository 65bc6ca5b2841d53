/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_read_util.c -- the small helpers every piece of the coverage reader
 * shares (cov_read.h): the error of a malformed byte, the tracer call, the
 * release whose rules apply.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

int pbi_cov_bad_w(pb_error *err, const char *obj, uint64_t off, const char *words, const char *expected,
                  const char *found, const char *pathfmt, ...) {
    char path[256];
    va_list ap;
    va_start(ap, pathfmt);
    vsnprintf(path, sizeof path, pathfmt, ap);
    va_end(ap);
    int fresh = err && !err->code; /* first error wins: words only for our own */
    int rc = pb_error_set_ef(err, PB_EFORMAT, off, path, expected, found);
    if (fresh) snprintf(err->message, sizeof err->message, "%s", words ? words : "malformed coverage data");
    pb_error_set_source(err, obj);
    return rc;
}

void pbi_cov_release_words(pb_error *err, const pbi_llvm_target *t) {
    static const char *const cov[] = {"malformed coverage data", "truncated coverage data",
                                      "unsupported coverage format version",
                                      "failed to decompress coverage data (zlib)", "no coverage data found"};
    static const char prof[] = "malformed instrumentation profile data";
    if (!err || !err->code) return;
    char *m = err->message;
    if (!pbi_llvm_cov_has(t, PBI_LC_PROF_ERROR_DETAIL) && strncmp(m, prof, sizeof prof - 1) == 0)
        m[sizeof prof - 1] = 0;
    if (pbi_llvm_cov_has(t, PBI_LC_COV_MESSAGES_LOWER)) return;
    for (size_t i = 0; i < sizeof cov / sizeof cov[0]; i++) {
        size_t n = strlen(cov[i]);
        if (strncmp(m, cov[i], n) == 0 && (m[n] == 0 || m[n] == ':')) {
            m[n] = 0;
            m[0] = (char)(m[0] - 'a' + 'A');
            return;
        }
    }
    if (strncmp(m, "unknown architecture: ", 22) == 0) m[0] = 'U';
}

const pbi_llvm_target *pbi_cov_target(const pbi_cov_read_options *o, pbi_llvm_target *store) {
    if (o && o->t) return o->t;
    (void)pbi_llvm_target_of(PBI_LLVM_DEFAULT, store);
    return store;
}

