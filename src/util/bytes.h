/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * bytes.h -- explicit byte order and checked size arithmetic (internal).
 *
 * Binary readers never cast a struct over input: every field is decoded with
 * pb_get_u*() in the file's byte order. Every offset/size computation that
 * comes from input goes through pb_add_u64/pb_mul_u64 and is compared with
 * the bytes remaining *before* a pointer is formed.
 */
#ifndef PB_BYTES_H
#define PB_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The value of PB_ORDER_BE (enum pb_byte_order, profbridge/profile.h): the
 * enum is the model's, so util names its value here, and model/profile.c
 * asserts at compile time that the two agree. */
#define PBU_BYTES_BE 2

static inline uint16_t pb_get_u16(const uint8_t *p, int order) {
    return order == PBU_BYTES_BE ? (uint16_t)((p[0] << 8) | p[1]) : (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t pb_get_u32(const uint8_t *p, int order) {
    if (order == PBU_BYTES_BE)
        return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
    return ((uint32_t)p[3] << 24) | ((uint32_t)p[2] << 16) | ((uint32_t)p[1] << 8) | p[0];
}
/* Written out as one expression (not a loop) so that gcc and clang turn it
 * into a single load (and a bswap for BE): the loop stayed a byte loop,
 * a fifth of the indexed record decoder. */
static inline uint64_t pb_get_u64(const uint8_t *p, int order) {
    if (order == PBU_BYTES_BE)
        return ((uint64_t)p[0] << 56) | ((uint64_t)p[1] << 48) | ((uint64_t)p[2] << 40) | ((uint64_t)p[3] << 32) |
               ((uint64_t)p[4] << 24) | ((uint64_t)p[5] << 16) | ((uint64_t)p[6] << 8) | p[7];
    return ((uint64_t)p[7] << 56) | ((uint64_t)p[6] << 48) | ((uint64_t)p[5] << 40) | ((uint64_t)p[4] << 32) |
           ((uint64_t)p[3] << 24) | ((uint64_t)p[2] << 16) | ((uint64_t)p[1] << 8) | p[0];
}
/* Stores written out byte by byte in a fixed order (not a loop whose index
 * depends on the order) so that gcc and clang merge them into one store: the
 * loop stayed a byte loop, 78M of 884M instructions of a raw -> indexed
 * merge of 100k C++ functions (callgrind, bench/shapes.sh cxx, indexed writer). */
static inline void pb_put_u16(uint8_t *p, uint16_t v, int order) {
    if (order == PBU_BYTES_BE) {
        p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v;
    } else {
        p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
    }
}
static inline void pb_put_u32(uint8_t *p, uint32_t v, int order) {
    if (order == PBU_BYTES_BE) {
        p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
    } else {
        p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
    }
}
static inline void pb_put_u64(uint8_t *p, uint64_t v, int order) {
    if (order == PBU_BYTES_BE) {
        p[0] = (uint8_t)(v >> 56), p[1] = (uint8_t)(v >> 48), p[2] = (uint8_t)(v >> 40), p[3] = (uint8_t)(v >> 32);
        p[4] = (uint8_t)(v >> 24), p[5] = (uint8_t)(v >> 16), p[6] = (uint8_t)(v >> 8), p[7] = (uint8_t)v;
    } else {
        p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
        p[4] = (uint8_t)(v >> 32), p[5] = (uint8_t)(v >> 40), p[6] = (uint8_t)(v >> 48), p[7] = (uint8_t)(v >> 56);
    }
}

/* *out = a + b; returns 0 on overflow (then *out is unspecified), 1 otherwise. */
static inline int pb_add_u64(uint64_t *out, uint64_t a, uint64_t b) {
    return !__builtin_add_overflow(a, b, out);
}
static inline int pb_mul_u64(uint64_t *out, uint64_t a, uint64_t b) {
    return !__builtin_mul_overflow(a, b, out);
}
/* Saturating a + b*w, clamped to max (LLVM's SaturatingMultiplyAdd + clamp). */
static inline uint64_t pb_sat_madd(uint64_t a, uint64_t b, uint64_t w, uint64_t max) {
    uint64_t prod, sum;
    if (__builtin_mul_overflow(b, w, &prod) || __builtin_add_overflow(a, prod, &sum) || sum > max)
        return max;
    return sum;
}
/* Orders byte strings as LLVM sorts names: memcmp, and a prefix before the longer string. */
static inline int pbu_bytes_cmp(const void *a, size_t al, const void *b, size_t bl) {
    size_t n = al < bl ? al : bl;
    int c = n ? memcmp(a, b, n) : 0;
    if (c) return c;
    return al < bl ? -1 : al > bl;
}
/* Zero bytes that round n up to a multiple of 8. */
static inline uint64_t pb_pad8(uint64_t n) { return (8 - n % 8) & 7; }

#endif
