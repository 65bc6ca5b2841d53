/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* intern.c -- byte-blob interning and a u64 -> u32 map; see intern.h. */
#include "util/intern.h"

#include <stdlib.h>
#include <string.h>

#include "profbridge/error.h"
#include "util/grow.h"

uint64_t pbu_hash_bytes(const void *bytes, size_t len) {
    const unsigned char *p = bytes;
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)len;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * UINT64_C(0xbf58476d1ce4e5b9);
        h ^= h >> 29;
        p += 8;
        len -= 8;
    }
    uint64_t w = 0;
    for (size_t i = 0; i < len; i++) w |= (uint64_t)p[i] << (8 * i);
    h = (h ^ w) * UINT64_C(0x94d049bb133111eb);
    return pbu_hash_u64(h);
}

/* Puts id, whose hash is h, in the first free slot of its probe chain
 * (slots: a power of two of them, mask = their count - 1); for an id whose
 * bytes no placed id has, so no comparison is needed. */
static void place(uint32_t *slots, uint32_t mask, uint32_t h, uint32_t id) {
    uint32_t b = h & mask;
    while (slots[b]) b = (b + 1) & mask;
    slots[b] = id + 1;
}

/* Doubles the slots (at least 64), placing ids [0, indexed) again. */
static int grow_slots(pbu_intern *t) {
    uint32_t n = t->nslots ? t->nslots * 2 : 64;
    if (n == 0 || n > (UINT32_C(1) << 31)) return PB_ENOMEM;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s) return PB_ENOMEM;
    for (uint32_t id = 0; id < t->indexed; id++) place(s, n - 1, t->hash[id], id);
    free(t->slots);
    t->slots = s;
    t->nslots = n;
    return 0;
}

static int grow_ids(pbu_intern *t) {
    uint32_t n = t->cap ? t->cap * 2 : 64;
    if (n <= t->cap || n > UINT32_MAX - 1) n = UINT32_MAX - 1;
    if (n <= t->count) return PB_EINVAL;
    const char **d = realloc(t->data, n * sizeof *d);
    if (!d) return PB_ENOMEM;
    t->data = d;
    uint32_t *l = realloc(t->len, n * sizeof *l);
    if (!l) return PB_ENOMEM;
    t->len = l;
    uint32_t *h = realloc(t->hash, n * sizeof *h);
    if (!h) return PB_ENOMEM;
    t->hash = h;
    if (t->aux) {
        uint64_t *a = realloc(t->aux, n * sizeof *a);
        if (!a) return PB_ENOMEM;
        memset(a + t->cap, 0, (n - t->cap) * sizeof *a);
        t->aux = a;
    }
    t->cap = n;
    return 0;
}

int pbu_intern_set_aux(pbu_intern *t, uint32_t id, uint64_t v) {
    if (!t->aux && !(t->aux = calloc(t->cap ? t->cap : 1, sizeof *t->aux))) return PB_ENOMEM;
    t->aux[id] = v;
    return 0;
}

/* Slot index holding the bytes, or the empty slot where they would go. */
static uint32_t probe(const pbu_intern *t, const void *bytes, size_t len, uint32_t h) {
    uint32_t mask = t->nslots - 1, b = h & mask;
    for (;;) {
        uint32_t s = t->slots[b];
        if (!s) return b;
        uint32_t id = s - 1;
        if (t->hash[id] == h && t->len[id] == len && memcmp(t->data[id], bytes, len) == 0)
            return b;
        b = (b + 1) & mask;
    }
}

/* Ids [indexed, count) (pbu_intern_add_new) hashed and placed. */
int pbu_intern_index(pbu_intern *t) {
    if (t->indexed == t->count) return 0;
    /* Keep the load at most 1/2 so probes stay short. */
    while ((uint64_t)t->count * 2 > t->nslots) {
        int rc = grow_slots(t);
        if (rc) return rc;
    }
    for (uint32_t id = t->indexed; id < t->count; id++) {
        t->hash[id] = (uint32_t)pbu_hash_bytes(t->data[id], t->len[id]);
        place(t->slots, t->nslots - 1, t->hash[id], id); /* distinct bytes (add_new's promise) */
    }
    t->indexed = t->count;
    return 0;
}

/* Stores the bytes as the next id: placed in the slots (index) or not. */
static int append(pbu_intern *t, const void *bytes, size_t len, uint32_t h, int index, uint32_t *out) {
    if (index && (uint64_t)(t->count + 1) * 2 > t->nslots) {
        int rc = grow_slots(t);
        if (rc) return rc;
    }
    if (t->count == t->cap) {
        int rc = grow_ids(t);
        if (rc) return rc;
    }
    const char *copy;
    uintptr_t a = (uintptr_t)bytes;
    if (t->adopt_lo && a >= (uintptr_t)t->adopt_lo && a < (uintptr_t)t->adopt_hi &&
        len < (uintptr_t)t->adopt_hi - a && ((const char *)bytes)[len] == '\0') {
        copy = bytes; /* in an adopted block, NUL-terminated: stays there */
    } else {
        char *c = pbu_arena_alloc(&t->arena, len + !t->no_nul, 8);
        if (!c) return PB_ENOMEM;
        if (len) memcpy(c, bytes, len);
        if (!t->no_nul) c[len] = '\0';
        copy = c;
    }
    uint32_t id = t->count++;
    t->data[id] = copy;
    t->len[id] = (uint32_t)len;
    if (index) {
        t->hash[id] = h;
        t->slots[probe(t, copy, len, h)] = id + 1;
        t->indexed = t->count;
    }
    *out = id;
    return 0;
}

int pbu_intern_add(pbu_intern *t, const void *bytes, size_t len, uint32_t *out, int *added) {
    if (added) *added = 0;
    if (len >= UINT32_MAX) return PB_EINVAL;
    int rc = pbu_intern_index(t);
    if (rc) return rc;
    uint32_t h = (uint32_t)pbu_hash_bytes(bytes, len);
    if (t->nslots) {
        uint32_t b = probe(t, bytes, len, h);
        if (t->slots[b]) {
            *out = t->slots[b] - 1;
            return 0;
        }
    }
    if ((rc = append(t, bytes, len, h, 1, out))) return rc;
    if (added) *added = 1;
    return 0;
}

int pbu_intern_add_new(pbu_intern *t, const void *bytes, size_t len, uint32_t *out) {
    if (len >= UINT32_MAX) return PB_EINVAL;
    return append(t, bytes, len, 0, 0, out);
}

int pbu_intern_adopt(pbu_intern *t, void *block, const char *bytes, size_t n) {
    if (t->no_nul) return PB_EINVAL;
    if (pbu_grow((void **)&t->owned, &t->cap_owned, t->nowned + 1, sizeof *t->owned)) return PB_ENOMEM;
    t->owned[t->nowned++] = block;
    t->adopt_lo = bytes;
    t->adopt_hi = bytes + n;
    return 0;
}

int pbu_intern_find(const pbu_intern *t, const void *bytes, size_t len, uint32_t *out) {
    if (len >= UINT32_MAX) return PB_ENOTFOUND;
    if (t->nslots) {
        uint32_t h = (uint32_t)pbu_hash_bytes(bytes, len);
        uint32_t b = probe(t, bytes, len, h);
        if (t->slots[b]) {
            *out = t->slots[b] - 1;
            return 0;
        }
    }
    /* ids not indexed yet (their owner could not index them): one by one */
    for (uint32_t id = t->indexed; id < t->count; id++)
        if (t->len[id] == len && memcmp(t->data[id], bytes, len) == 0) {
            *out = id;
            return 0;
        }
    return PB_ENOTFOUND;
}

int pbu_intern_permute(pbu_intern *dst, const pbu_intern *src, const uint32_t *order, uint32_t k) {
    uint8_t no_nul = dst->no_nul;
    if (k > (UINT32_C(1) << 30)) return PB_ENOMEM; /* grow_slots' bound: 2^31 slots, half full */
    uint32_t cap = k ? k : 1, nslots = 64;
    while ((uint64_t)k * 2 > nslots) nslots *= 2;
    dst->data = malloc(cap * sizeof *dst->data);
    dst->len = malloc(cap * sizeof *dst->len);
    dst->hash = malloc(cap * sizeof *dst->hash);
    dst->slots = calloc(nslots, sizeof *dst->slots);
    if (src->aux) dst->aux = malloc(cap * sizeof *dst->aux);
    if (!dst->data || !dst->len || !dst->hash || !dst->slots || (src->aux && !dst->aux)) {
        pbu_intern_free(dst);
        dst->no_nul = no_nul;
        return PB_ENOMEM;
    }
    dst->cap = cap;
    dst->nslots = nslots;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t o = order[i];
        /* ids pbu_intern_add_new left unhashed get their hash here */
        uint32_t h = o < src->indexed ? src->hash[o] : (uint32_t)pbu_hash_bytes(src->data[o], src->len[o]);
        dst->data[i] = src->data[o];
        dst->len[i] = src->len[o];
        dst->hash[i] = h;
        if (dst->aux) dst->aux[i] = src->aux[o];
        place(dst->slots, nslots - 1, h, i); /* distinct ids of a table: distinct bytes */
    }
    dst->count = dst->indexed = k;
    return 0;
}

void pbu_intern_take_storage(pbu_intern *dst, pbu_intern *src) {
    dst->arena = src->arena;
    dst->owned = src->owned;
    dst->nowned = src->nowned;
    dst->cap_owned = src->cap_owned;
    dst->adopt_lo = src->adopt_lo;
    dst->adopt_hi = src->adopt_hi;
    memset(&src->arena, 0, sizeof src->arena);
    src->owned = NULL;
    src->nowned = src->cap_owned = 0;
    src->adopt_lo = src->adopt_hi = NULL;
}

void pbu_intern_pop(pbu_intern *t) {
    if (!t->count) return;
    uint32_t id = t->count - 1;
    if (id < t->indexed) {
        uint32_t b = probe(t, t->data[id], t->len[id], t->hash[id]);
        t->slots[b] = 0;
        t->indexed--;
    }
    if (t->aux) t->aux[id] = 0;
    t->count--;
}

void pbu_intern_free(pbu_intern *t) {
    uint8_t no_nul = t->no_nul;
    pbu_arena_free(&t->arena);
    for (size_t i = 0; i < t->nowned; i++) free(t->owned[i]);
    free(t->owned);
    free(t->data);
    free(t->len);
    free(t->hash);
    free(t->aux);
    free(t->slots);
    memset(t, 0, sizeof *t);
    t->no_nul = no_nul; /* reusable with the same kind of blobs */
}

/* ---- u64 -> u32 map ---------------------------------------------------- */

static int map_grow(pbu_map *m) {
    uint32_t n = m->nslots ? m->nslots * 2 : 64;
    if (n == 0 || n > (UINT32_C(1) << 31)) return PB_ENOMEM;
    uint64_t *k = calloc(n, sizeof *k);
    uint32_t *v = calloc(n, sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return PB_ENOMEM;
    }
    for (uint32_t i = 0; i < m->nslots; i++) {
        if (!m->vals[i]) continue;
        uint32_t b = (uint32_t)pbu_hash_u64(m->keys[i]) & (n - 1);
        while (v[b]) b = (b + 1) & (n - 1);
        k[b] = m->keys[i];
        v[b] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = k;
    m->vals = v;
    m->nslots = n;
    return 0;
}

int pbu_map_put(pbu_map *m, uint64_t key, uint32_t val) {
    if ((uint64_t)(m->count + 1) * 2 > m->nslots) {
        int rc = map_grow(m);
        if (rc) return rc;
    }
    uint32_t mask = m->nslots - 1, b = (uint32_t)pbu_hash_u64(key) & mask;
    while (m->vals[b]) {
        if (m->keys[b] == key) return 0;
        b = (b + 1) & mask;
    }
    m->keys[b] = key;
    m->vals[b] = val + 1;
    m->count++;
    return 0;
}

int pbu_map_get(const pbu_map *m, uint64_t key, uint32_t *val) {
    if (!m->nslots) return PB_ENOTFOUND;
    uint32_t mask = m->nslots - 1, b = (uint32_t)pbu_hash_u64(key) & mask;
    while (m->vals[b]) {
        if (m->keys[b] == key) {
            *val = m->vals[b] - 1;
            return 0;
        }
        b = (b + 1) & mask;
    }
    return PB_ENOTFOUND;
}

void pbu_map_free(pbu_map *m) {
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}
