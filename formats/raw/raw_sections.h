/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * raw_sections.h -- THE walk of a raw profile's sections (spec §2.6) and the
 * pointer arithmetic of its data records (§2.7), for the reader, dump and
 * the writer (which fills a header and asks where its sections go).
 *
 * Section order: header, binary ids (v7+), data records, padding, counters,
 * padding, bitmap (v9+), padding, uniform counters (v11), padding, names,
 * pad8, vtable records (v10+), pad8, vtable names, pad8, value data. The
 * stored padding fields are used for counters, bitmap and uniform counters;
 * pad8 is recomputed after names, vtables and vnames, as LLVM's reader does.
 * Which header fields exist is raw_layout.h's business (absent ones are 0).
 */
#ifndef PB_RAW_SECTIONS_H
#define PB_RAW_SECTIONS_H

#include <stdint.h>

#include "profbridge/error.h"
#include "raw_layout.h"

enum pbi_raw_sec {
    PBI_RS_BINARY_IDS,
    PBI_RS_DATA,
    PBI_RS_COUNTERS,
    PBI_RS_BITMAP,
    PBI_RS_UNIFORM,
    PBI_RS_NAMES,
    PBI_RS_VTABLES,
    PBI_RS_VNAMES,
    PBI_RS_VALUES,
    PBI_RS_COUNT
};

/* "binary ids", "data records", ... (dump's section table). */
extern const char *const pbi_raw_sec_names[PBI_RS_COUNT];

typedef struct pbi_raw_sections {
    unsigned csize;              /* counter element: 8, or 1 with byte coverage */
    uint64_t off[PBI_RS_COUNT];  /* absolute offsets; UINT64_MAX after an overflow */
    uint64_t size[PBI_RS_COUNT]; /* bytes; the value data's: up to the end of the input */
} pbi_raw_sections;

/*
 * Lays out the sections of the profile whose header h (layout l) starts at
 * byte `start` of an input of `len` bytes (UINT64_MAX for a writer). Every
 * offset is computed, saturating, so dump can show a broken table; the first
 * problem (BinaryIdsSize not a multiple of 8, a count x size overflowing, a
 * section or its stored padding past the end of the input) is reported in
 * err at the offset of the header field at fault, the path "<prefix>header.<Field>".
 * Returns 0, PB_EFORMAT or PB_ETRUNC.
 */
int pbi_raw_sections_walk(const pbi_raw_layout *l, const pbi_raw_header *h, uint64_t start, uint64_t len,
                          const char *prefix, pbi_raw_sections *s, pb_error *err);

/* Signed difference a - b in the profile's pointer width (§2.7: 32-bit
 * deltas wrap at 2^32). */
static inline int64_t pbi_raw_sdiff(uint64_t a, uint64_t b, unsigned ptr) {
    uint64_t d = a - b;
    return ptr == 4 ? (int64_t)(int32_t)(uint32_t)d : (int64_t)d;
}

/* The delta record i's pointer is taken against (§2.7): relative pointers
 * (v8+, and LLVM 13's development builds' v7) drift by a record per record;
 * absolute ones (v5, LLVM 13's v7) do not. */
static inline uint64_t pbi_raw_delta_at(const pbi_raw_layout *l, uint64_t delta, uint64_t i, int absolute) {
    return absolute ? delta : delta - i * l->record_size;
}

/* Byte offset into its section of record i's CounterPtr/BitmapPtr/
 * UniformCounterPtr value `ptr` against the header's delta. */
static inline int64_t pbi_raw_ptr_offset(const pbi_raw_layout *l, uint64_t ptr, uint64_t delta, uint64_t i,
                                         int absolute) {
    return pbi_raw_sdiff(ptr, pbi_raw_delta_at(l, delta, i, absolute), l->ptr);
}

/* The inverse, for the writer: the pointer value that gives offset `off`. */
static inline uint64_t pbi_raw_ptr_value(const pbi_raw_layout *l, uint64_t delta, uint64_t i, int absolute,
                                         uint64_t off) {
    uint64_t v = pbi_raw_delta_at(l, delta, i, absolute) + off;
    return l->ptr == 4 ? (uint32_t)v : v;
}

/*
 * v7 (§2.7) has two encodings under one number: absolute (LLVM 13) and
 * relative (late-2021 development builds). Returns 1 (absolute) or 0
 * (relative), whichever makes every record's counters a disjoint, aligned
 * range inside the cnt_bytes-byte counters section (the sign of the delta
 * says which to try first), -1 when neither does, -2 when out of memory.
 */
int pbi_raw_v7_absolute(const pbi_raw_layout *l, const uint8_t *records, uint64_t num_data, uint64_t counters_delta,
                        uint64_t cnt_bytes, int order);

#endif
