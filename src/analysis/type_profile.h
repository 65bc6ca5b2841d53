/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * type_profile.h -- type-profile analysis for `profbridge types` (internal).
 *
 * A "site" is one place that recorded which types (or call targets) reached
 * it: an iprof virtual-invoke, instanceof or monitor entry (one kind-2 value
 * site in the model), or one LLVM indirect-call (kind 0) or vtable (kind 2)
 * value site of a function record. For each site the analysis gives the
 * types hottest first, a class by the number of types seen, and what a
 * profile that keeps only the `width` hottest types (HotSpot's
 * TypeProfileWidth) would keep and lose. docs/types-flame.md defines every
 * number.
 */
#ifndef PB_TYPE_PROFILE_H
#define PB_TYPE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/profile.h"

/* GraalVM records at most this many types per location (iprof §3.6). */
#define PBI_TP_GRAAL_LIMIT 8
/* A site is polluted when its recorded types cover less than this share (%) of its total. */
#define PBI_TP_COVERAGE_MIN_PERCENT 90

/* Site classes, by the number of types with a nonzero count. */
enum pbi_tp_class {
    PBI_TP_EMPTY = 0,       /* no type with a nonzero count */
    PBI_TP_MONOMORPHIC = 1, /* exactly 1 */
    PBI_TP_BIMORPHIC = 2,   /* exactly 2 */
    PBI_TP_MEGAMORPHIC = 3, /* 3 or more */
    PBI_TP_CLASS_COUNT = 4
};

/* Why a site is polluted (bits of pbi_tp_site.polluted). */
enum {
    PBI_TP_UNCOVERED = 1, /* recorded < 90 % of total: counts of unrecorded types */
    PBI_TP_FULL = 2       /* as many types as the recorder keeps: more may have been dropped */
};

typedef struct pbi_tp_type {
    char *name;     /* resolved type / vtable / target name (malloc'ed) */
    uint64_t count;
} pbi_tp_type;

typedef struct pbi_tp_site {
    size_t record;       /* index of the record in the profile */
    uint8_t kind;        /* the record's enum pb_record_kind, or the Java kind its LLVM name
                            carries ("jvcall:..." in a converted file) */
    uint8_t value_kind;  /* PB_VK_INDIRECT_CALL or PB_VK_VTABLE */
    uint32_t site;       /* LLVM: site index within the kind; Java: 0 */
    char *name;          /* Java: rendered context; LLVM: function name (malloc'ed) */
    uint64_t total;      /* Java: counter 0 (Σ); LLVM: Σ of the values */
    uint64_t recorded;   /* Σ of the recorded type counts (saturating) */
    uint32_t num_types;  /* types with a nonzero count */
    uint32_t num_values; /* recorded entries, zero counts included */
    pbi_tp_type *types;  /* num_values entries, count descending, then name */
    uint64_t kept;       /* Σ of the `width` hottest counts (at most total) */
    uint64_t lost;       /* total - kept */
    uint8_t cls;         /* enum pbi_tp_class */
    uint8_t polluted;    /* PBI_TP_* bits, 0 = not polluted */
} pbi_tp_site;

typedef struct pbi_tp_report {
    unsigned width;
    size_t num_sites;
    pbi_tp_site *sites;           /* lost descending, then total descending, then name */
    size_t per_class[PBI_TP_CLASS_COUNT];
    size_t per_kind[PB_REC_KIND_COUNT]; /* Java sites by record kind; LLVM sites under PB_REC_FUNCTION */
    size_t polluted;
    uint64_t total, kept, lost;   /* Σ over the sites (saturating) */
} pbi_tp_report;

/*
 * Analyses every type site of `p` for a fixed width `width` (>= 1). Fills
 * *out (free with pbi_type_profile_free, also after a failure). Returns 0 or
 * PB_ENOMEM / PB_EINVAL (width 0), with err filled.
 */
int pbi_type_profile_build(const pb_profile *p, unsigned width, pbi_tp_report *out, pb_error *err);

void pbi_type_profile_free(pbi_tp_report *r);

/* "monomorphic", "bimorphic", "megamorphic", "no types". */
const char *pbi_tp_class_name(int cls);

/* Share a/b in percent with two decimals, as text ("12.50"); "0.00" when b = 0. */
void pbi_tp_percent(uint64_t a, uint64_t b, char *buf, size_t n);

#endif
