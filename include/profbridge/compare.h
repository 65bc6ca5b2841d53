/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/compare.h -- comparing two profiles: llvm-profdata's overlap
 * report and a record-by-record diff (docs/overlap-diff.md).
 *
 * Both work on LLVM keys: a record is identified by its LLVM name and hash
 * (pb_profile_record_name), so an iprof entry and the record of the
 * .profdata converted from it are the same record, whatever their file ids.
 *
 * Errors (error.h): each function taking a pb_error resets it on entry and
 * checks its pointers (PB_EINVAL). Both profiles are only read (const): they
 * may be shared with other threads reading them.
 */
#ifndef PROFBRIDGE_COMPARE_H
#define PROFBRIDGE_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "io.h"
#include "profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Overlap (llvm-profdata overlap, instrumentation profiles)                 */

typedef struct pb_overlap_options {
    unsigned version;   /* PB_OVERLAP_OPTIONS_VERSION: first, always (see error.h) */
    const char *base_name;  /* printed in the report as given ("" if NULL) */
    const char *test_name;
    const char *function;   /* function-level report for test functions whose name
                               CONTAINS this string (LLVM: a substring, not a
                               regular expression); NULL or "" = none */
    uint64_t value_cutoff;  /* function-level report for test functions whose largest
                               counter is >= this; UINT64_MAX = llvm-profdata's default */
    int cs;                 /* 1: count sums over context-sensitive records only (--cs) */
    int llvm_release;       /* as llvm-profdata-N overlap, N = 13..24 (0 = 19, the default
                               release, README): its report, and how value sites are
                               sorted before they are compared */
} pb_overlap_options;
#define PB_OVERLAP_OPTIONS_VERSION 1
#define PB_OVERLAP_OPTIONS_INIT {PB_OVERLAP_OPTIONS_VERSION, NULL, NULL, NULL, UINT64_MAX, 0, 0}
/* Fills *o with the defaults of layout `version` (PB_OVERLAP_OPTIONS_VERSION),
 * like PB_OVERLAP_OPTIONS_INIT. Returns PB_OK, or PB_EINVAL (o untouched) for a
 * NULL o or a version this library does not know. Thread-safe. */
int pb_overlap_options_init(pb_overlap_options *o, unsigned version);

/*
 * Writes the report `llvm-profdata overlap base test` prints, byte for byte,
 * to `out`: count sums, per-function overlap scores, mismatches (same name,
 * other hash or shape) and functions only in the test profile, the same
 * floating-point operations in the same order. Test records are visited in
 * the test profile's model order, which is the order LLVM's reader yields
 * for raw, indexed and text files as our readers keep the file order.
 * o may be NULL (the defaults). Returns 0, PB_EINVAL (NULL base, test or
 * out, an unknown options version or llvm_release), PB_ENOMEM or the
 * sink's PB_EIO; after a failure `out` holds part of the report.
 */
int pb_profile_overlap(const pb_profile *base, const pb_profile *test,
                       const pb_overlap_options *o, pb_sink *out, pb_error *err) PB_WARN_UNUSED;

/* How pb_profile_overlap_write writes its report. */
enum pb_report_style {
    PB_REPORT_TEXT = 0, /* llvm-profdata overlap's text, as pb_profile_overlap */
    PB_REPORT_JSON = 1, /* the same numbers as one JSON object (docs/schemas/overlap.schema.json) */
    PB_REPORT_HTML = 2  /* a self-contained HTML page: a row per function whose share of its
                           profile differs, largest first (docs/overlap-diff.md) */
};

/*
 * pb_profile_overlap's report in `style` (enum pb_report_style); the HTML
 * page names the profiles o->base_name and o->test_name. Returns 0,
 * PB_EINVAL (NULL base, test or out, an unknown style, options version or
 * llvm_release), PB_ENOMEM or the sink's PB_EIO; after a failure `out`
 * holds part of the report.
 */
int pb_profile_overlap_write(const pb_profile *base, const pb_profile *test, const pb_overlap_options *o,
                             int style, pb_sink *out, pb_error *err) PB_WARN_UNUSED;

/* ------------------------------------------------------------------------ */
/* Diff                                                                      */

enum pb_diff_status {
    PB_DIFF_ONLY_A = 1,  /* the key is only in A */
    PB_DIFF_ONLY_B = 2,  /* the key is only in B */
    PB_DIFF_CHANGED = 3  /* in both, counters, bitmap bytes or values differ */
};

/* One differing record. */
typedef struct pb_diff_entry {
    int status;          /* enum pb_diff_status */
    const char *name;    /* LLVM name (borrowed from A or B, valid while they live) */
    size_t name_len;
    uint64_t hash;
    size_t rec_a, rec_b; /* record indices in A and B, SIZE_MAX where absent */
    uint64_t impact;     /* sum of |counter deltas| + sum of |value-count deltas|
                            (saturating); for a one-sided record its counts' sum */
} pb_diff_entry;

typedef struct pb_diff pb_diff;

/*
 * Compares A and B record by record (keys: LLVM name and hash). Entries are
 * ordered by impact, largest first, then by name bytes and hash. Records
 * equal in counters, bitmap bytes and value sites (values compared as sets
 * of (value, count), order ignored) are not listed. Profile-level data
 * (flags, binary ids, traces, properties) is not compared.
 * Returns 0, PB_EINVAL (NULL a, b or out) or PB_ENOMEM. On success *out
 * is the caller's (pb_diff_free; it borrows names from a and b, so free it
 * before them); on failure *out is NULL.
 */
int pb_profile_diff(const pb_profile *a, const pb_profile *b, pb_diff **out,
                    pb_error *err) PB_WARN_UNUSED;
/* Entries (borrowed from d; NULL for i out of range). */
size_t pb_diff_count(const pb_diff *d);
const pb_diff_entry *pb_diff_entry_at(const pb_diff *d, size_t i);
/* Number of keys present in both and equal. */
size_t pb_diff_same_count(const pb_diff *d);
/* NULL allowed. */
void pb_diff_free(pb_diff *d);

/*
 * Writes the diff as text (json = 0) or as the JSON document of
 * docs/overlap-diff.md (json = 1). a_name/b_name are printed as given.
 * Returns 0, PB_EINVAL (NULL d, a, b or out), PB_ENOMEM or the sink's
 * PB_EIO.
 */
int pb_diff_write(const pb_diff *d, const pb_profile *a, const pb_profile *b, const char *a_name,
                  const char *b_name, int json, pb_sink *out, pb_error *err) PB_WARN_UNUSED;

/*
 * Writes the diff as one self-contained HTML page (inline CSS and script,
 * nothing loaded from outside): a row per entry in its order, counter bars
 * of both profiles, a filter box (docs/overlap-diff.md). Returns 0,
 * PB_EINVAL (NULL d, a, b or out), PB_ENOMEM or the sink's PB_EIO; after a
 * failure `out` holds part of the page.
 */
int pb_diff_write_html(const pb_diff *d, const pb_profile *a, const pb_profile *b, const char *a_name,
                       const char *b_name, pb_sink *out, pb_error *err) PB_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
