/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/error.h -- errors and diagnostics.
 *
 * Return values. Every function that can fail returns PB_OK (0) or a
 * negative PB_E* code; each header lists the codes each function returns.
 * Functions that cannot fail return a value or nothing, and say what an
 * out-of-range argument gives (usually NULL or 0).
 *
 * The pb_error. A fallible function takes a `pb_error *err` last, owned by
 * the caller (a plain struct: no allocation, nothing to free; copy it freely).
 * err may be NULL: the code alone is returned.
 *
 *  - Reset on entry. Every public function that takes a pb_error resets it
 *    first (as pb_error_clear), before it checks its arguments. So after
 *    the call err->code is 0 when it succeeded, and when it failed every
 *    field describes this call's failure: nothing of an earlier error shows
 *    through, and a caller may reuse one pb_error for a whole program.
 *    Exceptions: the functions of this header that build errors
 *    (pb_error_set, pb_error_set_ef, pb_error_set_source), which add to
 *    the error they are given, and pb_error_format, which only reads it.
 *  - First error wins within a call. While one call runs, the first cause
 *    recorded is not overwritten by the callers above it inside the
 *    library, so the innermost, most precise cause is the one reported
 *    ("byte 0x28 (header.NumCounters): expected <= 1024"), with the input's
 *    name added on the way out. Plugins and callbacks that build errors
 *    with pb_error_set get the same rule.
 *  - NULL arguments. A required pointer that is NULL fails with PB_EINVAL
 *    ("pb_read_file: path is NULL") where the header says so; elsewhere the
 *    header says "must not be NULL" and a NULL is undefined behaviour (the
 *    getters of profile.h, which are called per record).
 *  - There is no global "last error" and no errno.
 *
 * Thread safety: every function of this header is thread-safe for distinct
 * pb_error values (none touches shared state).
 *
 * Readers that can go on after a problem (validation, report_all) report
 * each problem through a pb_diag_fn callback instead and return PB_EFORMAT
 * at the end.
 *
 * Versioned options structs. Every public options struct (pb_read_options,
 * pb_write_options, pb_dump_options, pb_merge_options, pb_overlap_options,
 * pb_order_options) starts with `unsigned version`, set by its
 * PB_X_OPTIONS_INIT macro or pb_x_options_init() to PB_X_OPTIONS_VERSION.
 * Always start from one of the two, never from {0} or a positional list: a
 * library that adds fields raises the version and still understands
 * structs of every older version. A function given a struct whose version
 * it does not know fails with PB_EINVAL
 * ("pb_read_options: version 7 unknown (this library knows 1)").
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

/*
 * A caller-owned error. The strings are arrays inside the struct (always
 * NUL-terminated, cut to fit), so they live as long as the struct and stay
 * valid after the objects the failed call used are freed.
 */
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

/* Resets *err to "no error" (code 0, offset PB_NO_OFFSET, empty strings,
 * line and column 0). NULL is allowed. Every public function that takes a
 * pb_error does this on entry, so callers need not (but may). */
void pb_error_clear(pb_error *err);

/*
 * Records an error unless `err` is NULL or already holds one (first wins:
 * for plugins and callbacks building an error inside one call; see above).
 * `offset` may be PB_NO_OFFSET, `path` may be NULL. The message is built from
 * `fmt`, cut to fit. A source name already set is kept, everything else is
 * replaced. Returns `code` (also when nothing was recorded), so callers can
 * write `return pb_error_set(...)`. Does not reset on entry.
 */
int pb_error_set(pb_error *err, int code, uint64_t offset, const char *path,
                 const char *fmt, ...) PB_PRINTF(5, 6);

/* Same, with separate expected/found texts (either may be NULL). Returns `code`. */
int pb_error_set_ef(pb_error *err, int code, uint64_t offset, const char *path,
                    const char *expected, const char *found);

/* Sets the source name if none is set yet (readers call it once; wrappers
 * that know the file name call it after a failure). Long names are cut from
 * the left so the file name itself survives. err or source NULL: no-op. */
void pb_error_set_source(pb_error *err, const char *source);

/*
 * Writes the one-line form of an error into buf (always NUL-terminated when
 * n > 0) and returns the length it needed, like snprintf:
 *   big.profraw: byte 0x28 (header.NumCounters): expected <= 1024, found 4294967295
 *   fib.iprof:88:12: conditionalProfiles[17].records: expected a multiple of 3 values, found 4
 */
size_t pb_error_format(const pb_error *err, char *buf, size_t n);

/* The fixed sentence for a code ("input breaks the format's rules"), a
 * static string; "unknown error" for a code not listed above. Thread-safe. */
const char *pb_strerror(int code);

/* Diagnostic severities for pb_diag_fn. */
enum { PB_DIAG_NOTICE = 0, PB_DIAG_WARNING = 1, PB_DIAG_ERROR = 2 };

/*
 * Receives notices ("dropped 3 kind-2 value sites: raw v8 cannot hold them"),
 * warnings and, in report-all mode, every error.
 *  - `e` and its strings are only valid during the call: copy what you keep.
 *    e->code is the PB_E* code of an error, 0 for most notices and warnings.
 *  - It is called on the thread that called the library function, never
 *    after that function returned, and never concurrently for one call.
 *    Two calls running on two threads with the same callback call it
 *    concurrently: a shared ctx then needs the caller's lock.
 *  - It must not call back into the library on the objects the running call
 *    uses (the profile being read or merged, the source, the sink).
 *  - A diagnostic never changes the running call's result: the callback
 *    cannot stop it (a reader in report-all mode returns PB_EFORMAT at the
 *    end when it reported errors).
 * A NULL pb_diag_fn discards diagnostics.
 */
typedef void (*pb_diag_fn)(void *ctx, int severity, const pb_error *e);

/* Builds a pb_error from the arguments and passes it to `fn` (if not NULL):
 * for plugins that report through a caller's pb_diag_fn. Thread-safe. */
void pb_diag(pb_diag_fn fn, void *ctx, int severity, int code, const char *source,
             uint64_t offset, const char *path, const char *fmt, ...) PB_PRINTF(8, 9);

#ifdef __cplusplus
}
#endif
#endif
