/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * mt19937.h -- the random numbers LLVM's tools draw, bit for bit (internal).
 *
 * llvm-profdata's output depends on std::mt19937 in two places: merge's
 * temporal-trace reservoir (trace_merge.c, default seed) and order's
 * balanced partitioning (order.c, seeded with the bucket number). The
 * Debian/Ubuntu LLVM binaries are built against libstdc++, so the
 * distributions are libstdc++'s (their algorithms are not fixed by the C++
 * standard; libc++ builds of LLVM would draw other numbers).
 */
#ifndef PB_MT19937_H
#define PB_MT19937_H

#include <stdint.h>

/* std::mt19937's state; plain data, so it can live on the stack. */
typedef struct pbi_mt19937 {
    uint32_t mt[624];
    unsigned i;
} pbi_mt19937;

/* std::mt19937(seed); std::mt19937's default seed is 5489. */
#define PBI_MT19937_DEFAULT_SEED 5489u
void pbi_mt19937_seed(pbi_mt19937 *g, uint32_t seed);

/* operator(): the next 32-bit output. */
uint32_t pbi_mt19937_next(pbi_mt19937 *g);

/* libstdc++'s std::uniform_int_distribution<uint64_t>(0, hi)(g): Lemire's
 * nearly-divisionless method below 2^32 (libstdc++ >= 11), one draw for
 * hi == 2^32 - 1, its upscaling loop above. */
uint64_t pbi_mt19937_uniform_u64(pbi_mt19937 *g, uint64_t hi);

/* libstdc++'s std::uniform_real_distribution<float>(0.f, 1.f)(g), i.e.
 * std::generate_canonical<float, 24>(g): ONE draw u, (float)u / 2^32f in
 * float arithmetic, and the largest float below 1 if that rounds to 1. */
float pbi_mt19937_canonical_float(pbi_mt19937 *g);
/* The same for a given engine output u (for tests). */
float pbi_canonical_float_of(uint32_t u);

#endif
