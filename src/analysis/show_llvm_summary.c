/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_summary.c -- the summary after the records of `llvm-profdata
 * show` ("Instrumentation level", totals, maxima, --value-cutoff lines) and
 * --detailed-summary, worded as each release words them (the
 * PBI_LF_SHOW_* rows of src/llvm/target.h). The numbers come from
 * show_summary.c.
 */
#include <stdlib.h>

#include "show_llvm_state.h"
#include "util/grow.h"

static const uint32_t default_cutoffs[] = {10000,  100000, 200000, 300000, 400000, 500000,
                                           600000, 700000, 800000, 900000, 950000, 990000,
                                           999000, 999900, 999990, 999999};
/* ProfileSummaryBuilder::DefaultCutoffs before LLVM added the low ones
 * (PBI_LF_SHOW_CUTOFFS_7). */
static const uint32_t default_cutoffs_7[] = {800000, 900000, 950000, 990000, 999000, 999900, 999990};

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int parse_cutoffs(const char *s, uint32_t **out, size_t *n, pb_error *err) {
    size_t cap = 1;
    for (const char *c = s; *c; c++) cap += *c == ',';
    uint32_t *v = calloc(cap, sizeof *v);
    if (!v) return pbu_nomem(err, NULL);
    size_t k = 0;
    const char *c = s;
    while (*c) {
        char *end;
        unsigned long x = strtoul(c, &end, 0); /* LLVM: 0x hex, 0 octal (getAsInteger radix 0) */
        /* cl::list<uint32_t>: any 32-bit number; above 1000000 LLVM walks
         * past the last count (every block, the smallest count) */
        if (end == c || x > UINT32_MAX || (*end && *end != ',')) {
            free(v);
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "--detailed-summary-cutoffs",
                                "expected comma-separated 32-bit numbers, found \"%s\"", s);
        }
        v[k++] = (uint32_t)x;
        c = *end ? end + 1 : end;
    }
    /* llvm-profdata sorts the cutoffs (and keeps repeats): the walk over
     * the counts goes downwards across them in that order */
    qsort(v, k, sizeof *v, cmp_u32);
    *out = v;
    *n = k;
    return 0;
}

int pbi_show_summary_cutoffs(const pbi_show_llvm_opts *o, const pbi_llvm_target *tg, const uint32_t **cuts,
                             size_t *ncut, uint32_t **owned, pb_error *err) {
    *owned = NULL;
    if (o->cutoffs) {
        int rc = parse_cutoffs(o->cutoffs, owned, ncut, err);
        *cuts = *owned;
        return rc;
    }
    int seven = pbi_llvm_has(tg, PBI_LF_SHOW_CUTOFFS_7);
    *cuts = seven ? default_cutoffs_7 : default_cutoffs;
    *ncut = seven ? sizeof default_cutoffs_7 / sizeof default_cutoffs_7[0]
                  : sizeof default_cutoffs / sizeof default_cutoffs[0];
    return 0;
}

/* The --value-cutoff lines of the summary. */
static void print_cutoff_counts(pb_buf *out, uint64_t cutoff, size_t below, uint64_t nfunctions) {
    if (!cutoff) return;
    pbu_buf_printf(out, "Number of functions with maximum count (< %" PRIu64 "): %zu\n", cutoff, below);
    pbu_buf_printf(out, "Number of functions with maximum count (>= %" PRIu64 "): %" PRIu64 "\n", cutoff,
            nfunctions - below);
}

static int lists_functions(const pbi_show_llvm_opts *o) {
    return o->all_functions || (o->function && *o->function);
}

static void print_heading_json(const pbi_show_llvm_state *st, const pbi_summary *sm) {
    pb_buf *out = st->out;
    pbu_buf_printf(out, ", \"instrumentation_level\": \"%s\"", st->is_ir ? "IR" : "Front-end");
    if (st->is_ir) pbu_buf_printf(out, ", \"entry_first\": %d", (st->flags & PB_VARIANT_ENTRY_FIRST) != 0);
    if (lists_functions(st->o)) pbu_buf_printf(out, ", \"functions_shown\": %zu", st->shown);
    pbu_buf_printf(out, ", \"total_functions\": %" PRIu64, sm->num_functions);
    if (st->o->value_cutoff)
        pbu_buf_printf(out, ", \"functions_below_cutoff\": %zu, \"functions_at_or_above_cutoff\": %" PRIu64, st->below,
                sm->num_functions - st->below);
    pbi_json_u64(out, ", \"maximum_function_count\": ", sm->max_function);
    pbi_json_u64(out, ", \"maximum_internal_block_count\": ", sm->max_internal);
}

static void print_heading_lines(const pbi_show_llvm_state *st, const pbi_summary *sm) {
    const pbi_show_llvm_opts *o = st->o;
    pb_buf *out = st->out;
    uint64_t flags = st->flags;
    pbu_buf_printf(out, "Instrumentation level: %s", st->is_ir ? "IR" : "Front-end");
    if (st->is_ir) pbu_buf_printf(out, "  entry_first = %d", (flags & PB_VARIANT_ENTRY_FIRST) != 0);
    if (st->is_ir && pbi_llvm_has(&st->tg, PBI_LF_SHOW_LOOP_ENTRIES))
        pbu_buf_printf(out, "  instrument_loop_entries = %d", (flags & PB_VARIANT_INSTR_LOOP_ENTRIES) != 0);
    pbu_buf_putc(out, '\n');
    if (lists_functions(o)) pbu_buf_printf(out, "Functions shown: %zu\n", st->shown);
    /* LLVM 20+ prints the summary with ProfileSummary::printSummary:
     * the totals follow the maxima (with or without --detailed-summary)
     * and the --value-cutoff lines come after them, not before */
    int print_summary = pbi_llvm_has(&st->tg, PBI_LF_SHOW_BLOCK_TOTALS);
    pbu_buf_printf(out, "Total functions: %" PRIu64 "\n", sm->num_functions);
    if (!print_summary) print_cutoff_counts(out, o->value_cutoff, st->below, sm->num_functions);
    pbu_buf_printf(out, "Maximum function count: %" PRIu64 "\nMaximum internal block count: %" PRIu64 "\n",
            sm->max_function, sm->max_internal);
    if (print_summary) {
        pbu_buf_printf(out, "Total number of blocks: %" PRIu32 "\nTotal count: %" PRIu64 "\n", sm->num_counts, sm->total);
        print_cutoff_counts(out, o->value_cutoff, st->below, sm->num_functions);
    }
}

void pbi_show_heading(const pbi_show_llvm_state *st, const pbi_summary *sm) {
    if (st->json) print_heading_json(st, sm);
    else print_heading_lines(st, sm);
}

static void print_detailed_head(const pbi_show_llvm_state *st, const pbi_summary *sm) {
    pb_buf *out = st->out;
    if (st->json) {
        pbu_buf_printf(out, ", \"total_blocks\": %" PRIu32, sm->num_counts);
        pbi_json_u64(out, ", \"total_count\": ", sm->total);
        pbu_buf_puts(out, ", \"detailed_summary\": [");
    } else if (pbi_llvm_has(&st->tg, PBI_LF_SHOW_BLOCK_TOTALS)) {
        pbu_buf_puts(out, "Detailed summary:\n"); /* the totals were printed above */
    } else {
        pbu_buf_printf(out, "Total number of blocks: %" PRIu32 "\nTotal count: %" PRIu64 "\nDetailed summary:\n",
                sm->num_counts, sm->total);
    }
}

static void print_detailed_entry(const pbi_show_llvm_state *st, const pbi_summary *sm, const pbi_dentry *de,
                                 int first) {
    pb_buf *out = st->out;
    if (st->json) {
        pbu_buf_printf(out, "%s{\"cutoff\": %" PRIu32, first ? "" : ", ", de->cutoff);
        pbi_json_u64(out, ", \"min_count\": ", de->min_count);
        pbu_buf_printf(out, ", \"blocks\": %" PRIu64 "}", de->num);
    } else if (pbi_llvm_has(&st->tg, PBI_LF_SHOW_SUMMARY_BLOCKS)) {
        /* ProfileSummary::printDetailedSummary, in its float arithmetic */
        float share = sm->num_counts ? 100.f * (float)de->num / (float)sm->num_counts : 0;
        float pct = 100.f * (float)de->cutoff / 1000000.0f;
        pbu_buf_printf(out, "%" PRIu64 " blocks (%.2f%%) with count >= %" PRIu64 " account for %0.6g%% of the total counts.\n",
                de->num, (double)share, de->min_count, (double)pct);
    } else {
        double pct = (double)((float)de->cutoff / 1000000.0f * 100.0f);
        pbu_buf_printf(out, "%" PRIu64 " blocks with count >= %" PRIu64 " account for %0.6g percentage of the total counts.\n",
                de->num, de->min_count, pct);
    }
}

int pbi_show_detailed_summary(const pbi_show_llvm_state *st, const pbi_summary *sm, pb_error *err) {
    const uint32_t *cuts;
    uint32_t *owned;
    size_t ncut = 0;
    int rc = pbi_show_summary_cutoffs(st->o, &st->tg, &cuts, &ncut, &owned, err);
    if (rc) return rc;
    pbi_dentry *de = calloc(ncut ? ncut : 1, sizeof *de);
    if (!de) {
        free(owned);
        return pbu_nomem(err, NULL);
    }
    pbi_summary_detailed(sm, cuts, ncut, de);
    print_detailed_head(st, sm);
    for (size_t k = 0; k < ncut; k++) print_detailed_entry(st, sm, &de[k], k == 0);
    if (st->json) pbu_buf_putc(st->out, ']');
    free(de);
    free(owned);
    return 0;
}
