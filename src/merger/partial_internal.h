/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * partial_internal.h -- the pb_partial (profbridge/partial.h) and its
 * pieces, each using only those before it: partial_core.c (life cycle,
 * rules, provenance, the extra counts' order), partial_codec.c (the byte
 * codec of the serializations), partial_combine.c (the order-dependent
 * value rule), partial_save.c (serialization), partial.c (inputs, finish).
 */
#ifndef PBI_PARTIAL_INTERNAL_H
#define PBI_PARTIAL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/partial.h"

/* One input of the provenance. */
typedef struct pbi_partial_in {
    char *name;
    uint64_t weight, size;
    char sha256[65];
    int status;
    pb_error *err;  /* FAILED only */
    char *message;  /* FAILED only: pb_error_format of err */
} pbi_partial_in;

/*
 * The extra counts of one value, where its weighted sum ("exist") differs
 * from its first count unweighted plus the later ones weighted ("new").
 * The value's own count is in the profile. Keyed by the record's name
 * (NameRef of its LLVM name) and hash, the value kind, the site, the
 * value and which of the site's entries of that value it is (`dup`: 0 for
 * the first in the site's order; a site read from a text profile can hold
 * a value twice, e.g. two '** External Symbol **' entries that read as 0,
 * and llvm-profdata's merge pairs equal values in order); kept sorted by
 * that key.
 */
typedef struct pbi_extra {
    uint64_t name_ref, hash;
    uint32_t site;
    uint8_t kind;
    uint64_t value;
    uint32_t dup;
    uint64_t exist, fresh;
} pbi_extra;

struct pb_partial {
    pb_merger_options rules; /* copied; keep/drop point at owned copies */
    char *keep, *drop;
    pb_profile *own;         /* NULL until an input added something */
    pbi_extra *extra;
    size_t nextra, cap_extra;
    pbi_partial_in *in;
    size_t nin, cap_in;
};

/* Value count saturation of the rules (as profile_merge.c: UINT64_MAX for
 * LLVM, max_count below it for iprof). */
uint64_t pbi_partial_value_max(const pb_merger_options *r);

/* The merge options of a combine under rules r (weight 1). */
void pbi_partial_merge_options(const pb_merger_options *r, pb_merge_options *mo);

/* The entry of the dup-th entry of a value in v[0..n) (sorted), or NULL. */
const pbi_extra *pbi_partial_extras_find(const pbi_extra *v, size_t n, uint64_t name_ref, uint64_t hash,
                                         uint8_t kind, uint32_t site, uint64_t value, uint32_t dup);

int pbi_partial_extra_cmp(const void *a, const void *b);

/* Appends an input to the provenance (name copied). */
int pbi_partial_add_input(pb_partial *p, const char *name, uint64_t weight, uint64_t size, const char *sha256,
                          int status, const pb_error *e, pb_error *err);

/* Merges profile q (the merge of one more input, made with weight w; the
 * partial takes it) after p's inputs. */
int pbi_partial_take(pb_partial *p, pb_profile *q, uint64_t w, int merged, pb_error *err);

/* Merges profile y with extras yx after acc's inputs (y's value counts are
 * changed for the call and restored; y_merged: y holds a merged input). */
int pbi_partial_combine_profile(pb_partial *acc, pb_profile *y, const pbi_extra *yx, size_t nyx, int y_merged,
                                const char *source, pb_error *err);

/* Input i becomes FAILED with e (its source the input's name), reported
 * through rules.failed: an input the merge refused (a profile kind that
 * cannot merge), as the flat merge refuses it. 0 or PB_ENOMEM. */
int pbi_partial_fail_input(pb_partial *p, size_t i, const pb_error *e, pb_error *err);

/* The rule that differs between a and b (a field name), or NULL. */
const char *pbi_partial_rules_differ(const pb_merger_options *a, const pb_merger_options *b);

#endif
