/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* error.c -- caller-owned errors with a position, expected and found. */
#include "profbridge/error.h"

#include "util/diag.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void copy_cut(char *dst, size_t cap, const char *src) {
    if (!src) {
        dst[0] = '\0';
        return;
    }
    snprintf(dst, cap, "%s", src);
}

void pb_error_clear(pb_error *err) {
    if (!err) return;
    memset(err, 0, sizeof *err);
    err->offset = PB_NO_OFFSET;
}

void pb_error_set_source(pb_error *err, const char *source) {
    if (!err || !source || err->source[0]) return;
    size_t n = strlen(source);
    /* Cut from the left so the file's own name survives a deep path. */
    if (n >= sizeof err->source) {
        source += n - (sizeof err->source - 4);
        snprintf(err->source, sizeof err->source, "...%s", source);
    } else {
        memcpy(err->source, source, n + 1);
    }
}

static int set_common(pb_error *err, int code, uint64_t offset, const char *path) {
    if (!err || err->code) return 0;
    char src[sizeof err->source];
    memcpy(src, err->source, sizeof src);
    pb_error_clear(err);
    memcpy(err->source, src, sizeof src);
    err->code = code;
    err->offset = offset;
    copy_cut(err->path, sizeof err->path, path);
    return 1;
}

int pb_error_set(pb_error *err, int code, uint64_t offset, const char *path, const char *fmt,
                 ...) {
    if (!set_common(err, code, offset, path)) return code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}

int pb_error_set_ef(pb_error *err, int code, uint64_t offset, const char *path,
                    const char *expected, const char *found) {
    if (!set_common(err, code, offset, path)) return code;
    copy_cut(err->expected, sizeof err->expected, expected);
    copy_cut(err->found, sizeof err->found, found);
    return code;
}

size_t pb_error_format(const pb_error *e, char *buf, size_t n) {
    char tmp[1600];
    size_t len = 0;
#define ADD(...)                                                                    \
    do {                                                                            \
        int k_ = snprintf(tmp + len, sizeof tmp - len, __VA_ARGS__);                \
        if (k_ > 0) len = len + (size_t)k_ >= sizeof tmp ? sizeof tmp - 1 : len + (size_t)k_; \
    } while (0)
    ADD("%s", e->source[0] ? e->source : "<input>");
    if (e->line > 0) ADD(":%d:%d", e->line, e->column);
    ADD(": ");
    if (e->offset != PB_NO_OFFSET && e->line <= 0) {
        ADD("byte 0x%" PRIx64, e->offset);
        ADD(e->path[0] ? " (%s): " : ": ", e->path);
    } else if (e->path[0]) {
        ADD("%s: ", e->path);
    }
    if (e->expected[0] || e->found[0]) {
        if (e->message[0]) ADD("%s: ", e->message);
        if (e->expected[0]) ADD("expected %s", e->expected);
        if (e->expected[0] && e->found[0]) ADD(", ");
        if (e->found[0]) ADD("found %s", e->found);
    } else if (e->message[0]) {
        ADD("%s", e->message);
    } else {
        ADD("%s", pb_strerror(e->code));
    }
#undef ADD
    if (n) snprintf(buf, n, "%s", tmp);
    return len;
}

const char *pb_strerror(int code) {
    switch (code) {
    case PB_OK: return "no error";
    case PB_EINVAL: return "invalid argument";
    case PB_ENOMEM: return "out of memory";
    case PB_EIO: return "input/output error";
    case PB_EFORMAT: return "input breaks the format's rules";
    case PB_ETRUNC: return "input ends early";
    case PB_EVERSION: return "unsupported format version";
    case PB_EUNSUPPORTED: return "not supported";
    case PB_ENOTFOUND: return "not found";
    case PB_EEXIST: return "already present";
    case PB_ELIMIT: return "input limit reached";
    default: return "unknown error";
    }
}

void pbu_vdiag(pb_diag_fn fn, void *ctx, int severity, int code, const char *source,
               uint64_t offset, const char *path, const char *fmt, va_list ap) {
    if (!fn) return;
    pb_error e;
    pb_error_clear(&e);
    pb_error_set_source(&e, source);
    e.code = code;
    e.offset = offset;
    copy_cut(e.path, sizeof e.path, path);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    fn(ctx, severity, &e);
}

void pb_diag(pb_diag_fn fn, void *ctx, int severity, int code, const char *source,
             uint64_t offset, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pbu_vdiag(fn, ctx, severity, code, source, offset, path, fmt, ap);
    va_end(ap);
}
