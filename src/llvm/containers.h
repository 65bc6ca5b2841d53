/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * containers.h -- the iteration orders of the LLVM containers llvm-profdata's
 * writer keeps its records in (spec §3.12), THE one emulation (internal):
 * the indexed writer (formats/indexed/indexed_write.c) writes in them, and
 * the merger (src/merger/merger_run.c) inserts one per-thread writer's
 * records into another in them, as InstrProfWriter::mergeRecordsFromWriter
 * walks its FunctionData.
 */
#ifndef PB_LLVM_CONTAINERS_H
#define PB_LLVM_CONTAINERS_H

#include <stddef.h>
#include <stdint.h>

#include "llvm/target.h"
#include "profbridge/profile.h"

/* LLVM 14's StringMap hash of a name: djb starting at 0 (until LLVM 19's
 * XXH3; the writer asks only while keys are not sorted, KEYS_SORTED). */
uint32_t pbi_llvm_djb0(const char *s, size_t n);

/*
 * The iteration order of an LLVM StringMap/StringSet filled with n keys
 * whose 32-bit hashes are h[0..n), in insertion order: open addressing, 16
 * buckets at first, triangular probing, doubling when more than 3/4 full
 * with a rehash in old bucket order (which can change who wins a probe, so
 * it is replayed, not sized once). order[k] = the insertion index of the
 * k-th key. Returns 0 or PB_ENOMEM (err set; order undefined).
 */
int pbi_llvm_stringmap_iteration(const uint32_t *h, size_t n, size_t *order, pb_error *err);

/*
 * The iteration order of the writer's SmallDenseMap<uint64_t, record, 4>
 * of one name, filled with the function hashes hash[0..n) in insertion
 * order, under release t's DenseMapInfo<uint64_t> (x*37 until
 * INKEY_DENSE_MIX). order[k] = the insertion index of the k-th entry; a
 * repeated hash is the same entry (*nout counts the entries). Returns 0 or
 * PB_ENOMEM (err set).
 */
int pbi_llvm_dense_iteration(const pbi_llvm_target *t, const uint64_t *hash, size_t n, size_t *order, size_t *nout,
                             pb_error *err);

/*
 * The order in which llvm-profdata's writer of release t walks the function
 * records of p when p's order is the order they were added in: names in its
 * StringMap's order (before KEYS_SORTED; after it, as added: the output
 * sorts them) and each name's records in its SmallDenseMap's order; the
 * records that are not LLVM functions last, in p's order. order[] gets all
 * pb_profile_record_count(p) indices. Returns 0 or PB_ENOMEM (err set).
 */
int pbi_llvm_writer_order(const pb_profile *p, const pbi_llvm_target *t, size_t *order, pb_error *err);

#endif
