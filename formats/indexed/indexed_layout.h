/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_layout.h -- the layout of LLVM's indexed profile (.profdata), every
 * version in one place (spec llvm-instrprof.md §3.2, §3.6, §3.14).
 *
 * Each header word is listed once with the first version that has it; the
 * decoded header, the size per version, the reader, the writer and `dump`
 * all expand this list, so a new version is one row here.
 */
#ifndef PB_INDEXED_LAYOUT_H
#define PB_INDEXED_LAYOUT_H

#include <stdint.h>

/* "\xfflprofi\x81", always little-endian (§3.1). */
#define PBI_IDX_MAGIC UINT64_C(0x8169666F72706CFF)
#define PBI_IDX_VERSION_MIN 1
#define PBI_IDX_VERSION_MAX 14
_Static_assert(PBI_IDX_VERSION_MAX == 14, "new indexed version: add rows, tests, fixtures");

/* The low 32 bits of the version word are the version (LLVM's GET_VERSION). */
#define PBI_IDX_VERSION_NUMBER(w) ((uint32_t)((w) & UINT64_C(0xffffffff)))

/*        field              since  meaning (u64 each, in this order) */
#define PBI_IDX_HEADER(X)                                                                       \
    X(magic,                 1, "Magic")                                                       \
    X(version,               1, "Version")                                                     \
    X(unused,                1, "Unused") /* v1-3: MaxFunctionCount; v4+: 0 */               \
    X(hash_type,             1, "HashType")                                                    \
    X(hash_offset,           1, "HashOffset")                                                  \
    X(memprof_offset,        8, "MemProfOffset")                                               \
    X(binary_id_offset,      9, "BinaryIdOffset")                                              \
    X(temporal_offset,      10, "TemporalProfTracesOffset")                                    \
    X(vtable_names_offset,  12, "VTableNamesOffset")

enum pbi_idx_word {
#define PBI_X(f, since, meaning) PBI_IDX_W_##f,
    PBI_IDX_HEADER(PBI_X)
#undef PBI_X
    PBI_IDX_W_COUNT
};

typedef struct pbi_idx_field {
    const char *name;    /* the header field's LLVM name ("HashOffset") */
    unsigned since;      /* first version that has it */
} pbi_idx_field;

/* The table above as data (indexed_layout.c). */
extern const pbi_idx_field pbi_idx_header_fields[PBI_IDX_W_COUNT];

/* Header size in bytes for `version` (words present in that version x 8). */
static inline unsigned pbi_idx_header_size(uint32_t version) {
    static const unsigned since[] = {
#define PBI_X(f, s, meaning) s,
        PBI_IDX_HEADER(PBI_X)
#undef PBI_X
    };
    unsigned n = 0;
    for (unsigned i = 0; i < PBI_IDX_W_COUNT; i++)
        if (since[i] <= version) n++;
    return 8 * n;
}

/* 1 if header word `w` exists in `version`. */
static inline int pbi_idx_has_word(uint32_t version, enum pbi_idx_word w) {
    return pbi_idx_header_fields[w].since <= version;
}

/* Byte offset of header word `w` in `version` (the words present are
 * contiguous, in table order), or -1 when the version lacks it. */
static inline int pbi_idx_word_offset(uint32_t version, enum pbi_idx_word w) {
    if (!pbi_idx_has_word(version, w)) return -1;
    int n = 0;
    for (unsigned i = 0; i < (unsigned)w; i++) n += pbi_idx_has_word(version, (enum pbi_idx_word)i);
    return 8 * n;
}

/* What a version's per-key record data holds (§3.6, §3.14). */
typedef struct pbi_idx_record_layout {
    uint8_t num_counters;   /* u64 NumCounters after FuncHash (v2+; v1: DataLen/8 - 1) */
    uint8_t value_data;     /* a ValueProfData after the counters (v3+) */
    uint8_t summary;        /* a profile summary after the header (v4+) */
    uint8_t bitmap;         /* u64 NumBitmapBytes + bitmap (v11+) */
    uint8_t bitmap_packed;  /* bitmap bytes packed and padded to 8 (v14) instead of one u64 each */
    uint8_t uniformity;     /* u64 NumUniformityBytes + bytes padded to 8 (v14) */
    uint8_t max_value_kind; /* highest value kind the version can hold (kind 2 from v12) */
} pbi_idx_record_layout;

static inline pbi_idx_record_layout pbi_idx_layout(uint32_t v) {
    pbi_idx_record_layout l;
    l.num_counters = v >= 2;
    l.value_data = v >= 3;
    l.summary = v >= 4;
    l.bitmap = v >= 11;
    l.bitmap_packed = v >= 14;
    l.uniformity = v >= 14;
    l.max_value_kind = v >= 12 ? 2 : 1;
    return l;
}

/* Sections that exist only from some version on (§3.2). */
#define PBI_IDX_MEMPROF_SINCE 8
#define PBI_IDX_BINARY_IDS_SINCE 9
#define PBI_IDX_TRACES_SINCE 10
#define PBI_IDX_BITMAP_SINCE 11
#define PBI_IDX_VTABLE_SINCE 12

/* Profile summary (§3.4). */
#define PBI_IDX_SUMMARY_FIELDS 6
#define PBI_IDX_NUM_CUTOFFS 16
enum { PBI_SUM_TOTAL_NUM_FUNCTIONS, PBI_SUM_TOTAL_NUM_BLOCKS, PBI_SUM_MAX_FUNCTION_COUNT,
       PBI_SUM_MAX_BLOCK_COUNT, PBI_SUM_MAX_INTERNAL_BLOCK_COUNT, PBI_SUM_TOTAL_BLOCK_COUNT };
extern const uint64_t pbi_idx_default_cutoffs[PBI_IDX_NUM_CUTOFFS];

#endif
