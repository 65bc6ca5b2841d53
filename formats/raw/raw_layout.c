/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* raw_layout.c -- computes offsets and sizes from the table in raw_layout.h. */
#include "raw_layout.h"

#include "util/bytes.h"
#include "profbridge/profile.h"

const pbi_raw_field pbi_raw_header_fields[PBI_RH_COUNT] = {
#define PBI_X(id, since, until, meaning) {#id, PBI_T_U64, 1, since, until, meaning},
    PBI_RAW_HEADER(PBI_X)
#undef PBI_X
};
const pbi_raw_field pbi_raw_record_fields[PBI_RD_COUNT] = {
#define PBI_X(id, type, count, since, until, meaning) {#id, type, count, since, until, meaning},
    PBI_RAW_RECORD(PBI_X)
#undef PBI_X
};
const pbi_raw_field pbi_raw_vtable_fields[PBI_RV_COUNT] = {
#define PBI_X(id, type, count, since, until, meaning) {#id, type, count, since, until, meaning},
    PBI_RAW_VTABLE(PBI_X)
#undef PBI_X
};

int pbi_raw_version_known(uint64_t v) {
    /* v6 never shipped (BinaryIdsSize appended last); not in the table. */
    return v == 5 || (v >= 7 && v <= PBI_RAW_VERSION_MAX);
}

static int has(const pbi_raw_field *f, unsigned v) { return v >= f->since && v <= f->until; }

uint64_t pbi_raw_version_flags(unsigned v) {
    uint64_t m = 0;
#define PBI_X(bit, since, until, meaning) m |= (v >= (since) && v <= (until)) ? (uint64_t)(bit) : 0;
    PBI_RAW_FLAGS(PBI_X)
#undef PBI_X
    return m;
}

static unsigned type_size(unsigned type, unsigned ptr) {
    switch (type) {
    case PBI_T_U64: return 8;
    case PBI_T_PTR: return ptr;
    case PBI_T_U32: return 4;
    default: return 2;
    }
}

/* Lays out a struct as a C compiler does: natural alignment, alignas(8) overall. */
static uint32_t lay_out(const pbi_raw_field *fields, size_t n, unsigned v, unsigned ptr,
                        int32_t *off, uint8_t *elem) {
    uint32_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        off[i] = -1;
        elem[i] = (uint8_t)type_size(fields[i].type, ptr);
        if (!has(&fields[i], v)) continue;
        pos += (elem[i] - pos % elem[i]) % elem[i];
        off[i] = (int32_t)pos;
        pos += (uint32_t)elem[i] * fields[i].count;
    }
    return pos + (uint32_t)pb_pad8(pos);
}

int pbi_raw_layout_get(pbi_raw_layout *l, unsigned version, unsigned ptr) {
    if (!pbi_raw_version_known(version) || (ptr != 4 && ptr != 8)) return -1;
    l->version = version;
    l->ptr = ptr;
    uint32_t pos = 0;
    for (int i = 0; i < PBI_RH_COUNT; i++) {
        l->hdr_off[i] = -1;
        if (!has(&pbi_raw_header_fields[i], version)) continue;
        l->hdr_off[i] = (int32_t)pos;
        pos += 8;
    }
    l->header_size = pos;
    l->record_size = lay_out(pbi_raw_record_fields, PBI_RD_COUNT, version, ptr, l->rec_off, l->rec_elem);
    l->vtable_size = version >= 10 ? lay_out(pbi_raw_vtable_fields, PBI_RV_COUNT, version, ptr,
                                             l->vt_off, l->vt_elem)
                                   : 0;
    if (version < 10)
        for (int i = 0; i < PBI_RV_COUNT; i++) l->vt_off[i] = -1, l->vt_elem[i] = 0;
    l->num_value_kinds = version >= 10 ? 3 : 2;
    return 0;
}

static void put_n(uint8_t *p, unsigned size, uint64_t v, int order) {
    switch (size) {
    case 8: pb_put_u64(p, v, order); break;
    case 4: pb_put_u32(p, (uint32_t)v, order); break;
    default: pb_put_u16(p, (uint16_t)v, order); break;
    }
}

void pbi_raw_rec_put(const pbi_raw_layout *l, uint8_t *rec, int id, unsigned k, uint64_t v, int order) {
    if (l->rec_off[id] < 0) return;
    put_n(rec + l->rec_off[id] + (size_t)k * l->rec_elem[id], l->rec_elem[id], v, order);
}
uint64_t pbi_raw_vt_get(const pbi_raw_layout *l, const uint8_t *rec, int id, int order) {
    if (l->vt_off[id] < 0) return 0;
    return pbi_raw_get_n(rec + l->vt_off[id], l->vt_elem[id], order);
}
void pbi_raw_vt_put(const pbi_raw_layout *l, uint8_t *rec, int id, uint64_t v, int order) {
    if (l->vt_off[id] < 0) return;
    put_n(rec + l->vt_off[id], l->vt_elem[id], v, order);
}

void pbi_raw_header_decode(const pbi_raw_layout *l, const uint8_t *p, int order, pbi_raw_header *h) {
    for (int i = 0; i < PBI_RH_COUNT; i++)
        h->f[i] = l->hdr_off[i] < 0 ? 0 : pb_get_u64(p + l->hdr_off[i], order);
}
void pbi_raw_header_encode(const pbi_raw_layout *l, const pbi_raw_header *h, int order, uint8_t *p) {
    for (int i = 0; i < PBI_RH_COUNT; i++)
        if (l->hdr_off[i] >= 0) pb_put_u64(p + l->hdr_off[i], h->f[i], order);
}

int pbi_raw_magic(const uint8_t *p, size_t len, int *order, unsigned *ptr) {
    if (len < 8) return 0;
    uint64_t le = pb_get_u64(p, PB_ORDER_LE), be = pb_get_u64(p, PB_ORDER_BE);
    if (le == PBI_RAW_MAGIC64) *order = PB_ORDER_LE, *ptr = 8;
    else if (be == PBI_RAW_MAGIC64) *order = PB_ORDER_BE, *ptr = 8;
    else if (le == PBI_RAW_MAGIC32) *order = PB_ORDER_LE, *ptr = 4;
    else if (be == PBI_RAW_MAGIC32) *order = PB_ORDER_BE, *ptr = 4;
    else return 0;
    return 1;
}
