/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * report_html.h -- self-contained HTML reports of two profiles compared:
 * `diff --html` and `overlap --html` (docs/overlap-diff.md). One file with
 * inline CSS and script, nothing loaded from outside, so it opens offline:
 * the functions that changed most, per-function counter bars of both
 * profiles, and a filter box.
 */
#ifndef PB_REPORT_HTML_H
#define PB_REPORT_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/compare.h"

/* Rows past this many are left out (a note says how many): the file stays
 * small enough for a browser on profiles of 100k functions. */
#define PBI_HTML_MAX_ROWS 500
/* Counters drawn per function (a note says how many more there are). */
#define PBI_HTML_MAX_BARS 16
/* The longest bar, in CSS pixels: a function's largest counter of A and B. */
#define PBI_HTML_BAR_PX 160

/* One function of the table. */
typedef struct pbi_html_row {
    const char *name; /* LLVM name (borrowed) */
    size_t name_len;
    uint64_t hash;
    const pb_record *ra, *rb; /* the record in A / B, NULL where absent */
    const char *status;       /* "changed", "only in A", ... */
    double measure;           /* what the table is ordered by (largest first) */
    double contribution;      /* overlap: this function's share of the overlap, % */
} pbi_html_row;

/*
 * diff: a row per pb_diff entry, in its order (impact, largest first).
 * Returns 0, PB_ENOMEM or a sink error.
 */
int pbi_html_diff(const pb_diff *d, const pb_profile *a, const pb_profile *b, const char *a_name,
                  const char *b_name, pb_sink *out, pb_error *err);

/*
 * overlap: a row per function whose share of its profile differs between
 * BASE and TEST: divergence = sum over counters of |base_i/SumBase -
 * test_i/SumTest| in percent (a function on one side only, or of another
 * shape: its whole share(s)); SumX are the count sums of llvm-profdata
 * overlap. The sum of the matched functions' shared parts, min(base_i/
 * SumBase, test_i/SumTest), is llvm-profdata's "Edge profile overlap".
 */
int pbi_html_overlap(const pb_profile *base, const pb_profile *test, const char *base_name,
                     const char *test_name, pb_sink *out, pb_error *err);

/* The page writer both use. `measure_head`: the heading of the measure
 * column; `pct`: the measure is a percentage (else a count), and the
 * contribution column is shown. `summary`: a plain-text line. */
typedef struct pbi_html_page {
    const char *title, *a_name, *b_name, *a_label, *b_label, *measure_head, *summary;
    int pct;
    const pbi_html_row *rows;
    size_t num_rows;
} pbi_html_page;
int pbi_html_write(const pbi_html_page *pg, pb_sink *out, pb_error *err);

#endif
