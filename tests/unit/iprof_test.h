/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* iprof_test.h -- small helpers for the iprof suites (static inline: each
 * suite includes what it uses without unused-function warnings). */
#ifndef PB_IPROF_TEST_H
#define PB_IPROF_TEST_H

#include <stdlib.h>
#include <string.h>

#include "profbridge/profbridge.h"
#include "testutil.h"

static inline const pb_format *it_fmt(void) { return pb_format_lookup("iprof"); }

/* Reads `len` bytes named `name` with the iprof plugin. */
static inline int it_read(pb_profile **out, const void *data, size_t len, const char *name,
                          int lenient, int report_all, tu_diag *d, pb_error *err) {
    pb_source *src = NULL;
    pb_read_options o = PB_READ_OPTIONS_INIT;
    o.lenient = lenient;
    o.report_all = report_all;
    o.diag = d ? tu_diag_fn : NULL;
    o.diag_ctx = d;
    pb_error_clear(err);
    *out = NULL;
    int rc = pb_source_open_memory(&src, data, len, name, err);
    if (rc) return rc;
    rc = it_fmt()->read(out, src, &o, err);
    pb_source_free(src);
    return rc;
}

static inline int it_read_str(pb_profile **out, const char *text, int lenient, pb_error *err) {
    return it_read(out, text, strlen(text), "t.iprof", lenient, 0, NULL, err);
}

/* Writes with the iprof plugin into a malloc'ed NUL-terminated copy. */
static inline int it_write(const pb_profile *p, const char *version, char **text, size_t *len,
                           tu_diag *d, pb_error *err) {
    pb_sink *s = NULL;
    pb_write_options o = PB_WRITE_OPTIONS_INIT;
    pb_kv kv = {"iprof-version", version};
    if (version) {
        o.kv = &kv;
        o.nkv = 1;
    }
    o.diag = d ? tu_diag_fn : NULL;
    o.diag_ctx = d;
    pb_error_clear(err);
    *text = NULL;
    int rc = pb_sink_open_memory(&s, err);
    if (rc) return rc;
    rc = pb_write(p, s, it_fmt(), &o, err); /* pb_write bridges LLVM records */
    if (!rc) {
        size_t n = 0;
        const uint8_t *m = pb_sink_memory(s, &n);
        *text = malloc(n + 1);
        if (*text) {
            if (n) memcpy(*text, m, n);
            (*text)[n] = '\0';
            if (len) *len = n;
        } else {
            rc = PB_ENOMEM;
        }
    }
    pb_sink_free(s);
    return rc;
}

static inline const char *it_fmt_err(const pb_error *e) {
    static char buf[2048];
    pb_error_format(e, buf, sizeof buf);
    return buf;
}

/* Index of the method called `name` (first), or PB_NONE. */
static inline uint32_t it_method(const pb_profile *p, const char *name) {
    for (uint32_t i = 0; i < pb_profile_method_count(p); i++) {
        const pb_method *m = pb_profile_method(p, i);
        size_t len;
        const char *s = m->name == PB_NONE ? NULL : pb_profile_str(p, m->name, &len);
        if (s && strcmp(s, name) == 0) return i;
    }
    return PB_NONE;
}

/* First record of `kind` whose first frame is (method called `name`, bci). */
static inline const pb_record *it_record(const pb_profile *p, int kind, const char *name,
                                         int32_t bci) {
    uint32_t m = name ? it_method(p, name) : PB_NONE;
    for (size_t i = 0; i < pb_profile_record_count(p); i++) {
        const pb_record *r = pb_profile_record(p, i);
        if (r->kind != kind) continue;
        if (!name) return r;
        size_t n = 0;
        const pb_frame *f = pb_profile_context(p, r->ctx, &n);
        if (n && f[0].method == m && f[0].bci == bci) return r;
    }
    return NULL;
}

static inline size_t it_count_kind(const pb_profile *p, int kind) {
    size_t k = 0;
    for (size_t i = 0; i < pb_profile_record_count(p); i++)
        if (pb_profile_record(p, i)->kind == kind) k++;
    return k;
}

#endif
