/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* iprof_map.h -- the int64 -> uint32 map of file ids (iprof_map.c), a header
 * of its own so that the map needs nothing else of the plugin. */
#ifndef PB_IPROF_MAP_H
#define PB_IPROF_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/error.h"

/* file ids -> model indices */
typedef struct pbi_idmap_slot {
    int64_t key;
    uint32_t val;
    uint32_t used; /* one cache line holds key, value and state */
} pbi_idmap_slot;
typedef struct pbi_idmap {
    pbi_idmap_slot *slots;
    size_t cap, count;
} pbi_idmap;
#define PBI_IDMAP_INIT {NULL, 0, 0}
void pbi_idmap_free(pbi_idmap *m);
/* 1 and *val when found, else 0. */
int pbi_idmap_get(const pbi_idmap *m, int64_t key, uint32_t *val);
/* Inserts or replaces. 0 or PB_ENOMEM. */
int pbi_idmap_put(pbi_idmap *m, int64_t key, uint32_t val);

/* A direct table for maps whose keys are small non-negative ids (real files:
 * ids below a few times the table size): dense[id] = value or PB_NONE. Sets
 * *dense = NULL when the ids are too sparse. 0 or PB_ENOMEM. */
int pbi_idmap_dense(const pbi_idmap *m, uint32_t **dense, size_t *n);

/* Lookup through the direct table first, then the map. */
static inline int pbi_idmap_lookup(const pbi_idmap *m, const uint32_t *dense, size_t n,
                                   int64_t key, uint32_t *val) {
    if (dense && key >= 0 && (uint64_t)key < n && dense[key] != UINT32_MAX) {
        *val = dense[key];
        return 1;
    }
    return pbi_idmap_get(m, key, val);
}

#endif
