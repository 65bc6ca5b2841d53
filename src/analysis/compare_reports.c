/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* compare_reports.c -- the public ways to write overlap and diff reports in
 * each style (profbridge/compare.h), so a front end needs no internal
 * header to print them. */
#include "profbridge/compare.h"

#include "analysis/overlap_report.h"
#include "analysis/report_html.h"
#include "util/api.h"

int pb_profile_overlap_write(const pb_profile *base, const pb_profile *test, const pb_overlap_options *o,
                             int style, pb_sink *out, pb_error *err) {
    pbu_api_enter(err);
    if (!base) return pbu_null_arg(err, __func__, "base");
    if (!test) return pbu_null_arg(err, __func__, "test");
    if (!out) return pbu_null_arg(err, __func__, "out");
    switch (style) {
    case PB_REPORT_TEXT:
    case PB_REPORT_JSON: return pbi_profile_overlap_report(base, test, o, style == PB_REPORT_JSON, out, err);
    case PB_REPORT_HTML:
        if (o && o->version != PB_OVERLAP_OPTIONS_VERSION)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "%s: unknown pb_overlap_options version %u",
                                __func__, o->version);
        return pbi_html_overlap(base, test, o ? o->base_name : NULL, o ? o->test_name : NULL, out, err);
    default:
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "%s: unknown report style %d", __func__, style);
    }
}

int pb_diff_write_html(const pb_diff *d, const pb_profile *a, const pb_profile *b, const char *a_name,
                       const char *b_name, pb_sink *out, pb_error *err) {
    pbu_api_enter(err);
    if (!d) return pbu_null_arg(err, __func__, "d");
    if (!a) return pbu_null_arg(err, __func__, "a");
    if (!b) return pbu_null_arg(err, __func__, "b");
    if (!out) return pbu_null_arg(err, __func__, "out");
    return pbi_html_diff(d, a, b, a_name, b_name, out, err);
}
