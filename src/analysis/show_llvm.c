/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm.c -- `show` for LLVM instrumentation profiles, printing exactly
 * what `llvm-profdata-N show` prints for the same flags (spec §8), N being
 * the release of o->t (--llvm-version, 19 by default), or the same content
 * as JSON (--json, ours: llvm-profdata refuses JSON for instr profiles).
 * Where releases print differently, the printer asks the target
 * (pbi_llvm_has, the PBI_LF_SHOW_* rows of src/llvm/target.h); it never
 * compares release numbers.
 *
 * The printer takes records one at a time (pbi_show_llvm_begin / _record /
 * _end), so that show_indexed.c can feed it straight from an indexed file;
 * pbi_show_llvm loops over a model's records. This file is the driver: what
 * comes before the records and after them, in llvm-profdata's order; the
 * parts are in the files show_llvm_state.h lists.
 */
#include <stdlib.h>
#include <string.h>

#include "show_llvm_state.h"
#include "util/grow.h"
#include "util/report_version.h"

int pbi_show_llvm_streamable(const pbi_show_llvm_opts *o) {
    /* these print names of value targets or traces: they need every name */
    return !o->ic_targets && !o->show_vtables && !o->text && !o->temporal_traces && !o->nparts;
}

void pbi_show_llvm_free(pbi_show_llvm_state *st) {
    if (!st) return;
    pbi_summary_free(&st->sm);
    free(st->heap);
    free(st->hl);
    pbu_buf_free(&st->ob);
    free(st);
}

/* The lines before the first record: the JSON object's start, the heading
 * of --list-below-cutoff, ":ir" of --text. */
static void print_preamble(const pbi_show_llvm_state *st) {
    const pbi_show_llvm_opts *o = st->o;
    pb_buf *out = st->out;
    int json = st->json;
    /* format_version first: every member after it starts with ", " */
    if (json)
        pbu_buf_printf(out, "{\"format_version\": \"%s\", \"view\": \"llvm\", \"llvm_release\": %d", PBU_REPORT_SHOW_LLVM,
                st->tg.release);
    if (!o->text && o->list_below_cutoff) {
        if (json) pbu_buf_puts(out, ", \"below_cutoff\": [");
        else pbu_buf_printf(out, "The list of functions with the maximum counter less than %" PRIu64 ":\n",
                     o->value_cutoff);
    }
    if (o->text && st->is_ir && !json) pbu_buf_puts(out, ":ir\n");
    if (json && (o->text || o->covered)) pbu_buf_puts(out, o->covered && !o->text ? ", \"covered\": [" : ", \"functions\": [");
}

void pbi_show_llvm_opts_of(pbi_show_llvm_opts *so, const pb_show_options *o, const pbi_llvm_target *t) {
    memset(so, 0, sizeof *so);
    so->t = t;
    so->all_functions = o->all_functions;
    so->counts = o->counts;
    so->function = o->function;
    so->ic_targets = o->ic_targets;
    so->memop_sizes = o->memop_sizes;
    so->show_vtables = o->show_vtables;
    so->detailed_summary = o->detailed_summary;
    so->cutoffs = o->cutoffs;
    so->topn = o->topn;
    so->value_cutoff = o->value_cutoff;
    so->list_below_cutoff = o->list_below_cutoff;
    so->showcs = o->showcs;
    so->covered = o->covered;
    so->binary_ids = o->binary_ids;
    so->temporal_traces = o->temporal_traces;
    so->profile_version = o->profile_version;
    so->text = o->text;
    so->json = o->json;
    so->hot_func_list = o->hot_func_list;
}

int pbi_show_llvm_begin(pbi_show_llvm_state **stp, uint64_t flags, const pbi_show_llvm_opts *o, pb_sink *out,
                        pb_error *err) {
    pbi_show_llvm_state *st = calloc(1, sizeof *st);
    *stp = NULL;
    if (!st) return pbu_nomem(err, NULL);
    st->o = o;
    if (o->t) st->tg = *o->t;
    else (void)pbi_llvm_target_of(PBI_LLVM_DEFAULT, &st->tg);
    st->out = &st->ob;
    st->sink = out;
    st->flags = flags;
    st->is_ir = (flags & PB_VARIANT_IR) != 0;
    st->json = o->json;
    st->first_json_fn = 1;
    /* only the detailed summary needs every count (sorted): the other lines
     * need totals and maxima, and sorting was 6% of `show` */
    pbi_summary_init(&st->sm, pbi_llvm_has(&st->tg, PBI_LF_SHOW_PSEUDO_COUNTS) ? PBI_SUM_LLVM19 : PBI_SUM_LLVM14,
                     o->detailed_summary || pbi_show_wants_hot_list(o, &st->tg));
    st->heap_cap = o->topn < 1024 ? (size_t)o->topn + 1 : 1024;
    if (o->topn && !(st->heap = calloc(st->heap_cap, sizeof *st->heap))) {
        free(st);
        return pbu_nomem(err, NULL);
    }
    print_preamble(st);
    *stp = st;
    return 0;
}

/* What follows the records of a listing with a summary, in llvm-profdata's order. */
static int print_summary_parts(pbi_show_llvm_state *st, const pb_profile *p, pb_error *err) {
    const pbi_show_llvm_opts *o = st->o;
    int rc;
    if (pbi_summary_finish(&st->sm)) return pbu_nomem(err, NULL);
    pbi_show_heading(st, &st->sm);
    if (st->heap_nomem) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory (--topn)");
    if (o->topn && (rc = pbi_show_topn(st, err)) != 0) return rc;
    if (pbi_show_wants_hot_list(o, &st->tg) && (rc = pbi_show_hot_list(st, &st->sm, err)) != 0) return rc;
    pbi_show_value_stats(st);
    if (o->detailed_summary && (rc = pbi_show_detailed_summary(st, &st->sm, err)) != 0) return rc;
    pbi_show_binary_ids(st, p);
    if (o->profile_version) pbi_show_profile_version(st, p);
    if (o->temporal_traces) pbi_show_traces(st, p);
    if (st->json) pbu_buf_puts(st->out, "}\n");
    return 0;
}

int pbi_show_llvm_end(pbi_show_llvm_state *st, const pb_profile *p, pb_error *err) {
    const pbi_show_llvm_opts *o = st->o;
    pb_buf *out = st->out;
    int json = st->json, rc = 0;
    if (json && (o->text || o->covered || o->list_below_cutoff)) pbu_buf_putc(out, ']');
    if (o->text || o->covered) {
        if (json) pbu_buf_puts(out, "}\n");
    } else {
        if (json && st->shown) pbu_buf_putc(out, ']');
        rc = print_summary_parts(st, p, err);
    }
    if (rc == 0) rc = pbi_show_flush(&st->ob, st->sink, err);
    pbi_show_llvm_free(st);
    return rc;
}

/* A profile's records in order: pb_profile_record_name fails only on a
 * broken name table, which ends the listing. */
static int show_records(pbi_show_llvm_state *st, const pb_profile *rp, pb_error *err) {
    size_t nrec = pb_profile_record_count(rp);
    for (size_t i = 0; i < nrec; i++) {
        const pb_record *r = pb_profile_record(rp, i);
        const char *name;
        size_t nlen;
        uint64_t hash;
        int rc = pb_profile_record_name(rp, r, &name, &nlen, &hash, err);
        if (rc) return rc;
        if ((rc = pbi_show_llvm_record(st, rp, r, name, nlen, hash, err)) != 0) return rc;
    }
    return 0;
}

int pbi_show_llvm(const pb_profile *p, const pbi_show_llvm_opts *o, pb_sink *out, pb_error *err) {
    pbi_show_llvm_state *st;
    int rc = pbi_show_llvm_begin(&st, pb_profile_flags(p), o, out, err);
    if (rc) return rc;
    /* A raw file with several profiles (o->parts: each read alone) is listed
     * profile by profile, duplicates and all, as llvm-profdata show lists it. */
    size_t nparts = o->nparts ? o->nparts : 1;
    for (size_t pi = 0; pi < nparts; pi++) {
        if ((rc = show_records(st, o->nparts ? o->parts[pi] : p, err)) != 0) {
            pbi_show_llvm_free(st);
            return rc;
        }
    }
    return pbi_show_llvm_end(st, p, err);
}
