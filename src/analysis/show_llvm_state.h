/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_llvm_state.h -- what the files of the `llvm-profdata show` printer
 * share: its state between pbi_show_llvm_begin and _end, and the parts the
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
#ifndef PBI_SHOW_LLVM_STATE_H
#define PBI_SHOW_LLVM_STATE_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>

#include "llvm/target.h"
#include "profbridge/io.h"
#include "profbridge/profile.h"
#include "profbridge/show.h"
#include "llvm/summary.h"
#include "util/buf.h"

/* The printer's options: the public ones, the release resolved, and a raw
 * file's profiles (each read alone). */
typedef struct pbi_show_llvm_opts {
    const pbi_llvm_target *t; /* the release whose output is printed */
    int all_functions, counts;
    const char *function;
    int ic_targets, memop_sizes, show_vtables, detailed_summary;
    const char *cutoffs;
    unsigned topn;
    uint64_t value_cutoff;
    int list_below_cutoff, showcs, covered, binary_ids, temporal_traces, profile_version, text, json, hot_func_list;
    /* A raw file holding several profiles: each one read alone (raw-profile K).
     * Records and binary ids are then listed per profile, duplicates included,
     * as llvm-profdata show does; flags, summary basis and traces stay `p`'s. */
    const pb_profile *const *parts;
    size_t nparts;
} pbi_show_llvm_opts;

/* The printer's options of the public ones (t: the release resolved). */
void pbi_show_llvm_opts_of(pbi_show_llvm_opts *so, const pb_show_options *o, const pbi_llvm_target *t);

/* The record-by-record printer (show_llvm.c): begin with the profile's
 * variant flags, hand in every record in file order (rp: the profile whose
 * names value targets and traces name; only needed when not
 * pbi_show_llvm_streamable), then end with a profile holding the
 * profile-level data (origin, binary ids, traces). The output goes into a
 * buffer written to `out` as it grows. end prints the summary, flushes and
 * frees the state, also on failure; free abandons it. o and the names
 * handed in must stay valid until end (--topn keeps pointers to names). */
typedef struct pbi_show_llvm_state pbi_show_llvm_state;
int pbi_show_llvm_begin(pbi_show_llvm_state **st, uint64_t flags, const pbi_show_llvm_opts *o, pb_sink *out,
                        pb_error *err);
/* Returns 0, or PB_EIO / PB_ENOMEM when the output could not be written. */
int pbi_show_llvm_record(pbi_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                         size_t nlen, uint64_t hash, pb_error *err);
int pbi_show_llvm_end(pbi_show_llvm_state *st, const pb_profile *p, pb_error *err);
void pbi_show_llvm_free(pbi_show_llvm_state *st);
/* A model printed whole (o->parts: a raw file's profiles). */
int pbi_show_llvm(const pb_profile *p, const pbi_show_llvm_opts *o, pb_sink *out, pb_error *err);
/* 1 if the flags need no name table (no value-target names, no traces, not
 * --text), so that records can be shown as they are read. */
int pbi_show_llvm_streamable(const pbi_show_llvm_opts *o);
/* show_llvm_check.c: the note (o->diag) when release t's own tool would
 * refuse p (raw: another raw version; indexed: a newer version; text:
 * header lines, value kinds or bitmap bytes its reader does not know). */
void pbi_show_release_note(const pb_show_options *o, const pbi_llvm_target *t, const pb_profile *p,
                           const char *name);
/* show_iprof.c: the Java view. Returns 0 or PB_ENOMEM (then out is partial). */
int pbi_show_iprof(const pb_profile *p, const char *input_name, unsigned topn, int json, pb_buf *out, pb_error *err);
/* show_indexed.c: an indexed file printed from its bytes as it is walked
 * (so->t set); the release note goes to o->diag once the file is read.
 * Returns 0, the file's faults (what was listed before stays in out,
 * uncommitted) or the printer's (PB_EIO, PB_ENOMEM). */
int pbi_show_indexed_print(const uint8_t *data, size_t len, const char *name, const pb_read_options *ro,
                           const pbi_show_llvm_opts *so, const pb_show_options *o, pb_sink *out, pb_error *err);
/* show_raw.c: a raw file printed as its records are visited, without a
 * model, when the flags allow it (pbi_show_raw_streamable; so->t set). The
 * release note goes to o->diag once the file is read. Returns 0, pb_visit's
 * errors (the file's faults: what was listed before stays in out,
 * uncommitted) or the printer's (PB_EIO, PB_ENOMEM). */
int pbi_show_raw_streamable(const pbi_show_llvm_opts *so);
int pbi_show_raw_print(pb_source *src, const pb_read_options *ro, const char *name, const pbi_show_llvm_opts *so,
                       const pb_show_options *o, pb_sink *out, pb_error *err);
/* How much output is gathered before it goes to the sink. */
#define PBI_SHOW_BLOCK ((size_t)1 << 16)
/* Writes what b holds to out and empties it; a failed buffer is PB_ENOMEM. */
int pbi_show_flush(pb_buf *b, pb_sink *out, pb_error *err);

/* What --ic-targets / --memop-sizes / --show-vtables count per value kind. */
typedef struct pbi_vstats {
    uint64_t sites, with_values, values;
    uint64_t hist[256]; /* values per site are at most 255 in LLVM formats */
    uint64_t hist_over; /* sites with more (cannot come from LLVM files) */
} pbi_vstats;

/* A function ranked by its largest counter (--topn, --hot-func-list). */
typedef struct pbi_hot {
    const char *name;
    size_t len;
    uint64_t max;
    uint64_t seq;   /* the record's rank in the listing (ties, LLVM 22+) */
    int file_order; /* 1: equal maxima rank in file order (PBI_LF_SHOW_TOPN_FILE_ORDER) */
} pbi_hot;

struct pbi_show_llvm_state {
    const pbi_show_llvm_opts *o;
    pbi_llvm_target tg; /* o->t, or release PBI_LLVM_DEFAULT when o->t is NULL */
    pb_buf *out;  /* = &ob: every part prints here */
    pb_buf ob;
    pb_sink *sink; /* where ob goes when it grows past a block */
    int sink_rc;   /* a write into sink failed: reported by end */
    pb_error sink_err;
    uint64_t flags;
    int is_ir, json, first_json_fn;
    pbi_summary sm;
    pbi_vstats vs[PB_VK_COUNT];
    size_t shown, below, nhot;
    uint64_t nseen;  /* records offered to the heap */
    pbi_hot *heap;   /* the topn hottest so far (a min-heap) */
    size_t heap_cap; /* grown as functions come: --topn 2^31-1 must not allocate 2^31 entries */
    int heap_nomem;  /* growing failed: reported by pbi_show_llvm_end */
    pbi_hot *hl;     /* --hot-func-list: every function at or above --value-cutoff, in listing order */
    size_t nhl, hl_cap;
    int hl_nomem;
};

/* A u64 as a JSON number, or as a decimal string above INT64_MAX (which many
 * JSON readers, jansson among them, cannot hold). */
static inline void pbi_json_u64(pb_buf *out, const char *pre, uint64_t v) {
    pbu_buf_printf(out, v > (uint64_t)INT64_MAX ? "%s\"%" PRIu64 "\"" : "%s%" PRIu64, pre, v);
}

/* show_llvm_listing.c: a record shown (it passed every filter). */
void pbi_show_record_json(pbi_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                          size_t nlen, uint64_t hash);
void pbi_show_record_lines(pbi_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                           size_t nlen, uint64_t hash);
/* A record whose first count is a pseudo count (LLVM 16+): no counts, a tag. */
void pbi_show_pseudo_record(pbi_show_llvm_state *st, const pb_record *r, const char *name, size_t nlen,
                            uint64_t hash);

/* show_llvm_text.c: a record of --text (InstrProfWriter::writeRecordInText, or JSON). */
void pbi_show_text_record(pbi_show_llvm_state *st, const pb_profile *rp, const pb_record *r, const char *name,
                          size_t nlen, uint64_t hash);

/* show_llvm_values.c */
/* The name of a NameRef as LLVM's symtab gives it: function or vtable name, or "". */
const char *pbi_show_ref_name(const pb_profile *p, uint64_t ref, size_t *len);
/* The site counts of the value kinds asked for ("Indirect Call Site Count"...). */
void pbi_show_site_counts(const pbi_show_llvm_state *st, const pb_record *r);
/* The values of every site of the value kinds asked for, counted into st->vs. */
void pbi_show_value_listings(pbi_show_llvm_state *st, const pb_profile *rp, const pb_record *r);
/* "Statistics for ... profile" of each value kind asked for. */
void pbi_show_value_stats(const pbi_show_llvm_state *st);

/* show_llvm_topn.c */
void pbi_show_topn_offer(pbi_show_llvm_state *st, pbi_hot h);
int pbi_show_topn(pbi_show_llvm_state *st, pb_error *err);

/* show_llvm_hot_list.c */
int pbi_show_wants_hot_list(const pbi_show_llvm_opts *o, const pbi_llvm_target *t);
void pbi_show_hot_list_add(pbi_show_llvm_state *st, pbi_hot h);
int pbi_show_hot_list(pbi_show_llvm_state *st, const pbi_summary *sm, pb_error *err);

/* show_llvm_summary.c */
/* The cutoffs of the detailed summary: --detailed-summary-cutoffs or the
 * release's defaults. *owned is set when they were parsed (to free). */
int pbi_show_summary_cutoffs(const pbi_show_llvm_opts *o, const pbi_llvm_target *tg, const uint32_t **cuts,
                             size_t *ncut, uint32_t **owned, pb_error *err);
/* "Instrumentation level", the totals and maxima, the --value-cutoff lines. */
void pbi_show_heading(const pbi_show_llvm_state *st, const pbi_summary *sm);
/* --detailed-summary: the blocks above each cutoff. */
int pbi_show_detailed_summary(const pbi_show_llvm_state *st, const pbi_summary *sm, pb_error *err);

/* show_llvm_ids.c */
void pbi_show_binary_ids(const pbi_show_llvm_state *st, const pb_profile *p);
void pbi_show_profile_version(const pbi_show_llvm_state *st, const pb_profile *p);
void pbi_show_traces(const pbi_show_llvm_state *st, const pb_profile *p);

#endif
