/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_state.h -- what a loaded pb_coverage holds, and the pieces export and
 * report share (internal): the list of source files llvm-cov's
 * CodeCoverageTool would hand to its exporter or report (SOURCES, or every
 * file minus -ignore-filename-regex), the sum of FileCoverageSummaries,
 * and the writers' way to the sink.
 *
 * No .c file of this name: the state is shared by cov_api.c (load, the
 * entry points), cov_api_output.c (to the sink), cov_api_binary_ids.c,
 * cov_filter.c (filename filters, sources), cov_report_summary.c (files,
 * sums), cov_view.c and the three writers, so that none of them is the
 * others' hub (lint_layers.sh).
 */
#ifndef PB_COVERAGE_COV_STATE_H
#define PB_COVERAGE_COV_STATE_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "coverage/cov_eval.h"
#include "coverage/cov_mapping.h"
#include "llvm/target.h"
#include "profbridge/coverage.h"
#include "util/buf.h"

/* The evaluator's answers that export and report use (cov_eval.h), as
 * pointers: cov_view.c points them at the evaluator, the unit tests at
 * hand-built data. */
typedef struct pbi_cov_view {
    size_t (*fn_count)(const pbi_coverage *c);
    const pbi_cov_fn *(*fn_at)(const pbi_coverage *c, size_t i);
    size_t (*file_count)(const pbi_coverage *c);
    const char *(*file_at)(const pbi_coverage *c, size_t i);
    int (*for_file)(const pbi_coverage *c, const char *filename, pbi_cov_data *out, pb_error *err);
    int (*for_expansion)(const pbi_coverage *c, const pbi_cov_expansion *e, pbi_cov_data *out, pb_error *err);
    void (*data_free)(pbi_cov_data *d);
    int (*lines)(const pbi_cov_data *d, pbi_cov_line **out, size_t *n, pb_error *err);
    int (*fn_summarize)(const pbi_coverage *c, const pbi_cov_fn *fn, pbi_cov_fn_summary *out, pb_error *err);
    /* FileCoverageSummary of one file (prepareSingleFileReport) */
    int (*file_summarize)(const pbi_coverage *c, const char *filename, pbi_cov_file_summary *out, pb_error *err);
} pbi_cov_view;

/* The evaluator's view. */
const pbi_cov_view *pbi_cov_eval_view(void);

struct pb_coverage {
    const pbi_cov_view *view;
    pbi_llvm_target t;
    pbi_cov_mapping map;
    pb_profile *prof;
    pbi_coverage *ev;       /* evaluated (the unit tests: their own data) */
    /* -ignore-filename-regex and -include-filename-regex, compiled */
    regex_t *ignore;
    size_t nignore;
    regex_t *include;
    size_t ninclude;
    /* The SOURCES operands that survived (absolute, dots removed, mapped back
     * through -path-equivalence, present in the coverage), in operand order. */
    char **sources;
    size_t nsources;
};

/* sys::path::remove_dots(path, remove_dot_dot = true) in place (cov_filter.c). */
void pbi_cov_remove_dots(char *path);

/* 1 when llvm-cov's IgnoreFilenameFilters (and, 23+, the include filters)
 * drop `filename`. */
int pbi_cov_filename_ignored(const pb_coverage *c, const char *filename);

/* The files export and report walk: the sources when there are any, else
 * every unique source file not ignored, sorted. *out (the array only; the
 * strings are c's) is the caller's: free(*out). Returns 0 or PB_ENOMEM. */
int pbi_cov_report_files(const pb_coverage *c, const char ***out, size_t *n, pb_error *err);

/* a += b (FileCoverageSummary::operator+=). */
void pbi_cov_file_summary_add(pbi_cov_file_summary *a, const pbi_cov_file_summary *b);

/* getPercentCovered: 0 when the total is 0 (llvm-cov then prints "-" in
 * report and 0 in export). */
double pbi_cov_percent(pbi_cov_ratio r);

/* The writers, one per output (cov_export_json.c, cov_export_lcov.c,
 * cov_report.c), each into b; with a sink (NULL: keep it all in b) they
 * pass b's bytes on between files, so that b stays small. */
int pbi_cov_export_json(const pb_coverage *c, const pb_cov_export_options *o, pb_buf *b, pb_sink *sink,
                        pb_error *err);
int pbi_cov_export_lcov(const pb_coverage *c, const pb_cov_export_options *o, pb_buf *b, pb_sink *sink,
                        pb_error *err);
int pbi_cov_report_text(const pb_coverage *c, const pb_cov_report_options *o, pb_buf *b, pb_sink *sink,
                        pb_error *err);

/* Writes b to sink and empties it once it holds 1 MiB or more (nothing
 * without a sink). Returns 0, PB_ENOMEM (b failed) or the sink's error
 * (cov_api_output.c, as pbi_cov_flush). */
int pbi_cov_drain(pb_buf *b, pb_sink *sink, pb_error *err);

/* -check-binary-ids: PB_EIO ("Missing binary ID: <hex>", err->source the
 * profile) when the profile carries a binary id no object has; else 0 or
 * PB_ENOMEM (cov_api_binary_ids.c). */
int pbi_cov_check_binary_ids(const pb_coverage *c, const char *const *objects, size_t nobjects, const char *profile,
                             pb_error *err);

/* llvm-cov-N's refusal of a profile it cannot read (missing, no profile,
 * an indexed version above t's), checked before anything is merged:
 * PB_EIO or PB_EFORMAT with err->message in llvm-cov-N's words, err->path
 * PB_COV_PROFILE_UNREADABLE or PB_COV_LOAD_FAILED, err->source the
 * profile; else 0 or PB_ENOMEM (cov_api_profile_check.c). */
/* An object that could not be read (err from pbi_cov_read: PB_EFORMAT,
 * PB_EIO or PB_ETRUNC, err->source one of objects, err->message the reason
 * in llvm-cov-N's words): err->message becomes the whole line llvm-cov-N
 * prints after "error: " ("failed to load coverage: 'OBJ': REASON"); its
 * source, offset and path stay. Other errors are left alone. Returns 0, or
 * PB_ENOMEM with err unchanged (cov_api_profile_check.c). */
int pbi_cov_word_object_error(const pbi_llvm_target *t, const char *const *objects, size_t nobjects,
                              pb_error *err);

/* The load failed on `named` (a profile) for `reason`: err becomes `code`
 * with path PB_COV_LOAD_FAILED, source `named` and message llvm-cov-N's
 * line after "error: " ("failed to load coverage: 'NAMED': REASON"; 13-14:
 * the objects joined). Returns `code`, or PB_ENOMEM. */
int pbi_cov_load_failed(const pbi_llvm_target *t, const char *const *objects, size_t nobjects, const char *named,
                        const char *reason, int code, pb_error *err);

int pbi_cov_check_profiles(const pbi_llvm_target *t, const char *const *objects, size_t nobjects,
                           const char *const *profiles, size_t nprofiles, pb_error *err);

/* Writes b to out, or PB_ENOMEM when b failed. */
int pbi_cov_flush(pb_buf *b, pb_sink *out, pb_error *err);

#endif
