/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * raw_read.c -- reads LLVM raw profiles (.profraw) v5, v7..v11, 32/64-bit,
 * either byte order, several profiles per file, into the model.
 *
 * Every position is computed with checked arithmetic from the header and
 * compared with the file length before any byte there is touched; counts are
 * capped by the bytes that hold them, never by a header claim alone. Errors
 * name the byte offset of the field at fault, the field, and expected vs found.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "llvm/leb128.h"
#include "util/diag.h"
#include "llvm/target.h"
#include "model/options.h"
#include "model/str_md5.h"
#include "llvm/binary_ids.h"
#include "llvm/value_data.h"
#include "raw_correlate.h"
#include "raw_internal.h"
#include "raw_md5.h"
#include "raw_names_cache.h"
#include "raw_sections.h"
#include "util/grow.h"
#include "model/profile_records.h"

typedef pbi_raw_name_ent name_ent; /* off, len: into prof.names */

typedef struct addr_ent {
    uint64_t addr, ref;
} addr_ent;

typedef struct vt_ent {
    uint64_t start, size, hash;
} vt_ent;

typedef struct ts_ent {
    uint64_t ts, ref;
} ts_ent;

/* The state of one read. */
typedef struct rd {
    const uint8_t *d;
    uint64_t len;
    const pb_read_options *o;
    pb_profile *p;   /* reading: the model; visiting: the head of the current profile */
    pb_profile *all; /* visiting: the head of the whole input (end_input) */
    const pb_record_visitor *vis; /* visiting (pb_visit): records go to vis->record */
    void *vctx;
    pb_error *err;
    int order;
    unsigned ptr;
    ts_ent *ts;      /* every profile's timestamps so far */
    size_t nts, cts;
    size_t ts0;      /* visiting: the current profile's first timestamp */
    uint64_t *counts;
    size_t ccap;
    uint8_t *bitmap;
    size_t bcap;
    pb_value *vals;
    size_t vcap;
    pb_site *sites;
    size_t scap;
    int have_flags;
    uint64_t flags;
    pb_error scratch; /* for pb_profile_add_record; cleared after each use */
    int bids_last_only;   /* read as LLVM 13-17: the last profile's binary ids only */
    int correlated_empty; /* a debug-info-correlated file without its binary: no records (18+) */
    int temporal_unknown; /* the release reads no temporal flag: a timestamp is a counter (13-16) */
    uint64_t last_bids[2]; /* [start, end) of the last profile's binary ids */
    unsigned last_bids_index;
    int last_bids_padded; /* the last profile's ids are padded (v8+) */
    pbi_raw_corr_stream *cs; /* a lightweight file: its profiles come one at a time, */
    pb_buf cbuf;             /* each complete in cbuf (d points to it) */
    pb_source *src;          /* where d was mapped from (NULL: bytes given) */
    uint64_t cnt_end;        /* file offset after the counters read last (drop_behind) */
    uint64_t cnt_dropped;    /* counter bytes before this one were let go */
} rd;

/* One profile of the file. */
typedef struct prof {
    unsigned index; /* 0-based number of this profile in the file */
    uint64_t start;
    pbi_raw_layout l;
    pbi_raw_header h;
    uint64_t version, flags;
    unsigned csize; /* counter element: 8, or 1 with byte coverage */
    uint64_t bid_off, data_off, cnt_off, cnt_bytes, bmp_off, uc_off, names_off, vtab_off,
        vnames_off, val_off;
    int absolute; /* v5 / LLVM 13's v7: CounterPtr is an address */
    pb_buf names;      /* each name followed by a NUL (a separator when decoded) */
    int names_given;   /* names.data belongs to the model's string table now */
    int names_borrowed; /* names, ne and ne_slot belong to the merge's names cache */
    int names_distinct; /* decoded here and no two names have one MD5 (so no equal bytes) */
    name_ent *ne;
    size_t nne;
    uint32_t *ne_slot; /* hash index over ne: entry index + 1, 0 = empty */
    size_t ne_mask;
    size_t ne_next;    /* entry after the last one found: find_name's first guess */
    addr_ent *fp;
    size_t nfp;
    vt_ent *vt;
    size_t nvt;
    int prepared; /* header, layout and fp were done ahead (pbi_raw_prepare) */
    name_ent unnamed; /* the name of a NameRef no name hashes to: "" (unnamed_ent) */
} prof;

static const char *kind_name[3] = {"indirect-call", "memop-size", "vtable"};

/* ---- helpers ---------------------------------------------------------------- */

static int nomem(rd *r) { return pbu_nomem(r->err, NULL); }

static void hdr_path(const prof *pf, int id, char *buf, size_t n) {
    if (pf->index)
        snprintf(buf, n, "profile[%u].header.%s", pf->index, pbi_raw_header_fields[id].name);
    else
        snprintf(buf, n, "header.%s", pbi_raw_header_fields[id].name);
}
static uint64_t hdr_at(const prof *pf, int id) {
    return pf->l.hdr_off[id] < 0 ? pf->start : pf->start + (uint64_t)pf->l.hdr_off[id];
}
/* Returns buf, so that error paths can build it in the call (per-record paths
 * built up front cost a tenth of the read of a big file). */
static const char *rec_path(const prof *pf, uint64_t i, const char *field, char *buf, size_t n) {
    if (pf->index)
        snprintf(buf, n, "profile[%u].data[%" PRIu64 "]%s%s", pf->index, i, *field ? "." : "", field);
    else
        snprintf(buf, n, "data[%" PRIu64 "]%s%s", i, *field ? "." : "", field);
    return buf;
}

/* rec_path into a 96-byte buffer, returned: called only when an error
 * is reported (formatting it for every record showed in profiles). */
static const char *fld_path(const prof *pf, uint64_t i, const char *field, char path[96]) {
    rec_path(pf, i, field, path, 96);
    return path;
}

/* LLVM's binary sample profiles (AutoFDO/SPGO, `llvm-profdata merge --sample`)
 * start with SPMagic(format) = "SPROF42" << 8 | format as ULEB128 (9 bytes).
 * Users hand them to us as ".profdata" next to instrumentation profiles, so
 * they are recognised, only to be refused with a message saying what they are.
 * Returns the format byte (2 compact, 4 ext-binary, 0xff binary) or -1. */
static int sample_magic(const uint8_t *p, size_t len) {
    uint64_t v;
    size_t pos = 0;
    if (pbi_uleb_decode(p, len < 9 ? len : 9, &pos, &v) != PBI_ULEB_OK || pos != 9) return -1;
    return (v >> 8) == UINT64_C(0x5350524f463432) ? (int)(v & 0xff) : -1;
}

int pbi_raw_probe(const uint8_t *head, size_t len) {
    int order;
    unsigned ptr;
    if (pbi_raw_magic(head, len, &order, &ptr)) return 8;
    return sample_magic(head, len) >= 0 ? 4 : 0; /* to refuse it clearly */
}

static int cmp_addr(const void *a, const void *b) {
    const addr_ent *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}
static int cmp_vt(const void *a, const void *b) {
    const vt_ent *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}
static int cmp_ts(const void *a, const void *b) {
    const ts_ent *x = a, *y = b;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    return x->ref < y->ref ? -1 : x->ref > y->ref;
}

/* NameRefs are MD5 bits, so their low bits index an open-addressing table
 * directly (sorting and binary search cost a tenth of reading a big raw). */
static name_ent *find_name(prof *pf, uint64_t md5) {
    if (!pf->nne) return NULL;
    /* Compilers emit names and data records in one order: try the entry
     * after the last one found first (sequential, no cache miss). */
    if (pf->ne_next < pf->nne && pf->ne[pf->ne_next].md5 == md5) return &pf->ne[pf->ne_next++];
    for (size_t b = md5 & pf->ne_mask;; b = (b + 1) & pf->ne_mask) {
        uint32_t s = pf->ne_slot[b];
        if (!s) return NULL;
        if (pf->ne[s - 1].md5 == md5) {
            pf->ne_next = s; /* = index + 1 */
            return &pf->ne[s - 1];
        }
    }
}

/* ---- header and sections ---------------------------------------------------- */

static int read_header(rd *r, prof *pf) {
    char path[96];
    uint64_t s = pf->start;
    int order;
    unsigned ptr;
    if (r->len - s < 16) {
        snprintf(path, sizeof path, pf->index ? "profile[%u].header" : "header", pf->index);
        return pb_error_set(r->err, PB_ETRUNC, s, path,
                            "file ends inside the raw header (0x%" PRIx64 " bytes left)", r->len - s);
    }
    if (!pbi_raw_magic(r->d + s, 8, &order, &ptr) || order != r->order || ptr != r->ptr) {
        char found[64];
        snprintf(found, sizeof found, "0x%016" PRIx64, pb_get_u64(r->d + s, r->order));
        pf->l.hdr_off[PBI_RH_Magic] = 0;
        hdr_path(pf, PBI_RH_Magic, path, sizeof path);
        return pb_error_set(r->err, PB_EFORMAT, s, path,
                            "expected the magic of the first profile (%u-bit, %s), found %s",
                            r->ptr * 8, r->order == PB_ORDER_LE ? "little-endian" : "big-endian",
                            found);
    }
    uint64_t vword = pb_get_u64(r->d + s + 8, r->order);
    pf->version = vword & 0xffffffffu;
    pf->flags = vword & PB_VARIANT_MASK;
    /* 13-16 know no temporal flag: a newer clang's timestamp is counter 0 to them */
    if (r->temporal_unknown) pf->flags &= ~PB_VARIANT_TEMPORAL;
    if (!pbi_raw_version_known(pf->version)) {
        snprintf(path, sizeof path, pf->index ? "profile[%u].header.Version" : "header.Version",
                 pf->index);
        return pb_error_set(r->err, PB_EVERSION, s + 8, path,
                            "raw profile version %" PRIu64 " is not supported (supported: 5, 7, 8, "
                            "9, 10, 11)%s",
                            pf->version,
                            pf->version == 6 ? "; v6 was a development state no release wrote" : "");
    }
    if (pbi_raw_layout_get(&pf->l, (unsigned)pf->version, r->ptr) != 0) return nomem(r);
    if (r->len - s < pf->l.header_size) {
        snprintf(path, sizeof path, pf->index ? "profile[%u].header" : "header", pf->index);
        return pb_error_set(r->err, PB_ETRUNC, s, path,
                            "a raw v%" PRIu64 " header needs %" PRIu32 " bytes, the file has 0x%" PRIx64
                            " left",
                            pf->version, pf->l.header_size, r->len - s);
    }
    pbi_raw_header_decode(&pf->l, r->d + s, r->order, &pf->h);
    if ((pf->flags & PB_VARIANT_DBG_CORRELATE) && !r->correlated_empty) {
        /* LLVM 14-17 refuse it; 18+ read its (no) records */
        hdr_path(pf, PBI_RH_Version, path, sizeof path);
        return pb_error_set(r->err, PB_EUNSUPPORTED, s + 8, path,
                            "debug info for correlation is required: a debug-info-correlated raw profile "
                            "(variant bit 59) has its names and data in the binary; read it together with "
                            "that binary");
    }
    return 0;
}

/* Where the sections lie (raw_sections.c), checked against the file. */
static int layout_sections(rd *r, prof *pf) {
    char prefix[32] = "";
    if (pf->index) snprintf(prefix, sizeof prefix, "profile[%u].", pf->index);
    pbi_raw_sections sec;
    int rc = pbi_raw_sections_walk(&pf->l, &pf->h, pf->start, r->len, prefix, &sec, r->err);
    if (rc) return rc;
    pf->csize = sec.csize;
    pf->bid_off = sec.off[PBI_RS_BINARY_IDS];
    pf->data_off = sec.off[PBI_RS_DATA];
    pf->cnt_off = sec.off[PBI_RS_COUNTERS];
    pf->cnt_bytes = sec.size[PBI_RS_COUNTERS];
    pf->bmp_off = sec.off[PBI_RS_BITMAP];
    pf->uc_off = sec.off[PBI_RS_UNIFORM];
    pf->names_off = sec.off[PBI_RS_NAMES];
    pf->vtab_off = sec.off[PBI_RS_VTABLES];
    pf->vnames_off = sec.off[PBI_RS_VNAMES];
    pf->val_off = sec.off[PBI_RS_VALUES];
    return 0;
}

static int add_binary_id(void *ctx, const uint8_t *id, size_t len, uint64_t off, pb_error *err) {
    (void)off;
    return pb_profile_add_binary_id(ctx, id, len, err);
}

static int skip_binary_id(void *ctx, const uint8_t *id, size_t len, uint64_t off, pb_error *err) {
    (void)ctx, (void)id, (void)len, (void)off, (void)err;
    return 0;
}

/* Checks the binary ids at [pos, end) of profile `index` and adds them to
 * `to` (NULL: only checks them). */
static int binary_ids_at(rd *r, uint64_t pos, uint64_t end, unsigned index, pb_profile *to, int padded) {
    char path[48];
    snprintf(path, sizeof path, index ? "profile[%u].binary_ids" : "binary_ids", index);
    return pbi_binary_ids_decode_p(r->d, pos, end, r->order, padded, path, to ? add_binary_id : skip_binary_id,
                                   to, r->err);
}

/* A profile's binary ids. LLVM 13-17 (BINARY_IDS_LAST_ONLY) keep the ids of
 * the last profile of the file only (their reader takes them from the last
 * header it read): then they are checked here but added after the last
 * profile (add_last_binary_ids). */
static int read_binary_ids(rd *r, prof *pf) {
    uint64_t end = pf->bid_off + pf->h.f[PBI_RH_BinaryIdsSize];
    int padded = pf->version >= PBI_RAW_BINARY_IDS_PADDED_SINCE;
    int rc = binary_ids_at(r, pf->bid_off, end, pf->index, r->bids_last_only ? NULL : r->p, padded);
    if (!rc && r->all && !r->bids_last_only) /* visiting: the whole input's too */
        rc = binary_ids_at(r, pf->bid_off, end, pf->index, r->all, padded);
    if (!rc && r->bids_last_only) {
        r->last_bids_padded = padded;
        r->last_bids[0] = pf->bid_off;
        r->last_bids[1] = end;
        r->last_bids_index = pf->index;
    }
    return rc;
}

static int add_last_binary_ids(rd *r, pb_profile *to) {
    if (!r->bids_last_only) return 0;
    return binary_ids_at(r, r->last_bids[0], r->last_bids[1], r->last_bids_index, to, r->last_bids_padded);
}

/* Merging (visiting into o->merge_into): the names section decoded for an
 * earlier input of the merge when this one's bytes are the same
 * (raw_names_cache.h), borrowed; returns 1 then. */
static int names_from_cache(rd *r, prof *pf) {
    pb_profile *dst = r->vis && r->o ? r->o->merge_into : NULL;
    const pbi_raw_names *t =
        dst ? pbi_raw_names_cached(dst, r->d + pf->names_off, (size_t)pf->h.f[PBI_RH_NamesSize]) : NULL;
    if (!t) return 0;
    pf->names = t->text;
    pf->ne = t->ne;
    pf->nne = t->nne;
    pf->ne_slot = t->slot;
    pf->ne_mask = t->mask;
    pf->ne_next = 0;
    pf->names_borrowed = 1;
    return 1;
}

/* Merging: the table just decoded is kept for the next input (a table
 * that cannot be kept is only not cached). */
static void names_to_cache(rd *r, prof *pf) {
    pb_profile *dst = r->vis && r->o ? r->o->merge_into : NULL;
    if (!dst) return;
    pbi_raw_names t = {pf->names, pf->ne, pf->nne, pf->ne_slot, pf->ne_mask};
    if (pbi_raw_names_keep(dst, r->d + pf->names_off, (size_t)pf->h.f[PBI_RH_NamesSize], &t) == 0)
        pf->names_borrowed = 1;
}

static int read_names(rd *r, prof *pf) {
    if (names_from_cache(r, pf)) return 0;
    char path[96];
    snprintf(path, sizeof path, pf->index ? "profile[%u].names" : "names", pf->index);
    int rc = pbi_names_decode_text(r->d + pf->names_off, (size_t)pf->h.f[PBI_RH_NamesSize], pf->names_off, path,
                                   &pf->names, r->err);
    if (rc) return rc;
    /* memchr, not a byte loop, finds the separators: the two loops over
     * 15 MB of C++ names were 13% of a raw -> indexed conversion (callgrind,
     * bench/shapes.sh cxx). The text ends with a separator. */
    const char *t = pf->names.len ? pf->names.data : "", *end = t + pf->names.len;
    size_t n = 0;
    for (const char *q = t; q < end && (q = memchr(q, PBI_NAME_SEP, (size_t)(end - q))); q++) n++;
    if (n && !(pf->ne = calloc(n, sizeof *pf->ne))) return nomem(r);
    for (const char *q = t, *s; q < end && (s = memchr(q, PBI_NAME_SEP, (size_t)(end - q))); q = s + 1) {
        if ((size_t)(s - q) > UINT32_MAX)
            return pb_error_set(r->err, PB_ELIMIT, pf->names_off, path, "a name of %zu bytes (at most %" PRIu32 ")",
                                (size_t)(s - q), UINT32_MAX);
        name_ent *e = &pf->ne[pf->nne++];
        e->off = (size_t)(q - t);
        e->len = (uint32_t)(s - q);
        e->id = PB_NONE;
        pf->names.data[s - t] = '\0'; /* so the model can keep the names here (give_names) */
    }
    pbi_raw_md5_all(t, pf->ne, pf->nne);
    if (!pf->nne) {
        names_to_cache(r, pf);
        return 0;
    }
    if (pf->nne >= UINT32_MAX / 4) return nomem(r);
    size_t cap = 16;
    while (cap < 2 * pf->nne) cap *= 2;
    if (!(pf->ne_slot = calloc(cap, sizeof *pf->ne_slot))) return nomem(r);
    pf->ne_mask = cap - 1;
    pf->ne_next = SIZE_MAX; /* no guessing while the index is built */
    pf->names_distinct = 1;
    for (size_t i = 0; i < pf->nne; i++) {
        if (find_name(pf, pf->ne[i].md5)) { /* the first of equal names wins */
            pf->names_distinct = 0;
            continue;
        }
        size_t b = pf->ne[i].md5 & pf->ne_mask;
        while (pf->ne_slot[b]) b = (b + 1) & pf->ne_mask;
        pf->ne_slot[b] = (uint32_t)(i + 1);
    }
    pf->ne_next = 0;
    names_to_cache(r, pf);
    return 0;
}

/* vtable records and names (v10+, §2.10): names become symbols, records an address map. */
static int read_vtables(rd *r, prof *pf) {
    uint64_t nvt = pf->h.f[PBI_RH_NumVTables];
    char path[96];
    int rc = 0;
    if (pf->h.f[PBI_RH_VNamesSize]) {
        pb_buf vn = PB_BUF_INIT;
        snprintf(path, sizeof path, pf->index ? "profile[%u].vnames" : "vnames", pf->index);
        rc = pbi_names_decode_text(r->d + pf->vnames_off, (size_t)pf->h.f[PBI_RH_VNamesSize], pf->vnames_off, path,
                                   &vn, r->err);
        size_t start = 0;
        for (size_t i = 0; rc == 0 && i < vn.len; i++) {
            if (vn.data[i] != PBI_NAME_SEP) continue;
            uint32_t sym;
            rc = pb_profile_add_symbol(r->p, vn.data + start, i - start, &sym, r->err);
            if (!rc && r->all) rc = pb_profile_add_symbol(r->all, vn.data + start, i - start, &sym, r->err);
            start = i + 1;
        }
        pbu_buf_free(&vn);
        if (rc) return rc;
    }
    if (!nvt) return 0;
    if (!(pf->vt = calloc((size_t)nvt, sizeof *pf->vt))) return nomem(r);
    for (uint64_t i = 0; i < nvt; i++) {
        const uint8_t *v = r->d + pf->vtab_off + i * pf->l.vtable_size;
        vt_ent e = {pbi_raw_vt_get(&pf->l, v, PBI_RV_VTablePointer, r->order),
                    pbi_raw_vt_get(&pf->l, v, PBI_RV_VTableSize, r->order),
                    pbi_raw_vt_get(&pf->l, v, PBI_RV_VTableNameHash, r->order)};
        if (e.start == 0) continue; /* LLVM ignores them */
        pf->vt[pf->nvt++] = e;
    }
    if (pf->nvt) qsort(pf->vt, pf->nvt, sizeof *pf->vt, cmp_vt);
    return 0;
}

static uint64_t map_vtable(const prof *pf, uint64_t a) {
    size_t lo = 0, hi = pf->nvt;
    while (lo < hi) { /* lo = number of ranges starting at or before a */
        size_t mid = lo + (hi - lo) / 2;
        if (pf->vt[mid].start <= a) lo = mid + 1;
        else hi = mid;
    }
    /* ranges do not overlap (LLVM keeps them in an IntervalMap); half-open */
    if (lo && a - pf->vt[lo - 1].start < pf->vt[lo - 1].size) return pf->vt[lo - 1].hash;
    return 0;
}

static uint64_t map_function(const prof *pf, uint64_t a) {
    addr_ent key = {a, 0};
    const addr_ent *e = pf->nfp ? bsearch(&key, pf->fp, pf->nfp, sizeof *pf->fp, cmp_addr) : NULL;
    return e ? e->ref : 0;
}

/* ---- counters ---------------------------------------------------------------- */

static const uint8_t *rec_at(const rd *r, const prof *pf, uint64_t i) {
    return r->d + pf->data_off + i * pf->l.record_size;
}

/* CounterPtr offset of record i under the absolute or relative rule (§2.7). */
static int64_t counter_offset(const rd *r, const prof *pf, uint64_t i, int absolute) {
    uint64_t cp = pbi_raw_rec_get(&pf->l, rec_at(r, pf, i), PBI_RD_CounterPtr, 0, r->order);
    return pbi_raw_ptr_offset(&pf->l, cp, pf->h.f[PBI_RH_CountersDelta], i, absolute);
}

static int choose_v7_rule(rd *r, prof *pf) {
    int ok = pbi_raw_v7_absolute(&pf->l, r->d + pf->data_off, pf->h.f[PBI_RH_NumData], pf->h.f[PBI_RH_CountersDelta],
                                 pf->cnt_bytes, r->order);
    if (ok == -2) return nomem(r);
    if (ok < 0) {
        char path[96];
        hdr_path(pf, PBI_RH_CountersDelta, path, sizeof path);
        return pb_error_set(r->err, PB_EFORMAT, hdr_at(pf, PBI_RH_CountersDelta), path,
                            "raw v7: CounterPtr values fit neither the absolute (LLVM 13) nor the "
                            "relative (late-2021 development builds) encoding: some counter range is "
                            "negative, unaligned, outside the %" PRIu64 "-byte counters section or "
                            "overlaps another",
                            pf->cnt_bytes);
    }
    pf->absolute = ok;
    return 0;
}

static int read_counters(rd *r, prof *pf, uint64_t i, const uint8_t *rec, uint64_t name_ref,
                         uint32_t *out_n) {
    char path[96];
    uint64_t rec_off = pf->data_off + i * pf->l.record_size;
    uint64_t nc = pbi_raw_rec_get(&pf->l, rec, PBI_RD_NumCounters, 0, r->order);
    uint64_t at = rec_off + (uint64_t)pf->l.rec_off[PBI_RD_NumCounters];
    if (nc == 0) {
        return pb_error_set(r->err, PB_EFORMAT, at, fld_path(pf, i, "NumCounters", path),
                            "number of counters is zero");
    }
    int64_t off = counter_offset(r, pf, i, pf->absolute);
    uint64_t cp_at = rec_off + (uint64_t)pf->l.rec_off[PBI_RD_CounterPtr];
    if (off < 0)
        return pb_error_set(r->err, PB_EFORMAT, cp_at, fld_path(pf, i, "CounterPtr", path),
                            "counter offset %" PRId64 " is negative (CounterPtr 0x%" PRIx64
                            " - delta 0x%" PRIx64 ")",
                            off, pbi_raw_rec_get(&pf->l, rec, PBI_RD_CounterPtr, 0, r->order),
                            pbi_raw_delta_at(&pf->l, pf->h.f[PBI_RH_CountersDelta], i, pf->absolute));
    if ((uint64_t)off >= pf->cnt_bytes)
        return pb_error_set(r->err, PB_EFORMAT, cp_at, fld_path(pf, i, "CounterPtr", path),
                            "counter offset 0x%" PRIx64 " lies outside the counters section (size 0x%" PRIx64 ")",
                            (uint64_t)off, pf->cnt_bytes);
    int temporal = (pf->flags & PB_VARIANT_TEMPORAL) != 0;
    uint64_t need, room = pf->cnt_bytes - (uint64_t)off;
    /* temporal: element 0 is an 8-byte timestamp even with byte coverage (§2.7) */
    need = temporal ? 8 + (nc - 1) * pf->csize : nc * pf->csize;
    if (nc > room / pf->csize || need > room)
        return pb_error_set(r->err, PB_EFORMAT, at, fld_path(pf, i, "CounterPtr", path),
                            "%" PRIu64 " counters of %u bytes at counter offset 0x%" PRIx64
                            " run past the end of the counters section (size 0x%" PRIx64 ")",
                            nc, pf->csize, (uint64_t)off, pf->cnt_bytes);
    const uint8_t *c = r->d + pf->cnt_off + (uint64_t)off;
    r->cnt_end = pf->cnt_off + (uint64_t)off + need;
    size_t n = (size_t)nc;
    if (temporal) {
        uint64_t ts = pb_get_u64(c, r->order);
        if (ts != 0 && ts != UINT64_MAX) {
            if (pbu_grow((void **)&r->ts, &r->cts, r->nts + 1, sizeof *r->ts)) return nomem(r);
            r->ts[r->nts].ts = ts;
            r->ts[r->nts++].ref = name_ref;
        }
        c += 8;
        n--;
    }
    if (pbu_grow((void **)&r->counts, &r->ccap, n ? n : 1, sizeof *r->counts)) return nomem(r);
    uint64_t large = 0; /* the first counter above LLVM's 2^56 (RawInstrProfReader::readRawCounts) */
    for (size_t k = 0; k < n; k++) {
        r->counts[k] = pf->csize == 1 ? (c[k] == 0 ? 1 : 0) : pb_get_u64(c + 8 * k, r->order);
        if (!large && r->counts[k] > (UINT64_C(1) << 56)) large = r->counts[k];
    }
    if (large && r->o && r->o->diag) /* LLVM 18+ warns with its value (merge fails the input) */
        pb_diag(r->o->diag, r->o->diag_ctx, PB_DIAG_WARNING, 0, NULL, cp_at, fld_path(pf, i, "CounterPtr", path),
                PBU_LARGE_COUNTER_WORDS ": %" PRIu64, large);
    *out_n = (uint32_t)n;
    return 0;
}

static int read_bitmap(rd *r, prof *pf, uint64_t i, const uint8_t *rec, uint32_t *out_n) {
    uint64_t nb = pbi_raw_rec_get(&pf->l, rec, PBI_RD_NumBitmapBytes, 0, r->order);
    *out_n = 0;
    if (nb == 0) return 0; /* LLVM skips these without checks */
    char path[96];
    uint64_t at = pf->data_off + i * pf->l.record_size + (uint64_t)pf->l.rec_off[PBI_RD_BitmapPtr];
    uint64_t bp = pbi_raw_rec_get(&pf->l, rec, PBI_RD_BitmapPtr, 0, r->order);
    int64_t off = pbi_raw_ptr_offset(&pf->l, bp, pf->h.f[PBI_RH_BitmapDelta], i, 0);
    uint64_t total = pf->h.f[PBI_RH_NumBitmapBytes];
    if (off < 0)
        return pb_error_set(r->err, PB_EFORMAT, at, fld_path(pf, i, "BitmapPtr", path), "bitmap offset %" PRId64 " is negative", off);
    if ((uint64_t)off >= total || nb > total - (uint64_t)off)
        return pb_error_set(r->err, PB_EFORMAT, at, fld_path(pf, i, "BitmapPtr", path),
                            "%" PRIu64 " bitmap bytes at bitmap offset 0x%" PRIx64
                            " lie outside the bitmap section (size 0x%" PRIx64 ")",
                            nb, (uint64_t)off, total);
    if (pbu_grow((void **)&r->bitmap, &r->bcap, (size_t)nb, 1)) return nomem(r);
    memcpy(r->bitmap, r->d + pf->bmp_off + (uint64_t)off, (size_t)nb);
    *out_n = (uint32_t)nb;
    return 0;
}

/* v11 uniform counters (§2.16): checked as LLVM 23 does, then dropped. */
static int check_uniform(rd *r, prof *pf, uint64_t i, const uint8_t *rec) {
    uint64_t uclen = 8 * pf->h.f[PBI_RH_NumUniformCounters];
    if (uclen == 0) return 0;
    char path[96];
    uint64_t at = pf->data_off + i * pf->l.record_size + (uint64_t)pf->l.rec_off[PBI_RD_UniformCounterPtr];
    uint64_t up = pbi_raw_rec_get(&pf->l, rec, PBI_RD_UniformCounterPtr, 0, r->order);
    uint64_t nc = pbi_raw_rec_get(&pf->l, rec, PBI_RD_NumCounters, 0, r->order);
    int64_t off = pbi_raw_ptr_offset(&pf->l, up, pf->h.f[PBI_RH_UniformCountersDelta], i, 0);
    if (off < 0)
        return pb_error_set(r->err, PB_EFORMAT, at, fld_path(pf, i, "UniformCounterPtr", path), "uniform counter offset %" PRId64 " is negative",
                            off);
    if ((uint64_t)off >= uclen)
        return pb_error_set(r->err, PB_EFORMAT, at, fld_path(pf, i, "UniformCounterPtr", path),
                            "uniform counter offset %" PRId64
                            " is greater than the maximum uniform counter offset %" PRIu64,
                            off, uclen - 1);
    if (nc > (uclen - (uint64_t)off) / 8)
        return pb_error_set(r->err, PB_EFORMAT, at, fld_path(pf, i, "UniformCounterPtr", path),
                            "number of uniform counters %" PRIu64
                            " is greater than the maximum number of uniform counters %" PRIu64,
                            nc, (uclen - (uint64_t)off) / 8);
    return 0;
}

/* ---- value data (§2.11) ------------------------------------------------------ */

/* Puts "data[i]." (or "profile[k].data[i].") before the path of an error
 * the value-data codec reported: paths are built only when needed. */
static int in_record(const prof *pf, uint64_t i, pb_error *err, int rc) {
    char path[160], tail[64];
    snprintf(tail, sizeof tail, "%.63s", err->path);
    rec_path(pf, i, tail, path, sizeof path);
    snprintf(err->path, sizeof err->path, "%s", path);
    return rc;
}

static int read_values(rd *r, prof *pf, uint64_t i, const uint8_t *rec, uint64_t *vpos, pb_record *out) {
    unsigned want[3] = {0, 0, 0}, any = 0;
    for (unsigned k = 0; k < pf->l.num_value_kinds; k++) {
        want[k] = pbi_raw_rec_sites(&pf->l, rec, k, r->order);
        any |= want[k];
    }
    if (!any) return 0;
    char path[96]; /* filled by fld_path only when an error needs it */
    uint64_t b = *vpos;
    if (r->len - b < 8)
        return pb_error_set(r->err, PB_ETRUNC, b, fld_path(pf, i, "value_data", path),
                            "value data of data record %" PRIu64 " (8-byte header) runs past the end "
                            "of the file",
                            i);
    uint64_t total = pb_get_u32(r->d + b, r->order);
    if (total >= 8 && total % 8 == 0 && total > r->len - b)
        return pb_error_set(r->err, PB_ETRUNC, b, fld_path(pf, i, "value_data", path),
                            "TotalSize %" PRIu64 " runs past the end of the file (0x%" PRIx64
                            " bytes left)",
                            total, r->len - b);
    pbi_vpd v;
    int rc = pbi_vpd_parse(r->d, b, r->len, r->order, pf->l.num_value_kinds, "value_data", &v, r->err);
    if (rc) return in_record(pf, i, r->err, rc);
    for (unsigned k = 0; k < 3; k++) {
        if (!(v.present & (1u << k))) {
            if (want[k])
                return pb_error_set(r->err, PB_EFORMAT, b, fld_path(pf, i, "value_data", path),
                                    "the data record has %u %s sites but its value data has no such kind",
                                    want[k], kind_name[k]);
        } else if (v.kind[k].num_sites != want[k]) {
            return pb_error_set(r->err, PB_EFORMAT, v.kind[k].at + 4, fld_path(pf, i, "value_data", path),
                                "NumValueSites of kind %s: expected %u (the data record's), found %" PRIu32,
                                kind_name[k], want[k], v.kind[k].num_sites);
        }
    }
    if (pbu_grow((void **)&r->vals, &r->vcap, (size_t)v.num_values + 1, sizeof *r->vals) ||
        pbu_grow((void **)&r->sites, &r->scap, (size_t)v.num_sites + 1, sizeof *r->sites))
        return nomem(r);
    pbi_vpd_fill(r->d, &v, r->order, r->sites, r->vals, out);
    /* stored values are runtime addresses: map them to NameRefs (§2.12) */
    for (uint32_t s = 0; s < out->num_sites[PB_VK_INDIRECT_CALL]; s++) {
        pb_site *site = &out->sites[PB_VK_INDIRECT_CALL][s];
        for (uint32_t j = 0; j < site->num_values; j++) site->values[j].value = map_function(pf, site->values[j].value);
    }
    for (uint32_t s = 0; s < out->num_sites[PB_VK_VTABLE]; s++) {
        pb_site *site = &out->sites[PB_VK_VTABLE][s];
        for (uint32_t j = 0; j < site->num_values; j++) {
            pb_value *pv = &site->values[j];
            uint32_t sym;
            pv->value = map_vtable(pf, pv->value);
            if (pv->value && pb_profile_find_symbol_md5(r->p, pv->value, &sym) == 0) pv->symbol = sym;
        }
    }
    *vpos = b + v.total;
    return 0;
}

/* ---- records ------------------------------------------------------------------ */

/* The bytes of an entry's name ("" for pf->unnamed, which has none in names). */
static const char *name_bytes(const prof *pf, const name_ent *ne) {
    return ne->len ? pf->names.data + ne->off : "";
}

/* A data record whose NameRef is the MD5 of no name in the names section.
 * LLVM's raw reader keeps it under the empty name (getFuncName finds nothing
 * and returns ""): llvm-profdata 19-22 show it as "" and merge it into a
 * record "" whose key is MD5(""), in every failure mode. So do we, with a
 * warning; validate (report_all) still calls the file invalid, since the
 * record's function is lost. */
static name_ent *unnamed_ent(prof *pf) {
    if (!pf->unnamed.md5) pf->unnamed = (name_ent){pb_md5_ref("", 0), 0, 0, PB_NONE};
    return &pf->unnamed;
}

static int add_to_model(rd *r, pb_record *rec, const prof *pf, name_ent *ne) {
    if (r->vis) /* value symbols are r->p's: the visitor's head */
        return r->vis->record ? r->vis->record(r->vctx, r->p, name_bytes(pf, ne), ne->len, rec, r->err) : 0;
    /* r->scratch stays clear while adds succeed (a 1.3 KB clear per record
     * showed in profiles) */
    int rc = pb_profile_add_record(r->p, rec, NULL, &r->scratch);
    if (rc != PB_EEXIST) {
        if (rc) {
            pb_error_set(r->err, rc, PB_NO_OFFSET, NULL, "%s", r->scratch.message);
            pb_error_clear(&r->scratch);
        }
        return rc;
    }
    pb_error_clear(&r->scratch);
    /* the same (name, hash) again, e.g. concatenated profiles: merge as llvm-profdata */
    pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
    mo.max_values_per_site = PB_MAX_VALUES_PER_SITE_LLVM;
    mo.diag = r->o ? r->o->diag : NULL;
    mo.diag_ctx = r->o ? r->o->diag_ctx : NULL;
    return pb_profile_merge_record(r->p, rec, &mo, r->err);
}

/* The address -> NameRef map of this profile, for indirect-call values. */
static int map_functions(rd *r, prof *pf) {
    uint64_t nd = pf->h.f[PBI_RH_NumData];
    if (nd && !(pf->fp = calloc((size_t)nd, sizeof *pf->fp))) return nomem(r);
    for (uint64_t i = 0; i < nd; i++) {
        const uint8_t *rec = rec_at(r, pf, i);
        uint64_t fptr = pbi_raw_rec_get(&pf->l, rec, PBI_RD_FunctionPointer, 0, r->order);
        if (fptr)
            pf->fp[pf->nfp++] = (addr_ent){fptr, pbi_raw_rec_get(&pf->l, rec, PBI_RD_NameRef, 0, r->order)};
    }
    /* Data records usually lie in address order already: sort only if not. */
    for (size_t k = 1; k < pf->nfp; k++)
        if (pf->fp[k - 1].addr > pf->fp[k].addr) {
            qsort(pf->fp, pf->nfp, sizeof *pf->fp, cmp_addr);
            break;
        }
    return 0;
}

/* Data records are read once, in order: every DROP_EVERY of them, the
 * mapped file's pages before the current one leave the resident memory
 * (pb_source_map_done_before; touched again, e.g. by an error message,
 * they are read again from the file). Holding the whole data section
 * until the read ended was the peak memory of a raw -> indexed merge of
 * 100k functions: 6.4 MB of its 34 (bench/shapes.sh plain). Each
 * madvise flushes the TLB, on every core the process ran on (the names
 * are hashed on two): at every 1024 records the 196 calls for 100k
 * functions were a tenth of the merge's samples (perf, bench/shapes.sh
 * value-19); at every 16384 (about 1 MB of records) 14 calls, and the
 * peak, which comes later in the writer, is the same. */
#define DROP_EVERY 16384

static void drop_behind(rd *r, const prof *pf, uint64_t at) {
    if (!r->src || r->cs || !at) return;
    pb_source_map_done_before(r->src, (size_t)at);
    /* the counters are read in the records' order too, which is usually
     * theirs: the pages before the last ones read go (3-4 MB of the read's
     * peak for 100k functions); a record whose counters lie back there
     * reads them again from the file */
    if (r->cnt_dropped < pf->cnt_off) r->cnt_dropped = pf->cnt_off;
    if (r->cnt_end > r->cnt_dropped) {
        pb_source_map_done_range(r->src, (size_t)r->cnt_dropped, (size_t)r->cnt_end);
        r->cnt_dropped = r->cnt_end;
    }
}

static int read_records(rd *r, prof *pf, uint64_t *vpos) {
    uint64_t nd = pf->h.f[PBI_RH_NumData];
    char path[96];
    int rc = 0;
    if (!pf->prepared && (rc = map_functions(r, pf))) return rc;
    /* an empty model's records array sized once (NumData lies inside the
     * file): doubling it left a copy's worth at its last growth and a
     * quarter unused; a model that holds records already grows by doubling
     * (exact steps over many inputs would copy at each) */
    if (!r->vis && pb_profile_record_count(r->p) == 0 && pbi_profile_reserve_records(r->p, (size_t)nd))
        return nomem(r);
    *vpos = pf->val_off;
    /* Names distinct by their MD5 going into a model without strings are
     * added without a lookup (pbi_profile_intern_new: the names of a raw
     * file are unique, interning them anyway cost 6% of a raw -> indexed
     * merge, callgrind bench/shapes.sh). "" (unnamed_ent) is no name of the
     * section (empty names are refused), so it is interned as usual. */
    int fresh = !r->vis && pf->names_distinct && pbi_profile_str_count(r->p) == 0;
    for (uint64_t i = 0; i < nd && rc == 0; i++) {
        const uint8_t *rec = rec_at(r, pf, i);
        if (i % DROP_EVERY == 0) drop_behind(r, pf, pf->data_off + i * pf->l.record_size);
        uint64_t ref = pbi_raw_rec_get(&pf->l, rec, PBI_RD_NameRef, 0, r->order);
        name_ent *ne = find_name(pf, ref);
        if (!ne) {
            rec_path(pf, i, "NameRef", path, sizeof path);
            uint64_t at = pf->data_off + i * pf->l.record_size;
            if (r->o && r->o->report_all)
                return pb_error_set(r->err, PB_EFORMAT, at, path,
                                    "NameRef 0x%016" PRIx64 " is the MD5 of no name in the names section", ref);
            if (r->o && r->o->diag)
                pb_diag(r->o->diag, r->o->diag_ctx, PB_DIAG_WARNING, 0, NULL, at, path,
                        "NameRef 0x%016" PRIx64 " is the MD5 of no name in the names section: the record is "
                        "kept under the empty name, as llvm-profdata does",
                        ref);
            ne = unnamed_ent(pf);
        }
        pb_record out;
        memset(&out, 0, sizeof out);
        out.kind = PB_REC_FUNCTION;
        out.ctx = PB_NONE;
        out.layout = PB_NONE;
        out.hash = pbi_raw_rec_get(&pf->l, rec, PBI_RD_FuncHash, 0, r->order);
        if (!r->vis && ne->id == PB_NONE) {
            if ((rc = fresh && ne != &pf->unnamed
                          ? pbi_profile_intern_new(r->p, name_bytes(pf, ne), ne->len, &ne->id, r->err)
                          : pb_profile_intern(r->p, name_bytes(pf, ne), ne->len, &ne->id, r->err)))
                return rc;
            pbi_profile_note_str_md5(r->p, ne->id, ne->md5); /* for a writer (str_md5.h) */
        }
        out.name = ne->id; /* visiting: the visitor gets the name's bytes */
        if ((rc = read_counters(r, pf, i, rec, ref, &out.num_counters)) ||
            (rc = read_bitmap(r, pf, i, rec, &out.num_bitmap_bytes)) ||
            (rc = check_uniform(r, pf, i, rec)) ||
            (rc = read_values(r, pf, i, rec, vpos, &out)))
            break;
        out.counters = r->counts;
        out.bitmap = out.num_bitmap_bytes ? r->bitmap : NULL;
        /* a temporal record holding only its timestamp: nothing to count */
        if (out.num_counters) rc = add_to_model(r, &out, pf, ne);
    }
    return rc;
}

/* When the profile that takes the names has no strings yet (a merge's
 * first input, a plain read), it takes the decoded names instead of copying
 * each: the copy was 18 of 80 MB of peak memory merging 100k C++ names
 * (massif, bench/shapes.sh cxx). Later inputs' names, mostly known already,
 * are copied as needed rather than kept whole. */
static void give_names(rd *r, prof *pf) {
    if (pf->names_given || pf->names_borrowed || !pf->names.len) return;
    if (pbi_profile_adopt_strs(r->p, pf->names.data, pf->names.data, pf->names.len) == 0) pf->names_given = 1;
}

static void prof_free(prof *pf) {
    if (!pf->names_borrowed) {
        if (!pf->names_given) pbu_buf_free(&pf->names);
        free(pf->ne);
        free(pf->ne_slot);
    }
    free(pf->fp);
    free(pf->vt);
    memset(pf, 0, sizeof *pf);
}

/* Header and section layout (and v7's counter pointer rule). */
static int read_layout(rd *r, prof *pf) {
    int rc;
    if ((rc = read_header(r, pf)) || (rc = layout_sections(r, pf))) return rc;
    pf->absolute = pf->version < PBI_RAW_RELATIVE_SINCE; /* v7: decided below */
    if (pf->version == 7 && (rc = choose_v7_rule(r, pf))) return rc;
    return 0;
}

static int read_profile(rd *r, prof *pf, uint64_t *next) {
    int rc;
    if (!pf->prepared && (rc = read_layout(r, pf))) return rc;
    if (!r->have_flags) {
        r->flags = pf->flags;
        r->have_flags = 1;
    } else if ((r->flags ^ pf->flags) & PB_VARIANT_IR) {
        char path[96];
        hdr_path(pf, PBI_RH_Version, path, sizeof path);
        return pb_error_set(r->err, PB_EFORMAT, hdr_at(pf, PBI_RH_Version), path,
                            "profile %u is %s but the first profile is %s; they cannot be merged",
                            pf->index, (pf->flags & PB_VARIANT_IR) ? "IR" : "front-end",
                            (r->flags & PB_VARIANT_IR) ? "IR" : "front-end");
    } else {
        r->flags |= pf->flags;
    }
    /* a visitor sees the profile's kind before its records (a merge checks it first) */
    if (r->vis) pb_profile_set_flags(r->p, pf->flags & ~PB_VARIANT_DBG_CORRELATE);
    if ((rc = read_binary_ids(r, pf)) || (rc = read_names(r, pf)) ||
        (rc = read_vtables(r, pf)))
        return rc;
    give_names(r, pf);
    if ((rc = read_records(r, pf, next)))
        return rc;
    return 0;
}

/* Finds the end of a profile without reading its records: header, section
 * layout, then the value data's TotalSize words (the only part whose size the
 * header does not give). For `raw-profile K`, which skips profiles 0..K-1. */
static int skip_profile(rd *r, prof *pf, uint64_t *next) {
    int rc;
    if ((rc = read_header(r, pf)) || (rc = layout_sections(r, pf))) return rc;
    uint64_t pos = pf->val_off, nd = pf->h.f[PBI_RH_NumData];
    for (uint64_t i = 0; i < nd; i++) {
        const uint8_t *rec = rec_at(r, pf, i);
        unsigned any = 0;
        for (unsigned k = 0; k < pf->l.num_value_kinds; k++) any |= pbi_raw_rec_sites(&pf->l, rec, k, r->order);
        if (!any) continue;
        pbi_vpd v;
        if ((rc = pbi_vpd_parse(r->d, pos, r->len, r->order, pf->l.num_value_kinds, "value_data", &v, r->err)))
            return in_record(pf, i, r->err, rc);
        pos += v.total;
    }
    *next = pos;
    return 0;
}

/* The `raw-profile` read option: -1 (all profiles, merged), or the 0-based
 * index of the one profile to read. */
static int profile_option(const pb_read_options *o, long *want, pb_error *err) {
    *want = -1;
    const char *v = o ? pb_kv_get(o->kv, o->nkv, "raw-profile") : NULL;
    if (!v) return 0;
    char *end;
    unsigned long k = strtoul(v, &end, 10);
    if (!*v || *end || *v == '-' || k > 0xffffffUL)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "raw-profile",
                            "expected the 0-based number of a profile in the file, found \"%s\"", v);
    *want = (long)k;
    return 0;
}

/* The profile-level data of `head` once its records are read: the binary
 * ids LLVM 13-17 keep (the last profile's), the temporal trace of the
 * timestamps from ts0 on, the flags and the origin. `head` is the model
 * (reading), or one profile's or the whole input's head (visiting). */
static int finish_head(rd *r, pb_profile *head, uint64_t version, uint64_t flags, size_t ts0) {
    int rc;
    if ((rc = add_last_binary_ids(r, head))) return rc;
    if (r->nts > ts0) { /* §2.7: one trace, by timestamp then NameRef */
        size_t n = r->nts - ts0;
        qsort(r->ts + ts0, n, sizeof *r->ts, cmp_ts);
        uint64_t *refs = malloc(n * sizeof *refs);
        if (!refs) return nomem(r);
        for (size_t k = 0; k < n; k++) refs[k] = r->ts[ts0 + k].ref;
        rc = pb_profile_add_trace(head, 1, refs, n, r->err);
        free(refs);
        if (rc) return rc;
        pb_profile_set_trace_stream_size(head, 1);
    }
    pb_profile_set_flags(head, flags & ~PB_VARIANT_DBG_CORRELATE);
    pb_origin org;
    memset(&org, 0, sizeof org);
    memcpy(org.format, "raw", 4);
    org.version = version;
    org.pointer_width = (uint8_t)r->ptr;
    org.byte_order = (uint8_t)r->order;
    pb_profile_set_origin(head, &org);
    return 0;
}

/* After profile idx, ending at *pos: zero bytes may follow (§2.14), then
 * the end (*at_end = 1) or another profile at an 8-byte boundary (*pos). */
static int next_profile(rd *r, uint64_t *pos, unsigned idx, int *at_end) {
    const uint8_t *data = r->d;
    uint64_t len = r->len;
    *at_end = 0;
    while (*pos < len && data[*pos] == 0) (*pos)++;
    if (*pos >= len) {
        *at_end = 1;
        return 0;
    }
    if (*pos % 8)
        return pb_error_set(r->err, PB_EFORMAT, *pos, "trailer",
                            "bytes after profile %u: expected zero padding or another raw profile "
                            "at an 8-byte boundary, found byte 0x%02x at a position that is not",
                            idx, data[*pos]);
    int o2;
    unsigned p2;
    if (!pbi_raw_magic(data + *pos, (size_t)(len - *pos), &o2, &p2))
        return pb_error_set(r->err, len - *pos < 8 ? PB_ETRUNC : PB_EFORMAT, *pos, "trailer",
                            "bytes after profile %u: expected zero padding or another raw profile "
                            "(magic 0x%016" PRIx64 "), found garbage",
                            idx, r->ptr == 8 ? PBI_RAW_MAGIC64 : PBI_RAW_MAGIC32);
    return 0;
}

/* Visiting: profile idx starts in a head of its own (its data alone, as
 * with the raw-profile option), handed to the visitor. What concerns the
 * whole input (the flags check, every timestamp, the binary ids LLVM keeps)
 * goes on across profiles, into r->all. */
static int visit_begin(rd *r, unsigned idx) {
    pb_profile_free(r->p);
    r->p = NULL;
    int rc = pb_profile_new(&r->p, r->err);
    if (rc) return rc;
    r->ts0 = r->nts;
    return r->vis->begin_profile ? r->vis->begin_profile(r->vctx, idx, r->p, r->err) : 0;
}

static int visit_end(rd *r, unsigned idx, const prof *pf) {
    int rc = finish_head(r, r->p, pf->version, pf->flags, r->ts0);
    if (!rc && r->vis->end_profile) rc = r->vis->end_profile(r->vctx, idx, r->p, r->err);
    return rc;
}

/* The first bytes are no raw profile: say what they are, if we know. */
static int not_raw(const uint8_t *data, size_t len, pb_error *err) {
    if (len == 0) return pb_error_set(err, PB_ETRUNC, 0, "header", "empty raw profile file");
    int sf = sample_magic(data, len);
    if (sf >= 0)
        return pb_error_set(err, PB_EUNSUPPORTED, 0, "header.Magic",
                            "LLVM sample profile (magic SPROF42, %s format): sample-based (AutoFDO/SPGO) "
                            "profiles are not instrumentation profiles; profbridge does not read them",
                            sf == 4 ? "extensible binary" : sf == 2 ? "compact binary" : sf == 0xff ? "binary"
                                                                                                : "unknown");
    if (len >= 8 && (pb_get_u64(data, PB_ORDER_LE) == PBI_MEMPROF_MAGIC ||
                     pb_get_u64(data, PB_ORDER_BE) == PBI_MEMPROF_MAGIC))
        return pb_error_set(err, PB_EUNSUPPORTED, 0, "header.Magic",
                            "MemProf raw profile (magic \"memprofr\"): heap profiles are not "
                            "instrumentation profiles; profbridge does not read them");
    return pb_error_set(err, len < 8 ? PB_ETRUNC : PB_EFORMAT, 0, "header.Magic",
                        "expected a raw profile magic (lprofr/lprofR, either byte order), found "
                        "%zu bytes that are none",
                        len < 8 ? len : (size_t)8);
}

/* Profile idx of the file, at *pos (moved to its end): skipped when it
 * lies before the one the raw-profile option wants, else read (and handed
 * to the visitor); profile 0 is taken from *pre when it was prepared. */
static int one_profile(rd *r, unsigned idx, long want, prof *pre, uint64_t *pos, uint64_t *version) {
    prof pf;
    memset(&pf, 0, sizeof pf);
    if (idx == 0 && pre && pre->prepared) {
        pf = *pre; /* taken over: freed below */
        memset(pre, 0, sizeof *pre);
    }
    pf.index = idx;
    pf.start = *pos;
    int rc, skip = want >= 0 && idx < (unsigned long)want;
    if (skip) rc = skip_profile(r, &pf, pos);
    else if (!(rc = r->vis ? visit_begin(r, idx) : 0)) rc = read_profile(r, &pf, pos);
    if (idx == 0 || idx == (unsigned long)want) *version = pf.version;
    if (!rc && r->vis && !skip) rc = visit_end(r, idx, &pf);
    prof_free(&pf);
    return rc;
}

/* Every profile of the file in turn (or up to the one asked for); *version
 * is the first's (or that one's). */
static int all_profiles(rd *r, long want, prof *pre, uint64_t *version) {
    uint64_t pos = 0;
    for (unsigned idx = 0;; idx++) {
        int at_end, rc = one_profile(r, idx, want, pre, &pos, version);
        if (rc) return rc;
        if (idx == (unsigned long)want) return 0; /* the one profile asked for */
        if ((rc = next_profile(r, &pos, idx, &at_end))) return rc;
        if (!at_end) continue;
        if (want >= 0 && idx < (unsigned long)want)
            return pb_error_set(r->err, PB_ENOTFOUND, PB_NO_OFFSET, "raw-profile",
                                "there is no profile %ld: the file holds %u", want, idx + 1);
        return 0;
    }
}

/* A lightweight file's profiles, each made complete from the binary's
 * correlation as it is read: one copy of the binary's records and names at
 * a time, however many profiles the file holds. */
static int all_correlated(rd *r, long want, uint64_t *version) {
    r->cs->pos = 0; /* a prepared file may be read again */
    r->cs->idx = 0;
    for (unsigned idx = 0;; idx++) {
        int at_end, rc = pbi_raw_corr_next(r->cs, &r->cbuf, &at_end, r->err);
        if (rc) return rc;
        if (at_end) {
            if (want >= 0)
                return pb_error_set(r->err, PB_ENOTFOUND, PB_NO_OFFSET, "raw-profile",
                                    "there is no profile %ld: the file holds %u", want, idx);
            return 0;
        }
        r->d = (const uint8_t *)r->cbuf.data;
        r->len = r->cbuf.len;
        uint64_t pos = 0;
        if ((rc = one_profile(r, idx, want, NULL, &pos, version))) return rc;
        if (idx == (unsigned long)want) return 0;
    }
}

/* The read options that shape a read: raw-profile, llvm_release. */
static int read_setup(rd *r, const pb_read_options *o, long *want, pb_error *err) {
    int rc = profile_option(o, want, err);
    if (rc) return rc;
    pbi_llvm_target target; /* which release reads */
    if ((rc = pbi_llvm_target_for(pbi_read_release(o), &target, err))) return rc;
    r->bids_last_only = pbi_llvm_has(&target, PBI_LF_BINARY_IDS_LAST_ONLY);
    r->correlated_empty = pbi_llvm_has(&target, PBI_LF_CORRELATED_RAW_EMPTY);
    r->temporal_unknown = !pbi_llvm_has(&target, PBI_LF_RAW_TEMPORAL);
    return 0;
}

/* pbi_raw_read_bytes, taking profile 0 from *pre when it was prepared; with
 * vis, a visit (pb_visit) instead of a read: then each profile goes to the
 * visitor in a head of its own and the whole input's head to end_input. */
static int read_bytes(pb_profile **out, const uint8_t *data, size_t len, const pb_read_options *o,
                      prof *pre, const pb_record_visitor *vis, void *vctx, pbi_raw_corr_stream *cs, pb_source *src,
                      pb_error *err) {
    rd r;
    memset(&r, 0, sizeof r);
    r.cs = cs;
    r.src = src;
    r.vis = vis;
    r.vctx = vctx;
    pb_error_clear(&r.scratch);
    r.d = data;
    r.len = len;
    r.o = o;
    r.err = err;
    *out = NULL;
    long want;
    int rc = read_setup(&r, o, &want, err);
    if (rc) return rc;
    if (!pbi_raw_magic(data, len, &r.order, &r.ptr)) return not_raw(data, len, err);
    uint64_t version = 0;
    if (!(rc = pb_profile_new(&r.p, err)) && !(rc = vis ? pb_profile_new(&r.all, err) : 0) &&
        !(rc = cs ? all_correlated(&r, want, &version) : all_profiles(&r, want, pre, &version)))
        rc = finish_head(&r, vis ? r.all : r.p, version, r.flags, 0);
    if (!rc && vis && vis->end_input) rc = vis->end_input(vctx, r.all, err);
    if (!rc && !vis) {
        *out = r.p;
        r.p = NULL;
    }
    pb_profile_free(r.p);
    pb_profile_free(r.all);
    free(r.ts);
    free(r.counts);
    free(r.bitmap);
    free(r.vals);
    free(r.sites);
    pbu_buf_free(&r.cbuf);
    return rc;
}

int pbi_raw_read_bytes(pb_profile **out, const uint8_t *data, size_t len, const pb_read_options *o,
                       pb_error *err) {
    return read_bytes(out, data, len, o, NULL, NULL, NULL, NULL, NULL, err);
}

/* With the "binary-file" or "debug-info" read option, the lightweight
 * profile at data opens a correlation stream in *cs (*use = 1), which the
 * read then takes its profiles from, each made complete (raw_correlate.h). */
static int correlated(const uint8_t *data, size_t len, const pb_read_options *o, pbi_raw_corr_stream *cs, int *use,
                      pb_error *err) {
    const char *bin;
    *use = 0;
    int kind, rc = pbi_raw_correlation_option(o, &bin, &kind, err);
    if (rc || !bin) return rc;
    pbi_llvm_target target; /* whose words the errors are in */
    if ((rc = pbi_llvm_target_for(pbi_read_release(o), &target, err)) ||
        (rc = pbi_raw_corr_open(cs, data, len, bin, kind, &target,
                                &(pbi_corr_limits){o->max_input_size, o->max_inflation}, err)))
        return rc;
    *use = 1;
    return 0;
}

/* ---- the read in two halves (pb_format.prepare) ------------------------------ */

typedef struct raw_prepared {
    pb_source *src;   /* kept by pb_prepared: d's pages are let go as they are read */
    const uint8_t *d; /* the source's bytes (pb_prepared keeps the source) */
    size_t len;
    pbi_raw_corr_stream cs; /* with binary-file/debug-info: where the profiles come from */
    int correlated;         /* cs is open */
    prof pf0; /* profile 0 ahead, when pf0.prepared */
} raw_prepared;

int pbi_raw_prepare(void **state, pb_source *in, const pb_read_options *o, pb_error *err) {
    *state = NULL;
    raw_prepared *rp = calloc(1, sizeof *rp);
    if (!rp) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    int rc = pb_source_map(in, &rp->d, &rp->len, err);
    rp->src = in;
    if (rc == 0) rc = correlated(rp->d, rp->len, o, &rp->cs, &rp->correlated, err);
    if (rc) {
        pb_error_set_source(err, pb_source_name(in));
        free(rp);
        return rc;
    }
    /* Profile 0's layout and function addresses, the part of the read that needs no
     * merge destination. Any error is left for the second half to report
     * (it then reads them itself), so diagnostics come out in one place. */
    long want = 0;
    pb_error quiet;
    pb_error_clear(&quiet);
    rd r;
    memset(&r, 0, sizeof r);
    r.d = rp->d;
    r.len = rp->len;
    r.o = o;
    r.err = &quiet;
    pbi_llvm_target target; /* the header's flags as the release reads them (read_setup) */
    if (pbi_llvm_target_for(pbi_read_release(o), &target, &quiet) == 0)
        r.temporal_unknown = !pbi_llvm_has(&target, PBI_LF_RAW_TEMPORAL);
    if (!rp->correlated && profile_option(o, &want, &quiet) == 0 && want < 0 &&
        pbi_raw_magic(r.d, r.len, &r.order, &r.ptr)) {
        prof *pf = &rp->pf0;
        /* not the names: the merging thread takes them from its names cache
         * (raw_names_cache.h) when an earlier input had the same; decoding
         * and hashing them here again doubled the CPU time of merging 1,000
         * raws of one program on two threads (bench/many_merge.sh) */
        if (read_layout(&r, pf) == 0 && map_functions(&r, pf) == 0)
            pf->prepared = 1;
        else
            prof_free(pf);
    }
    *state = rp;
    return 0;
}

int pbi_raw_read_prepared(pb_profile **out, void *state, const pb_read_options *o, pb_error *err) {
    raw_prepared *rp = state;
    return read_bytes(out, rp->d, rp->len, o, &rp->pf0, NULL, NULL, rp->correlated ? &rp->cs : NULL, rp->src, err);
}

void pbi_raw_free_prepared(void *state) {
    raw_prepared *rp = state;
    if (!rp) return;
    prof_free(&rp->pf0);
    if (rp->correlated) pbi_raw_corr_close(&rp->cs);
    free(rp);
}

int pbi_raw_read(pb_profile **out, pb_source *in, const pb_read_options *o, pb_error *err) {
    const uint8_t *data;
    size_t len;
    *out = NULL;
    pbi_raw_corr_stream cs;
    int use = 0, rc = pb_source_map(in, &data, &len, err);
    if (rc == 0) rc = correlated(data, len, o, &cs, &use, err);
    if (rc == 0) rc = read_bytes(out, data, len, o, NULL, NULL, NULL, use ? &cs : NULL, in, err);
    if (rc) pb_error_set_source(err, pb_source_name(in));
    if (use) pbi_raw_corr_close(&cs);
    return rc;
}

int pbi_raw_visit(pb_source *in, void *prepared, const pb_read_options *o, const pb_record_visitor *v, void *ctx,
                  pb_error *err) {
    pb_profile *none = NULL;
    if (prepared) { /* the bytes and profile 0's names were loaded ahead (pbi_raw_prepare) */
        raw_prepared *rp = prepared;
        return read_bytes(&none, rp->d, rp->len, o, &rp->pf0, v, ctx, rp->correlated ? &rp->cs : NULL, rp->src, err);
    }
    const uint8_t *data;
    size_t len;
    pbi_raw_corr_stream cs;
    int use = 0, rc = pb_source_map(in, &data, &len, err);
    if (rc == 0) rc = correlated(data, len, o, &cs, &use, err);
    if (rc == 0) rc = read_bytes(&none, data, len, o, NULL, v, ctx, use ? &cs : NULL, in, err);
    if (rc) pb_error_set_source(err, pb_source_name(in));
    if (use) pbi_raw_corr_close(&cs);
    return rc;
}
