/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_traces.h -- a profile's temporal traces as one value that the
 * merge room takes out of the profile, samples (merge/trace_merge.c) and
 * puts back, without seeing the rest of struct pb_profile (internal).
 */
#ifndef PB_PROFILE_TRACES_H
#define PB_PROFILE_TRACES_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/profile.h"

typedef struct pbi_trace {
    uint64_t weight;
    uint64_t *refs; /* malloc'ed */
    size_t n;
} pbi_trace;

/* trace_merge.c's random generator (std::mt19937): one malloc'ed block
 * without pointers, which pb_profile_free frees with free(). */
typedef struct pbi_trace_rng pbi_trace_rng;

/* The traces (v[0..n), cap allocated, from malloc), the number of runs they
 * sample and the merges' generator (NULL until a merge needs it). */
typedef struct pbi_trace_set {
    pbi_trace *v;
    size_t n, cap;
    uint64_t stream_size;
    pbi_trace_rng *rng;
} pbi_trace_set;

/* Moves p's traces, stream size and generator into *out; p then has none. */
void pbi_profile_take_traces(pb_profile *p, pbi_trace_set *out);
/* Moves *in back into p (which must have none: a take before) and empties *in. */
void pbi_profile_put_traces(pb_profile *p, pbi_trace_set *in);

#endif
