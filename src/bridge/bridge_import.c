/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * bridge_import.c -- copies tables and records from one profile into another
 * by content (names, not indices), for the bridge's views. Only what is
 * asked for is copied, so a view holds no stray types or methods.
 */
#include <stdlib.h>
#include <string.h>

#include "bridge/bridge.h"

static int nomem(pb_error *err, const char *what) {
    return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate %s", what);
}

static int grow(void **a, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need) n *= 2;
    void *b = realloc(*a, n * size);
    if (!b) return -1;
    *a = b;
    *cap = n;
    return 0;
}

int pbi_import_init(pbi_importer *im, pb_profile *dst, const pb_profile *src, pb_error *err) {
    memset(im, 0, sizeof *im);
    im->dst = dst;
    im->src = src;
    /* counts of interned contexts / int arrays are not public: grow on demand */
    im->nsym = pb_profile_symbol_count(src);
    im->nmeth = pb_profile_method_count(src);
    im->sym = calloc(im->nsym + 1, sizeof *im->sym);
    im->meth = calloc(im->nmeth + 1, sizeof *im->meth);
    if (!im->sym || !im->meth) {
        pbi_import_free(im);
        return nomem(err, "an import map");
    }
    return 0;
}

void pbi_import_free(pbi_importer *im) {
    free(im->sym);
    free(im->meth);
    free(im->ctx);
    free(im->ints);
    free(im->frames);
    free(im->sig);
    free(im->sites);
    free(im->vals);
    memset(im, 0, sizeof *im);
}

int pbi_import_symbol(pbi_importer *im, uint32_t s, uint32_t *out, pb_error *err) {
    if (s >= im->nsym)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "symbol %u does not exist", s);
    if (im->sym[s]) {
        *out = im->sym[s] - 1;
        return 0;
    }
    const pb_symbol *sy = pb_profile_symbol(im->src, s);
    int rc;
    if (sy->placeholder) {
        rc = pb_profile_add_placeholder_symbol(im->dst, sy->placeholder_id, out, err);
    } else {
        size_t len;
        const char *n = pb_profile_str(im->src, sy->name, &len);
        rc = pb_profile_add_symbol(im->dst, n, len, out, err);
    }
    if (!rc) im->sym[s] = *out + 1;
    return rc;
}

int pbi_import_method(pbi_importer *im, uint32_t m, uint32_t *out, pb_error *err) {
    if (m >= im->nmeth)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "method %u does not exist", m);
    if (im->meth[m]) {
        *out = im->meth[m] - 1;
        return 0;
    }
    const pb_method *me = pb_profile_method(im->src, m);
    int rc;
    if (me->placeholder) {
        rc = pb_profile_add_placeholder_method(im->dst, me->placeholder_id, out, err);
    } else {
        if (grow((void **)&im->sig, &im->cap_sig, me->num_sig + 1, sizeof *im->sig))
            return nomem(err, "a signature");
        for (uint32_t j = 0; j < me->num_sig; j++)
            if ((rc = pbi_import_symbol(im, me->sig[j], &im->sig[j], err))) return rc;
        size_t len;
        const char *n = pb_profile_str(im->src, me->name, &len);
        rc = pb_profile_add_method(im->dst, n, len, im->sig, me->num_sig, out, err);
    }
    if (!rc) im->meth[m] = *out + 1;
    return rc;
}

/* Grows a lazily sized id map so that index i exists. */
static int map_slot(uint32_t **map, size_t *n, uint32_t i) {
    if (i < *n) return 0;
    size_t nn = *n ? *n : 64;
    while (nn <= i) nn *= 2;
    uint32_t *b = realloc(*map, nn * sizeof *b);
    if (!b) return -1;
    memset(b + *n, 0, (nn - *n) * sizeof *b);
    *map = b;
    *n = nn;
    return 0;
}

int pbi_import_ctx(pbi_importer *im, uint32_t c, uint32_t *out, pb_error *err) {
    if (c == PB_NONE) {
        *out = PB_NONE;
        return 0;
    }
    if (map_slot(&im->ctx, &im->nctx, c)) return nomem(err, "an import map");
    if (im->ctx[c]) {
        *out = im->ctx[c] - 1;
        return 0;
    }
    size_t n = 0;
    const pb_frame *f = pb_profile_context(im->src, c, &n);
    if (!f || !n) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "context %u does not exist", c);
    if (grow((void **)&im->frames, &im->cap_frames, n, sizeof *im->frames)) return nomem(err, "a context");
    for (size_t j = 0; j < n; j++) {
        int rc = pbi_import_method(im, f[j].method, &im->frames[j].method, err);
        if (rc) return rc;
        im->frames[j].bci = f[j].bci;
    }
    int rc = pb_profile_intern_context(im->dst, im->frames, n, out, err);
    if (!rc) im->ctx[c] = *out + 1;
    return rc;
}

int pbi_import_ints(pbi_importer *im, uint32_t c, uint32_t *out, pb_error *err) {
    if (c == PB_NONE) {
        *out = PB_NONE;
        return 0;
    }
    if (map_slot(&im->ints, &im->nints, c)) return nomem(err, "an import map");
    if (im->ints[c]) {
        *out = im->ints[c] - 1;
        return 0;
    }
    size_t n = 0;
    const int32_t *v = pb_profile_ints(im->src, c, &n);
    int rc = pb_profile_intern_ints(im->dst, v, n, out, err);
    if (!rc) im->ints[c] = *out + 1;
    return rc;
}

int pbi_import_record(pbi_importer *im, const pb_record *r, pb_record *t, pb_error *err) {
    int rc;
    *t = *r;
    if (r->kind == PB_REC_FUNCTION) {
        size_t len;
        const char *n = pb_profile_str(im->src, r->name, &len);
        if (!n) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "a function record has no name");
        if ((rc = pb_profile_intern(im->dst, n, len, &t->name, err))) return rc;
    } else {
        if ((rc = pbi_import_ctx(im, r->ctx, &t->ctx, err))) return rc;
        if ((rc = pbi_import_ints(im, r->layout, &t->layout, err))) return rc;
    }
    size_t nsites = 0, nvals = 0;
    for (int k = 0; k < PB_VK_COUNT; k++)
        for (uint32_t j = 0; j < r->num_sites[k]; j++, nsites++) nvals += r->sites[k][j].num_values;
    if (grow((void **)&im->sites, &im->cap_sites, nsites + 1, sizeof *im->sites) ||
        grow((void **)&im->vals, &im->cap_vals, nvals + 1, sizeof *im->vals))
        return nomem(err, "value sites");
    size_t si = 0, vi = 0;
    for (int k = 0; k < PB_VK_COUNT; k++) {
        t->sites[k] = r->num_sites[k] ? im->sites + si : NULL;
        for (uint32_t j = 0; j < r->num_sites[k]; j++, si++) {
            const pb_site *s = &r->sites[k][j];
            im->sites[si].num_values = s->num_values;
            im->sites[si].values = im->vals + vi;
            for (uint32_t v = 0; v < s->num_values; v++, vi++) {
                im->vals[vi] = s->values[v];
                if (s->values[v].symbol != PB_NONE &&
                    (rc = pbi_import_symbol(im, s->values[v].symbol, &im->vals[vi].symbol, err)))
                    return rc;
            }
        }
    }
    return 0;
}
