/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * raw_correlate.c -- a lightweight raw profile (counters only, built with
 * -profile-correlate=binary|debug-info) plus its binary's correlation
 * (src/llvm/correlate.h) -> the complete raw profile LLVM's reader sees.
 *
 * llvm-profdata's RawInstrProfReader, given a correlator, takes its data
 * records and names instead of the file's (whose NumData, NamesSize,
 * CountersDelta and NamesDelta must be 0, else "debug info/binary for
 * correlation is not necessary"), with CounterPtr the offset into the
 * counters section and a constant delta of 0. The correlator's records
 * carry only NameRef, FuncHash, CounterPtr, FunctionPointer and NumCounters
 * (no value sites: LLVM's TODO), and from LLVM 23 on the MC/DC bitmap
 * (BitmapPtr and NumBitmapBytes, relative to __llvm_prf_bits); records whose
 * counters start where an earlier record's do are dropped, and vtables are
 * not read.
 *
 * Rather than a second reader, this writes that profile as an ordinary raw
 * profile of the same version (records with relative CounterPtr against
 * CountersDelta 0, the correlator's names, the file's binary ids, counters
 * and bitmap), which pbi_raw_read_bytes then reads as any other: one reader,
 * one layout table (raw_layout.h). The binary's records are decoded with
 * the layout of the profile's raw version, which is the compiler's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "llvm/correlate.h"
#include "llvm/names.h"
#include "raw_correlate.h"
#include "raw_internal.h"
#include "raw_sections.h"
#include "util/grow.h"

typedef struct rec {
    uint64_t name_ref, hash, off, fn, bmp_off;
    uint32_t ncnt, nbmp;
    size_t idx; /* probe order: the first of equal offsets is kept */
} rec;

static int cmp_off(const void *a, const void *b) {
    const rec *x = a, *y = b;
    if (x->off != y->off) return x->off < y->off ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}
static int cmp_idx(const void *a, const void *b) {
    const rec *x = a, *y = b;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}


/* The correlator's records for layout l: the binary's __llvm_covdata or the
 * debug info's probes, then duplicates of a counter offset dropped. */
static int collect(const pbi_correlation *c, const pbi_raw_layout *l, int bitmaps, rec **out, size_t *n,
                   pb_error *err) {
    size_t cnt = c->kind == PBI_CORR_BINARY ? (c->data_len + l->record_size - 1) / l->record_size : c->nprobes;
    rec *r = calloc(cnt ? cnt : 1, sizeof *r);
    uint8_t *one = calloc(1, l->record_size);
    if (!r || !one) {
        free(r);
        free(one);
        return pbu_nomem(err, NULL);
    }
    uint64_t mask = l->ptr == 4 ? UINT32_MAX : UINT64_MAX;
    for (size_t i = 0; i < cnt; i++) {
        if (c->kind == PBI_CORR_BINARY) {
            /* LLVM reads while the record starts before the section's end:
             * the last one may lack its tail padding (zero here) */
            size_t at = i * l->record_size, have = c->data_len - at;
            memset(one, 0, l->record_size);
            memcpy(one, c->data + at, have < l->record_size ? have : l->record_size);
            r[i].name_ref = pbi_raw_rec_get(l, one, PBI_RD_NameRef, 0, c->order);
            r[i].hash = pbi_raw_rec_get(l, one, PBI_RD_FuncHash, 0, c->order);
            r[i].off = (pbi_raw_rec_get(l, one, PBI_RD_CounterPtr, 0, c->order) - c->cnts_start) & mask;
            r[i].fn = pbi_raw_rec_get(l, one, PBI_RD_FunctionPointer, 0, c->order);
            r[i].ncnt = (uint32_t)pbi_raw_rec_get(l, one, PBI_RD_NumCounters, 0, c->order);
            if (bitmaps && l->rec_off[PBI_RD_BitmapPtr] >= 0) {
                r[i].nbmp = (uint32_t)pbi_raw_rec_get(l, one, PBI_RD_NumBitmapBytes, 0, c->order);
                r[i].bmp_off = (pbi_raw_rec_get(l, one, PBI_RD_BitmapPtr, 0, c->order) - c->bits_start) & mask;
                if (!r[i].nbmp) r[i].bmp_off = 0;
            }
        } else {
            const pbi_corr_probe *p = &c->probes[i];
            r[i] = (rec){p->name_ref, p->hash, p->counter_offset & mask, p->fn_ptr & mask, 0, p->num_counters, 0, 0};
            if (bitmaps && p->num_bitmap_bytes) r[i].bmp_off = p->bitmap_offset & mask, r[i].nbmp = p->num_bitmap_bytes;
        }
        r[i].idx = i;
    }
    free(one);
    qsort(r, cnt, sizeof *r, cmp_off);
    size_t k = 0;
    for (size_t i = 0; i < cnt; i++)
        if (k == 0 || r[i].off != r[k - 1].off) r[k++] = r[i];
    qsort(r, k, sizeof *r, cmp_idx);
    *out = r;
    *n = k;
    return 0;
}

/* The names blob: the binary's __llvm_covnames as stored, or the debug
 * info's names joined, plain (collectGlobalObjectNameStrings without
 * compression). */
static int names_blob(const pbi_correlation *c, pb_buf *names, pb_error *err) {
    if (c->kind == PBI_CORR_BINARY) {
        pbu_buf_append(names, c->names, c->names_len);
        return pbu_buf_failed(names) ? pbu_nomem(err, NULL) : 0;
    }
    pb_buf text = PB_BUF_INIT;
    for (size_t i = 0; i < c->nprobes; i++) {
        pbu_buf_puts(&text, c->probes[i].name);
        pbu_buf_putc(&text, PBI_NAME_SEP);
    }
    int rc = pbu_buf_failed(&text) ? pbu_nomem(err, NULL) : pbi_names_encode(text.data, text.len, 0, names, err);
    pbu_buf_free(&text);
    return rc;
}

static int mismatch(pb_error *err, uint64_t off, const char *path, const char *fmt, const char *a, const char *b) {
    return pb_error_set(err, PB_EFORMAT, off, path, fmt, a, b);
}

/* A lightweight profile's header at `start`, checked: its layout, fields
 * and section walk. */
typedef struct light {
    pbi_raw_layout l;
    pbi_raw_header h;
    pbi_raw_sections s;
    uint64_t vword;
    char prefix[32];
} light;

static int read_light_header(const uint8_t *raw, size_t len, uint64_t start, unsigned index, int order,
                             unsigned ptr, light *lp, pb_error *err) {
    char path[96];
    lp->prefix[0] = '\0';
    if (index) snprintf(lp->prefix, sizeof lp->prefix, "profile[%u].", index);
    if (len - start < 16) {
        snprintf(path, sizeof path, "%sheader", lp->prefix);
        return pb_error_set(err, PB_ETRUNC, start, path, "file ends inside the raw header");
    }
    lp->vword = pb_get_u64(raw + start + 8, order);
    uint64_t version = lp->vword & 0xffffffffu;
    snprintf(path, sizeof path, "%sheader.Version", lp->prefix);
    if (!pbi_raw_version_known(version) || pbi_raw_layout_get(&lp->l, (unsigned)version, ptr) != 0)
        return pb_error_set(err, PB_EVERSION, start + 8, path, "raw profile version %" PRIu64 " is not supported",
                            version);
    if (version < PBI_RAW_RELATIVE_SINCE)
        return pb_error_set(err, PB_EUNSUPPORTED, start + 8, path,
                            "expected raw v8 or later (correlation came with LLVM 14's v8), found v%" PRIu64,
                            version);
    if (len - start < lp->l.header_size) {
        snprintf(path, sizeof path, "%sheader", lp->prefix);
        return pb_error_set(err, PB_ETRUNC, start, path, "a raw v%" PRIu64 " header needs %" PRIu32 " bytes",
                            version, lp->l.header_size);
    }
    pbi_raw_header_decode(&lp->l, raw + start, order, &lp->h);
    return pbi_raw_sections_walk(&lp->l, &lp->h, start, len, lp->prefix, &lp->s, err);
}

/* A profile with data or names of its own needs no correlation: LLVM's
 * words, refused. */
static int refuse_own_data(const light *lp, uint64_t start, const pbi_correlation *c, const pbi_llvm_target *t,
                           pb_error *err) {
    static const int must_be_zero[] = {PBI_RH_NumData, PBI_RH_NamesSize, PBI_RH_CountersDelta, PBI_RH_NamesDelta};
    for (size_t k = 0; k < sizeof must_be_zero / sizeof *must_be_zero; k++) {
        int id = must_be_zero[k];
        if (lp->h.f[id] == 0) continue;
        char path[96];
        snprintf(path, sizeof path, "%sheader.%s", lp->prefix, pbi_raw_header_fields[id].name);
        return pb_error_set(err, PB_EFORMAT, start + (uint64_t)lp->l.hdr_off[id], path,
                            "%s for correlation is not necessary: this raw profile has its own data and names "
                            "(expected 0, found %" PRIu64 "); merge it without --%s",
                            pbi_llvm_has(t, PBI_LF_CORRELATE_BINARY_WORDS) ? "debug info/binary" : "debug info",
                            lp->h.f[id], c->kind == PBI_CORR_BINARY ? "binary-file" : "debug-info");
    }
    return 0;
}

/* The data record of correlated function r, number i, into rb. */
static void put_record(const pbi_raw_layout *l, uint8_t *rb, const rec *r, size_t i, int order) {
    memset(rb, 0, l->record_size);
    pbi_raw_rec_put(l, rb, PBI_RD_NameRef, 0, r->name_ref, order);
    pbi_raw_rec_put(l, rb, PBI_RD_FuncHash, 0, r->hash, order);
    /* relative to record i against a CountersDelta of 0 */
    pbi_raw_rec_put(l, rb, PBI_RD_CounterPtr, 0, pbi_raw_ptr_value(l, 0, i, 0, r->off), order);
    pbi_raw_rec_put(l, rb, PBI_RD_FunctionPointer, 0, r->fn, order);
    pbi_raw_rec_put(l, rb, PBI_RD_NumCounters, 0, r->ncnt, order);
    if (r->nbmp) { /* 23+: the MC/DC bitmap, relative as the counters */
        pbi_raw_rec_put(l, rb, PBI_RD_BitmapPtr, 0, pbi_raw_ptr_value(l, 0, i, 0, r->bmp_off), order);
        pbi_raw_rec_put(l, rb, PBI_RD_NumBitmapBytes, 0, r->nbmp, order);
    }
}

/* The complete profile: the header with the correlated counts, the binary
 * ids, one data record per correlated function, then what follows the
 * (empty) data section as the file has it, and the names. */
static int write_complete(const uint8_t *raw, const light *lp, const rec *r, size_t nr, int order,
                          const pb_buf *names, pb_buf *out, pb_error *err) {
    const pbi_raw_layout *l = &lp->l;
    const pbi_raw_sections *s = &lp->s;
    pbi_raw_header nh = lp->h;
    nh.f[PBI_RH_Version] = lp->vword & ~PB_VARIANT_DBG_CORRELATE;
    nh.f[PBI_RH_NumData] = nr;
    nh.f[PBI_RH_NamesSize] = names->len;
    nh.f[PBI_RH_BitmapDelta] = 0;
    nh.f[PBI_RH_UniformCountersDelta] = 0;
    nh.f[PBI_RH_NumVTables] = 0;
    nh.f[PBI_RH_VNamesSize] = 0;
    if (pbu_buf_reserve(out, l->header_size + (size_t)lp->h.f[PBI_RH_BinaryIdsSize] + nr * l->record_size +
                                 (size_t)(s->off[PBI_RS_NAMES] - s->off[PBI_RS_DATA]) + names->len + 8) != 0)
        return pbu_nomem(err, NULL);
    uint8_t *hb = calloc(1, l->header_size), *rb = calloc(1, l->record_size);
    if (!hb || !rb) {
        free(hb), free(rb);
        return pbu_nomem(err, NULL);
    }
    pbi_raw_header_encode(l, &nh, order, hb);
    pbu_buf_append(out, hb, l->header_size);
    pbu_buf_append(out, raw + s->off[PBI_RS_BINARY_IDS], (size_t)s->size[PBI_RS_BINARY_IDS]);
    for (size_t i = 0; i < nr; i++) {
        put_record(l, rb, &r[i], i, order);
        pbu_buf_append(out, rb, l->record_size);
    }
    /* padding before the counters, counters, bitmap, uniform counters and
     * their stored paddings, as the file has them (its data section is empty) */
    pbu_buf_append(out, raw + s->off[PBI_RS_DATA], (size_t)(s->off[PBI_RS_NAMES] - s->off[PBI_RS_DATA]));
    pbu_buf_append(out, names->data, names->len);
    static const uint8_t zeros[8];
    pbu_buf_append(out, zeros, (size_t)pb_pad8(names->len));
    free(hb), free(rb);
    return pbu_buf_failed(out) ? pbu_nomem(err, NULL) : 0;
}

/* After the profile ending at *pos: zero padding, then the end (*at_end)
 * or another profile at an 8-byte boundary. */
static int after_profile(const uint8_t *raw, size_t len, uint64_t *pos, unsigned idx, int *at_end, pb_error *err) {
    while (*pos < len && raw[*pos] == 0) ++*pos;
    *at_end = *pos >= len;
    int o2;
    unsigned p2;
    if (!*at_end && (*pos % 8 || !pbi_raw_magic(raw + *pos, len - *pos, &o2, &p2)))
        return pb_error_set(err, PB_EFORMAT, *pos, "trailer",
                            "bytes after profile %u: expected zero padding or another raw profile", idx);
    return 0;
}

int pbi_raw_corr_open(pbi_raw_corr_stream *s, const uint8_t *raw, size_t len, const char *bin_path, int kind,
                      const pbi_llvm_target *t, const pbi_corr_limits *lim, pb_error *err) {
    memset(s, 0, sizeof *s);
    s->raw = raw;
    s->len = len;
    s->t = *t;
    if (!pbi_raw_magic(raw, len, &s->order, &s->ptr))
        return pb_error_set(err, len < 8 ? PB_ETRUNC : PB_EFORMAT, 0, "header.Magic",
                            "expected a raw profile magic (lprofr/lprofR, either byte order)");
    int rc = pbi_correlation_load(&s->c, bin_path, kind, t, lim, 0, NULL, NULL, err);
    if (rc) return rc;
    const char *ords[3] = {"?", "little-endian", "big-endian"};
    char a[48], b[48 + 4096];
    if (s->ptr != s->c.ptr || s->order != s->c.order) {
        snprintf(a, sizeof a, "%u-bit %s", s->ptr * 8, ords[s->order]);
        snprintf(b, sizeof b, "%s is %u-bit %s", bin_path, s->c.ptr * 8, ords[s->c.order]);
        rc = mismatch(err, 0, "header.Magic", "profile and binary do not match: the profile is %s, %s", a, b);
    }
    if (!rc) rc = names_blob(&s->c, &s->names, err);
    /* every header checked now, so a bad one is refused before any record is read */
    uint64_t pos = 0;
    int at_end = 0;
    for (unsigned idx = 0; rc == 0 && !at_end; idx++) {
        light lp;
        if (!(rc = read_light_header(raw, len, pos, idx, s->order, s->ptr, &lp, err)) &&
            !(rc = refuse_own_data(&lp, pos, &s->c, t, err))) {
            pos = lp.s.off[PBI_RS_VALUES];
            rc = after_profile(raw, len, &pos, idx, &at_end, err);
        }
    }
    if (rc) pbi_raw_corr_close(s);
    return rc;
}

int pbi_raw_corr_next(pbi_raw_corr_stream *s, pb_buf *out, int *at_end, pb_error *err) {
    pbu_buf_reset(out);
    *at_end = s->idx > 0 && s->pos >= s->len;
    if (*at_end) return 0;
    light lp;
    int rc = read_light_header(s->raw, s->len, s->pos, s->idx, s->order, s->ptr, &lp, err);
    rec *r = NULL;
    size_t nr = 0;
    if (!rc) rc = collect(&s->c, &lp.l, pbi_llvm_has(&s->t, PBI_LF_CORRELATE_BITMAPS), &r, &nr, err);
    if (!rc) rc = write_complete(s->raw, &lp, r, nr, s->order, &s->names, out, err);
    free(r);
    if (rc) return rc;
    s->pos = lp.s.off[PBI_RS_VALUES];
    int end;
    rc = after_profile(s->raw, s->len, &s->pos, s->idx, &end, err);
    s->idx++;
    return rc;
}

void pbi_raw_corr_close(pbi_raw_corr_stream *s) {
    pbi_correlation_free(&s->c);
    pbu_buf_free(&s->names);
    memset(s, 0, sizeof *s);
}

/* "binary-file" / "debug-info" read options: which correlation, if any. */
int pbi_raw_correlation_option(const pb_read_options *o, const char **path, int *kind, pb_error *err) {
    const char *bf = o ? pb_kv_get(o->kv, o->nkv, "binary-file") : NULL;
    const char *di = o ? pb_kv_get(o->kv, o->nkv, "debug-info") : NULL;
    *path = NULL;
    *kind = 0;
    if (bf && di)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "binary-file",
                            "Expected only one of -debug-info, -binary-file");
    if (bf) *path = bf, *kind = PBI_CORR_BINARY;
    if (di) *path = di, *kind = PBI_CORR_DEBUG_INFO;
    return 0;
}
