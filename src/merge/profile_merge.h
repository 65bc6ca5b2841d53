/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_merge.h -- the parts of profile_merge.c (pb_profile_merge,
 * profbridge/profile.h) the merger needs apart from a whole merge.
 */
#ifndef PBI_PROFILE_MERGE_H
#define PBI_PROFILE_MERGE_H

#include <stdint.h>

#include "profbridge/error.h"
#include "profbridge/profile.h"

/* The variant flags that make a profile's kind (InstrProfKind): every
 * PB_VARIANT_* but the raw-only debug-info correlation, and PB_KIND_FRONTEND. */
#define PBI_MERGE_KIND_FLAGS ((PB_VARIANT_MASK & ~PB_VARIANT_DBG_CORRELATE) | PB_KIND_FRONTEND)

/*
 * The kind check of llvm-profdata's mergeWriterContexts, which merges the
 * writer of one thread into another's (merge on T > 1 threads): src's kind
 * (variant flags, PB_KIND_FRONTEND) into dst's, as InstrProfWriter::
 * mergeProfileKind merges them, under llvm_release's rules (13..24; 0: the
 * default). An empty writer (no input merged, or only inputs without any
 * kind bit) has flags 0: as dst it takes src's kind, as src it still
 * conflicts with a front-end text kind (and, 24, with single-byte counters).
 * Before MERGE_CONTEXT_KINDS (16) nothing is checked.
 * Returns 0; PB_EFORMAT with the conflict's own words (llvm-profdata prints
 * them as "error: WORDS" and exits 1); PB_EINVAL for an unknown release.
 */
int pbi_merge_context_kinds(uint64_t dst_flags, uint64_t src_flags, int llvm_release, pb_error *err);

/*
 * pb_profile_merge of one llvm-profdata writer into another (the merger's
 * writer contexts): every kind of problem a record meets is reported through
 * o->diag (mergeWriterContexts' Warn sees each), where pb_profile_merge
 * reports a record's first (loadInput's `Reported`); and src's vtable names
 * that dst lacks are not carried (its values keep their MD5, no name), as
 * mergeRecordsFromWriter leaves the writer's vtable names behind. Returns
 * as pb_profile_merge.
 */
int pbi_profile_merge_writer(pb_profile *dst, const pb_profile *src, const pb_merge_options *o, pb_error *err);

#endif
