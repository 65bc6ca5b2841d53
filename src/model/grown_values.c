/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * grown_values.c -- room for the value arrays a merge grows
 * (pbi_profile_values_room, profile_records.h).
 *
 * The profile's arrays live in its arena, which frees nothing before the
 * profile goes. A merge that gave each grown site a new array of exactly
 * its new size left the old one behind on every input that added a value:
 * a site that ends with 16 values left 1 + 2 + ... + 15 behind. Here each
 * block handed out is remembered with its capacity: a site grows in place
 * while its block has room, grows to the next power of two when not, and
 * the block it leaves is handed to the next site that needs that much.
 */
#include <stdint.h>

#include "model/profile_internal.h"
#include "model/profile_records.h"
#include "util/intern.h"

/* floor(log2(n)) for n > 0 */
static unsigned log2_floor(uint64_t n) {
    unsigned r = 0;
    while (n >>= 1) r++;
    return r;
}

/* A kept block of class c (capacity >= 2^c), or NULL. */
static void *take_kept(pb_profile *p, unsigned c) {
    void *b = p->grown_free[c];
    if (b) p->grown_free[c] = *(void **)b;
    return b;
}

static void keep(pb_profile *p, void *b, uint32_t cap) {
    unsigned c = log2_floor(cap);
    *(void **)b = p->grown_free[c];
    p->grown_free[c] = b;
}

pb_value *pbi_profile_values_room(pb_profile *p, const pb_value *old, size_t k) {
    uint32_t old_cap = 0;
    int ours = old && pbu_map_get(&p->grown_cap, (uint64_t)(uintptr_t)old, &old_cap) == 0;
    if (ours && old_cap >= k) return (pb_value *)(uintptr_t)old;
    /* Past 2^31 values a capacity does not fit the map's u32: exact, not kept. */
    if (k > (size_t)1 << 31) return pbu_arena_alloc(&p->arena, k * sizeof(pb_value), 8);
    /* First growth exact; later ones to the next power of two. */
    unsigned want = log2_floor(k) + ((k & (k - 1)) != 0); /* ceil(log2(k)) */
    size_t cap = ours ? (size_t)1 << want : k;
    pb_value *b = want < PBI_GROWN_CLASSES ? take_kept(p, want) : NULL;
    if (!b) {
        b = pbu_arena_alloc(&p->arena, cap * sizeof *b, 8);
        if (!b) return NULL;
        /* On failure the block stays unused in the arena: p is as it was. */
        if (pbu_map_put(&p->grown_cap, (uint64_t)(uintptr_t)b, (uint32_t)cap)) return NULL;
    }
    if (ours) keep(p, (void *)(uintptr_t)old, old_cap);
    return b;
}
