/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * raw_layout.h -- THE layout table of LLVM raw profiles (.profraw), every version.
 *
 * Each header field, data-record field and vtable-record field is listed once,
 * with the versions that have it (spec llvm-instrprof.md §2.4, §2.5, §2.10,
 * §2.16). The reader, the writer, dump and the unit tests' file builder all
 * expand these lists; nobody else knows an offset.
 *
 * Header fields are u64 words in file order; a version has exactly the words
 * whose [since, until] range contains it, so their offsets follow. Record
 * fields have C types with natural alignment inside an alignas(8) struct
 * (offsets and sizes for 32/64-bit pointers are computed the same way the
 * compiler lays the struct out).
 *
 * Raw v6 (a development state that appended BinaryIdsSize after
 * ValueKindLast) is not in the table: it never shipped and is refused.
 */
#ifndef PB_RAW_LAYOUT_H
#define PB_RAW_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "util/bytes.h"

#define PBI_RAW_VERSION_MIN 5
#define PBI_RAW_VERSION_MAX 11
#define PBI_RAW_UNTIL_NOW 255 /* "until" of fields still present */

#define PBI_RAW_MAGIC64 UINT64_C(0xff6c70726f667281) /* "lprofr" */
#define PBI_RAW_MAGIC32 UINT64_C(0xff6c70726f665281) /* "lprofR" */
/* MemProf raw profiles (different magic, "memprofr"): recognised, refused. */
#define PBI_MEMPROF_MAGIC UINT64_C(0xff6d656d70726f66)

/*   id                          since until           meaning                                              */
#define PBI_RAW_HEADER(X)                                                                                   \
    X(Magic,                      5, PBI_RAW_UNTIL_NOW, "magic; its byte order is the file's")               \
    X(Version,                    5, PBI_RAW_UNTIL_NOW, "format version (low 32 bits) | variant flags")      \
    X(BinaryIdsSize,              7, PBI_RAW_UNTIL_NOW, "bytes of binary ids right after the header")        \
    X(NumData,                    5, PBI_RAW_UNTIL_NOW, "number of per-function data records")               \
    X(PaddingBytesBeforeCounters, 5, PBI_RAW_UNTIL_NOW, "zero bytes between data and counters")              \
    X(NumCounters,                5, PBI_RAW_UNTIL_NOW, "counter entries (bytes with byte coverage)")        \
    X(PaddingBytesAfterCounters,  5, PBI_RAW_UNTIL_NOW, "zero bytes after the counters")                     \
    X(NumBitmapBytes,             9, PBI_RAW_UNTIL_NOW, "bytes of MC/DC bitmap")                             \
    X(PaddingBytesAfterBitmapBytes, 9, PBI_RAW_UNTIL_NOW, "zero bytes after the bitmap")                     \
    X(NumUniformCounters,         11, PBI_RAW_UNTIL_NOW, "u64 uniform counters (offload PGO)")               \
    X(PaddingBytesAfterUniformCounters, 11, PBI_RAW_UNTIL_NOW, "zero bytes after the uniform counters")      \
    X(UniformCountersDelta,       11, PBI_RAW_UNTIL_NOW, "UniformCountersBegin - DataBegin (runtime)")       \
    X(NamesSize,                  5, PBI_RAW_UNTIL_NOW, "bytes of encoded names (without padding)")          \
    X(CountersDelta,              5, PBI_RAW_UNTIL_NOW, "CountersBegin - DataBegin (v5/v7: CountersBegin)")  \
    X(BitmapDelta,                9, PBI_RAW_UNTIL_NOW, "BitmapBegin - DataBegin (runtime)")                 \
    X(NamesDelta,                 5, PBI_RAW_UNTIL_NOW, "runtime address of the names (ignored)")            \
    X(NumVTables,                 10, PBI_RAW_UNTIL_NOW, "number of vtable records")                         \
    X(VNamesSize,                 10, PBI_RAW_UNTIL_NOW, "bytes of encoded vtable names")                    \
    X(ValueKindLast,              5, PBI_RAW_UNTIL_NOW, "IPVK_Last of the writer")

/* The variant bits of the version word (spec §2.2) that exist in each raw
 * version: the releases writing it knew them. A writer drops the others. */
/*   bit (profile.h)                  since until              meaning                               */
#define PBI_RAW_FLAGS(X)                                                                               \
    X(PB_VARIANT_INSTR_LOOP_ENTRIES,  10, PBI_RAW_UNTIL_NOW, "loop entries instrumented (LLVM 20+)")     \
    X(PB_VARIANT_IR,                  5,  PBI_RAW_UNTIL_NOW, "IR-level instrumentation")                 \
    X(PB_VARIANT_CSIR,                5,  PBI_RAW_UNTIL_NOW, "context-sensitive IR records")             \
    X(PB_VARIANT_ENTRY_FIRST,         5,  PBI_RAW_UNTIL_NOW, "entry block instrumented (LLVM 12+)")      \
    X(PB_VARIANT_DBG_CORRELATE,       8,  PBI_RAW_UNTIL_NOW, "debug-info correlation (LLVM 14+)")        \
    X(PB_VARIANT_BYTE_COVERAGE,       8,  PBI_RAW_UNTIL_NOW, "single-byte coverage (LLVM 14+)")          \
    X(PB_VARIANT_FUNCTION_ENTRY_ONLY, 8,  PBI_RAW_UNTIL_NOW, "function-entry coverage (LLVM 14+)")       \
    X(PB_VARIANT_TEMPORAL,            8,  PBI_RAW_UNTIL_NOW, "temporal profiling (LLVM 17+, raw v8)")

/* The variant bits raw `version` can hold (PBI_RAW_FLAGS). */
uint64_t pbi_raw_version_flags(unsigned version);

/* CounterPtr (and BitmapPtr) are relative to their data record from v8 on;
 * v5 and v7 as LLVM 13 writes it hold absolute addresses (§2.7). */
#define PBI_RAW_RELATIVE_SINCE 8

/* Binary-id entries are padded to 8 bytes from v8 on; v7 (LLVM 13) has
 * them back to back and BinaryIdsSize their plain sum (binary_ids.h). */
#define PBI_RAW_BINARY_IDS_PADDED_SINCE 8

/* Element types of record fields. */
enum pbi_raw_type { PBI_T_U64 = 0, PBI_T_PTR = 1, PBI_T_U32 = 2, PBI_T_U16 = 3 };

/*   id                   type       count since until             meaning                                   */
#define PBI_RAW_RECORD(X)                                                                                   \
    X(NameRef,            PBI_T_U64, 1, 5,  PBI_RAW_UNTIL_NOW, "MD5 NameRef of the function's PGO name")    \
    X(FuncHash,           PBI_T_U64, 1, 5,  PBI_RAW_UNTIL_NOW, "structural hash")                           \
    X(CounterPtr,         PBI_T_PTR, 1, 5,  PBI_RAW_UNTIL_NOW, "counters: relative (v8+) or absolute")      \
    X(UniformCounterPtr,  PBI_T_PTR, 1, 11, PBI_RAW_UNTIL_NOW, "uniform counters, relative")                \
    X(BitmapPtr,          PBI_T_PTR, 1, 9,  PBI_RAW_UNTIL_NOW, "bitmap bytes, relative")                    \
    X(FunctionPointer,    PBI_T_PTR, 1, 5,  PBI_RAW_UNTIL_NOW, "runtime function address (IC map) or 0")    \
    X(Values,             PBI_T_PTR, 1, 5,  PBI_RAW_UNTIL_NOW, "runtime pointer, ignored")                  \
    X(NumCounters,        PBI_T_U32, 1, 5,  PBI_RAW_UNTIL_NOW, "number of counters")                        \
    X(NumValueSites01,    PBI_T_U16, 2, 5,  PBI_RAW_UNTIL_NOW, "value sites of kinds 0 (IC) and 1 (memop)") \
    X(NumValueSites2,     PBI_T_U16, 1, 10, PBI_RAW_UNTIL_NOW, "value sites of kind 2 (vtable)")            \
    X(OffloadDeviceWaveSize, PBI_T_U16, 1, 11, PBI_RAW_UNTIL_NOW, "GPU wave size, 0 on the host")           \
    X(NumBitmapBytes,     PBI_T_U32, 1, 9,  PBI_RAW_UNTIL_NOW, "bytes of MC/DC bitmap")

#define PBI_RAW_VTABLE(X)                                                                                   \
    X(VTableNameHash,     PBI_T_U64, 1, 10, PBI_RAW_UNTIL_NOW, "MD5 NameRef of the vtable's name")          \
    X(VTablePointer,      PBI_T_PTR, 1, 10, PBI_RAW_UNTIL_NOW, "runtime start address")                     \
    X(VTableSize,         PBI_T_U32, 1, 10, PBI_RAW_UNTIL_NOW, "size in bytes")

enum pbi_raw_hdr_id {
#define PBI_X(id, since, until, meaning) PBI_RH_##id,
    PBI_RAW_HEADER(PBI_X)
#undef PBI_X
    PBI_RH_COUNT
};
enum pbi_raw_rec_id {
#define PBI_X(id, type, count, since, until, meaning) PBI_RD_##id,
    PBI_RAW_RECORD(PBI_X)
#undef PBI_X
    PBI_RD_COUNT
};
enum pbi_raw_vt_id {
#define PBI_X(id, type, count, since, until, meaning) PBI_RV_##id,
    PBI_RAW_VTABLE(PBI_X)
#undef PBI_X
    PBI_RV_COUNT
};

/* The tripwire: a new raw version needs rows above, tests and fixtures. */
_Static_assert(PBI_RAW_VERSION_MAX == 11, "raw version added: update PBI_RAW_* tables, tests, fixtures");

/* One field's description (the table row, for dump and tests). */
typedef struct pbi_raw_field {
    const char *name;
    uint8_t type;  /* enum pbi_raw_type (header: always PBI_T_U64) */
    uint8_t count; /* elements */
    uint8_t since, until;
    const char *meaning;
} pbi_raw_field;

extern const pbi_raw_field pbi_raw_header_fields[PBI_RH_COUNT];
extern const pbi_raw_field pbi_raw_record_fields[PBI_RD_COUNT];
extern const pbi_raw_field pbi_raw_vtable_fields[PBI_RV_COUNT];

/* The layout of one (version, pointer width): offsets are -1 for absent fields. */
typedef struct pbi_raw_layout {
    unsigned version;
    unsigned ptr; /* 4 or 8 */
    uint32_t header_size;
    int32_t hdr_off[PBI_RH_COUNT];
    uint32_t record_size;
    int32_t rec_off[PBI_RD_COUNT];
    uint8_t rec_elem[PBI_RD_COUNT]; /* element size in bytes */
    uint32_t vtable_size;           /* 0 before v10 */
    int32_t vt_off[PBI_RV_COUNT];
    uint8_t vt_elem[PBI_RV_COUNT];
    unsigned num_value_kinds; /* value-site kinds the record has: 2, or 3 from v10 */
} pbi_raw_layout;

/* 1 if the table covers `version` (5, 7..11), else 0. */
int pbi_raw_version_known(uint64_t version);

/* Fills *l for a known version and ptr 4 or 8. Returns 0, or -1 when unknown. */
int pbi_raw_layout_get(pbi_raw_layout *l, unsigned version, unsigned ptr);

/* A field of 2, 4 or 8 bytes in byte order `order`. */
static inline uint64_t pbi_raw_get_n(const uint8_t *p, unsigned size, int order) {
    switch (size) {
    case 8: return pb_get_u64(p, order);
    case 4: return pb_get_u32(p, order);
    default: return pb_get_u16(p, order);
    }
}

/* Reads/writes record field `id` (element `k`) at `rec` in byte order `order`.
 * The reader is inline: called a dozen times per data record, the call was a
 * tenth of merging 1,000 raws (callgrind, bench/many_merge.sh). */
static inline uint64_t pbi_raw_rec_get(const pbi_raw_layout *l, const uint8_t *rec, int id, unsigned k, int order) {
    if (l->rec_off[id] < 0) return 0;
    return pbi_raw_get_n(rec + l->rec_off[id] + (size_t)k * l->rec_elem[id], l->rec_elem[id], order);
}
void pbi_raw_rec_put(const pbi_raw_layout *l, uint8_t *rec, int id, unsigned k, uint64_t v, int order);
uint64_t pbi_raw_vt_get(const pbi_raw_layout *l, const uint8_t *rec, int id, int order);
void pbi_raw_vt_put(const pbi_raw_layout *l, uint8_t *rec, int id, uint64_t v, int order);

/* The number of value sites of kind k (0..2) of a record (0 when the version lacks it). */
static inline unsigned pbi_raw_rec_sites(const pbi_raw_layout *l, const uint8_t *rec, unsigned kind, int order) {
    if (kind < 2) return (unsigned)pbi_raw_rec_get(l, rec, PBI_RD_NumValueSites01, kind, order);
    if (kind == 2) return (unsigned)pbi_raw_rec_get(l, rec, PBI_RD_NumValueSites2, 0, order);
    return 0;
}

/* Decoded header: every field of the table, 0 when the version lacks it. */
typedef struct pbi_raw_header {
    uint64_t f[PBI_RH_COUNT];
} pbi_raw_header;

void pbi_raw_header_decode(const pbi_raw_layout *l, const uint8_t *p, int order, pbi_raw_header *h);
void pbi_raw_header_encode(const pbi_raw_layout *l, const pbi_raw_header *h, int order, uint8_t *p);

/* What the first 8 bytes say: byte order and pointer width, or 0 when not
 * raw (raw_layout.c: the magic is layout, read by the reader, the dump and
 * the correlator alike). */
int pbi_raw_magic(const uint8_t *p, size_t len, int *order, unsigned *ptr);

#endif
