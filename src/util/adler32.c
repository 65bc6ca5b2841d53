/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * adler32.c -- Adler-32 (RFC 1950 §8.2): s1 = 1 + the sum of the bytes, s2 =
 * the sum of the s1 after each byte, both mod 65521.
 *
 * zlib's scalar loop was 8% of a raw -> indexed merge of 100k C++ names,
 * which checks it over 15 MB of inflated names (callgrind, bench/shapes.sh
 * cxx). Here a block of 16 bytes b[0..16) adds sum(b) to s1 and
 * 16 * s1 + sum((16 - i) * b[i]) to s2; SSE2 forms both sums in 32-bit
 * lanes, which cannot overflow within BLOCK bytes, and the remainders are
 * taken once per BLOCK.
 */
#include "util/adler32.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define MOD 65521u
/* Bytes between reductions: a multiple of 16 at which no 32-bit lane can
 * overflow (s1 lanes <= BLOCK * 255, the running-s1 lanes <= BLOCK / 16 times
 * that: under 2^31 for BLOCK = 5536). */
#define BLOCK 5536u

static void scalar(uint64_t *a, uint64_t *b, const uint8_t *p, size_t n) {
    uint64_t s1 = *a, s2 = *b;
    for (size_t i = 0; i < n; i++) {
        s1 += p[i];
        s2 += s1;
    }
    *a = s1;
    *b = s2;
}

#if defined(__SSE2__)
/* n a multiple of 16, at most BLOCK: s1 and s2 (not reduced) move on. */
static void block16(uint64_t *a, uint64_t *b, const uint8_t *p, size_t n) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i w_lo = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9);
    const __m128i w_hi = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
    __m128i vs1 = zero;  /* byte sums (two 64-bit lanes from sad) */
    __m128i vrun = zero; /* sum over blocks of the byte sum before each */
    __m128i vs2 = zero;  /* weighted sums (four 32-bit lanes) */
    size_t k = n / 16;
    for (size_t i = 0; i < k; i++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
        vrun = _mm_add_epi32(vrun, vs1);
        vs1 = _mm_add_epi32(vs1, _mm_sad_epu8(v, zero));
        __m128i lo = _mm_unpacklo_epi8(v, zero), hi = _mm_unpackhi_epi8(v, zero);
        vs2 = _mm_add_epi32(vs2, _mm_add_epi32(_mm_madd_epi16(lo, w_lo), _mm_madd_epi16(hi, w_hi)));
    }
    uint32_t t1[4], tr[4], t2[4];
    _mm_storeu_si128((__m128i *)(void *)t1, vs1);
    _mm_storeu_si128((__m128i *)(void *)tr, vrun);
    _mm_storeu_si128((__m128i *)(void *)t2, vs2);
    uint64_t sum = (uint64_t)t1[0] + t1[2]; /* sad puts each half's sum in lanes 0 and 2 */
    uint64_t run = (uint64_t)tr[0] + tr[2];
    uint64_t wsum = (uint64_t)t2[0] + t2[1] + t2[2] + t2[3];
    *b += 16 * ((uint64_t)k * *a + run) + wsum;
    *a += sum;
}
#endif

uint32_t pbu_adler32(uint32_t adler, const uint8_t *p, size_t n) {
    uint64_t a = adler & 0xffffu, b = adler >> 16;
    while (n) {
        size_t m = n < BLOCK ? n : BLOCK;
#if defined(__SSE2__)
        size_t v = m & ~(size_t)15;
        if (v) block16(&a, &b, p, v);
        scalar(&a, &b, p + v, m - v);
#else
        scalar(&a, &b, p, m);
#endif
        a %= MOD;
        b %= MOD;
        p += m;
        n -= m;
    }
    return (uint32_t)(b << 16 | a);
}
