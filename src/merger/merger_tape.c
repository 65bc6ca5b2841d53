/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merger_tape.c -- a raw input's records read on a feed thread, merged on
 * the merging thread (merger_tape.h).
 *
 * The records are copied out of the reader's reused arrays into a few
 * growing pools (counters, bitmap bytes, sites, values, names), each record
 * a compact entry of pool offsets; the sites are made what the merge takes
 * on the feed thread, so the merging thread only fills one pb_record per
 * record. The names are copied too: the reader hands out its names
 * section's bytes, which the next input's read may replace.
 */
#include "merger_tape.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "merge/merge_stream.h"
#include "registry/registry.h"
#include "util/grow.h"

/* One record: offsets into the pools (which move while they grow). Half
 * the size of a pb_record: two tapes are alive at a time (one merged, one
 * read), and pb_records made ahead were a megabyte each of 1,000 raws'
 * 18 MB peak; the merging thread fills a pb_record from it (tape_merge). */
typedef struct tape_rec {
    uint64_t hash;
    uint32_t name_off, name_len;
    uint32_t counters_off, num_counters;
    uint32_t bitmap_off, num_bitmap_bytes;
    uint32_t sites_off; /* its sites of every kind, one after the other */
    uint32_t num_sites[PB_VK_COUNT];
} tape_rec;

/* Where profile k begins (read_merge.c's on_begin), and its kind, which
 * on_record ORs into the merge's before each of its records. */
typedef struct tape_begin {
    size_t rec;
    uint64_t flags;
} tape_begin;

typedef struct tape_diag {
    int severity;
    pb_error e;
} tape_diag;

struct pbi_tape {
    tape_rec *recs;
    size_t nrecs, crecs;
    tape_begin *begins;
    size_t nbegins, cbegins;
    uint64_t *counts;
    size_t ncounts, ccounts;
    uint8_t *bits;
    size_t nbits, cbits;
    pb_site *sites; /* values: offsets into vals until tape_fix, then pointers */
    size_t nsites, csites;
    pb_value *vals;
    size_t nvals, cvals;
    char *names;
    size_t nnames, cnames;
    tape_diag *diags;
    size_t ndiags, cdiags;
    int diag_oom;     /* a diagnostic could not be kept: the tape is not used */
    pb_profile *all;  /* the input's profile-level data (end_input), copied */
};

void pbi_tape_free(pbi_tape *t) {
    if (!t) return;
    free(t->recs);
    free(t->begins);
    free(t->counts);
    free(t->bits);
    free(t->sites);
    free(t->vals);
    free(t->names);
    free(t->diags);
    pb_profile_free(t->all);
    free(t);
}

static void keep_diag(void *ctx, int severity, const pb_error *e) {
    pbi_tape *t = ctx;
    if (pbu_grow((void **)&t->diags, &t->cdiags, t->ndiags + 1, sizeof *t->diags)) {
        t->diag_oom = 1;
        return;
    }
    t->diags[t->ndiags].severity = severity;
    t->diags[t->ndiags++].e = *e;
}

static int nomem(pb_error *err) { return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory"); }

static int on_begin(void *ctx, size_t k, const pb_profile *head, pb_error *err) {
    pbi_tape *t = ctx;
    (void)k;
    (void)head;
    if (pbu_grow((void **)&t->begins, &t->cbegins, t->nbegins + 1, sizeof *t->begins)) return nomem(err);
    t->begins[t->nbegins].rec = t->nrecs;
    t->begins[t->nbegins++].flags = 0;
    return 0;
}

/* Room for n more of an array's elements (count *len, capacity *cap). */
#define ROOM(arr, len, cap, n) pbu_grow((void **)&(arr), &(cap), (len) + (n), sizeof *(arr))

/* An offset into a pool, kept in a pointer field until tape_fix (pools
 * move while they grow; the merge wants pointers). */
#define AS_PTR(type, off) ((type *)(uintptr_t)(off))
#define AS_OFF(ptr) ((size_t)(uintptr_t)(ptr))

static int on_record(void *ctx, const pb_profile *head, const char *name, size_t len, const pb_record *r,
                     pb_error *err) {
    pbi_tape *t = ctx;
    size_t nsites = 0, nvals = 0;
    for (int k = 0; k < PB_VK_COUNT; k++) {
        nsites += r->num_sites[k];
        for (uint32_t s = 0; s < r->num_sites[k]; s++) {
            nvals += r->sites[k][s].num_values;
            for (uint32_t j = 0; j < r->sites[k][s].num_values; j++)
                if (r->sites[k][s].values[j].symbol != PB_NONE) /* head's symbols: not kept */
                    return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL, "not taped");
        }
    }
    /* offsets are 32-bit: a bigger input is read by the merging thread */
    if (r->kind != PB_REC_FUNCTION || !t->nbegins || len > UINT32_MAX - t->nnames ||
        r->num_counters > UINT32_MAX - t->ncounts || r->num_bitmap_bytes > UINT32_MAX - t->nbits ||
        nsites > UINT32_MAX - t->nsites || nvals > UINT32_MAX - t->nvals)
        return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL, "not taped");
    if (ROOM(t->recs, t->nrecs, t->crecs, 1) || ROOM(t->counts, t->ncounts, t->ccounts, r->num_counters) ||
        ROOM(t->bits, t->nbits, t->cbits, r->num_bitmap_bytes) || ROOM(t->sites, t->nsites, t->csites, nsites) ||
        ROOM(t->vals, t->nvals, t->cvals, nvals) || ROOM(t->names, t->nnames, t->cnames, len))
        return nomem(err);
    /* the head's kind is set before its profile's records and stays */
    t->begins[t->nbegins - 1].flags = pb_profile_flags(head);
    tape_rec *e = &t->recs[t->nrecs++];
    e->hash = r->hash;
    e->name_off = (uint32_t)t->nnames;
    e->name_len = (uint32_t)len;
    if (len) memcpy(t->names + t->nnames, name, len);
    t->nnames += len;
    e->counters_off = (uint32_t)t->ncounts;
    e->num_counters = r->num_counters;
    if (r->num_counters) memcpy(t->counts + t->ncounts, r->counters, r->num_counters * sizeof *t->counts);
    t->ncounts += r->num_counters;
    e->bitmap_off = (uint32_t)t->nbits;
    e->num_bitmap_bytes = r->num_bitmap_bytes;
    if (r->num_bitmap_bytes) memcpy(t->bits + t->nbits, r->bitmap, r->num_bitmap_bytes);
    t->nbits += r->num_bitmap_bytes;
    e->sites_off = (uint32_t)t->nsites;
    for (int k = 0; k < PB_VK_COUNT; k++) {
        e->num_sites[k] = r->num_sites[k];
        for (uint32_t s = 0; s < r->num_sites[k]; s++) {
            const pb_site *site = &r->sites[k][s];
            t->sites[t->nsites].num_values = site->num_values;
            t->sites[t->nsites++].values = AS_PTR(pb_value, t->nvals);
            if (site->num_values) memcpy(t->vals + t->nvals, site->values, site->num_values * sizeof *t->vals);
            t->nvals += site->num_values;
        }
    }
    return 0;
}

/* The pools are final: the sites' value offsets become pointers (NULL
 * where there is none, as a reader's site has), on the feed thread. */
static void tape_fix(pbi_tape *t) {
    for (size_t i = 0; i < t->nsites; i++)
        t->sites[i].values = t->sites[i].num_values ? t->vals + AS_OFF(t->sites[i].values) : NULL;
}

/* The input's profile-level data, when it is only what a copy here keeps:
 * flags, origin and binary ids (no symbols, methods, traces, properties or
 * records: those the merging thread reads itself). */
static int on_end_input(void *ctx, const pb_profile *all, pb_error *err) {
    pbi_tape *t = ctx;
    if (pb_profile_symbol_count(all) || pb_profile_method_count(all) || pb_profile_trace_count(all) ||
        pb_profile_trace_stream_size(all) || pb_profile_prop_count(all) || pb_profile_record_count(all))
        return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL, "not taped");
    int rc = pb_profile_new(&t->all, err);
    for (size_t i = 0, n = pb_profile_binary_id_count(all); i < n && !rc; i++) {
        size_t len;
        const uint8_t *id = pb_profile_binary_id(all, i, &len);
        rc = pb_profile_add_binary_id(t->all, id, len, err);
    }
    if (rc) return rc;
    pb_profile_set_flags(t->all, pb_profile_flags(all));
    pb_profile_set_origin(t->all, pb_profile_origin(all));
    tape_fix(t);
    return 0;
}

int pbi_tape_new(pbi_tape **out, pb_error *err) {
    *out = calloc(1, sizeof **out);
    return *out ? 0 : nomem(err);
}

/* Empty again, its pools kept: a tape recycled for the next input writes
 * into memory that is mapped and warm (fresh pools for each input cost a
 * fifth of the feed thread's time in realloc and page faults). */
static void tape_clear(pbi_tape *t) {
    t->nrecs = t->nbegins = t->ncounts = t->nbits = t->nsites = t->nvals = t->nnames = t->ndiags = 0;
    t->diag_oom = 0;
    pb_profile_free(t->all);
    t->all = NULL;
}

int pbi_tape_record(pbi_tape *t, pb_prepared *pr, const pb_read_options *ro, pb_profile *names_home,
                    pb_error *err) {
    static const pb_record_visitor visitor = {on_begin, on_record, NULL, on_end_input};
    tape_clear(t);
    pb_read_options o = *ro;
    o.diag = keep_diag;
    o.diag_ctx = t;
    o.merge_into = names_home; /* where the raw reader keeps its names cache; nothing is merged */
    o.merge = NULL;
    int rc = pbi_visit_prepared(pr, &o, &visitor, t, err);
    if (!rc && (t->diag_oom || !t->all)) rc = nomem(err);
    if (rc) tape_clear(t);
    return rc;
}

void pbi_tape_replay_diags(const pbi_tape *t, pb_diag_fn diag, void *diag_ctx) {
    for (size_t i = 0; diag && i < t->ndiags; i++) diag(diag_ctx, t->diags[i].severity, &t->diags[i].e);
}

int pbi_tape_merge(const pbi_tape *t, pb_profile *dst, const pb_merge_options *mo, pb_error *err) {
    pbi_merge_stream ms;
    int rc = pbi_merge_stream_init(&ms, dst, mo, err);
    if (rc) return rc;
    size_t b = 0;
    pb_record r; /* what the reader hands a visitor: the kind's fields unset */
    memset(&r, 0, sizeof r);
    r.kind = PB_REC_FUNCTION;
    r.name = PB_NONE;
    r.ctx = PB_NONE;
    r.layout = PB_NONE;
    for (size_t i = 0; i < t->nrecs && !rc; i++) {
        for (; b < t->nbegins && t->begins[b].rec == i; b++) pbi_merge_stream_new_side(&ms);
        const tape_rec *e = &t->recs[i];
        r.hash = e->hash;
        r.num_counters = e->num_counters;
        r.counters = t->counts + e->counters_off;
        r.num_bitmap_bytes = e->num_bitmap_bytes;
        r.bitmap = e->num_bitmap_bytes ? t->bits + e->bitmap_off : NULL;
        const pb_site *site = t->sites + e->sites_off;
        for (int k = 0; k < PB_VK_COUNT; k++) {
            r.num_sites[k] = e->num_sites[k];
            r.sites[k] = e->num_sites[k] ? (pb_site *)site : NULL;
            site += e->num_sites[k];
        }
        ms.flags |= t->begins[b - 1].flags; /* b >= 1: on_record needs a begun profile */
        pb_str id = PB_NONE;
        rc = pbi_merge_stream_function(&ms, t->all, &r, e->name_len ? t->names + e->name_off : "", e->name_len,
                                       &id, err);
    }
    for (; !rc && b < t->nbegins; b++) pbi_merge_stream_new_side(&ms);
    if (!rc) rc = pbi_merge_stream_finish(&ms, t->all, err);
    if (rc) pbi_merge_stream_fail(&ms);
    pbi_merge_stream_free(&ms);
    return rc;
}
