/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile_canonical.c -- puts a profile in an order that depends only on
 * its content, so profiles read from id-shuffled files become identical
 * table by table:
 *   strings  : the referenced ones only, by bytes (memcmp, shorter first);
 *   symbols  : by name bytes, placeholders after them by id;
 *   methods  : placeholders last (by id); by name bytes, then signature
 *              element-wise by canonical symbol order, shorter first;
 *   contexts : the referenced ones, frames compared by (canonical method,
 *              bci), shorter first; int arrays (layouts) likewise;
 *   records  : functions first by (name bytes, hash), then Java records by
 *              (kind, context, layout).
 * Every allocation happens before the first change, so a failure leaves
 * the profile as it was.
 */
#include <stdlib.h>
#include <string.h>

#include "util/bytes.h"
#include "util/grow.h"
#include "model/profile_internal.h"
#include "util/sort.h"
#include "util/api.h"

static int cmp_i64(int64_t a, int64_t b) { return a < b ? -1 : a > b; }

typedef struct canon {
    pb_profile *p;
    uint32_t *str_new, *sym_new, *meth_new, *ctx_new, *ints_new;
    pbu_intern strs, sym_keys, meth_keys, ctxs, ints, tmp_ctxs;
    pb_symbol *syms;
    pb_method *meths;
    pbu_map sym_by_md5;
    uint32_t *order;       /* scratch ids */
    pb_record *recs;       /* records in the new order */
    pbi_rname *rnames;     /* their cached names */
    uint32_t *key_slots;
    size_t key_nslots;
} canon;

static int cmp_str(void *ctx, uint32_t a, uint32_t b) {
    const pbu_intern *t = &((canon *)ctx)->p->strs;
    return pbu_bytes_cmp(t->data[a], t->len[a], t->data[b], t->len[b]);
}

static int cmp_sym(void *ctx, uint32_t a, uint32_t b) {
    const pb_profile *p = ((canon *)ctx)->p;
    const pb_symbol *x = &p->syms[a], *y = &p->syms[b];
    if (x->placeholder != y->placeholder) return x->placeholder ? 1 : -1;
    if (x->placeholder) return cmp_i64(x->placeholder_id, y->placeholder_id);
    return cmp_str(ctx, x->name, y->name);
}

static int cmp_meth(void *ctx, uint32_t a, uint32_t b) {
    canon *c = ctx;
    const pb_method *x = &c->p->meths[a], *y = &c->p->meths[b];
    if (x->placeholder != y->placeholder) return x->placeholder ? 1 : -1;
    if (x->placeholder) return cmp_i64(x->placeholder_id, y->placeholder_id);
    int r = cmp_str(ctx, x->name, y->name);
    if (r) return r;
    for (uint32_t i = 0; i < x->num_sig && i < y->num_sig; i++) {
        uint32_t u = c->sym_new[x->sig[i]], v = c->sym_new[y->sig[i]];
        if (u != v) return u < v ? -1 : 1;
    }
    return x->num_sig < y->num_sig ? -1 : x->num_sig > y->num_sig;
}

/* tmp_ctxs hold frames already renumbered to canonical methods. */
static int cmp_ctx(void *ctx, uint32_t a, uint32_t b) {
    const pbu_intern *t = &((canon *)ctx)->tmp_ctxs;
    const pb_frame *x = (const pb_frame *)(const void *)t->data[a];
    const pb_frame *y = (const pb_frame *)(const void *)t->data[b];
    size_t nx = t->len[a] / sizeof *x, ny = t->len[b] / sizeof *y;
    for (size_t i = 0; i < nx && i < ny; i++) {
        if (x[i].method != y[i].method) return x[i].method < y[i].method ? -1 : 1;
        if (x[i].bci != y[i].bci) return x[i].bci < y[i].bci ? -1 : 1;
    }
    return nx < ny ? -1 : nx > ny;
}

static int cmp_ints(void *ctx, uint32_t a, uint32_t b) {
    const pbu_intern *t = &((canon *)ctx)->p->ints;
    const int32_t *x = (const int32_t *)(const void *)t->data[a];
    const int32_t *y = (const int32_t *)(const void *)t->data[b];
    size_t nx = t->len[a] / 4, ny = t->len[b] / 4;
    for (size_t i = 0; i < nx && i < ny; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return nx < ny ? -1 : nx > ny;
}

/* Records compared with the NEW string/context/layout ids (monotone in
 * content), which canonicalize computes before sorting. */
static int cmp_rec(void *ctx, uint32_t a, uint32_t b) {
    canon *c = ctx;
    const pb_record *x = &c->p->recs[a], *y = &c->p->recs[b];
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1; /* PB_REC_FUNCTION is 0 */
    if (x->kind == PB_REC_FUNCTION) {
        uint32_t u = c->str_new[x->name], v = c->str_new[y->name];
        if (u != v) return u < v ? -1 : 1;
        return x->hash < y->hash ? -1 : x->hash > y->hash;
    }
    uint32_t u = x->ctx == PB_NONE ? PB_NONE : c->ctx_new[x->ctx];
    uint32_t v = y->ctx == PB_NONE ? PB_NONE : c->ctx_new[y->ctx];
    if (u != v) return u < v ? -1 : 1;
    u = x->layout == PB_NONE ? PB_NONE : c->ints_new[x->layout];
    v = y->layout == PB_NONE ? PB_NONE : c->ints_new[y->layout];
    if (u != v) return u < v ? -1 : 1;
    return x->hash < y->hash ? -1 : x->hash > y->hash;
}

static uint32_t *alloc_map(size_t n) {
    uint32_t *m = malloc((n ? n : 1) * sizeof *m);
    if (m)
        for (size_t i = 0; i < n; i++) m[i] = PB_NONE;
    return m;
}

/* Fills c->order with 0..n-1 and sorts it. */
static int sorted_ids(canon *c, size_t n, pbu_id_cmp cmp) {
    for (size_t i = 0; i < n; i++) c->order[i] = (uint32_t)i;
    return pbu_sort_ids(c->order, n, cmp, c);
}

/* The scratch order (as large as the largest table) and the old -> new id maps. */
static int alloc_maps(canon *c) {
    pb_profile *p = c->p;
    size_t ns = p->strs.count, nsym = p->sym_keys.count, nm = p->meth_keys.count;
    size_t nc = p->ctxs.count, ni = p->ints.count, nr = p->num_recs;
    size_t most = ns;
    if (nsym > most) most = nsym;
    if (nm > most) most = nm;
    if (nc > most) most = nc;
    if (ni > most) most = ni;
    if (nr > most) most = nr;
    c->order = malloc((most ? most : 1) * sizeof *c->order);
    c->str_new = alloc_map(ns);
    c->sym_new = alloc_map(nsym);
    c->meth_new = alloc_map(nm);
    c->ctx_new = alloc_map(nc);
    c->ints_new = alloc_map(ni);
    if (!c->order || !c->str_new || !c->sym_new || !c->meth_new || !c->ctx_new || !c->ints_new)
        return PB_ENOMEM;
    return 0;
}

/* Strings: the referenced ones, by bytes. str_new marks them first. */
static int canon_strings(canon *c) {
    pb_profile *p = c->p;
    size_t ns = p->strs.count, nsym = p->sym_keys.count, nm = p->meth_keys.count, nr = p->num_recs;
    int rc;
    for (size_t i = 0; i < nsym; i++)
        if (!p->syms[i].placeholder) c->str_new[p->syms[i].name] = 0;
    for (size_t i = 0; i < nm; i++)
        if (!p->meths[i].placeholder) c->str_new[p->meths[i].name] = 0;
    for (size_t i = 0; i < nr; i++)
        if (p->recs[i].kind == PB_REC_FUNCTION) c->str_new[p->recs[i].name] = 0;
    size_t k = 0;
    for (size_t i = 0; i < ns; i++)
        if (c->str_new[i] == 0) c->order[k++] = (uint32_t)i;
    if ((rc = pbu_sort_ids(c->order, k, cmp_str, c))) return rc;
    if ((rc = pbu_intern_permute(&c->strs, &p->strs, c->order, (uint32_t)k))) return rc;
    for (size_t i = 0; i < k; i++) c->str_new[c->order[i]] = (uint32_t)i;
    return 0;
}

static int canon_symbols(canon *c) {
    pb_profile *p = c->p;
    size_t nsym = p->sym_keys.count;
    int rc;
    uint32_t id;
    if ((rc = sorted_ids(c, nsym, cmp_sym))) return rc;
    c->syms = malloc((nsym ? nsym : 1) * sizeof *c->syms);
    if (!c->syms) return PB_ENOMEM;
    for (size_t i = 0; i < nsym; i++) {
        pb_symbol s = p->syms[c->order[i]];
        uint32_t key[3] = {PB_NONE, (uint32_t)(uint64_t)s.placeholder_id,
                           (uint32_t)((uint64_t)s.placeholder_id >> 32)};
        size_t words = 3;
        if (!s.placeholder) {
            s.name = c->str_new[s.name];
            key[0] = s.name;
            words = 1;
        }
        if ((rc = pbu_intern_add(&c->sym_keys, key, words * 4, &id, NULL))) return rc;
        pbi_set_symbol(&c->syms[id], s.name, s.md5, s.placeholder, s.placeholder_id);
        c->sym_new[c->order[i]] = id;
        if ((rc = pbu_map_put(&c->sym_by_md5, s.md5, id))) return rc;
    }
    return 0;
}

/* Methods: keys rebuilt with new string and symbol ids. */
static int canon_methods(canon *c) {
    pb_profile *p = c->p;
    size_t nm = p->meth_keys.count;
    int rc;
    uint32_t id;
    if ((rc = sorted_ids(c, nm, cmp_meth))) return rc;
    c->meths = malloc((nm ? nm : 1) * sizeof *c->meths);
    uint32_t *key = NULL;
    size_t cap_key = 0;
    if (!c->meths) return PB_ENOMEM;
    for (size_t i = 0; i < nm && !rc; i++) {
        const pb_method *m = &p->meths[c->order[i]];
        size_t words = m->placeholder ? 3 : 1 + (size_t)m->num_sig;
        if ((rc = pbu_grow((void **)&key, &cap_key, words, sizeof *key))) break;
        if (m->placeholder) {
            key[0] = PB_NONE;
            key[1] = (uint32_t)(uint64_t)m->placeholder_id;
            key[2] = (uint32_t)((uint64_t)m->placeholder_id >> 32);
        } else {
            key[0] = c->str_new[m->name];
            for (uint32_t j = 0; j < m->num_sig; j++) key[1 + j] = c->sym_new[m->sig[j]];
        }
        if ((rc = pbu_intern_add(&c->meth_keys, key, words * 4, &id, NULL))) break;
        const uint32_t *stored = (const uint32_t *)(const void *)c->meth_keys.data[id];
        if (m->placeholder)
            pbi_set_method(&c->meths[id], PB_NONE, 0, NULL, 1, m->placeholder_id);
        else
            pbi_set_method(&c->meths[id], stored[0], m->num_sig, stored + 1, 0, 0);
        c->meth_new[c->order[i]] = id;
    }
    free(key);
    return rc;
}

/* The referenced contexts with their frames renumbered (ctx_new holds the temporary id). */
static int renumber_frames(canon *c) {
    pb_profile *p = c->p;
    size_t nc = p->ctxs.count;
    int rc = 0;
    pb_frame *fr = NULL;
    size_t cap_fr = 0;
    for (size_t i = 0; i < nc && !rc; i++) {
        if (c->ctx_new[i] == PB_NONE) continue;
        size_t n = p->ctxs.len[i] / sizeof(pb_frame);
        const pb_frame *f = (const pb_frame *)(const void *)p->ctxs.data[i];
        if ((rc = pbu_grow((void **)&fr, &cap_fr, n, sizeof *fr))) break;
        for (size_t j = 0; j < n; j++) fr[j] = (pb_frame){c->meth_new[f[j].method], f[j].bci};
        rc = pbu_intern_add(&c->tmp_ctxs, fr, n * sizeof *fr, &c->ctx_new[i], NULL);
    }
    free(fr);
    return rc;
}

/* Contexts: the referenced ones, renumbered, then sorted; tmp id -> final id via order. */
static int canon_contexts(canon *c) {
    size_t nc = c->p->ctxs.count;
    int rc = renumber_frames(c);
    if (rc) return rc;
    uint32_t ntmp = c->tmp_ctxs.count;
    if ((rc = sorted_ids(c, ntmp, cmp_ctx))) return rc;
    /* the final table is tmp_ctxs in order; it takes tmp_ctxs' bytes at commit */
    if ((rc = pbu_intern_permute(&c->ctxs, &c->tmp_ctxs, c->order, ntmp))) return rc;
    uint32_t *final_of_tmp = alloc_map(ntmp);
    if (!final_of_tmp) return PB_ENOMEM;
    for (uint32_t i = 0; i < ntmp; i++) final_of_tmp[c->order[i]] = i;
    for (size_t i = 0; i < nc; i++)
        if (c->ctx_new[i] != PB_NONE) c->ctx_new[i] = final_of_tmp[c->ctx_new[i]];
    free(final_of_tmp);
    return 0;
}

/* Int arrays (layouts): the referenced ones, sorted. */
static int canon_ints(canon *c) {
    pb_profile *p = c->p;
    size_t ni = p->ints.count, k = 0;
    int rc;
    for (size_t i = 0; i < ni; i++)
        if (c->ints_new[i] == 0) c->order[k++] = (uint32_t)i;
    if ((rc = pbu_sort_ids(c->order, k, cmp_ints, c))) return rc;
    if ((rc = pbu_intern_permute(&c->ints, &p->ints, c->order, (uint32_t)k))) return rc;
    for (size_t i = 0; i < k; i++) c->ints_new[c->order[i]] = (uint32_t)i;
    return 0;
}

/* Records: sort by the new ids; the arrays commit lays them out in. */
static int canon_records(canon *c) {
    pb_profile *p = c->p;
    size_t nr = p->num_recs;
    int rc;
    if ((rc = sorted_ids(c, nr, cmp_rec))) return rc;
    c->recs = malloc((nr ? nr : 1) * sizeof *c->recs);
    if (!c->recs) return PB_ENOMEM;
    if (p->rnames) {
        c->rnames = calloc(nr ? nr : 1, sizeof *c->rnames);
        if (!c->rnames) return PB_ENOMEM;
    }
    c->key_nslots = 64;
    while (c->key_nslots < (nr + 1) * 2) c->key_nslots *= 2;
    c->key_slots = calloc(c->key_nslots, sizeof *c->key_slots);
    if (!c->key_slots) return PB_ENOMEM;
    return 0;
}

/* Every new table, in dependency order (each one's keys use the ids of the
 * ones before it); nothing of the profile changes yet. */
static int build(canon *c) {
    pb_profile *p = c->p;
    int rc;
    if ((rc = alloc_maps(c)) || (rc = canon_strings(c)) || (rc = canon_symbols(c)) || (rc = canon_methods(c)))
        return rc;
    /* Contexts and layouts: the referenced ones. */
    for (size_t i = 0; i < p->num_recs; i++) {
        if (p->recs[i].ctx != PB_NONE) c->ctx_new[p->recs[i].ctx] = 0;
        if (p->recs[i].layout != PB_NONE) c->ints_new[p->recs[i].layout] = 0;
    }
    if ((rc = canon_contexts(c)) || (rc = canon_ints(c))) return rc;
    return canon_records(c);
}

/* The records in their new order, with the new ids of their names,
 * contexts, layouts and value symbols, into c->recs (and c->rnames). */
static void renumber_records(canon *c) {
    const pb_profile *p = c->p;
    for (size_t i = 0; i < p->num_recs; i++) {
        uint32_t o = c->order[i];
        pb_record r = p->recs[o];
        if (r.kind == PB_REC_FUNCTION) r.name = c->str_new[r.name];
        if (r.ctx != PB_NONE) r.ctx = c->ctx_new[r.ctx];
        if (r.layout != PB_NONE) r.layout = c->ints_new[r.layout];
        for (int k = 0; k < PB_VK_COUNT; k++)
            for (uint32_t s = 0; s < r.num_sites[k]; s++)
                for (uint32_t v = 0; v < r.sites[k][s].num_values; v++) {
                    pb_value *val = &r.sites[k][s].values[v];
                    if (val->symbol != PB_NONE && val->symbol < p->sym_keys.count)
                        val->symbol = c->sym_new[val->symbol];
                }
        c->recs[i] = r;
        if (c->rnames && o < p->num_rnames) c->rnames[i] = p->rnames[o];
    }
}

/* The profile takes c's new tables (freeing its old ones); c owns none
 * of them afterwards. */
static void adopt_tables(canon *c) {
    pb_profile *p = c->p;
    size_t nr = p->num_recs;
    /* the permuted tables' bytes are the old tables' (or tmp_ctxs') */
    pbu_intern_take_storage(&c->strs, &p->strs);
    pbu_intern_take_storage(&c->ctxs, &c->tmp_ctxs);
    pbu_intern_take_storage(&c->ints, &p->ints);
    pbu_intern_free(&p->strs);
    p->strs = c->strs;
    pbu_intern_free(&p->sym_keys);
    p->sym_keys = c->sym_keys;
    free(p->syms);
    p->syms = c->syms;
    p->cap_syms = p->sym_keys.count;
    pbu_map_free(&p->sym_by_md5);
    p->sym_by_md5 = c->sym_by_md5;
    pbu_intern_free(&p->meth_keys);
    p->meth_keys = c->meth_keys;
    free(p->meths);
    p->meths = c->meths;
    p->cap_meths = p->meth_keys.count;
    pbu_intern_free(&p->ctxs);
    p->ctxs = c->ctxs;
    pbu_intern_free(&p->ints);
    p->ints = c->ints;
    free(p->recs);
    p->recs = c->recs;
    p->cap_recs = nr ? nr : 1;
    if (c->rnames) {
        free(p->rnames);
        p->rnames = c->rnames;
        p->num_rnames = nr;
    }
    free(p->key_slots);
    p->key_slots = c->key_slots;
    p->key_nslots = c->key_nslots;
    memset(&c->strs, 0, sizeof c->strs);
    memset(&c->sym_keys, 0, sizeof c->sym_keys);
    memset(&c->meth_keys, 0, sizeof c->meth_keys);
    memset(&c->ctxs, 0, sizeof c->ctxs);
    memset(&c->ints, 0, sizeof c->ints);
    memset(&c->sym_by_md5, 0, sizeof c->sym_by_md5);
    c->syms = NULL;
    c->meths = NULL;
    c->recs = NULL;
    c->rnames = NULL;
    c->key_slots = NULL;
}

/* The record keys' index over the new order (the slots came empty with
 * the tables), and the caches that held old ids dropped. */
static void reindex(pb_profile *p) {
    size_t nr = p->num_recs;
    p->fn_name_bound = UINT32_MAX; /* names renumbered: look keys up again */
    for (size_t i = 0; i < nr; i++) {
        size_t mask = p->key_nslots - 1, b = (size_t)pbi_record_key_hash(&p->recs[i]) & mask;
        while (p->key_slots[b]) b = (b + 1) & mask;
        p->key_slots[b] = (uint32_t)i + 1;
    }
    p->key_indexed = nr;
    pbi_invalidate_record_caches(p);
    pbi_invalidate_method_caches(p);
}

static void commit(canon *c) {
    renumber_records(c);
    adopt_tables(c);
    reindex(c->p);
}

int pb_profile_canonicalize(pb_profile *p, pb_error *err) {
    pbu_api_enter(err);
    if (!p) return pbu_null_arg(err, __func__, "p");
    canon c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.sym_keys.no_nul = c.meth_keys.no_nul = c.ctxs.no_nul = c.ints.no_nul = c.tmp_ctxs.no_nul = 1;
    int rc = build(&c);
    if (!rc) commit(&c);
    free(c.order);
    free(c.str_new);
    free(c.sym_new);
    free(c.meth_new);
    free(c.ctx_new);
    free(c.ints_new);
    pbu_intern_free(&c.strs);
    pbu_intern_free(&c.sym_keys);
    pbu_intern_free(&c.meth_keys);
    pbu_intern_free(&c.ctxs);
    pbu_intern_free(&c.ints);
    pbu_intern_free(&c.tmp_ctxs);
    pbu_map_free(&c.sym_by_md5);
    free(c.syms);
    free(c.meths);
    free(c.recs);
    free(c.rnames);
    free(c.key_slots);
    if (rc == PB_ENOMEM)
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot canonicalize: out of memory");
    if (rc) return pb_error_set(err, rc, PB_NO_OFFSET, NULL, "cannot canonicalize: a table is too big");
    return 0;
}
