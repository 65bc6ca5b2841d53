/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* iprof_map.c -- an open-addressing int64 -> uint32 map for file ids. */
#include <stdlib.h>

#include "iprof_map.h"

static size_t slot_of(int64_t key, size_t cap) {
    uint64_t h = (uint64_t)key * UINT64_C(0x9E3779B97F4A7C15);
    h ^= h >> 29;
    return (size_t)(h & (cap - 1));
}

void pbi_idmap_free(pbi_idmap *m) {
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}

int pbi_idmap_get(const pbi_idmap *m, int64_t key, uint32_t *val) {
    if (!m->cap) return 0;
    for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        const pbi_idmap_slot *s = &m->slots[i];
        if (!s->used) return 0;
        if (s->key == key) {
            if (val) *val = s->val;
            return 1;
        }
    }
}

static int grow(pbi_idmap *m) {
    size_t ncap = m->cap ? m->cap * 2 : 64;
    if (ncap < m->cap || ncap > SIZE_MAX / sizeof(pbi_idmap_slot)) return PB_ENOMEM;
    pbi_idmap_slot *ns = calloc(ncap, sizeof *ns);
    if (!ns) return PB_ENOMEM;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].used) continue;
        size_t j = slot_of(m->slots[i].key, ncap);
        while (ns[j].used) j = (j + 1) & (ncap - 1);
        ns[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    return 0;
}

int pbi_idmap_put(pbi_idmap *m, int64_t key, uint32_t val) {
    if ((m->count + 1) * 4 > m->cap * 3) {
        int rc = grow(m);
        if (rc) return rc;
    }
    size_t i = slot_of(key, m->cap);
    while (m->slots[i].used && m->slots[i].key != key) i = (i + 1) & (m->cap - 1);
    if (!m->slots[i].used) {
        m->slots[i].used = 1;
        m->slots[i].key = key;
        m->count++;
    }
    m->slots[i].val = val;
    return 0;
}

int pbi_idmap_dense(const pbi_idmap *m, uint32_t **dense, size_t *n) {
    int64_t max = -1;
    *dense = NULL;
    *n = 0;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->slots[i].used) continue;
        if (m->slots[i].key < 0) return 0;
        if (m->slots[i].key > max) max = m->slots[i].key;
    }
    if (max < 0 || (uint64_t)max >= 4 * (uint64_t)m->count + 1024) return 0;
    uint32_t *d = malloc(((size_t)max + 1) * sizeof *d);
    if (!d) return PB_ENOMEM;
    for (int64_t i = 0; i <= max; i++) d[i] = UINT32_MAX;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].used) d[m->slots[i].key] = m->slots[i].val;
    *dense = d;
    *n = (size_t)max + 1;
    return 0;
}
