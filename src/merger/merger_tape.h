/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merger_tape.h -- one raw input's records read ahead on a feed thread and
 * kept (the "tape"), so the merging thread only merges them.
 *
 * Why: with two threads the merging thread used to read each raw input's
 * records itself (streaming, pb_read_options.merge_into) while the other
 * thread only mapped and indexed the next input; reading the records is
 * about 40% of the work (callgrind, 50 raws of bench/many_merge.sh), so the
 * second core idled and -j 2 was no faster than -j 1. Now the feed thread
 * visits the input (the same reader code, the same checks and warnings)
 * into a tape, and the merging thread replays it through the same streaming
 * merge (merge/merge_stream.h) the visit would have fed: the same records in
 * the same order, the same calls, so the same profile and diagnostics.
 *
 * A tape holds what the streaming merge uses: each record (counters,
 * bitmap, value sites, the name's bytes, its profile's flags), where each
 * profile begins, the reader's diagnostics, and the input's profile-level
 * data (flags, origin, binary ids). An input whose profile-level data holds
 * more (value symbols, temporal traces, properties) is not taped
 * (PB_EUNSUPPORTED): the merging thread reads it itself as before.
 */
#ifndef PBI_MERGER_TAPE_H
#define PBI_MERGER_TAPE_H

#include "profbridge/format.h"
#include "profbridge/merge.h"

typedef struct pbi_tape pbi_tape;

/* A new empty tape. Returns 0 or PB_ENOMEM (*out NULL). */
int pbi_tape_new(pbi_tape **out, pb_error *err);

/*
 * Visits prepared input pr (pbi_visit_prepared: raw inputs only) with read
 * options ro (its diag is not called: diagnostics are kept) into tape t,
 * emptied first (its memory is reused). names_home: a profile of the calling thread's own, never merged
 * into, on which the raw reader keeps its decoded names section for the
 * next input with the same section (raw_names_cache.h keys it on
 * merge_into; a visit given it only looks it up and keeps it there).
 * Returns 0, or (t empty, pr unused) PB_EUNSUPPORTED (see
 * above), PB_ENOMEM, or the read's error: the caller then reads pr as it
 * would have without a tape.
 */
int pbi_tape_record(pbi_tape *t, pb_prepared *pr, const pb_read_options *ro, pb_profile *names_home,
                    pb_error *err);

/* The reader's diagnostics, in the order raised, to diag (NULL: none). */
void pbi_tape_replay_diags(const pbi_tape *t, pb_diag_fn diag, void *diag_ctx);

/*
 * Merges the tape into dst with options mo (weight, release rules, the
 * merge's own diagnostics) exactly as the streaming merge of the input
 * (registry/read_merge.c) does: every record, then the profile-level data.
 * Returns 0 or what that merge returns (a kind conflict, PB_ENOMEM); on
 * failure the records merged so far stay, as they do there.
 */
int pbi_tape_merge(const pbi_tape *t, pb_profile *dst, const pb_merge_options *mo, pb_error *err);

void pbi_tape_free(pbi_tape *t);

#endif
