/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_records.h -- what the rooms above the model may do to a
 * profile's records beyond profile.h (internal): the merge's unchecked
 * append after its own checks, the record index, the lookup index that
 * tells "absent" from "out of memory", and room for the value arrays a
 * merge grows. Defined in profile_records.c, the room in grown_values.c.
 */
#ifndef PB_PROFILE_RECORDS_H
#define PB_PROFILE_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/profile.h"

/* Index of the record with r's key, or SIZE_MAX. */
size_t pbi_find_record(const pb_profile *p, const pb_record *r);
/* Copies `rec` into the profile without any validation or key check
 * (the caller did both); *index = its position. Returns 0, PB_EINVAL (too
 * many records) or PB_ENOMEM; p is unchanged after a failure. */
int pbi_append_record(pb_profile *p, const pb_record *rec, size_t *index, pb_error *err);
/* Makes room for `more` records past the present ones at once, exactly
 * (a reader that knows its record count: no doubling, no copy as the
 * array grows, no unused tail). Returns 0 (also when the count is past
 * what pbi_append_record accepts: nothing is reserved then) or PB_ENOMEM;
 * the records are unchanged either way. */
int pbi_profile_reserve_records(pb_profile *p, size_t more);
/* Validates a record against p (see pb_profile_add_record): 0, PB_EINVAL
 * or PB_EFORMAT, with err saying why. */
int pbi_validate_record(const pb_profile *p, const pb_record *rec, pb_error *err);
/* Puts p's records in the order order[0..n) (n = pb_profile_record_count(p),
 * each index once): the record at order[k] becomes record k. Their
 * contents, names and tables stay; indices held by the caller do not.
 * Returns 0, PB_EINVAL (order is not a permutation) or PB_ENOMEM; p is
 * unchanged after a failure. */
int pbi_profile_permute_records(pb_profile *p, const size_t *order, pb_error *err);
/*
 * Room for k values (k > 0) to replace `old`, the values of one site of a
 * record of p, which a merge grows: `old` itself when this function gave it
 * before with room for k, else a block of the profile's arena (freed with
 * the profile). A block that this function gave and that no longer fits is
 * kept for a later call (its first bytes are overwritten): the caller
 * writes all k values into the block returned. So a site merged from many
 * inputs takes blocks of 2^n values and leaves at most one of each size
 * behind, for other sites, not one block per input that adds a value (a
 * -j 2 merge of 1,000 raws: such blocks were 11.5 MB of a 22 MB heap, for
 * 435 KB of values in the output). The first growth of a site is exact:
 * a merge of two profiles grows most sites once. Each block handed out is
 * remembered in a map (12 bytes a slot, at most half of them used): two
 * 100k-function raws with value sites merge in the same peak memory and
 * time as before. Returns NULL when out of memory (p unchanged: `old`
 * keeps its values).
 */
pb_value *pbi_profile_values_room(pb_profile *p, const pb_value *old, size_t k);

/* Builds the index pb_profile_lookup uses now (PB_ENOMEM when it cannot):
 * pb_profile_lookup answers 0 when it cannot build it, which a caller that
 * must tell "absent" from "out of memory" cannot read (diff called a record
 * only in A under alloc-sweep). */
int pbi_profile_build_lookup(const pb_profile *p);

/* The first record (in record order) whose LLVM name is `name` and whose
 * hash (as pb_profile_record_name gives it) is `hash`: *idx, or SIZE_MAX;
 * *named (when not NULL): some record has this name, with any hash. In
 * log n after a first call that sorts an index (n log n), however many
 * records share the name. Returns 0 or PB_ENOMEM (no index: *idx SIZE_MAX,
 * which must not be read as "absent"). Safe from several threads. */
int pbi_profile_find_name_hash(const pb_profile *p, const void *name, size_t len, uint64_t hash, size_t *idx,
                               int *named);

#endif
