/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/error.h -- errors and diagnostics.
 *
 * Every function that can fail returns 0 or a negative PB_E* code and, when
 * its `err` argument is not NULL, fills a pb_error owned by the caller. The
 * first error wins: a pb_error that already holds a code is not overwritten,
 * so the innermost, most precise cause is the one the user sees. There is no
 * global "last error".
 *
 * Readers that can go on after a problem (validation) report each problem
 * through a pb_diag_fn callback instead and return PB_EFORMAT at the end.
 */
#ifndef PROFBRIDGE_ERROR_H
#define PROFBRIDGE_ERROR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define PB_WARN_UNUSED __attribute__((warn_unused_result))
#define PB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PB_WARN_UNUSED
#define PB_PRINTF(f, a)
#endif

/* Error codes: few, and each one a program can act on. The detail is in the
 * pb_error fields. */
enum {
    PB_OK = 0,
    PB_EINVAL = -1,       /* bad argument or option (a caller's mistake) */
    PB_ENOMEM = -2,       /* allocation failed */
    PB_EIO = -3,          /* the operating system refused a read or write */
    PB_EFORMAT = -4,      /* input breaks the format's rules */
    PB_ETRUNC = -5,       /* input ends before the format says it should */
    PB_EVERSION = -6,     /* a version no layout table covers */
    PB_EUNSUPPORTED = -7, /* recognised, but this operation or plugin cannot do it */
    PB_ENOTFOUND = -8,    /* lookup found nothing */
    PB_EEXIST = -9,       /* the key is already present */
    PB_ELIMIT = -10       /* an input passes a size or gzip-inflation limit (pb_read_options) */
};

/* Offset value meaning "no byte offset applies". */
#define PB_NO_OFFSET UINT64_MAX

typedef struct pb_error {
    int code;           /* PB_E*, 0 while no error was recorded */
    char source[256];   /* file name, "<stdin>", "<memory>"; cut from the left */
    uint64_t offset;    /* byte offset into the (decompressed) input, or PB_NO_OFFSET */
    char path[256];     /* "header.NumCounters", "conditionalProfiles[17].records" */
    int line, column;   /* JSON/text input only; 0 when unknown */
    char expected[128]; /* what the format requires ("a multiple of 3 values") */
    char found[128];    /* what the input holds ("4 values") */
    char message[512];  /* the sentence when expected/found do not fit */
} pb_error;

/* Resets *err to "no error" (code 0, offset PB_NO_OFFSET, empty strings). */
void pb_error_clear(pb_error *err);

/*
 * Records an error unless `err` is NULL or already holds one (first wins).
 * `offset` may be PB_NO_OFFSET, `path` may be NULL. The message is built from
 * `fmt`. Returns `code`, so callers can write `return pb_error_set(...)`.
 */
int pb_error_set(pb_error *err, int code, uint64_t offset, const char *path,
                 const char *fmt, ...) PB_PRINTF(5, 6);

/* Same, with separate expected/found texts (either may be NULL). */
int pb_error_set_ef(pb_error *err, int code, uint64_t offset, const char *path,
                    const char *expected, const char *found);

/* Sets the source name if none is set yet (readers call it once; wrappers
 * that know the file name call it after a failure). Long names are cut from
 * the left so the file name itself survives. */
void pb_error_set_source(pb_error *err, const char *source);

/*
 * Writes the one-line form of an error into buf (always NUL-terminated when
 * n > 0) and returns the length it needed, like snprintf:
 *   big.profraw: byte 0x28 (header.NumCounters): expected <= 1024, found 4294967295
 *   fib.iprof:88:12: conditionalProfiles[17].records: expected a multiple of 3 values, found 4
 */
size_t pb_error_format(const pb_error *err, char *buf, size_t n);

/* The fixed sentence for a code ("input breaks the format's rules"). */
const char *pb_strerror(int code);

/* Diagnostic severities for pb_diag_fn. */
enum { PB_DIAG_NOTICE = 0, PB_DIAG_WARNING = 1, PB_DIAG_ERROR = 2 };

/*
 * Receives notices ("dropped 3 kind-2 value sites: raw v8 cannot hold them"),
 * warnings and, in report-all mode, every error. `e` is only valid during the
 * call. A NULL pb_diag_fn discards diagnostics.
 */
typedef void (*pb_diag_fn)(void *ctx, int severity, const pb_error *e);

/* Builds a pb_error from the arguments and passes it to `fn` (if not NULL). */
void pb_diag(pb_diag_fn fn, void *ctx, int severity, int code, const char *source,
             uint64_t offset, const char *path, const char *fmt, ...) PB_PRINTF(8, 9);

#ifdef __cplusplus
}
#endif
#endif
