/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* arena.c -- bump allocator; see arena.h. */
#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/hugepage.h"

/* Chunks grow from 4 KiB to 1 MiB: a tiny profile (the model is also used
 * for scratch profiles) reserves little, a big one pays one malloc per MiB.
 * Requests above a quarter of the largest chunk get a chunk of their own so
 * they do not waste the current one. */
#define MIN_CHUNK ((size_t)4096)
#define CHUNK_SIZE ((size_t)1 << 20)

/* An arena past HUGE_FROM bytes (a 100k-function coverage, a big
 * profile) takes HUGE_CHUNK chunks, aligned to and marked for huge pages
 * (util/hugepage.h): its memory is written once, front to back. At most
 * one huge page of a chunk is touched and unused. */
#define HUGE_FROM ((size_t)8 << 20)
#define HUGE_CHUNK ((size_t)4 << 20)

struct pbu_arena_chunk {
    pbu_arena_chunk *next;
    size_t size;
    /* data follows, aligned to 16 */
};

#define HEADER_SIZE ((sizeof(pbu_arena_chunk) + 15) & ~(size_t)15)

static void *new_chunk(pbu_arena *a, size_t data_size, int make_current) {
    if (data_size > SIZE_MAX - HEADER_SIZE) return NULL;
    size_t bytes = HEADER_SIZE + data_size;
    pbu_arena_chunk *c;
    if (bytes >= PBU_HUGE_FROM) {
        void *p = NULL;
        c = posix_memalign(&p, PBU_HUGE_PAGE, bytes) ? NULL : p;
        if (c) pbu_hugepage_hint(c, bytes);
    } else {
        c = malloc(bytes);
    }
    if (!c) return NULL;
    c->size = data_size;
    a->total += HEADER_SIZE + data_size;
    char *data = (char *)c + HEADER_SIZE;
    if (make_current || !a->head) {
        c->next = a->head;
        a->head = c;
        a->cur = data;
        a->left = data_size;
    } else {
        /* A big private chunk goes behind the current one so the current
         * chunk's free space stays usable. */
        c->next = a->head->next;
        a->head->next = c;
    }
    return data;
}

void *pbu_arena_alloc(pbu_arena *a, size_t n, size_t align) {
    size_t pad = (size_t)(-(uintptr_t)a->cur) & (align - 1);
    if (a->cur && pad <= a->left && n <= a->left - pad) {
        char *p = a->cur + pad;
        a->cur = p + n;
        a->left -= pad + n;
        return p;
    }
    if (n > CHUNK_SIZE / 4) {
        /* Own chunk; 16-aligned by construction. n == 0 never gets here. */
        if (!a->head) {
            if (!new_chunk(a, MIN_CHUNK, 1)) return NULL;
        }
        return new_chunk(a, n, 0);
    }
    size_t size = a->head ? a->head->size * 2 : MIN_CHUNK;
    if (size > CHUNK_SIZE) size = a->total >= HUGE_FROM ? HUGE_CHUNK - HEADER_SIZE : CHUNK_SIZE;
    while (size < n) size *= 2;
    char *data = new_chunk(a, size, 1);
    if (!data) return NULL;
    a->cur = data + n;
    a->left = size - n;
    return data;
}

void *pbu_arena_dup(pbu_arena *a, const void *src, size_t n, size_t align) {
    void *p = pbu_arena_alloc(a, n, align);
    if (p && n) memcpy(p, src, n);
    return p;
}

void pbu_arena_free(pbu_arena *a) {
    pbu_arena_chunk *c = a->head;
    while (c) {
        pbu_arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
    a->cur = NULL;
    a->left = 0;
    a->total = 0;
}
