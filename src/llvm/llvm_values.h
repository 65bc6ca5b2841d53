/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * llvm_values.h -- value-site helpers shared by the LLVM indexed and text
 * plugins (internal).
 *
 * LLVM stores indirect-call and vtable targets as NameRefs (MD5). Names come
 * back through the profile's own records (function targets) or its symbols
 * (vtable names, and target names that are no record of the profile).
 */
#ifndef PB_LLVM_VALUES_H
#define PB_LLVM_VALUES_H

#include <stddef.h>

#include "profbridge/profile.h"

/* Sets pb_value.symbol for kind-0/2 values that have none: kind 2 when a
 * symbol has that NameRef; kind 0 only when no record has that name (a
 * function target stays PB_NONE and is named through the records). */
void pbi_llvm_bind_symbols(pb_profile *p);

/* The name a kind-0/2 value stands for, or NULL when unknown (0 included). */
const char *pbi_llvm_value_name(const pb_profile *p, const pb_value *v, size_t *len);

/* Copies site `s` into out[] in LLVM's writer order: stable sort by count,
 * descending, cut to `max` values (0 = no cut). Returns the number kept. */
size_t pbi_llvm_sort_site(const pb_site *s, pb_value *out, size_t max);

/*
 * Sorts v[0..n) by value, ascending, exactly as llvm-profdata 19+ does
 * (InstrProfValueSiteRecord::sortByTargetValues = llvm::sort = libstdc++'s
 * std::sort: introsort, median-of-3 pivot, insertion sort below 17 values,
 * heapsort past 2*log2(n) levels). It is not stable: values that are equal
 * -- several targets of value 0 (unknown addresses in a raw file), or one
 * name twice -- come out in that algorithm's order, which decides which of
 * them meet in a merge or an overlap. LLVM 13-18 (std::list::sort) are
 * stable: use a stable sort for them (target.h VALUE_SORT_UNSTABLE).
 */
void pbi_llvm_std_sort_by_value(pb_value *v, size_t n);

#endif
