/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * import.c -- copies tables and records from one profile into another by
 * content (import.h). Was three copies: the bridge's lazy importer and
 * pb_profile_merge's eager tables and its streaming symbol import.
 */
#include <stdlib.h>
#include <string.h>

#include "model/import.h"
#include "model/profile_internal.h"
#include "util/grow.h"

/* A map of n entries, all "not yet". */
static int new_map(uint32_t **map, size_t n) {
    *map = calloc(n ? n : 1, sizeof **map);
    return *map ? 0 : -1;
}

int pbi_import_init(pbi_importer *im, pb_profile *dst, const pb_profile *src, pb_error *err) {
    memset(im, 0, sizeof *im);
    im->dst = dst;
    im->src = src;
    if (src) {
        im->nsym = im->cap_sym = src->sym_keys.count;
        im->nmeth = src->meth_keys.count;
        im->nctx = src->ctxs.count;
        im->nints = src->ints.count;
    }
    if (new_map(&im->sym, im->nsym) || new_map(&im->meth, im->nmeth) || new_map(&im->ctx, im->nctx) ||
        new_map(&im->ints, im->nints)) {
        pbi_import_free(im);
        return pbu_nomem(err, "an import map");
    }
    if (!im->cap_sym) im->cap_sym = 1;
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
        if (pbu_grow((void **)&im->sig, &im->cap_sig, (size_t)me->num_sig + 1, sizeof *im->sig))
            return pbu_nomem(err, "a signature");
        for (uint32_t j = 0; j < me->num_sig; j++)
            if ((rc = pbi_import_symbol(im, me->sig[j], &im->sig[j], err))) return rc;
        size_t len;
        const char *n = pb_profile_str(im->src, me->name, &len);
        rc = pb_profile_add_method(im->dst, n, len, im->sig, me->num_sig, out, err);
    }
    if (!rc) im->meth[m] = *out + 1;
    return rc;
}

int pbi_import_ctx(pbi_importer *im, uint32_t c, uint32_t *out, pb_error *err) {
    if (c == PB_NONE) {
        *out = PB_NONE;
        return 0;
    }
    if (c >= im->nctx) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "context %u does not exist", c);
    if (im->ctx[c]) {
        *out = im->ctx[c] - 1;
        return 0;
    }
    size_t n = 0;
    const pb_frame *f = pb_profile_context(im->src, c, &n);
    if (!f) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "context %u does not exist", c);
    if (pbu_grow((void **)&im->frames, &im->cap_frames, n + 1, sizeof *im->frames))
        return pbu_nomem(err, "a context");
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
    if (c >= im->nints) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "int array %u does not exist", c);
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

int pbi_import_all(pbi_importer *im, pb_error *err) {
    uint32_t out;
    int rc = 0;
    for (size_t i = 0; i < im->nsym && !rc; i++)
        if (!im->drop_sym || !im->drop_sym[i]) rc = pbi_import_symbol(im, (uint32_t)i, &out, err);
    for (size_t i = 0; i < im->nmeth && !rc; i++) rc = pbi_import_method(im, (uint32_t)i, &out, err);
    for (size_t i = 0; i < im->nctx && !rc; i++) rc = pbi_import_ctx(im, (uint32_t)i, &out, err);
    for (size_t i = 0; i < im->nints && !rc; i++) rc = pbi_import_ints(im, (uint32_t)i, &out, err);
    return rc;
}

int pbi_import_new_symbols(pbi_importer *im, const pb_profile *side, pb_error *err) {
    size_t n = side->sym_keys.count;
    im->src = side;
    if (n == im->nsym) return 0;
    if (pbu_grow((void **)&im->sym, &im->cap_sym, n, sizeof *im->sym)) return pbu_nomem(err, "merge maps");
    memset(im->sym + im->nsym, 0, (n - im->nsym) * sizeof *im->sym);
    size_t from = im->nsym;
    im->nsym = n;
    uint32_t out;
    int rc = 0;
    for (size_t i = from; i < n && !rc; i++) rc = pbi_import_symbol(im, (uint32_t)i, &out, err);
    return rc;
}

int pbi_import_record(pbi_importer *im, const pb_record *r, pb_record *t, pb_error *err) {
    int rc;
    *t = *r;
    if (r->kind == PB_REC_FUNCTION) {
        if (!im->names_by_caller) {
            size_t len;
            const char *n = pb_profile_str(im->src, r->name, &len);
            if (!n) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "a function record has no name");
            if ((rc = pb_profile_intern(im->dst, n, len, &t->name, err))) return rc;
        }
    } else {
        /* out-of-range ids (a record changed in place) stay invalid for
         * dst's validation to refuse */
        t->ctx = PB_NONE;
        t->layout = PB_NONE;
        if (r->ctx < im->nctx && (rc = pbi_import_ctx(im, r->ctx, &t->ctx, err))) return rc;
        if (r->layout < im->nints && (rc = pbi_import_ints(im, r->layout, &t->layout, err))) return rc;
    }
    size_t nsites = 0, nvals = 0;
    for (int k = 0; k < PB_VK_COUNT; k++)
        for (uint32_t j = 0; j < r->num_sites[k]; j++, nsites++) nvals += r->sites[k][j].num_values;
    if (pbu_grow((void **)&im->sites, &im->cap_sites, nsites + 1, sizeof *im->sites) ||
        pbu_grow((void **)&im->vals, &im->cap_vals, nvals + 1, sizeof *im->vals))
        return pbu_nomem(err, "value sites");
    size_t si = 0, vi = 0;
    for (int k = 0; k < PB_VK_COUNT; k++) {
        t->sites[k] = r->num_sites[k] ? im->sites + si : NULL;
        for (uint32_t j = 0; j < r->num_sites[k]; j++, si++) {
            const pb_site *s = &r->sites[k][j];
            im->sites[si].num_values = s->num_values;
            im->sites[si].values = im->vals + vi;
            for (uint32_t v = 0; v < s->num_values; v++, vi++) {
                im->vals[vi] = s->values[v];
                uint32_t sy = s->values[v].symbol;
                if (sy == PB_NONE || sy >= im->nsym || (im->drop_sym && im->drop_sym[sy])) {
                    im->vals[vi].symbol = PB_NONE; /* a symbol src does not have, or does not give */
                } else if ((rc = pbi_import_symbol(im, sy, &im->vals[vi].symbol, err))) {
                    return rc;
                }
            }
        }
    }
    return 0;
}
