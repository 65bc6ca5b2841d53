/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * mt19937.c -- std::mt19937 and the libstdc++ distributions LLVM draws
 * from (mt19937.h).
 */
#include "llvm/mt19937.h"

void pbi_mt19937_seed(pbi_mt19937 *g, uint32_t seed) {
    g->mt[0] = seed;
    for (unsigned i = 1; i < 624; i++) g->mt[i] = 1812433253u * (g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) + i;
    g->i = 624;
}

uint32_t pbi_mt19937_next(pbi_mt19937 *g) {
    if (g->i >= 624) {
        for (unsigned k = 0; k < 624; k++) {
            uint32_t y = (g->mt[k] & 0x80000000u) | (g->mt[(k + 1) % 624] & 0x7fffffffu);
            g->mt[k] = g->mt[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        g->i = 0;
    }
    uint32_t y = g->mt[g->i++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

uint64_t pbi_mt19937_uniform_u64(pbi_mt19937 *g, uint64_t hi) {
    if (hi < UINT32_MAX) { /* downscaling: _S_nd with a 64-bit product */
        uint32_t range = (uint32_t)(hi + 1);
        uint64_t product = (uint64_t)pbi_mt19937_next(g) * range;
        uint32_t low = (uint32_t)product;
        if (low < range) {
            uint32_t threshold = (uint32_t)(0u - range) % range;
            while (low < threshold) {
                product = (uint64_t)pbi_mt19937_next(g) * range;
                low = (uint32_t)product;
            }
        }
        return product >> 32;
    }
    if (hi == UINT32_MAX) return pbi_mt19937_next(g);
    /* upscaling: a draw of the high part, then one 32-bit word */
    const uint64_t erng = UINT64_C(1) << 32;
    uint64_t ret, tmp;
    do {
        tmp = erng * pbi_mt19937_uniform_u64(g, hi / erng);
        ret = tmp + pbi_mt19937_next(g);
    } while (ret > hi || ret < tmp);
    return ret;
}

float pbi_mt19937_canonical_float(pbi_mt19937 *g) { return pbi_canonical_float_of(pbi_mt19937_next(g)); }

float pbi_canonical_float_of(uint32_t u) {
    /* generate_canonical: bits b = min(24, 24); the engine gives log2(2^32)
     * = 32 bits a call, so k = max(1, (24 + 32 - 1) / 32) = 1 call. The sum
     * and the divisor are float (_RealType): (float)u * 1.0f / 4294967296.0f.
     * uniform_real_distribution then returns ret * (1 - 0) + 0 = ret. */
    float ret = (float)u / 4294967296.0f;
    /* u >= 2^32 - 128 rounds to 2^32: std::nextafter(1.f, 0.f) = 1 - 2^-24 */
    if (ret >= 1.0f) ret = 0x1.fffffep-1f;
    return ret;
}
