/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* raw_sections.c -- the section walk and pointer rules of raw_sections.h. */
#include "raw_sections.h"

#include "profbridge/profile.h" /* PB_VARIANT_*: util/bytes.h no longer brings it */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/bytes.h"

const char *const pbi_raw_sec_names[PBI_RS_COUNT] = {
    "binary ids", "data records", "counters", "bitmap", "uniform counters",
    "names", "vtable records", "vtable names", "value data"};

typedef struct walk {
    const pbi_raw_layout *l;
    uint64_t start, len, pos;
    const char *prefix;
    pb_error *err;
    int rc; /* the first problem */
} walk;

static uint64_t field_at(const walk *w, int field) {
    return w->l->hdr_off[field] < 0 ? w->start : w->start + (uint64_t)w->l->hdr_off[field];
}

static void problem(walk *w, int code, int field, const char *fmt, ...) PB_PRINTF(4, 5);
static void problem(walk *w, int code, int field, const char *fmt, ...) {
    if (w->rc) return;
    char path[96], msg[400];
    snprintf(path, sizeof path, "%sheader.%s", w->prefix, pbi_raw_header_fields[field].name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    w->rc = pb_error_set(w->err, code, field_at(w, field), path, "%s", msg);
}

/* count x elem bytes, or UINT64_MAX (and the problem) when it overflows. */
static uint64_t product(walk *w, int field, uint64_t count, uint64_t elem) {
    uint64_t n;
    if (pb_mul_u64(&n, count, elem)) return n;
    problem(w, PB_EFORMAT, field, "%" PRIu64 " x %" PRIu64 " bytes overflows 64 bits", count, elem);
    return UINT64_MAX;
}

/* `size` bytes at the current position, named by `field` and `what`; checked
 * to end inside the input unless `optional` and empty. Returns its offset. */
static uint64_t span(walk *w, int field, const char *what, uint64_t size, int optional) {
    uint64_t off = w->pos, end;
    if (!pb_add_u64(&end, off, size)) end = UINT64_MAX;
    if (end > w->len && (size || !optional) && off != UINT64_MAX)
        problem(w, PB_ETRUNC, field,
                "the %s (0x%" PRIx64 " bytes from byte 0x%" PRIx64 ") run past the end of the file (0x%" PRIx64
                " bytes)",
                what, size, off, w->len);
    w->pos = end;
    return off;
}

/* pad8 after names, vtables and vnames: recomputed, never checked (§2.6). */
static void pad(walk *w, uint64_t size) {
    if (w->pos != UINT64_MAX && !pb_add_u64(&w->pos, w->pos, pb_pad8(size))) w->pos = UINT64_MAX;
}

int pbi_raw_sections_walk(const pbi_raw_layout *l, const pbi_raw_header *hd, uint64_t start, uint64_t len,
                          const char *prefix, pbi_raw_sections *s, pb_error *err) {
    const uint64_t *h = hd->f;
    walk w = {l, start, len, start + l->header_size, prefix ? prefix : "", err, 0};
    s->csize = (h[PBI_RH_Version] & PB_VARIANT_BYTE_COVERAGE) ? 1 : 8;
    if (h[PBI_RH_BinaryIdsSize] % 8 && l->version >= PBI_RAW_BINARY_IDS_PADDED_SINCE)
        problem(&w, PB_EFORMAT, PBI_RH_BinaryIdsSize, "expected a multiple of 8, found %" PRIu64,
                h[PBI_RH_BinaryIdsSize]);
    s->size[PBI_RS_BINARY_IDS] = h[PBI_RH_BinaryIdsSize];
    s->off[PBI_RS_BINARY_IDS] = span(&w, PBI_RH_BinaryIdsSize, "binary ids", s->size[PBI_RS_BINARY_IDS], 0);
    s->size[PBI_RS_DATA] = product(&w, PBI_RH_NumData, h[PBI_RH_NumData], l->record_size);
    s->off[PBI_RS_DATA] = span(&w, PBI_RH_NumData, "data records", s->size[PBI_RS_DATA], 0);
    span(&w, PBI_RH_PaddingBytesBeforeCounters, "padding before the counters", h[PBI_RH_PaddingBytesBeforeCounters], 0);
    s->size[PBI_RS_COUNTERS] = product(&w, PBI_RH_NumCounters, h[PBI_RH_NumCounters], s->csize);
    s->off[PBI_RS_COUNTERS] = span(&w, PBI_RH_NumCounters, "counters", s->size[PBI_RS_COUNTERS], 0);
    span(&w, PBI_RH_PaddingBytesAfterCounters, "padding after the counters", h[PBI_RH_PaddingBytesAfterCounters], 0);
    s->size[PBI_RS_BITMAP] = h[PBI_RH_NumBitmapBytes];
    s->off[PBI_RS_BITMAP] = span(&w, PBI_RH_NumBitmapBytes, "bitmap bytes", s->size[PBI_RS_BITMAP], 0);
    span(&w, PBI_RH_PaddingBytesAfterBitmapBytes, "padding after the bitmap",
         h[PBI_RH_PaddingBytesAfterBitmapBytes], 0);
    s->size[PBI_RS_UNIFORM] = product(&w, PBI_RH_NumUniformCounters, h[PBI_RH_NumUniformCounters], 8);
    s->off[PBI_RS_UNIFORM] = span(&w, PBI_RH_NumUniformCounters, "uniform counters", s->size[PBI_RS_UNIFORM], 0);
    span(&w, PBI_RH_PaddingBytesAfterUniformCounters, "padding after the uniform counters",
         h[PBI_RH_PaddingBytesAfterUniformCounters], 0);
    s->size[PBI_RS_NAMES] = h[PBI_RH_NamesSize];
    s->off[PBI_RS_NAMES] = span(&w, PBI_RH_NamesSize, "names", s->size[PBI_RS_NAMES], 0);
    pad(&w, s->size[PBI_RS_NAMES]);
    s->size[PBI_RS_VTABLES] = product(&w, PBI_RH_NumVTables, h[PBI_RH_NumVTables], l->vtable_size);
    s->off[PBI_RS_VTABLES] = span(&w, PBI_RH_NumVTables, "vtable records", s->size[PBI_RS_VTABLES], 1);
    pad(&w, s->size[PBI_RS_VTABLES]);
    s->size[PBI_RS_VNAMES] = h[PBI_RH_VNamesSize];
    s->off[PBI_RS_VNAMES] = span(&w, PBI_RH_VNamesSize, "vtable names", s->size[PBI_RS_VNAMES], 1);
    pad(&w, s->size[PBI_RS_VNAMES]);
    /* a profile may end without its last padding only if nothing follows */
    s->off[PBI_RS_VALUES] = w.pos > len ? len : w.pos;
    s->size[PBI_RS_VALUES] = len - s->off[PBI_RS_VALUES];
    return w.rc;
}

typedef struct range {
    int64_t lo, hi;
} range;
static int cmp_range(const void *a, const void *b) {
    const range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Is the rule consistent for every record (§2.7)? */
static int consistent(const pbi_raw_layout *l, const uint8_t *records, uint64_t nd, uint64_t delta, uint64_t total,
                      int order, int absolute, range *tmp) {
    for (uint64_t i = 0; i < nd; i++) {
        const uint8_t *rec = records + i * l->record_size;
        int64_t off = pbi_raw_ptr_offset(l, pbi_raw_rec_get(l, rec, PBI_RD_CounterPtr, 0, order), delta, i, absolute);
        uint64_t nc = pbi_raw_rec_get(l, rec, PBI_RD_NumCounters, 0, order);
        if (off < 0 || off % 8 || (uint64_t)off > total || nc * 8 > total - (uint64_t)off) return 0;
        tmp[i].lo = off;
        tmp[i].hi = off + (int64_t)nc * 8;
    }
    qsort(tmp, (size_t)nd, sizeof *tmp, cmp_range);
    for (uint64_t i = 1; i < nd; i++)
        if (tmp[i].lo < tmp[i - 1].hi) return 0;
    return 1;
}

int pbi_raw_v7_absolute(const pbi_raw_layout *l, const uint8_t *records, uint64_t nd, uint64_t delta,
                        uint64_t cnt_bytes, int order) {
    int first = pbi_raw_sdiff(delta, 0, l->ptr) >= 0; /* addresses are positive, relative deltas negative */
    if (nd == 0) return first;
    range *tmp = malloc((size_t)nd * sizeof *tmp);
    if (!tmp) return -2;
    int ok = -1;
    if (consistent(l, records, nd, delta, cnt_bytes, order, first, tmp)) ok = first;
    else if (consistent(l, records, nd, delta, cnt_bytes, order, !first, tmp)) ok = !first;
    free(tmp);
    return ok;
}
