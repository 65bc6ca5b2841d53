/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * arena.h -- a bump allocator in big chunks (internal).
 *
 * Records' counters, bitmaps, sites and values, interned strings and frame
 * arrays all live in arenas: one malloc per chunk instead of one per array
 * keeps a 700k-record profile small and its teardown cheap. Memory is given
 * back only by pbu_arena_free (or pbu_arena_reset).
 */
#ifndef PB_ARENA_H
#define PB_ARENA_H

#include <stddef.h>

typedef struct pbu_arena_chunk pbu_arena_chunk;

typedef struct pbu_arena {
    pbu_arena_chunk *head; /* newest chunk first */
    char *cur;             /* next free byte of head */
    size_t left;           /* bytes free in head */
    size_t total;          /* bytes malloc'ed so far (for statistics) */
} pbu_arena;

#define PBU_ARENA_INIT {NULL, NULL, 0, 0}

/* n bytes aligned to `align` (a power of two <= 16), or NULL when out of
 * memory. n == 0 returns a valid non-NULL pointer. */
void *pbu_arena_alloc(pbu_arena *a, size_t n, size_t align);
/* Copy of n bytes (n may be 0; src may then be NULL). */
void *pbu_arena_dup(pbu_arena *a, const void *src, size_t n, size_t align);
/* Frees every chunk; the arena is empty and reusable afterwards. */
void pbu_arena_free(pbu_arena *a);

#endif
