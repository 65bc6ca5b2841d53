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
 * The printer takes records one at a time (pbc_show_llvm_begin / _record /
 * _end), so that show_indexed.c can feed it straight from an indexed file;
 * pbc_show_llvm loops over a model's records. This file is the driver: what
 * comes before the records and after them, in llvm-profdata's order; the
 * parts are in the files show_llvm_state.h lists.
 */
#include <stdlib.h>

#include "show_llvm_state.h"
#include "util/grow.h"
#include "util/report_version.h"

int pbc_show_llvm_streamable(const pbc_show_llvm_opts *o) {
    /* these print names of value targets or traces: they need every name */
    return !o->ic_targets && !o->show_vtables && !o->text && !o->temporal_traces && !o->nparts;
}

void pbc_show_llvm_free(pbc_show_llvm_state *st) {
    if (!st) return;
    free(st->sm.c);
    free(st->sm.f);
    free(st->heap);
    free(st->hl);
    free(st);
}

/* The lines before the first record: the JSON object's start, the heading
 * of --list-below-cutoff, ":ir" of --text. */
static void print_preamble(const pbc_show_llvm_state *st) {
    const pbc_show_llvm_opts *o = st->o;
    FILE *out = st->out;
    int json = st->json;
    /* format_version first: every member after it starts with ", " */
    if (json)
        fprintf(out, "{\"format_version\": \"%s\", \"view\": \"llvm\", \"llvm_release\": %d", PBI_REPORT_SHOW_LLVM,
                st->tg.release);
    if (!o->text && o->list_below_cutoff) {
        if (json) fputs(", \"below_cutoff\": [", out);
        else fprintf(out, "The list of functions with the maximum counter less than %" PRIu64 ":\n",
                     o->value_cutoff);
    }
    if (o->text && st->is_ir && !json) fputs(":ir\n", out);
    if (json && (o->text || o->covered)) fputs(o->covered && !o->text ? ", \"covered\": [" : ", \"functions\": [", out);
}

int pbc_show_llvm_begin(pbc_show_llvm_state **stp, uint64_t flags, const pbc_show_llvm_opts *o, FILE *out,
                        pb_error *err) {
    pbc_show_llvm_state *st = calloc(1, sizeof *st);
    *stp = NULL;
    if (!st) return pbi_nomem(err, NULL);
    st->o = o;
    if (o->t) st->tg = *o->t;
    else (void)pbi_llvm_target_of(PBI_LLVM_DEFAULT, &st->tg);
    st->out = out;
    st->flags = flags;
    st->is_ir = (flags & PB_VARIANT_IR) != 0;
    st->json = o->json;
    st->first_json_fn = 1;
    st->lb.out = out;
    /* only the detailed summary needs every count (sorted): the other lines
     * need totals and maxima, and sorting was 6% of `show` */
    st->sm.keep = o->detailed_summary || pbc_show_wants_hot_list(o, &st->tg);
    st->heap_cap = o->topn < 1024 ? (size_t)o->topn + 1 : 1024;
    if (o->topn && !(st->heap = calloc(st->heap_cap, sizeof *st->heap))) {
        free(st);
        return pbi_nomem(err, NULL);
    }
    print_preamble(st);
    *stp = st;
    return 0;
}

/* What follows the records of a listing with a summary, in llvm-profdata's order. */
static int print_summary_parts(pbc_show_llvm_state *st, const pb_profile *p, pb_error *err) {
    const pbc_show_llvm_opts *o = st->o;
    int rc;
    if (!st->sm.oom) pbc_sum_finish(&st->sm);
    if (st->sm.oom) return pbi_nomem(err, NULL);
    pbc_show_heading(st, &st->sm);
    if (st->heap_nomem) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory (--topn)");
    if (o->topn && (rc = pbc_show_topn(st, err)) != 0) return rc;
    if (pbc_show_wants_hot_list(o, &st->tg) && (rc = pbc_show_hot_list(st, &st->sm, err)) != 0) return rc;
    pbc_show_value_stats(st);
    if (o->detailed_summary && (rc = pbc_show_detailed_summary(st, &st->sm, err)) != 0) return rc;
    pbc_show_binary_ids(st, p);
    if (o->profile_version) pbc_show_profile_version(st, p);
    if (o->temporal_traces) pbc_show_traces(st, p);
    if (st->json) fputs("}\n", st->out);
    return 0;
}

int pbc_show_llvm_end(pbc_show_llvm_state *st, const pb_profile *p, pb_error *err) {
    const pbc_show_llvm_opts *o = st->o;
    FILE *out = st->out;
    int json = st->json, rc = 0;
    if (json && (o->text || o->covered || o->list_below_cutoff)) fputc(']', out);
    if (o->text || o->covered) {
        if (json) fputs("}\n", out);
    } else {
        if (json && st->shown) fputc(']', out);
        rc = print_summary_parts(st, p, err);
    }
    pbc_show_llvm_free(st);
    if (rc == 0 && ferror(out)) rc = pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "cannot write the output");
    return rc;
}

/* A profile's records in order: pb_profile_record_name fails only on a
 * broken name table, which ends the listing. */
static int show_records(pbc_show_llvm_state *st, const pb_profile *rp, pb_error *err) {
    size_t nrec = pb_profile_record_count(rp);
    for (size_t i = 0; i < nrec; i++) {
        const pb_record *r = pb_profile_record(rp, i);
        const char *name;
        size_t nlen;
        uint64_t hash;
        int rc = pb_profile_record_name(rp, r, &name, &nlen, &hash, err);
        if (rc) return rc;
        pbc_show_llvm_record(st, rp, r, name, nlen, hash);
    }
    return 0;
}

int pbc_show_llvm(const pb_profile *p, const char *input_name, const pbc_show_llvm_opts *o,
                  FILE *out, pb_error *err) {
    pbc_show_llvm_state *st;
    (void)input_name;
    int rc = pbc_show_llvm_begin(&st, pb_profile_flags(p), o, out, err);
    if (rc) return rc;
    /* A raw file with several profiles (o->parts: each read alone) is listed
     * profile by profile, duplicates and all, as llvm-profdata show lists it. */
    size_t nparts = o->nparts ? o->nparts : 1;
    for (size_t pi = 0; pi < nparts; pi++) {
        if ((rc = show_records(st, o->nparts ? o->parts[pi] : p, err)) != 0) {
            pbc_show_llvm_free(st);
            return rc;
        }
    }
    return pbc_show_llvm_end(st, p, err);
}
