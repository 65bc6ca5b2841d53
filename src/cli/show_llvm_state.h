/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_state.h -- what the files of the `llvm-profdata show` printer
 * share: its state between pbc_show_llvm_begin and _end, and the parts the
 * driver (show_llvm.c) calls.
 *
 *   show_llvm.c          begin, end, the loop over a model's records
 *   show_llvm_record.c   one record: which listing it goes to, if any
 *   show_llvm_listing.c  a shown record's lines (or JSON object)
 *   show_llvm_text.c     a record as --text prints it
 *   show_llvm_values.c   value sites (indirect calls, vtables, memops)
 *   show_llvm_topn.c     --topn (libstdc++'s priority_queue order)
 *   show_llvm_hot_list.c --hot-func-list
 *   show_llvm_summary.c  the summary and the detailed summary
 *   show_llvm_ids.c      binary ids, profile version, temporal traces
 *   show_llvm_check.c    the note when the chosen release would refuse a file
 */
#ifndef PBC_SHOW_LLVM_STATE_H
#define PBC_SHOW_LLVM_STATE_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "show_summary.h"

/* A hand-made line buffer: printf was a quarter of the time of
 * `show --all-functions --counts` on big profiles. */
typedef struct pbc_linebuf {
    FILE *out;
    size_t n;
    char b[4096];
} pbc_linebuf;

/* What --ic-targets / --memop-sizes / --show-vtables count per value kind. */
typedef struct pbc_vstats {
    uint64_t sites, with_values, values;
    uint64_t hist[256]; /* values per site are at most 255 in LLVM formats */
    uint64_t hist_over; /* sites with more (cannot come from LLVM files) */
} pbc_vstats;

/* A function ranked by its largest counter (--topn, --hot-func-list). */
typedef struct pbc_hot {
    const char *name;
    size_t len;
    uint64_t max;
    uint64_t seq;   /* the record's rank in the listing (ties, LLVM 22+) */
    int file_order; /* 1: equal maxima rank in file order (PBI_LF_SHOW_TOPN_FILE_ORDER) */
} pbc_hot;

struct pbc_show_llvm_state {
    const pbc_show_llvm_opts *o;
    pbi_llvm_target tg; /* o->t, or release PBI_LLVM_DEFAULT when o->t is NULL */
    FILE *out;
    uint64_t flags;
    int is_ir, json, first_json_fn;
    pbc_summary sm;
    pbc_vstats vs[PB_VK_COUNT];
    size_t shown, below, nhot;
    uint64_t nseen;  /* records offered to the heap */
    pbc_hot *heap;   /* the topn hottest so far (a min-heap) */
    size_t heap_cap; /* grown as functions come: --topn 2^31-1 must not allocate 2^31 entries */
    int heap_nomem;  /* growing failed: reported by pbc_show_llvm_end */
    pbc_hot *hl;     /* --hot-func-list: every function at or above --value-cutoff, in listing order */
    size_t nhl, hl_cap;
    int hl_nomem;
    pbc_linebuf lb;
};

/* A u64 as a JSON number, or as a decimal string above INT64_MAX (which many
 * JSON readers, jansson among them, cannot hold). */
static inline void pbc_json_u64(FILE *out, const char *pre, uint64_t v) {
    fprintf(out, v > (uint64_t)INT64_MAX ? "%s\"%" PRIu64 "\"" : "%s%" PRIu64, pre, v);
}

/* show_llvm_listing.c: a record shown (it passed every filter). */
void pbc_show_record_json(pbc_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                          size_t nlen, uint64_t hash);
void pbc_show_record_lines(pbc_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                           size_t nlen, uint64_t hash);
/* A record whose first count is a pseudo count (LLVM 16+): no counts, a tag. */
void pbc_show_pseudo_record(pbc_show_llvm_state *st, const pb_record *r, const char *name, size_t nlen,
                            uint64_t hash);

/* show_llvm_text.c: a record of --text (InstrProfWriter::writeRecordInText, or JSON). */
void pbc_show_text_record(pbc_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                          size_t nlen, uint64_t hash);

/* show_llvm_values.c */
/* The name of a NameRef as LLVM's symtab gives it: function or vtable name, or "". */
const char *pbc_show_ref_name(const pb_profile *p, uint64_t ref, size_t *len);
/* The site counts of the value kinds asked for ("Indirect Call Site Count"...). */
void pbc_show_site_counts(const pbc_show_llvm_state *st, const pb_record *r);
/* The values of every site of the value kinds asked for, counted into st->vs. */
void pbc_show_value_listings(pbc_show_llvm_state *st, const pb_profile *rp, const pb_record *r);
/* "Statistics for ... profile" of each value kind asked for. */
void pbc_show_value_stats(const pbc_show_llvm_state *st);

/* show_llvm_topn.c */
void pbc_show_topn_offer(pbc_show_llvm_state *st, pbc_hot h);
int pbc_show_topn(pbc_show_llvm_state *st, pb_error *err);

/* show_llvm_hot_list.c */
int pbc_show_wants_hot_list(const pbc_show_llvm_opts *o, const pbi_llvm_target *t);
void pbc_show_hot_list_add(pbc_show_llvm_state *st, pbc_hot h);
int pbc_show_hot_list(pbc_show_llvm_state *st, const pbc_summary *sm, pb_error *err);

/* show_llvm_summary.c */
/* The cutoffs of the detailed summary: --detailed-summary-cutoffs or the
 * release's defaults. *owned is set when they were parsed (to free). */
int pbc_show_summary_cutoffs(const pbc_show_llvm_opts *o, const pbi_llvm_target *tg, const uint32_t **cuts,
                             size_t *ncut, uint32_t **owned, pb_error *err);
/* "Instrumentation level", the totals and maxima, the --value-cutoff lines. */
void pbc_show_heading(const pbc_show_llvm_state *st, const pbc_summary *sm);
/* --detailed-summary: the blocks above each cutoff. */
int pbc_show_detailed_summary(const pbc_show_llvm_state *st, const pbc_summary *sm, pb_error *err);

/* show_llvm_ids.c */
void pbc_show_binary_ids(const pbc_show_llvm_state *st, const pb_profile *p);
void pbc_show_profile_version(const pbc_show_llvm_state *st, const pb_profile *p);
void pbc_show_traces(const pbc_show_llvm_state *st, const pb_profile *p);

#endif
