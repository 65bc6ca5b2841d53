/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * intern.h -- byte-blob interning and a small u64 -> u32 map (internal).
 *
 * The model interns strings, frame arrays (contexts), int arrays (branch
 * layouts) and the keys of symbols and methods with one structure: equal
 * bytes get equal dense ids 0, 1, 2, ... in first-seen order. The bytes are
 * stored once, in an arena, 8-byte aligned and (unless no_nul) followed by a
 * NUL byte, so a blob can be read back as a string, a pb_frame[] or an int32_t[]
 * (strings may instead stay, unaligned, in a block given by pbu_intern_adopt).
 */
#ifndef PB_INTERN_H
#define PB_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"

typedef struct pbu_intern {
    pbu_arena arena;
    const char **data; /* per id: the stored bytes */
    uint32_t *len;     /* per id: their length */
    uint32_t *hash;    /* per id: hash, kept so growing never rehashes bytes */
    uint64_t *aux;     /* per id: a value the owner caches (0 = none), NULL until
                          the first pbu_intern_set_aux (the model: a string's MD5) */
    uint32_t count, cap;
    uint32_t indexed;  /* ids [0, indexed) are in slots (and hash); the rest were added
                          by pbu_intern_add_new and wait for pbu_intern_index */
    uint32_t *slots;   /* open addressing: id + 1, 0 = empty */
    uint32_t nslots;   /* a power of two, or 0 */
    void **owned;      /* malloc'ed blocks given by pbu_intern_adopt, freed with t */
    size_t nowned, cap_owned;
    const char *adopt_lo, *adopt_hi; /* the last adopted block's bytes */
    uint8_t no_nul;    /* 1: blobs are not strings; store no NUL (saves 8 bytes
                          per 8-byte-multiple blob such as a context) */
} pbu_intern;

#define PBU_INTERN_INIT {PBU_ARENA_INIT, NULL, NULL, NULL, NULL, 0, 0, 0, NULL, 0, NULL, 0, 0, NULL, NULL, 0}

/* 64-bit hash of bytes (not cryptographic; for tables). */
uint64_t pbu_hash_bytes(const void *bytes, size_t len);
/* Mixes a 64-bit value (for tables keyed by integers). */
static inline uint64_t pbu_hash_u64(uint64_t x) {
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}

/* Interns the bytes. *out = the id; *added (may be NULL) = 1 when new.
 * Returns 0, PB_ENOMEM, or PB_EINVAL when len >= 4 GiB or ids run out. */
int pbu_intern_add(pbu_intern *t, const void *bytes, size_t len, uint32_t *out, int *added);
/* Adds bytes the caller knows are in t under no id (a reader's names that
 * are distinct by their MD5, into a table that had no strings): a new id,
 * neither hashed nor placed in the slots until the next pbu_intern_add or
 * pbu_intern_index (interning 100k such names cost 6% of a raw -> indexed
 * merge and their slots 1 MB: callgrind, massif). Equal bytes under two
 * ids break the table: the caller's guarantee is what makes this safe.
 * Returns 0, PB_ENOMEM, or PB_EINVAL as pbu_intern_add. */
int pbu_intern_add_new(pbu_intern *t, const void *bytes, size_t len, uint32_t *out);
/* Hashes and places the ids pbu_intern_add_new added: 0 or PB_ENOMEM (then
 * they stay as they were, and pbu_intern_find still finds them, one by one). */
int pbu_intern_index(pbu_intern *t);
/* Gives t the malloc'ed block (freed with t); bytes[0..n) inside it that are
 * added later and followed by a NUL inside it are then kept where they are,
 * not copied (a reader's decoded names: a copy of all of them was a fifth of
 * the peak memory of a raw -> indexed merge of 100k C++ names, massif).
 * Strings only (not no_nul). Returns 0 or PB_ENOMEM (then t owns nothing). */
int pbu_intern_adopt(pbu_intern *t, void *block, const char *bytes, size_t n);
/* Fills dst, which must be empty (PBU_INTERN_INIT, or freed), with ids
 * order[0..k) of src as its ids 0..k-1: dst's data point at src's stored
 * bytes (not copied), src's hashes and aux values come along (not
 * recomputed) and dst's slots are built from them. Canonicalizing a 60k-method
 * iprof re-interned (copied and hashed) every string, context and layout:
 * pbu_intern_add was 8% of an iprof -> indexed convert (perf). order must
 * hold distinct ids < src->count. dst owns no storage: its bytes stay valid
 * only while src's do, until pbu_intern_take_storage. Returns 0, or
 * PB_ENOMEM (dst is then empty again; also for k > 2^30, the most ids a
 * table's slots hold). */
int pbu_intern_permute(pbu_intern *dst, const pbu_intern *src, const uint32_t *order, uint32_t k);
/* Moves src's storage (arena chunks and adopted blocks) to dst, whose own
 * arena is empty and which owns no adopted block (a table made by
 * pbu_intern_permute); src keeps its ids, whose bytes now belong to dst,
 * so src may only be freed afterwards. Never fails. */
void pbu_intern_take_storage(pbu_intern *dst, pbu_intern *src);
/* Finds the id of the bytes: 0 or PB_ENOTFOUND. */
int pbu_intern_find(const pbu_intern *t, const void *bytes, size_t len, uint32_t *out);
static inline const void *pbu_intern_get(const pbu_intern *t, uint32_t id, size_t *len) {
    if (len) *len = t->len[id];
    return t->data[id];
}
/* The value cached for id (0 = none) and setting it (0 or PB_ENOMEM). */
static inline uint64_t pbu_intern_aux(const pbu_intern *t, uint32_t id) { return t->aux ? t->aux[id] : 0; }
int pbu_intern_set_aux(pbu_intern *t, uint32_t id, uint64_t v);
/* Removes the most recently added id (its bytes stay in the arena). Safe for
 * the probe chains because no key was placed after it. */
void pbu_intern_pop(pbu_intern *t);
void pbu_intern_free(pbu_intern *t);

/* u64 -> u32 map, open addressing; the first value put under a key stays. */
typedef struct pbu_map {
    uint64_t *keys;
    uint32_t *vals; /* value + 1, 0 = empty slot */
    uint32_t count;
    uint32_t nslots; /* power of two, or 0 */
} pbu_map;

#define PBU_MAP_INIT {NULL, NULL, 0, 0}

/* Puts key -> val unless the key is present. Returns 0 or PB_ENOMEM.
 * val must be < UINT32_MAX. */
int pbu_map_put(pbu_map *m, uint64_t key, uint32_t val);
/* 0 and *val, or PB_ENOTFOUND. */
int pbu_map_get(const pbu_map *m, uint64_t key, uint32_t *val);
void pbu_map_free(pbu_map *m);

#endif
