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
 * is the caller's business. Parse and fill are inline: they run for every
 * record of an indexed file with value sites.
 */
#ifndef PB_LLVM_VALUE_DATA_H
#define PB_LLVM_VALUE_DATA_H

#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/bytes.h"
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

/* 1 when the blob at d[pos..end) is the 8-byte one of a record without
 * value sites (TotalSize 8, NumValueKinds 0), as pbi_vpd_parse would accept
 * it: what indexed files hold for most records, recognised without a call
 * (the call was 8% of `show` on a 100k-function indexed file). */
static inline int pbi_vpd_is_empty(const uint8_t *d, uint64_t pos, uint64_t end, int order) {
    return end >= pos && end - pos >= 8 && pb_get_u32(d + pos, order) == 8 && pb_get_u32(d + pos + 4, order) == 0;
}

/* Reports a problem of a blob (cold; pbi_vpd_parse's errors). */
int pbi_vpd_bad(pb_error *err, int code, uint64_t off, const char *path, const char *field, const char *expected,
                const char *fmt, ...) PB_PRINTF(7, 8);

/*
 * Checks the blob at d[pos..end) in byte order `order`, accepting kinds
 * below `num_kinds` (2 before raw v10 / indexed v12, else 3), each at most
 * once. Errors carry the offset of the field at fault and the path
 * "<path>.<field>" (TotalSize, NumValueKinds, ValueProfRecord, Kind,
 * NumValueSites, SiteCountArray). Returns 0, PB_EFORMAT or PB_ETRUNC.
 */
static inline int pbi_vpd_parse(const uint8_t *d, uint64_t pos, uint64_t end, int order, unsigned num_kinds,
                                const char *path, pbi_vpd *v, pb_error *err) {
    v->total = v->num_kinds = v->present = 0;
    v->num_sites = v->num_values = 0;
    if (end < pos || end - pos < 8)
        return pbi_vpd_bad(err, PB_ETRUNC, pos, path, "TotalSize", "8 bytes of TotalSize and NumValueKinds",
                           "%" PRIu64 " bytes", end < pos ? 0 : end - pos);
    uint32_t total = pb_get_u32(d + pos, order);
    uint32_t nkinds = pb_get_u32(d + pos + 4, order);
    if (total < 8 || total % 8 != 0 || total > end - pos)
        return pbi_vpd_bad(err, total % 8 == 0 && total >= 8 ? PB_ETRUNC : PB_EFORMAT, pos, path, "TotalSize",
                           "a multiple of 8 from 8 to the bytes left", "%" PRIu32 " (%" PRIu64 " left)", total,
                           end - pos);
    if (nkinds > num_kinds)
        return pbi_vpd_bad(err, PB_EFORMAT, pos + 4, path, "NumValueKinds",
                           num_kinds == 3 ? "at most 3" : "at most 2", "%" PRIu32, nkinds);
    v->total = total;
    v->num_kinds = nkinds;
    uint64_t vend = pos + total, p = pos + 8;
    for (uint32_t k = 0; k < nkinds; k++) {
        if (vend - p < 8)
            return pbi_vpd_bad(err, PB_ETRUNC, p, path, "ValueProfRecord",
                               "8 bytes of Kind and NumValueSites inside TotalSize", "%" PRIu64 " bytes left",
                               vend - p);
        uint32_t kind = pb_get_u32(d + p, order);
        uint32_t ns = pb_get_u32(d + p + 4, order);
        if (kind >= num_kinds)
            return pbi_vpd_bad(err, PB_EFORMAT, p, path, "Kind",
                               num_kinds == 3 ? "a value kind 0 to 2" : "a value kind 0 or 1", "%" PRIu32, kind);
        if (v->present & (1u << kind))
            return pbi_vpd_bad(err, PB_EFORMAT, p, path, "Kind", "each kind once", "kind %" PRIu32 " twice", kind);
        uint64_t head = 8 + (uint64_t)ns;
        head += pb_pad8(head);
        if (head > vend - p)
            return pbi_vpd_bad(err, PB_ETRUNC, p + 4, path, "NumValueSites", "the site counts inside TotalSize",
                               "%" PRIu32 " sites, %" PRIu64 " bytes left", ns, vend - p);
        uint64_t nv = 0;
        const uint8_t *cnt = d + p + 8;
        for (uint32_t i = 0; i < ns; i++) nv += cnt[i];
        if (nv > (vend - p - head) / 16)
            return pbi_vpd_bad(err, PB_ETRUNC, p + 8, path, "SiteCountArray", "the values inside TotalSize",
                               "%" PRIu64 " values, %" PRIu64 " bytes left", nv, vend - p - head);
        v->present |= 1u << kind;
        v->kind[kind] = (pbi_vpd_kind){p, ns, p + 8, p + head, nv};
        v->num_sites += ns;
        v->num_values += nv;
        p += head + 16 * nv;
    }
    return 0;
}

/* Copies a parsed blob: sites[0..v->num_sites) and values[0..v->num_values)
 * are the caller's; r->num_sites[k] and r->sites[k] are set for present
 * kinds. Values are as stored, with symbol PB_NONE. */
static inline void pbi_vpd_fill(const uint8_t *d, const pbi_vpd *v, int order, pb_site *sites, pb_value *values,
                                pb_record *r) {
    for (unsigned k = 0; k < PB_VK_COUNT; k++) {
        if (!(v->present & (1u << k))) continue;
        const pbi_vpd_kind *kd = &v->kind[k];
        const uint8_t *cnt = d + kd->counts, *vals = d + kd->values;
        r->num_sites[k] = kd->num_sites;
        r->sites[k] = sites;
        for (uint32_t i = 0; i < kd->num_sites; i++, sites++) {
            sites->num_values = cnt[i];
            sites->values = values;
            for (unsigned j = 0; j < cnt[i]; j++, values++, vals += 16) {
                values->value = pb_get_u64(vals, order);
                values->count = pb_get_u64(vals + 8, order);
                values->symbol = PB_NONE;
            }
        }
    }
}


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
