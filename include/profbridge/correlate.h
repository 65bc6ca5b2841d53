/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/correlate.h -- a program's binary or its debug info as
 * llvm-profdata's --binary-file and --debug-info use them: the check
 * `llvm-profdata merge` makes before it reads any input, and the listing of
 * `llvm-profdata show --debug-info`.
 *
 * Programs built with `-mllvm -profile-correlate=binary` or
 * `-profile-correlate=debug-info -g` (`-debug-info-correlate` before LLVM
 * 18) write "lightweight" raw profiles, counters only; their records and
 * names are in the binary (sections __llvm_covdata/__llvm_covnames) or in
 * its DWARF. Reading such a profile with its binary is pb_read's: the
 * "binary-file" and "debug-info" read options of the raw format.
 *
 * Errors (error.h): each function resets its pb_error on entry and checks
 * its pointers and options version (PB_EINVAL). Errors name the file
 * (err->source) in the words of the options' release of llvm-profdata where
 * it has some ("could not find section (__llvm_prf_cnts)"), followed by
 * profbridge's " (expected ...)" where that helps. Thread-safe: calls with
 * distinct options are independent.
 */
#ifndef PROFBRIDGE_CORRELATE_H
#define PROFBRIDGE_CORRELATE_H

#include <stdint.h>

#include "error.h"
#include "io.h"

#ifdef __cplusplus
extern "C" {
#endif

enum pb_correlate_kind {
    PB_CORRELATE_BINARY = 1,    /* --binary-file: __llvm_covdata and __llvm_covnames */
    PB_CORRELATE_DEBUG_INFO = 2 /* --debug-info: the __profc_ variables of the DWARF */
};

enum pb_correlate_style {
    PB_CORRELATE_COUNT = 0, /* "Found N functions\n" (llvm-profdata show --debug-info) */
    PB_CORRELATE_YAML = 1   /* the probes as LLVM's YAML (show --debug-info --show-format=yaml) */
};

typedef struct pb_correlate_options {
    unsigned version;       /* PB_CORRELATE_OPTIONS_VERSION: first, always (see error.h) */
    int llvm_release;       /* as llvm-profdata-N, N = 13..24 (0 = 19, the default release):
                               its words and what its YAML lists */
    int kind;               /* enum pb_correlate_kind */
    int style;              /* enum pb_correlate_style (pb_correlate_show) */
    uint64_t max_input_size; /* as pb_read_options': the file plus what its compressed */
    uint64_t max_inflation;  /* sections inflate to (0 = the default, PB_NO_LIMIT = none) */
    unsigned max_warnings;  /* at most this many warnings, then "Suppressed K additional
                               warnings" (--max-debug-info-correlation-warnings); 0 = all */
    pb_diag_fn diag;        /* LLVM's correlation warnings (PB_DIAG_WARNING, e->message the
                               text without "warning: "); NULL = none */
    void *diag_ctx;
} pb_correlate_options;

#define PB_CORRELATE_OPTIONS_VERSION 1
#define PB_CORRELATE_OPTIONS_INIT \
    {PB_CORRELATE_OPTIONS_VERSION, 0, PB_CORRELATE_DEBUG_INFO, PB_CORRELATE_COUNT, 0, 0, 0, NULL, NULL}
/* Fills *o with the defaults of layout `version` (PB_CORRELATE_OPTIONS_VERSION),
 * like PB_CORRELATE_OPTIONS_INIT. Returns PB_OK, or PB_EINVAL (o untouched)
 * for a NULL o or a version this library does not know. Thread-safe. */
int pb_correlate_options_init(pb_correlate_options *o, unsigned version);

/*
 * Reads what o->kind needs from the ELF file at `path`, as llvm-profdata
 * merge does before it reads any profile, and forgets it (o may be NULL:
 * the defaults). Returns 0; PB_EINVAL (NULL path, an unknown options
 * version, release or kind); PB_EIO (the file cannot be opened or read);
 * PB_EFORMAT (not an object file, no section or no probes where o->kind
 * needs them, broken DWARF); PB_ELIMIT (past o's limits, before anything is
 * inflated); PB_EUNSUPPORTED (libelf cannot start); PB_ENOMEM.
 */
int pb_correlate_check(const char *path, const pb_correlate_options *o, pb_error *err) PB_WARN_UNUSED;

/*
 * Writes into `out` what `llvm-profdata-N show --debug-info PATH` prints, N
 * o->llvm_release, in o->style: the number of functions (probes whose
 * counters no earlier probe holds), or the YAML list of the probes (each
 * probe, or from the releases that list them once each counter address
 * once; with the bitmap fields where the release has them). o->kind must
 * be PB_CORRELATE_DEBUG_INFO. Returns 0, pb_correlate_check's codes (for
 * the YAML style in the words of LLVM's DWARF correlator, which names the
 * "debug info" where the loader names the "correlated file"), or the
 * sink's PB_EIO. Nothing is written unless the whole listing was made.
 */
int pb_correlate_show(pb_sink *out, const char *path, const pb_correlate_options *o, pb_error *err) PB_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
