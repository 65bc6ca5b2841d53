/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * overlap_report.h -- llvm-profdata's overlap report as text or as JSON
 * (internal; the public pb_profile_overlap writes the text).
 */
#ifndef PB_OVERLAP_REPORT_H
#define PB_OVERLAP_REPORT_H

#include "profbridge/compare.h"

/*
 * pb_profile_overlap's report; json = 1 writes the same numbers as one JSON
 * object instead (docs/schemas/overlap.schema.json): every function-level
 * block under "functions", the program level under "program", and
 * "zero_sum" naming the side whose edge counts sum to 0 (no report).
 */
int pbi_profile_overlap_report(const pb_profile *base, const pb_profile *test, const pb_overlap_options *o,
                               int json, pb_sink *out, pb_error *err) PB_WARN_UNUSED;

#endif
