/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merge_stream.h -- the streaming side of pb_profile_merge, for
 * pb_read_options.merge_into (src/registry/read_merge.c): instead of reading a
 * model of the input and merging it afterwards, the input is visited
 * (pb_visit) and each function record goes to pbi_merge_stream_function as
 * it is read; the input's profile-level data (flags, binary ids, traces,
 * symbols) comes in a side profile without records (the visit's
 * end_input head), merged at the end by pbi_merge_stream_finish.
 * The result equals reading the input and calling pb_profile_merge: the
 * same code merges the records (merge_one) and the profile-level data
 * (pb_profile_merge of the side profile), in the same order.
 */
#ifndef PBI_MERGE_STREAM_H
#define PBI_MERGE_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "model/import.h"
#include "profbridge/profile.h"

typedef struct pbi_merge_scratch {
    pb_value *a;
    size_t cap;
    /* whether value sites are sorted with std::sort's order (the release's
     * PBI_LF_VALUE_SORT_UNSTABLE): 0 = not looked up yet, 1 = no, 2 = yes.
     * Looked up once per scratch (one set of merge options): per record,
     * the release table lookup was 13% of a 200-.profdata merge. */
    int std_sort;
    /* every kind of problem a record meets is reported, not the first only
     * (llvm-profdata's mergeWriterContexts: no `Reported`, its Warn sees each) */
    int every_problem;
} pbi_merge_scratch;

typedef struct pbi_merge_stream {
    pb_profile *dst;
    const pb_merge_options *o;
    uint64_t flags;  /* the input's variant flags so far: the reader keeps them current */
    int started;     /* a record was merged (the kind check is done then, once) */
    size_t next;     /* records handed in so far: dst's record there is the first guess */
    pbi_importer im; /* side's symbols in dst (model/import.h) */
    pbi_merge_scratch s;
} pbi_merge_stream;

/* o NULL = PB_MERGE_OPTIONS_INIT. Returns 0, or PB_EINVAL for bad options. */
int pbi_merge_stream_init(pbi_merge_stream *m, pb_profile *dst, const pb_merge_options *o,
                          pb_error *err);

/*
 * Merges one PB_REC_FUNCTION record whose name is name[0..len) (rec->name is
 * ignored). Its value symbols are indices of `side` (the reader's profile of
 * profile-level data): side's symbols not yet in dst are imported first, in
 * side's order as pb_profile_merge imports them, and the record is merged
 * with dst's indices. *name_id caches the name's id in dst across calls
 * (PB_NONE: not known yet). The first call checks the kinds (m->flags
 * against dst) before it changes anything, as pb_profile_merge does first.
 */
int pbi_merge_stream_function(pbi_merge_stream *m, const pb_profile *side, const pb_record *rec, const char *name,
                              size_t len, pb_str *name_id, pb_error *err);

/* The next records come from another side profile (a raw file's next
 * profile, in a head of its own): its symbols are mapped afresh. */
void pbi_merge_stream_new_side(pbi_merge_stream *m);

/* The input was read: merges side (its profile-level data, no records). */
int pbi_merge_stream_finish(pbi_merge_stream *m, const pb_profile *side, pb_error *err);

/* The input failed half-way: the records merged so far stay, and so do the
 * input's flags once a record was merged (llvm-profdata merges the profile
 * kind before it reads records); nothing else of the input is merged. */
void pbi_merge_stream_fail(pbi_merge_stream *m);

void pbi_merge_stream_free(pbi_merge_stream *m);

#endif
