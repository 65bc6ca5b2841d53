/* iprof_map.c -- an open-addressing int64 -> uint32 map for file ids. */
#include <stdlib.h>

#include "iprof_int.h"

static size_t slot_of(int64_t key, size_t cap) {
    uint64_t h = (uint64_t)key * UINT64_C(0x9E3779B97F4A7C15);
    h ^= h >> 29;
    return (size_t)(h & (cap - 1));
}

void pbi_idmap_free(pbi_idmap *m) {
    free(m->keys);
    free(m->vals);
    free(m->used);
    m->keys = NULL;
    m->vals = NULL;
    m->used = NULL;
    m->cap = m->count = 0;
}

int pbi_idmap_get(const pbi_idmap *m, int64_t key, uint32_t *val) {
    if (!m->cap) return 0;
    for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->used[i]) return 0;
        if (m->keys[i] == key) {
            if (val) *val = m->vals[i];
            return 1;
        }
    }
}

static int grow(pbi_idmap *m) {
    size_t ncap = m->cap ? m->cap * 2 : 64;
    if (ncap < m->cap) return PB_ENOMEM;
    pbi_idmap n = {calloc(ncap, sizeof(int64_t)), calloc(ncap, sizeof(uint32_t)),
                   calloc(ncap, 1), ncap, 0};
    if (!n.keys || !n.vals || !n.used) {
        pbi_idmap_free(&n);
        return PB_ENOMEM;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->used[i]) continue;
        size_t j = slot_of(m->keys[i], ncap);
        while (n.used[j]) j = (j + 1) & (ncap - 1);
        n.used[j] = 1;
        n.keys[j] = m->keys[i];
        n.vals[j] = m->vals[i];
        n.count++;
    }
    pbi_idmap_free(m);
    *m = n;
    return 0;
}

int pbi_idmap_put(pbi_idmap *m, int64_t key, uint32_t val) {
    if ((m->count + 1) * 4 > m->cap * 3) {
        int rc = grow(m);
        if (rc) return rc;
    }
    size_t i = slot_of(key, m->cap);
    while (m->used[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
    if (!m->used[i]) {
        m->used[i] = 1;
        m->keys[i] = key;
        m->count++;
    }
    m->vals[i] = val;
    return 0;
}
