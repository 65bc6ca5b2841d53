/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* trace_merge.h -- temporal traces merged as llvm-profdata keeps them (internal). */
#ifndef PB_TRACE_MERGE_H
#define PB_TRACE_MERGE_H

#include <stdint.h>

#include "model/profile_traces.h"

/*
 * Merges traces into dst as llvm-profdata's writer does (reservoir
 * sampling with LLVM's random numbers). Takes src[0..n) -- an array from
 * malloc whose refs it owns -- and frees what it does not keep; src_stream
 * is the stream size of the input the traces came from. Returns 0,
 * PB_ENOMEM or PB_EFORMAT (a sampled stream too large to draw from).
 */
int pbi_merge_traces(pb_profile *dst, pbi_trace *src, size_t n, uint64_t src_stream, uint64_t reservoir,
                     uint64_t max_length, pb_error *err);
/* The same as LLVM 22+'s writer does it (TRACE_RESERVOIR_FILL, trace_merge.c). */
int pbi_merge_traces_fill(pb_profile *dst, pbi_trace *src, size_t n, uint64_t src_stream, uint64_t reservoir,
                          uint64_t max_length, pb_error *err);

/* The generator alone (for tests): std::mt19937 with its default seed, and
 * libstdc++'s uniform_int_distribution<uint64_t>(0, hi) over it. */
pbi_trace_rng *pbi_trace_rng_new(void);
void pbi_trace_rng_free(pbi_trace_rng *g);
uint32_t pbi_trace_rng_next(pbi_trace_rng *g);
uint64_t pbi_trace_rng_uniform(pbi_trace_rng *g, uint64_t hi);

#endif
