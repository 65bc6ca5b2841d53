/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * raw_write.c -- writes a model as an LLVM raw profile (v8 or v10, 32/64-bit,
 * either byte order), laid out as compiler-rt lays out its buffer (§2.6), so
 * that llvm-profdata-14 (v8) and -19 (v10) read it.
 *
 * A raw profile holds runtime addresses where the model holds names: we
 * pretend a process in which every section sits at BASE + its file offset.
 * CounterPtr/BitmapPtr are relative to their data record (§2.7); every record
 * gets a FunctionPointer so indirect-call targets (NameRefs in the model) can
 * be written as addresses that map back to them; every vtable NameRef gets a
 * VTableProfileData range (§2.10). Whatever the target cannot hold (kind-2
 * sites and vtables before v10, bitmaps before v9, values naming no function
 * of the profile, more than one temporal trace) is dropped with a notice
 * through o->diag, never silently.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "llvm/binary_ids.h"
#include "llvm/target.h"
#include "model/options.h"
#include "llvm/value_data.h"
#include "raw_internal.h"
#include "raw_sections.h"
#include "util/grow.h"

#define BASE UINT64_C(0x400000)
#define FN_BASE UINT64_C(0x10000000) /* pretended function addresses */
#define VT_BASE UINT64_C(0x20000000) /* pretended vtable addresses */
#define VT_SIZE 16u

typedef struct wopt {
    unsigned version, ptr;
    int order, zlib;
} wopt;

typedef struct ref_ent {
    uint64_t ref, addr;
} ref_ent;

typedef struct wr {
    const pb_profile *p;
    const pb_write_options *o;
    pb_error *err;
    wopt w;
    pbi_raw_layout l;
    size_t n;                  /* records */
    const char **names;
    size_t *name_len;
    uint64_t *hash, *ref;
    ref_ent *fn;               /* NameRef -> pretended function address, sorted */
    size_t nfn;
    ref_ent *vt;               /* vtable NameRef -> pretended address, sorted */
    size_t nvt;
    uint64_t dropped_ic, dropped_vk2, dropped_bitmap, dropped_values, byte_cov_clamped;
    int temporal, byte_cov;
} wr;

static int nomem(wr *w) { return pbu_nomem(w->err, NULL); }

static int cmp_ref(const void *a, const void *b) {
    const ref_ent *x = a, *y = b;
    return x->ref < y->ref ? -1 : x->ref > y->ref;
}
static const ref_ent *find_ref(const ref_ent *t, size_t n, uint64_t ref) {
    ref_ent key = {ref, 0};
    return n ? bsearch(&key, t, n, sizeof *t, cmp_ref) : NULL;
}

static int parse_options(const pb_write_options *o, wopt *w, pb_error *err) {
    const pb_kv *kv = o ? o->kv : NULL;
    size_t nkv = o ? o->nkv : 0;
    const char *v;
    /* the raw version of the target release (llvm_release, default 19), unless raw-version says */
    pbi_llvm_target t;
    int rc = pbi_llvm_target_for(pbi_write_release(o), &t, err);
    if (rc) return rc;
    w->version = t.raw_version;
    w->ptr = 8;
    w->order = PB_ORDER_LE;
    w->zlib = 1;
    if ((v = pb_kv_get(kv, nkv, "raw-version"))) {
        char *end;
        unsigned long n = strtoul(v, &end, 10);
        if (!*v || *end || !isdigit((unsigned char)*v) || !pbi_raw_version_known(n))
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "raw-version",
                                "expected 5, 7, 8, 9, 10 or 11, found \"%s\"", v);
        w->version = (unsigned)n;
    }
    if ((v = pb_kv_get(kv, nkv, "raw-pointer-width"))) {
        if (!strcmp(v, "4")) w->ptr = 4;
        else if (!strcmp(v, "8")) w->ptr = 8;
        else return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "raw-pointer-width", "expected 4 or 8, found \"%s\"", v);
    }
    if ((v = pb_kv_get(kv, nkv, "raw-byte-order"))) {
        if (!strcmp(v, "le")) w->order = PB_ORDER_LE;
        else if (!strcmp(v, "be")) w->order = PB_ORDER_BE;
        else return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "raw-byte-order", "expected le or be, found \"%s\"", v);
    }
    if ((v = pb_kv_get(kv, nkv, "raw-names"))) {
        if (!strcmp(v, "zlib")) w->zlib = 1;
        else if (!strcmp(v, "plain")) w->zlib = 0;
        else return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "raw-names", "expected zlib or plain, found \"%s\"", v);
    }
    return 0;
}

static void notice(wr *w, const char *fmt, uint64_t n) {
    if (!n || !w->o || !w->o->diag) return;
    char msg[256];
    snprintf(msg, sizeof msg, fmt, n);
    pb_diag(w->o->diag, w->o->diag_ctx, PB_DIAG_NOTICE, 0, NULL, PB_NO_OFFSET, NULL, "raw v%u: %s",
            w->w.version, msg);
}

/* Names the variant bits `lost` (raw_layout.h's PBI_RAW_FLAGS) in a notice. */
static void lost_flags_notice(wr *w, uint64_t lost) {
    if (!w->o || !w->o->diag) return;
    char msg[512];
    size_t k = 0;
#define PBI_X(bit, since, until, meaning)                                                                   \
    if ((lost & (bit)) && k < sizeof msg)                                                                    \
        k += (size_t)snprintf(msg + k, sizeof msg - k, "%s%s (bit %d)", k ? ", " : "", meaning, __builtin_ctzll(bit));
    PBI_RAW_FLAGS(PBI_X)
#undef PBI_X
    pb_diag(w->o->diag, w->o->diag_ctx, PB_DIAG_NOTICE, 0, NULL, PB_NO_OFFSET, NULL,
            "raw v%u: variant flags dropped, the version has no such bits: %s", w->w.version, msg);
}

/* Names, hashes and the pretended address maps. */
static int prepare(wr *w) {
    w->n = pb_profile_record_count(w->p);
    size_t n = w->n ? w->n : 1;
    if (!(w->names = calloc(n, sizeof *w->names)) || !(w->name_len = calloc(n, sizeof *w->name_len)) ||
        !(w->hash = calloc(n, sizeof *w->hash)) || !(w->ref = calloc(n, sizeof *w->ref)) ||
        !(w->fn = calloc(n, sizeof *w->fn)))
        return nomem(w);
    for (size_t i = 0; i < w->n; i++) {
        int rc = pb_profile_record_name(w->p, pb_profile_record(w->p, i), &w->names[i], &w->name_len[i],
                                        &w->hash[i], w->err);
        if (rc) return rc;
        if (w->name_len[i] == 0)
            return pb_error_set(w->err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL,
                                "record %zu has an empty name, which raw profiles cannot hold", i);
        if ((rc = pbi_names_writable(w->names[i], w->name_len[i], "record", i, w->err))) return rc;
        w->ref[i] = pb_md5_ref(w->names[i], w->name_len[i]);
        w->fn[i].ref = w->ref[i];
        w->fn[i].addr = FN_BASE + 16 * (uint64_t)i;
    }
    /* one address per NameRef: the first record of that name */
    if (w->n) qsort(w->fn, w->n, sizeof *w->fn, cmp_ref);
    size_t k = 0;
    for (size_t i = 0; i < w->n; i++)
        if (k == 0 || w->fn[k - 1].ref != w->fn[i].ref) w->fn[k++] = w->fn[i];
    w->nfn = k;
    if (!w->l.vtable_size) return 0; /* no vtable records before v10 */
    /* vtables: every named symbol, and every kind-2 value */
    size_t cap = pb_profile_symbol_count(w->p) + 1;
    for (size_t i = 0; i < w->n; i++) {
        const pb_record *r = pb_profile_record(w->p, i);
        for (uint32_t s = 0; s < r->num_sites[PB_VK_VTABLE]; s++) cap += r->sites[PB_VK_VTABLE][s].num_values;
    }
    if (!(w->vt = calloc(cap, sizeof *w->vt))) return nomem(w);
    for (uint32_t s = 0; s < pb_profile_symbol_count(w->p); s++) w->vt[w->nvt++].ref = pb_profile_symbol(w->p, s)->md5;
    for (size_t i = 0; i < w->n; i++) {
        const pb_record *r = pb_profile_record(w->p, i);
        for (uint32_t s = 0; s < r->num_sites[PB_VK_VTABLE]; s++)
            for (uint32_t v = 0; v < r->sites[PB_VK_VTABLE][s].num_values; v++) {
                uint64_t ref = r->sites[PB_VK_VTABLE][s].values[v].value;
                if (ref) w->vt[w->nvt++].ref = ref;
            }
    }
    if (w->nvt) qsort(w->vt, w->nvt, sizeof *w->vt, cmp_ref);
    k = 0;
    for (size_t i = 0; i < w->nvt; i++)
        if (k == 0 || w->vt[k - 1].ref != w->vt[i].ref) w->vt[k++] = w->vt[i];
    w->nvt = k;
    for (size_t i = 0; i < w->nvt; i++) w->vt[i].addr = VT_BASE + VT_SIZE * (uint64_t)i;
    return 0;
}

/* The kinds this target holds for record r, and whether any has sites. */
static unsigned kinds_of(const wr *w, const pb_record *r) {
    unsigned mask = 0;
    for (unsigned k = 0; k < w->l.num_value_kinds; k++)
        if (r->num_sites[k]) mask |= 1u << k;
    return mask;
}

/* The stored Value of a model value: indirect-call targets and vtables
 * become the pretended addresses that map back to their NameRefs (§2.12). */
static uint64_t map_value(void *ctx, unsigned kind, uint64_t val) {
    wr *w = ctx;
    if (!val || kind == PB_VK_MEMOP_SIZE) return val;
    const ref_ent *e = kind == PB_VK_INDIRECT_CALL ? find_ref(w->fn, w->nfn, val) : find_ref(w->vt, w->nvt, val);
    if (!e && kind == PB_VK_INDIRECT_CALL) w->dropped_ic++;
    return e ? e->addr : 0;
}

/* Appends the ValueProfData blob of record r (§2.11), if it has sites. */
static int value_blob(wr *w, const pb_record *r, pb_buf *out) {
    if (!kinds_of(w, r)) return 0;
    pbi_vpd_stats st = {0, 0};
    int rc = pbi_vpd_encode(out, r, w->l.num_value_kinds, w->w.order, NULL, map_value, w, &st, w->err);
    w->dropped_values += st.values_dropped;
    return rc;
}

/* A name of the names section, for finding equal names by sorting. */
typedef struct name_key {
    uint64_t ref;
    const char *name;
    size_t len, idx;
} name_key;

static int cmp_name_key(const void *a, const void *b) {
    const name_key *x = a, *y = b;
    if (x->ref != y->ref) return x->ref < y->ref ? -1 : 1;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return memcmp(x->name, y->name, x->len);
}

/* Timestamp of record i: its 1-based position in the first trace, else 0 (§2.7). */
static uint64_t timestamp(const wr *w, size_t i) {
    if (!pb_profile_trace_count(w->p)) return 0;
    uint64_t weight;
    size_t n;
    const uint64_t *refs = pb_profile_trace(w->p, 0, &weight, &n);
    for (size_t k = 0; k < n; k++)
        if (refs[k] == w->ref[i]) return k + 1;
    return 0;
}

/* The variant flags the target can hold; says what is dropped, and sets
 * w->byte_cov and w->temporal. */
static uint64_t target_flags(wr *w) {
    const pbi_raw_layout *l = &w->l;
    /* PB_VARIANT_MASK: model-only kind bits (PB_KIND_FRONTEND) are never written */
    uint64_t flags = pb_profile_flags(w->p) & PB_VARIANT_MASK & ~(PB_VARIANT_MEMPROF | PB_VARIANT_DBG_CORRELATE);
    uint64_t lost = flags & ~pbi_raw_version_flags(l->version);
    if (lost) {
        flags &= ~lost;
        lost_flags_notice(w, lost);
        if (lost & PB_VARIANT_TEMPORAL)
            notice(w, "%" PRIu64 " temporal trace(s) dropped with the temporal flag",
                   (uint64_t)pb_profile_trace_count(w->p));
    }
    w->byte_cov = (flags & PB_VARIANT_BYTE_COVERAGE) != 0;
    w->temporal = (flags & PB_VARIANT_TEMPORAL) != 0;
    if (w->temporal && w->byte_cov) {
        flags &= ~PB_VARIANT_TEMPORAL;
        w->temporal = 0;
        notice(w, "%" PRIu64 " temporal trace(s) dropped: not written together with byte coverage",
               (uint64_t)pb_profile_trace_count(w->p));
    } else if (w->temporal && pb_profile_trace_count(w->p) > 1) {
        notice(w, "%" PRIu64 " temporal traces dropped: a raw profile holds one", pb_profile_trace_count(w->p) - 1);
    }
    return flags;
}

/* The byte counts of the sections whose size the model gives directly. */
typedef struct sizes {
    uint64_t bid_bytes, ncounters, nbitmap;
} sizes;

static int count_sizes(wr *w, sizes *z) {
    const pbi_raw_layout *l = &w->l;
    const int has_bitmaps = l->rec_off[PBI_RD_NumBitmapBytes] >= 0, has_bids = l->hdr_off[PBI_RH_BinaryIdsSize] >= 0;
    memset(z, 0, sizeof *z);
    for (size_t b = 0; has_bids && b < pb_profile_binary_id_count(w->p); b++) {
        size_t len;
        (void)pb_profile_binary_id(w->p, b, &len);
        z->bid_bytes += pbi_binary_id_size_p(len, l->version >= PBI_RAW_BINARY_IDS_PADDED_SINCE);
    }
    for (size_t i = 0; i < w->n; i++) {
        const pb_record *r = pb_profile_record(w->p, i);
        z->ncounters += r->num_counters + (w->temporal ? 1 : 0);
        if (has_bitmaps) z->nbitmap += r->num_bitmap_bytes;
        else w->dropped_bitmap += r->num_bitmap_bytes;
        if (l->num_value_kinds <= PB_VK_VTABLE) w->dropped_vk2 += r->num_sites[PB_VK_VTABLE];
        for (unsigned k = 0; k < PB_VK_COUNT; k++)
            if (r->num_sites[k] > 0xffff)
                return pb_error_set(w->err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL,
                                    "record %zu has %" PRIu32 " value sites of kind %u; raw holds at most 65535",
                                    i, r->num_sites[k], k);
    }
    return 0;
}

/* The encoded sections whose size is known only once they are encoded. */
typedef struct blobs {
    pb_buf text, names, vtext, vnames, values;
} blobs;

static void blobs_free(blobs *b) {
    pbu_buf_free(&b->text);
    pbu_buf_free(&b->names);
    pbu_buf_free(&b->vtext);
    pbu_buf_free(&b->vnames);
    pbu_buf_free(&b->values);
}

/* The names: each distinct name once, '\x01'-joined, then encoded. */
static int encode_names(wr *w, blobs *b) {
    /* equal names share a NameRef: sort by it, keep the first of each name */
    name_key *ord = malloc((w->n ? w->n : 1) * sizeof *ord);
    uint8_t *keep = calloc(w->n ? w->n : 1, 1);
    if (!ord || !keep) {
        free(ord);
        free(keep);
        return nomem(w);
    }
    for (size_t i = 0; i < w->n; i++) ord[i] = (name_key){w->ref[i], w->names[i], w->name_len[i], i};
    qsort(ord, w->n, sizeof *ord, cmp_name_key);
    for (size_t i = 0; i < w->n; i++)
        keep[ord[i].idx] = i == 0 || cmp_name_key(&ord[i - 1], &ord[i]) != 0;
    for (size_t i = 0; i < w->n; i++) {
        if (!keep[i]) continue;
        pbu_buf_append(&b->text, w->names[i], w->name_len[i]);
        pbu_buf_putc(&b->text, PBI_NAME_SEP);
    }
    free(ord);
    free(keep);
    return pbi_names_encode(b->text.data, b->text.len, w->w.zlib, &b->names, w->err);
}

/* v10+: the vtable names (the model's named symbols), encoded as the names are. */
static int encode_vnames(wr *w, blobs *b) {
    for (uint32_t s = 0; s < pb_profile_symbol_count(w->p); s++) {
        const pb_symbol *sym = pb_profile_symbol(w->p, s);
        if (sym->name == PB_NONE) continue; /* placeholder: its vtable record keeps the hash */
        size_t len;
        const char *nm = pb_profile_str(w->p, sym->name, &len);
        if (!len) continue;
        int rc = pbi_names_writable(nm, len, "symbol (vtable name)", s, w->err);
        if (rc) return rc;
        pbu_buf_append(&b->vtext, nm, len);
        pbu_buf_putc(&b->vtext, PBI_NAME_SEP);
    }
    return pbi_names_encode(b->vtext.data, b->vtext.len, w->w.zlib, &b->vnames, w->err);
}

static int encode_blobs(wr *w, blobs *b) {
    int rc = encode_names(w, b);
    if (rc == 0 && w->l.vtable_size) rc = encode_vnames(w, b);
    for (size_t i = 0; i < w->n && rc == 0; i++) rc = value_blob(w, pb_profile_record(w->p, i), &b->values);
    if (rc) return rc;
    if (b->text.failed || b->names.failed || b->vtext.failed || b->vnames.failed || b->values.failed)
        return nomem(w);
    return 0;
}

/* The header's sizes (the deltas come once the sections are placed). */
static void header_sizes(const wr *w, uint64_t flags, const sizes *z, const blobs *b, unsigned csize,
                         pbi_raw_header *h) {
    const pbi_raw_layout *l = &w->l;
    memset(h, 0, sizeof *h);
    h->f[PBI_RH_Magic] = w->w.ptr == 8 ? PBI_RAW_MAGIC64 : PBI_RAW_MAGIC32;
    h->f[PBI_RH_Version] = l->version | flags;
    h->f[PBI_RH_BinaryIdsSize] = z->bid_bytes;
    h->f[PBI_RH_NumData] = w->n;
    h->f[PBI_RH_NumCounters] = z->ncounters;
    h->f[PBI_RH_PaddingBytesAfterCounters] = pb_pad8(z->ncounters * csize);
    h->f[PBI_RH_NumBitmapBytes] = z->nbitmap;
    h->f[PBI_RH_PaddingBytesAfterBitmapBytes] = pb_pad8(z->nbitmap);
    h->f[PBI_RH_NamesSize] = b->names.len;
    h->f[PBI_RH_NumVTables] = w->nvt;
    h->f[PBI_RH_VNamesSize] = b->vnames.len;
    h->f[PBI_RH_ValueKindLast] = l->num_value_kinds - 1;
}

/* Where record data, counters and bitmap bytes go, and how far each has got. */
typedef struct place {
    uint8_t *d;
    const pbi_raw_sections *st;
    const pbi_raw_header *h;
    int absolute;
    unsigned csize;
    uint64_t coff, boff; /* next counter / bitmap byte, from its section's start */
} place;

/* Record i's counters: the timestamp first when temporal, then its counts. */
static void put_counters(wr *w, place *pl, const pb_record *r, size_t i) {
    uint8_t *c = pl->d + pl->st->off[PBI_RS_COUNTERS] + pl->coff;
    if (w->temporal) {
        pb_put_u64(c, timestamp(w, i), w->w.order);
        c += 8;
    }
    for (uint32_t k = 0; k < r->num_counters; k++) {
        if (pl->csize == 8) {
            pb_put_u64(c + 8 * k, r->counters[k], w->w.order);
        } else {
            c[k] = r->counters[k] ? 0 : 0xff; /* 0 = covered (§2.7) */
            if (r->counters[k] > 1) w->byte_cov_clamped++;
        }
    }
}

/* Data record i, with its counters and bitmap bytes. */
static void put_record(wr *w, place *pl, size_t i) {
    const pbi_raw_layout *l = &w->l;
    int order = w->w.order;
    const pb_record *r = pb_profile_record(w->p, i);
    uint8_t *rec = pl->d + pl->st->off[PBI_RS_DATA] + i * l->record_size;
    uint32_t nc = r->num_counters + (w->temporal ? 1 : 0);
    pbi_raw_rec_put(l, rec, PBI_RD_NameRef, 0, w->ref[i], order);
    pbi_raw_rec_put(l, rec, PBI_RD_FuncHash, 0, w->hash[i], order);
    pbi_raw_rec_put(l, rec, PBI_RD_CounterPtr, 0,
                    pbi_raw_ptr_value(l, pl->h->f[PBI_RH_CountersDelta], i, pl->absolute, pl->coff), order);
    pbi_raw_rec_put(l, rec, PBI_RD_FunctionPointer, 0, find_ref(w->fn, w->nfn, w->ref[i])->addr, order);
    pbi_raw_rec_put(l, rec, PBI_RD_NumCounters, 0, nc, order);
    for (unsigned k = 0; k < l->num_value_kinds; k++)
        if (k < 2) pbi_raw_rec_put(l, rec, PBI_RD_NumValueSites01, k, r->num_sites[k], order);
        else pbi_raw_rec_put(l, rec, PBI_RD_NumValueSites2, 0, r->num_sites[k], order);
    put_counters(w, pl, r, i);
    pl->coff += (uint64_t)nc * pl->csize;
    if (l->rec_off[PBI_RD_NumBitmapBytes] >= 0 && r->num_bitmap_bytes) {
        pbi_raw_rec_put(l, rec, PBI_RD_BitmapPtr, 0, pbi_raw_ptr_value(l, pl->h->f[PBI_RH_BitmapDelta], i, 0, pl->boff),
                        order);
        pbi_raw_rec_put(l, rec, PBI_RD_NumBitmapBytes, 0, r->num_bitmap_bytes, order);
        memcpy(pl->d + pl->st->off[PBI_RS_BITMAP] + pl->boff, r->bitmap, r->num_bitmap_bytes);
        pl->boff += r->num_bitmap_bytes;
    }
}

/* The binary ids after the header (none before v7). */
static void put_binary_ids(wr *w, uint8_t *d) {
    const pbi_raw_layout *l = &w->l;
    if (l->hdr_off[PBI_RH_BinaryIdsSize] < 0) return;
    uint64_t pos = l->header_size;
    for (size_t b = 0; b < pb_profile_binary_id_count(w->p); b++) {
        size_t len;
        const uint8_t *id = pb_profile_binary_id(w->p, b, &len);
        pos += pbi_binary_id_put_p(d + pos, id, len, w->w.order, l->version >= PBI_RAW_BINARY_IDS_PADDED_SINCE);
    }
}

/* v10+: one VTableProfileData per vtable NameRef, at its pretended address. */
static void put_vtables(wr *w, uint8_t *v) {
    for (size_t k = 0; k < w->nvt; k++, v += w->l.vtable_size) {
        pbi_raw_vt_put(&w->l, v, PBI_RV_VTableNameHash, w->vt[k].ref, w->w.order);
        pbi_raw_vt_put(&w->l, v, PBI_RV_VTablePointer, w->vt[k].addr, w->w.order);
        pbi_raw_vt_put(&w->l, v, PBI_RV_VTableSize, VT_SIZE, w->w.order);
    }
}

/* What the target could not hold, one notice per kind of loss. */
static void dropped_notices(wr *w) {
    notice(w, "%" PRIu64 " vtable value sites dropped (kind 2 needs raw v10)", w->dropped_vk2);
    notice(w, "%" PRIu64 " bitmap bytes dropped (bitmaps need raw v9+)", w->dropped_bitmap);
    notice(w, "%" PRIu64 " indirect-call values name no function of the profile; they read back as 0",
           w->dropped_ic);
    notice(w, "%" PRIu64 " values dropped beyond 255 per site", w->dropped_values);
    notice(w, "%" PRIu64 " counts above 1 written as 'covered' (byte coverage)", w->byte_cov_clamped);
    if (!w->l.vtable_size)
        notice(w, "%" PRIu64 " symbols (vtable names) dropped (they need raw v10)",
               (uint64_t)pb_profile_symbol_count(w->p));
    if (w->l.hdr_off[PBI_RH_BinaryIdsSize] < 0)
        notice(w, "%" PRIu64 " binary ids dropped (they need raw v7)", (uint64_t)pb_profile_binary_id_count(w->p));
}

/* Lays the sections out where the reader's walk finds them and fills them in. */
static int assemble(wr *w, uint64_t flags, const sizes *z, const blobs *b, pb_buf *out) {
    const pbi_raw_layout *l = &w->l;
    place pl = {NULL, NULL, NULL, l->version < PBI_RAW_RELATIVE_SINCE, w->byte_cov ? 1 : 8, 0, 0};
    /* the header's sizes, then where the reader's walk puts each section */
    pbi_raw_header h;
    header_sizes(w, flags, z, b, pl.csize, &h);
    pbi_raw_sections st;
    int rc = pbi_raw_sections_walk(l, &h, 0, UINT64_MAX, NULL, &st, w->err);
    if (rc) return rc;
    uint64_t total = st.off[PBI_RS_VALUES] + b->values.len;
    if (pbu_buf_reserve(out, (size_t)total) != 0) return nomem(w);
    uint8_t *d = (uint8_t *)out->data;
    memset(d, 0, (size_t)total);
    out->len = (size_t)total;
    /* the pretended process: section X at BASE + its file offset */
    h.f[PBI_RH_CountersDelta] = pl.absolute ? BASE + st.off[PBI_RS_COUNTERS]
                                            : st.off[PBI_RS_COUNTERS] - st.off[PBI_RS_DATA];
    h.f[PBI_RH_BitmapDelta] = st.off[PBI_RS_BITMAP] - st.off[PBI_RS_DATA];
    h.f[PBI_RH_NamesDelta] = BASE + st.off[PBI_RS_NAMES];
    pbi_raw_header_encode(l, &h, w->w.order, d);
    put_binary_ids(w, d);
    pl.d = d, pl.st = &st, pl.h = &h;
    for (size_t i = 0; i < w->n; i++) put_record(w, &pl, i);
    if (b->names.len) memcpy(d + st.off[PBI_RS_NAMES], b->names.data, b->names.len); /* empty profile: no names */
    if (w->nvt) put_vtables(w, d + st.off[PBI_RS_VTABLES]);
    if (b->vnames.len) memcpy(d + st.off[PBI_RS_VNAMES], b->vnames.data, b->vnames.len);
    if (b->values.len) memcpy(d + st.off[PBI_RS_VALUES], b->values.data, b->values.len);
    return 0;
}

static int build(wr *w, pb_buf *out) {
    uint64_t flags = target_flags(w);
    sizes z;
    int rc = count_sizes(w, &z);
    if (rc) return rc;
    blobs b = {PB_BUF_INIT, PB_BUF_INIT, PB_BUF_INIT, PB_BUF_INIT, PB_BUF_INIT};
    if ((rc = encode_blobs(w, &b)) == 0 && (rc = assemble(w, flags, &z, &b, out)) == 0) dropped_notices(w);
    blobs_free(&b);
    return rc;
}

int pbi_raw_write(const pb_profile *p, pb_sink *sink, const pb_write_options *o, pb_error *err) {
    wr w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.o = o;
    w.err = err;
    pb_buf out = PB_BUF_INIT;
    int rc = parse_options(o, &w.w, err);
    if (rc) return rc;
    if (pbi_raw_layout_get(&w.l, w.w.version, w.w.ptr) != 0)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "no raw layout for v%u", w.w.version);
    if ((rc = prepare(&w)) == 0 && (rc = build(&w, &out)) == 0)
        rc = pb_sink_write(sink, out.data, out.len, err);
    pbu_buf_free(&out);
    free(w.names);
    free(w.name_len);
    free(w.hash);
    free(w.ref);
    free(w.fn);
    free(w.vt);
    return rc;
}
