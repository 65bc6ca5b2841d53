/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* read_merge.h -- pb_read_options.merge_into over the record-visitor contract (read_merge.c). */
#ifndef PBI_READ_MERGE_H
#define PBI_READ_MERGE_H

#include "profbridge/sys/format.h"

/* o->merge_into for plugin f (f->merges_by_visit): visits `in` (from
 * `prepared`, f->prepare's state of it, when not NULL) and merges each
 * record into o->merge_into as it is read. Returns 0, PB_EINVAL for bad
 * merge options, or what the visit and pb_profile_merge return; a failure
 * leaves in o->merge_into what pb_read_options.merge_into says (the records
 * merged so far; none of the input's profile-level data). */
int pbi_merge_by_visit(const pb_format *f, pb_source *in, void *prepared, const pb_read_options *o,
                       pb_error *err);

#endif
