/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_lines.c -- LLVM's LineCoverageIterator and LineCoverageStats: every
 * line from the first segment's to the last's, with the segments that
 * start on it, the segment that runs into it from above ("wrapped"), and
 * whether it has code (mapped) and how often it ran.
 */
#include <stdlib.h>

#include "coverage/cov_eval_internal.h"
#include "util/grow.h"

/* More lines than this in one view is a damaged mapping, not a program
 * (2^22 lines of 48 bytes: 200 MiB). */
#define MAX_LINES (UINT32_C(1) << 22)

static int starts_region(const pbi_cov_segment *s) { return !s->is_gap && s->has_count && s->is_region_entry; }

static void line_stats(pbi_cov_line *l, const pbi_cov_segment *segs, size_t n, const pbi_cov_segment *wrapped,
                       int any_entry_maps) {
    l->wrapped = wrapped;
    l->segments = n ? segs : NULL;
    l->nsegments = n;
    l->count = 0;
    unsigned starts = 0;
    for (size_t i = 0; i < n && starts < 2; i++)
        if (starts_region(&segs[i])) starts++;
    int skipped_start = n && !segs[0].has_count && segs[0].is_region_entry;
    l->multiple_regions = starts > 1;
    int mapped = !skipped_start && ((wrapped && wrapped->has_count) || starts > 0);
    /* Later releases: a line where any counted region starts has code,
     * even when a skipped region (a comment) opens it. */
    for (size_t i = 0; any_entry_maps && i < n && !mapped; i++)
        if (segs[i].is_region_entry && segs[i].has_count) mapped = 1;
    l->mapped = (uint8_t)mapped;
    if (!mapped) return;
    if (wrapped) l->count = wrapped->count;
    if (!starts) return;
    for (size_t i = 0; i < n; i++)
        if (starts_region(&segs[i]) && segs[i].count > l->count) l->count = segs[i].count;
}

int pbi_cov_lines(const pbi_cov_data *d, pbi_cov_line **out, size_t *n, pb_error *err) {
    return pbi_cov_lines_for(d, d->t, out, n, err);
}

int pbi_cov_lines_for(const pbi_cov_data *d, const pbi_llvm_target *t, pbi_cov_line **out, size_t *n,
                      pb_error *err) {
    *out = NULL;
    *n = 0;
    if (!d->nsegments) return 0;
    pbi_llvm_target def;
    if (!t) {
        pbi_llvm_target_of(PBI_LLVM_DEFAULT, &def);
        t = &def;
    }
    int any_entry = pbi_llvm_cov_has(t, PBI_LC_EVAL_LINE_ANY_ENTRY);
    const pbi_cov_segment *s = d->segments;
    uint32_t first = s[0].line, last = s[d->nsegments - 1].line;
    if (last < first || last - first >= MAX_LINES) return pbu_nomem(err, "line table (lines out of order or too many)");
    size_t count = (size_t)(last - first) + 1;
    pbi_cov_line *lines = calloc(count, sizeof *lines);
    if (!lines) return pbu_nomem(err, "line table");
    size_t next = 0, k = 0, cur = 0, ncur = 0;
    const pbi_cov_segment *wrapped = NULL;
    for (uint32_t line = first; next < d->nsegments && k < count; line++) {
        if (ncur) wrapped = &s[cur + ncur - 1];
        cur = next;
        ncur = 0;
        while (next < d->nsegments && s[next].line == line) {
            next++;
            ncur++;
        }
        lines[k].line = line;
        line_stats(&lines[k], &s[cur], ncur, wrapped, any_entry);
        k++;
    }
    *out = lines;
    *n = k;
    return 0;
}
