/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * value_data.h -- LLVM's ValueProfData (spec §2.11, §3.7), THE one codec
 * (internal).
 *
 * Raw files hold one blob per data record with value sites, in the writer's
 * byte order; indexed files one per record, little-endian. Both are:
 *   u32 TotalSize, u32 NumValueKinds,
 *   per kind (ascending): u32 Kind, u32 NumValueSites,
 *     u8 SiteCountArray[NumValueSites], zero padding to 8,
 *     {u64 Value, u64 Count} x sum(SiteCountArray).
 * pbi_vpd_parse checks a blob without touching the model; pbi_vpd_fill then
 * copies it into caller-owned site and value arrays (two passes, so one
 * allocation per record at most). What a value means (an address, a NameRef)
 * is the caller's business.
 */
#ifndef PB_LLVM_VALUE_DATA_H
#define PB_LLVM_VALUE_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "profbridge/error.h"
#include "profbridge/profile.h"

/* LLVM's INSTR_PROF_MAX_NUM_VAL_PER_SITE: a site count is one byte. */
#define PBI_VPD_MAX_VALUES_PER_SITE 255u

/* One ValueProfRecord of a parsed blob (offsets into the input). */
typedef struct pbi_vpd_kind {
    uint64_t at;         /* its Kind word */
    uint32_t num_sites;
    uint64_t counts;     /* SiteCountArray */
    uint64_t values;     /* first (Value, Count) pair */
    uint64_t num_values; /* sum of the site counts */
} pbi_vpd_kind;

typedef struct pbi_vpd {
    uint32_t total;      /* TotalSize: the blob is [at, at + total) */
    uint32_t num_kinds;  /* NumValueKinds */
    unsigned present;    /* bit k: kind k has a record */
    pbi_vpd_kind kind[PB_VK_COUNT];
    uint64_t num_sites, num_values; /* over all kinds */
} pbi_vpd;

/* Size of a ValueProfRecord: align8(8 + sites) + 16 x values. */
static inline uint64_t pbi_vpd_record_size(uint64_t sites, uint64_t values) {
    return ((8 + sites + 7) & ~(uint64_t)7) + 16 * values;
}

/*
 * Checks the blob at d[pos..end) in byte order `order`, accepting kinds
 * below `num_kinds` (2 before raw v10 / indexed v12, else 3), each at most
 * once. Errors carry the offset of the field at fault and the path
 * "<path>.<field>" (TotalSize, NumValueKinds, ValueProfRecord, Kind,
 * NumValueSites, SiteCountArray). Returns 0, PB_EFORMAT or PB_ETRUNC.
 */
int pbi_vpd_parse(const uint8_t *d, uint64_t pos, uint64_t end, int order, unsigned num_kinds, const char *path,
                  pbi_vpd *v, pb_error *err);

/* Copies a parsed blob: sites[0..v->num_sites) and values[0..v->num_values)
 * are the caller's; r->num_sites[k] and r->sites[k] are set for present
 * kinds. Values are as stored, with symbol PB_NONE. */
void pbi_vpd_fill(const uint8_t *d, const pbi_vpd *v, int order, pb_site *sites, pb_value *values, pb_record *r);

/* What pbi_vpd_encode left out. */
typedef struct pbi_vpd_stats {
    uint64_t values_dropped; /* beyond PBI_VPD_MAX_VALUES_PER_SITE, or not picked */
    uint64_t sites_dropped;  /* of kinds >= num_kinds */
} pbi_vpd_stats;

/* The values to write for one site: *vals and the count (capped at 255 by the
 * encoder). NULL picker: the site's own values, in order. */
typedef size_t (*pbi_vpd_pick_fn)(void *ctx, unsigned kind, const pb_site *site, const pb_value **vals,
                                  pb_error *err);
/* The stored Value of a model value (NULL: stored as is). */
typedef uint64_t (*pbi_vpd_map_fn)(void *ctx, unsigned kind, uint64_t value);

/* Appends the blob of r's kinds below num_kinds that have sites (the header
 * alone when none has). Returns 0, PB_ENOMEM, PB_EINVAL (a blob over 4 GiB)
 * or the picker's error (it returns (size_t)-1 then). */
int pbi_vpd_encode(pb_buf *out, const pb_record *r, unsigned num_kinds, int order, pbi_vpd_pick_fn pick,
                   pbi_vpd_map_fn map, void *ctx, pbi_vpd_stats *st, pb_error *err);

#endif
