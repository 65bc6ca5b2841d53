/*
 * indexed_xxh3.c -- XXH3-64 (seed 0, default secret), the hash LLVM 19's
 * StringMap uses. The indexed writer needs it only to put vtable names in
 * the order LLVM's StringSet iterates them (§3.10). Written from the public
 * XXH3 specification; checked against libxxhash for lengths 0..2100.
 */
#include <stddef.h>
#include <stdint.h>

#include "indexed_internal.h"

static const uint8_t secret[192] = {
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c,
    0xf7, 0x21, 0xad, 0x1c, 0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb,
    0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f, 0xcb, 0x79, 0xe6, 0x4e,
    0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6,
    0x81, 0x3a, 0x26, 0x4c, 0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb,
    0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3, 0x71, 0x64, 0x48, 0x97,
    0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7,
    0xc7, 0x0b, 0x4f, 0x1d, 0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31,
    0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64, 0xea, 0xc5, 0xac, 0x83,
    0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26,
    0x29, 0xd4, 0x68, 0x9e, 0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc,
    0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce, 0x45, 0xcb, 0x3a, 0x8f,
    0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
};

#define P32_1 UINT64_C(0x9E3779B1)
#define P32_2 UINT64_C(0x85EBCA77)
#define P32_3 UINT64_C(0xC2B2AE3D)
#define P64_1 UINT64_C(0x9E3779B185EBCA87)
#define P64_2 UINT64_C(0xC2B2AE3D27D4EB4F)
#define P64_3 UINT64_C(0x165667B19E3779F9)
#define P64_4 UINT64_C(0x85EBCA77C2B2AE63)
#define P64_5 UINT64_C(0x27D4EB2F165667C5)
#define PMX_1 UINT64_C(0x165667919E3779F9)
#define PMX_2 UINT64_C(0x9FB21C651E98DF25)

static uint64_t r64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}
static uint32_t r32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
static uint64_t swap64(uint64_t x) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | ((x >> (8 * i)) & 0xff);
    return v;
}

/* 64x64 -> 128 multiply, folded: low ^ high. */
static uint64_t mul_fold(uint64_t a, uint64_t b) {
    uint64_t al = a & 0xffffffff, ah = a >> 32, bl = b & 0xffffffff, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t cross = (ll >> 32) + (hl & 0xffffffff) + lh;
    uint64_t hi = (hl >> 32) + (cross >> 32) + hh;
    uint64_t lo = (cross << 32) | (ll & 0xffffffff);
    return lo ^ hi;
}

static uint64_t avalanche(uint64_t h) {
    h ^= h >> 37;
    h *= PMX_1;
    return h ^ (h >> 32);
}
static uint64_t xxh64_avalanche(uint64_t h) {
    h ^= h >> 33;
    h *= P64_2;
    h ^= h >> 29;
    h *= P64_3;
    return h ^ (h >> 32);
}
static uint64_t rrmxmx(uint64_t h, uint64_t len) {
    h ^= rotl(h, 49) ^ rotl(h, 24);
    h *= PMX_2;
    h ^= (h >> 35) + len;
    h *= PMX_2;
    return h ^ (h >> 28);
}
static uint64_t mix16(const uint8_t *in, const uint8_t *sec) {
    return mul_fold(r64(in) ^ r64(sec), r64(in + 8) ^ r64(sec + 8));
}

static uint64_t len_0to16(const uint8_t *in, size_t len) {
    if (len > 8) {
        uint64_t lo = r64(in) ^ (r64(secret + 24) ^ r64(secret + 32));
        uint64_t hi = r64(in + len - 8) ^ (r64(secret + 40) ^ r64(secret + 48));
        return avalanche(len + swap64(lo) + hi + mul_fold(lo, hi));
    }
    if (len >= 4) {
        uint64_t in64 = r32(in + len - 4) + ((uint64_t)r32(in) << 32);
        return rrmxmx(in64 ^ (r64(secret + 8) ^ r64(secret + 16)), len);
    }
    if (len > 0) {
        uint32_t c = ((uint32_t)in[0] << 16) | ((uint32_t)in[len >> 1] << 24) | in[len - 1] | ((uint32_t)len << 8);
        return xxh64_avalanche((uint64_t)c ^ (uint64_t)(r32(secret) ^ r32(secret + 4)));
    }
    return xxh64_avalanche(r64(secret + 56) ^ r64(secret + 64));
}

static uint64_t len_17to128(const uint8_t *in, size_t len) {
    uint64_t acc = len * P64_1;
    if (len > 32) {
        if (len > 64) {
            if (len > 96) {
                acc += mix16(in + 48, secret + 96);
                acc += mix16(in + len - 64, secret + 112);
            }
            acc += mix16(in + 32, secret + 64);
            acc += mix16(in + len - 48, secret + 80);
        }
        acc += mix16(in + 16, secret + 32);
        acc += mix16(in + len - 32, secret + 48);
    }
    acc += mix16(in, secret);
    acc += mix16(in + len - 16, secret + 16);
    return avalanche(acc);
}

static uint64_t len_129to240(const uint8_t *in, size_t len) {
    uint64_t acc = len * P64_1, end;
    size_t rounds = len / 16;
    for (size_t i = 0; i < 8; i++) acc += mix16(in + 16 * i, secret + 16 * i);
    end = mix16(in + len - 16, secret + 136 - 17);
    acc = avalanche(acc);
    for (size_t i = 8; i < rounds; i++) end += mix16(in + 16 * i, secret + 16 * (i - 8) + 3);
    return avalanche(acc + end);
}

static void acc512(uint64_t acc[8], const uint8_t *in, const uint8_t *sec) {
    for (int i = 0; i < 8; i++) {
        uint64_t v = r64(in + 8 * i), k = v ^ r64(sec + 8 * i);
        acc[i ^ 1] += v;
        acc[i] += (k & 0xffffffff) * (k >> 32);
    }
}

static uint64_t hash_long(const uint8_t *in, size_t len) {
    uint64_t acc[8] = {P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1};
    const size_t stripes = (sizeof secret - 64) / 8, block = 64 * stripes;
    size_t blocks = (len - 1) / block;
    for (size_t b = 0; b < blocks; b++) {
        for (size_t s = 0; s < stripes; s++) acc512(acc, in + b * block + 64 * s, secret + 8 * s);
        for (int i = 0; i < 8; i++) { /* scramble */
            uint64_t a = acc[i];
            a ^= a >> 47;
            a ^= r64(secret + sizeof secret - 64 + 8 * i);
            acc[i] = a * P32_1;
        }
    }
    size_t last = ((len - 1) - block * blocks) / 64;
    for (size_t s = 0; s < last; s++) acc512(acc, in + blocks * block + 64 * s, secret + 8 * s);
    acc512(acc, in + len - 64, secret + sizeof secret - 64 - 7);
    uint64_t r = len * P64_1;
    for (int i = 0; i < 4; i++)
        r += mul_fold(acc[2 * i] ^ r64(secret + 11 + 16 * i), acc[2 * i + 1] ^ r64(secret + 11 + 16 * i + 8));
    return avalanche(r);
}

uint64_t pbi_xxh3_64(const void *data, size_t len) {
    const uint8_t *in = data;
    if (len <= 16) return len_0to16(in, len);
    if (len <= 128) return len_17to128(in, len);
    if (len <= 240) return len_129to240(in, len);
    return hash_long(in, len);
}
