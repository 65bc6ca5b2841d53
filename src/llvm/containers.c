/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * containers.c -- LLVM's StringMap and SmallDenseMap iteration orders
 * (containers.h), replayed insertion by insertion.
 */
#include <stdlib.h>
#include <string.h>

#include "llvm/containers.h"

uint32_t pbi_llvm_djb0(const char *s, size_t n) {
    uint32_t h = 0;
    for (size_t i = 0; i < n; i++) h = h * 33 + (uint8_t)s[i];
    return h;
}

static int oom(pb_error *err) { return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory"); }

int pbi_llvm_stringmap_iteration(const uint32_t *h, size_t n, size_t *order, pb_error *err) {
    size_t cap = 16;
    size_t *tab = malloc(cap * sizeof *tab);
    uint32_t *th = malloc(cap * sizeof *th);
    int rc = 0;
    if (!tab || !th) goto fail;
    for (size_t i = 0; i < cap; i++) tab[i] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        size_t b = h[i] & (cap - 1), pr = 1;
        while (tab[b] != SIZE_MAX) b = (b + pr++) & (cap - 1);
        tab[b] = i;
        th[b] = h[i];
        if ((i + 1) * 4 > cap * 3) {
            size_t nc = cap * 2;
            size_t *t2 = malloc(nc * sizeof *t2);
            uint32_t *h2 = malloc(nc * sizeof *h2);
            if (!t2 || !h2) {
                free(t2);
                free(h2);
                goto fail;
            }
            for (size_t j = 0; j < nc; j++) t2[j] = SIZE_MAX;
            for (size_t j = 0; j < cap; j++) {
                if (tab[j] == SIZE_MAX) continue;
                size_t bb = th[j] & (nc - 1), pp = 1;
                while (t2[bb] != SIZE_MAX) bb = (bb + pp++) & (nc - 1);
                t2[bb] = tab[j];
                h2[bb] = th[j];
            }
            free(tab);
            free(th);
            tab = t2;
            th = h2;
            cap = nc;
        }
    }
    for (size_t j = 0, k = 0; j < cap; j++)
        if (tab[j] != SIZE_MAX) order[k++] = tab[j];
    goto out;
fail:
    rc = oom(err);
out:
    free(tab);
    free(th);
    return rc;
}

static uint32_t dense_hash(const pbi_llvm_target *t, uint64_t h) {
    /* DenseMapInfo<uint64_t> was Val * 37 until LLVM 19 (llvm #95734/#96173,
     * June 2024): PBI_LF_INKEY_DENSE_MIX */
    if (!pbi_llvm_has(t, PBI_LF_INKEY_DENSE_MIX)) return (uint32_t)(h * 37u);
    uint64_t x = h * UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 31;
    return (uint32_t)x;
}

int pbi_llvm_dense_iteration(const pbi_llvm_target *t, const uint64_t *hash, size_t n, size_t *order, size_t *nout,
                             pb_error *err) {
    size_t nb = 4, used = 0; /* SmallDenseMap<., ., 4>: 4 inline buckets, then 64 */
    size_t *tab = malloc(nb * sizeof *tab);
    if (!tab) return oom(err);
    for (size_t i = 0; i < nb; i++) tab[i] = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        int found = 0; /* an equal hash is the same entry */
        for (size_t j = 0; j < nb && !found; j++) found = tab[j] != SIZE_MAX && hash[tab[j]] == hash[i];
        if (found) continue;
        if ((used + 1) * 4 >= nb * 3) {
            size_t nn = nb * 2 < 64 ? 64 : nb * 2;
            size_t *t2 = malloc(nn * sizeof *t2);
            if (!t2) {
                free(tab);
                return oom(err);
            }
            for (size_t j = 0; j < nn; j++) t2[j] = SIZE_MAX;
            for (size_t j = 0; j < nb; j++) {
                if (tab[j] == SIZE_MAX) continue;
                size_t b = dense_hash(t, hash[tab[j]]) & (nn - 1), pr = 1;
                while (t2[b] != SIZE_MAX) b = (b + pr++) & (nn - 1);
                t2[b] = tab[j];
            }
            free(tab);
            tab = t2;
            nb = nn;
        }
        size_t b = dense_hash(t, hash[i]) & (nb - 1), pr = 1;
        while (tab[b] != SIZE_MAX) b = (b + pr++) & (nb - 1);
        tab[b] = i;
        used++;
    }
    size_t o = 0;
    for (size_t j = 0; j < nb; j++)
        if (tab[j] != SIZE_MAX) order[o++] = tab[j];
    *nout = o;
    free(tab);
    return 0;
}

/* A function record: its name id and its index. */
typedef struct named {
    pb_str name;
    size_t idx;
} named;

static int by_name_then_index(const void *a, const void *b) {
    const named *x = a, *y = b;
    if (x->name != y->name) return x->name < y->name ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* One name's records: named[first .. first + n), in p's order. */
typedef struct group {
    size_t first, n;
} group;

static int by_first_record(const void *a, const void *b, void *ctx) {
    const named *v = ctx;
    size_t x = v[((const group *)a)->first].idx, y = v[((const group *)b)->first].idx;
    return x < y ? -1 : x > y;
}

int pbi_llvm_writer_order(const pb_profile *p, const pbi_llvm_target *t, size_t *order, pb_error *err) {
    size_t nr = pb_profile_record_count(p), nf = 0, ng = 0, o = 0;
    named *v = malloc((nr ? nr : 1) * sizeof *v);
    group *g = malloc((nr ? nr : 1) * sizeof *g);
    size_t *gorder = malloc((nr ? nr : 1) * sizeof *gorder);
    uint32_t *h32 = malloc((nr ? nr : 1) * sizeof *h32);
    uint64_t *hashes = malloc((nr ? nr : 1) * sizeof *hashes);
    size_t *in = malloc((nr ? nr : 1) * sizeof *in);
    int rc = 0;
    if (!v || !g || !gorder || !h32 || !hashes || !in) {
        rc = oom(err);
        goto out;
    }
    for (size_t i = 0; i < nr; i++) {
        const pb_record *r = pb_profile_record(p, i);
        if (r->kind == PB_REC_FUNCTION) v[nf++] = (named){r->name, i};
    }
    /* the names' groups (a name is one interned id), in order of first record */
    qsort(v, nf, sizeof *v, by_name_then_index);
    for (size_t i = 0; i < nf;) {
        size_t j = i + 1;
        while (j < nf && v[j].name == v[i].name) j++;
        g[ng++] = (group){i, j - i};
        i = j;
    }
    /* shell sort: qsort_r is not C11, and first indices are unique */
    for (size_t gap = ng / 2; gap > 0; gap /= 2)
        for (size_t i = gap; i < ng; i++) {
            group x = g[i];
            size_t j = i;
            while (j >= gap && by_first_record(&g[j - gap], &x, v) > 0) {
                g[j] = g[j - gap];
                j -= gap;
            }
            g[j] = x;
        }
    for (size_t k = 0; k < ng; k++) gorder[k] = k;
    if (!pbi_llvm_has(t, PBI_LF_KEYS_SORTED)) {
        /* the StringMap the names were inserted into, first appearance first */
        for (size_t k = 0; k < ng; k++) {
            size_t len = 0;
            const char *s = pb_profile_str(p, v[g[k].first].name, &len);
            h32[k] = pbi_llvm_djb0(s ? s : "", s ? len : 0);
        }
        if ((rc = pbi_llvm_stringmap_iteration(h32, ng, gorder, err))) goto out;
    }
    for (size_t k = 0; k < ng; k++) {
        const group *gr = &g[gorder[k]];
        for (size_t i = 0; i < gr->n; i++) hashes[i] = pb_profile_record(p, v[gr->first + i].idx)->hash;
        size_t m = 0;
        if ((rc = pbi_llvm_dense_iteration(t, hashes, gr->n, in, &m, err))) goto out;
        for (size_t i = 0; i < m; i++) order[o++] = v[gr->first + in[i]].idx;
        /* a model holds each (name, hash) once, so m == n; were one
         * repeated, it would follow its name's others, never be lost */
        for (size_t i = 0; m < gr->n && i < gr->n; i++) {
            int seen = 0;
            for (size_t j = 0; j < m && !seen; j++) seen = in[j] == i;
            if (!seen) order[o++] = v[gr->first + i].idx;
        }
    }
    for (size_t i = 0; i < nr; i++) /* the records that are no LLVM function */
        if (pb_profile_record(p, i)->kind != PB_REC_FUNCTION) order[o++] = i;
out:
    free(v);
    free(g);
    free(gorder);
    free(h32);
    free(hashes);
    free(in);
    return rc;
}
