/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * partial_combine.c -- X then Y, two partials of contiguous inputs, into
 * the partial of X's inputs followed by Y's, as the flat merge of all of
 * them would be (docs/distributed-merge.md).
 *
 * Counters add and bitmaps OR whatever the order; value sites do not:
 * llvm-profdata adds a value that a record already has with count x weight
 * but a value new to the record with its count unweighted
 * (InstrProfValueSiteRecord::merge). So each value of a partial has three
 * counts: own (the profile's: what the value is when the partial's inputs
 * create the record), exist (weighted sum: what it adds to a record that
 * has it) and fresh (first count unweighted, later ones weighted: what it
 * starts at in a record that lacks it). For a record in both X and Y:
 *   v in both:   own = X.own + Y.exist, exist = X.exist + Y.exist, fresh = X.fresh + Y.exist
 *   v only in X: X's three;  v only in Y: own = Y.fresh, exist = Y.exist, fresh = Y.fresh
 * (saturating). Only values whose exist and fresh differ are kept apart
 * (pbi_extra); own is always one of the two. The merge itself is
 * pb_profile_merge of Y, whose value counts are set to what X's record
 * takes (Y.exist or Y.fresh) for the call and restored after it.
 */
#include <stdlib.h>
#include <string.h>

#include "llvm/target.h"
#include "partial_internal.h"
#include "util/grow.h"

static uint64_t sat_add(uint64_t a, uint64_t b, uint64_t max) {
    uint64_t s;
    return __builtin_add_overflow(a, b, &s) || s > max ? max : s;
}

/* The record of p with this LLVM name and hash, or SIZE_MAX. */
static size_t find_record(const pb_profile *p, const char *name, size_t len, uint64_t ref, uint64_t hash) {
    size_t idx[16];
    size_t n = name ? pb_profile_lookup(p, name, len, idx, 16) : pb_profile_lookup_ref(p, ref, idx, 16);
    if (n > 16) {
        /* many hashes of one name: look at them all */
        size_t *all = malloc(n * sizeof *all);
        if (!all) return SIZE_MAX;
        n = name ? pb_profile_lookup(p, name, len, all, n) : pb_profile_lookup_ref(p, ref, all, n);
        size_t found = SIZE_MAX;
        for (size_t i = 0; i < n && found == SIZE_MAX; i++) {
            uint64_t h;
            if (pb_profile_record_name(p, pb_profile_record(p, all[i]), NULL, NULL, &h, NULL) == 0 && h == hash)
                found = all[i];
        }
        free(all);
        return found;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t h;
        if (pb_profile_record_name(p, pb_profile_record(p, idx[i]), NULL, NULL, &h, NULL) == 0 && h == hash)
            return idx[i];
    }
    return SIZE_MAX;
}

#define PSEUDO_WARM (UINT64_MAX - 1)

/* Whether the flat merge merges the value sites of kind k of y into x's
 * record (profile_merge.c merge_into: equal counter counts, no pseudo
 * count, equal bitmap sizes, equal site counts of the kind). */
static int sites_merge(const pb_record *x, const pb_record *y, int k, uint64_t max_count) {
    if (x->num_counters != y->num_counters || x->num_bitmap_bytes != y->num_bitmap_bytes) return 0;
    if (max_count != PB_MAX_COUNT_LLVM14 && x->num_counters &&
        (x->counters[0] >= PSEUDO_WARM || y->counters[0] >= PSEUDO_WARM))
        return 0;
    return x->num_sites[k] == y->num_sites[k];
}

/* The dup-th entry (0: the first, in the site's order) of `value`, or NULL.
 * llvm-profdata's merge pairs the entries of a value that a site holds
 * twice in order (merge_site: both sides sorted by value, stable), so the
 * dup-th of one side meets the dup-th of the other. */
static const pb_value *site_nth(const pb_site *s, uint64_t value, uint32_t dup) {
    for (uint32_t i = 0; i < s->num_values; i++)
        if (s->values[i].value == value && dup-- == 0) return &s->values[i];
    return NULL;
}

/* How many entries before the i-th have its value. */
static uint32_t dup_rank(const pb_site *s, uint32_t i) {
    uint32_t n = 0;
    for (uint32_t j = 0; j < i; j++) n += s->values[j].value == s->values[i].value;
    return n;
}

static uint32_t value_entries(const pb_site *s, uint64_t value) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->num_values; i++) n += s->values[i].value == value;
    return n;
}

typedef struct undo {
    uint64_t *count;
    uint64_t old;
} undo;

typedef struct work {
    pbi_extra *r; /* the result's extras */
    size_t nr, cap;
    undo *u;
    size_t nu, capu;
} work;

static int push_extra(work *w, const pbi_extra *e, pb_error *err) {
    if (e->exist == e->fresh) return 0;
    if (pbu_grow_err((void **)&w->r, &w->cap, w->nr + 1, sizeof *w->r, err)) return PB_ENOMEM;
    w->r[w->nr++] = *e;
    return 0;
}

/* X's extras, with Y's exist added where Y's record has the value. */
static int carry_x(const pb_partial *acc, const pb_profile *y, const pbi_extra *yx, size_t nyx, uint64_t vmax,
                   uint64_t max_count, work *w, pb_error *err) {
    const pb_profile *x = acc->own;
    size_t last_ref_i = SIZE_MAX, yi = SIZE_MAX, xi = SIZE_MAX;
    for (size_t i = 0; i < acc->nextra; i++) {
        pbi_extra e = acc->extra[i];
        if (last_ref_i == SIZE_MAX || e.name_ref != acc->extra[last_ref_i].name_ref ||
            e.hash != acc->extra[last_ref_i].hash) {
            last_ref_i = i;
            yi = find_record(y, NULL, 0, e.name_ref, e.hash);
            xi = find_record(x, NULL, 0, e.name_ref, e.hash);
        }
        /* a value cut from X's site (past 255 values) is no longer X's */
        const pb_record *xr0 = xi == SIZE_MAX ? NULL : pb_profile_record(x, xi);
        if (!xr0 || e.kind >= PB_VK_COUNT || e.site >= xr0->num_sites[e.kind] ||
            !site_nth(&xr0->sites[e.kind][e.site], e.value, e.dup))
            continue;
        if (yi != SIZE_MAX) {
            const pb_record *yr = pb_profile_record(y, yi), *xr = xr0;
            if (e.kind < PB_VK_COUNT && sites_merge(xr, yr, e.kind, max_count) && e.site < yr->num_sites[e.kind]) {
                const pb_value *v = site_nth(&yr->sites[e.kind][e.site], e.value, e.dup);
                if (v) {
                    const pbi_extra *ye =
                        pbi_partial_extras_find(yx, nyx, e.name_ref, e.hash, e.kind, e.site, e.value, e.dup);
                    uint64_t add = ye ? ye->exist : v->count;
                    e.exist = sat_add(e.exist, add, vmax);
                    e.fresh = sat_add(e.fresh, add, vmax);
                }
            }
        }
        if (push_extra(w, &e, err)) return PB_ENOMEM;
    }
    return 0;
}

/* Sorts extras and keeps one of equal keys. */
static size_t sort_unique(pbi_extra *v, size_t n) {
    if (n < 2) return n;
    qsort(v, n, sizeof *v, pbi_partial_extra_cmp);
    size_t k = 1;
    for (size_t i = 1; i < n; i++)
        if (pbi_partial_extra_cmp(&v[k - 1], &v[i]) != 0) v[k++] = v[i];
    return k;
}

/* Y's values set to what X's records take of them; Y's extras carried. */
static int prepare_y(const pb_partial *acc, pb_profile *y, const pbi_extra *yx, size_t nyx, uint64_t max_count,
                     work *w, pb_error *err) {
    const pb_profile *x = acc->own;
    for (size_t j = 0; j < pb_profile_record_count(y); j++) {
        pb_record *yr = pb_profile_record_mut(y, j);
        const char *name;
        size_t len;
        uint64_t hash;
        int rc = pb_profile_record_name(y, yr, &name, &len, &hash, err);
        if (rc) return rc;
        uint64_t ref = pb_md5_ref(len ? name : "", len);
        size_t xi = find_record(x, name, len, ref, hash);
        const pb_record *xr = xi == SIZE_MAX ? NULL : pb_profile_record(x, xi);
        for (int k = 0; k < PB_VK_COUNT; k++) {
            int merges = xr && sites_merge(xr, yr, k, max_count);
            if (xr && !merges) continue; /* the flat merge skips them: so does the result */
            for (uint32_t s = 0; s < yr->num_sites[k]; s++) {
                pb_site *ys = &yr->sites[k][s];
                for (uint32_t i = 0; i < ys->num_values; i++) {
                    pb_value *v = &ys->values[i];
                    uint32_t dup = dup_rank(ys, i);
                    const pbi_extra *ye =
                        nyx ? pbi_partial_extras_find(yx, nyx, ref, hash, (uint8_t)k, s, v->value, dup) : NULL;
                    int in_x = xr && site_nth(&xr->sites[k][s], v->value, dup) != NULL;
                    if (ye && !in_x && push_extra(w, ye, err)) return PB_ENOMEM;
                    if (!xr || !ye) continue;
                    uint64_t want = in_x ? ye->exist : ye->fresh;
                    if (want == v->count) continue;
                    if (pbu_grow_err((void **)&w->u, &w->capu, w->nu + 1, sizeof *w->u, err)) return PB_ENOMEM;
                    w->u[w->nu++] = (undo){&v->count, v->count};
                    v->count = want;
                }
            }
        }
    }
    return 0;
}

/*
 * Where the result's extra e stands among its site's entries of its value
 * after the merge, when X's or Y's site holds the value more than once:
 * the merge pairs X's k-th entry with Y's k-th (Y's left over follow), then
 * sorts the site by count, descending and stable, so entry k's place among
 * them is that of its count. Y's counts are already what X's record takes
 * (prepare_y). Returns e's new dup.
 */
static uint32_t merged_dup(const pb_site *xs, const pb_site *ys, const pbi_extra *e, uint64_t vmax) {
    uint32_t nx = value_entries(xs, e->value), ny = value_entries(ys, e->value);
    uint32_t m = nx > ny ? nx : ny;
    if (m < 2 || e->dup >= m) return e->dup;
    uint64_t mine = 0;
    uint32_t place = 0;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t k = 0; k < m; k++) {
            const pb_value *a = site_nth(xs, e->value, k), *b = site_nth(ys, e->value, k);
            uint64_t c = sat_add(a ? a->count : 0, b ? b->count : 0, vmax);
            if (pass == 0 && k == e->dup) mine = c;
            if (pass == 1 && (c > mine || (c == mine && k < e->dup))) place++;
        }
    return place;
}

/* The new places of the result's extras w->r whose records and sites X and
 * Y both hold and merge (the others keep theirs: their sites do not change). */
static void rerank(const pb_profile *x, const pb_profile *y, work *w, uint64_t vmax, uint64_t max_count) {
    for (size_t i = 0; i < w->nr; i++) {
        pbi_extra *e = &w->r[i];
        size_t xi = find_record(x, NULL, 0, e->name_ref, e->hash), yi = find_record(y, NULL, 0, e->name_ref, e->hash);
        if (xi == SIZE_MAX || yi == SIZE_MAX || e->kind >= PB_VK_COUNT) continue;
        const pb_record *xr = pb_profile_record(x, xi), *yr = pb_profile_record(y, yi);
        if (!sites_merge(xr, yr, e->kind, max_count) || e->site >= xr->num_sites[e->kind]) continue;
        e->dup = merged_dup(&xr->sites[e->kind][e->site], &yr->sites[e->kind][e->site], e, vmax);
    }
}

int pbi_partial_combine_profile(pb_partial *acc, pb_profile *y, const pbi_extra *yx, size_t nyx, int y_merged,
                                const char *source, pb_error *err) {
    int rc = 0;
    if (!acc->own && (rc = pb_profile_new(&acc->own, err))) return rc;
    pb_merge_options mo;
    pbi_partial_merge_options(&acc->rules, &mo);
    mo.source = source;
    uint64_t vmax = pbi_partial_value_max(&acc->rules);
    work w = {NULL, 0, 0, NULL, 0, 0};
    if (acc->nextra) rc = carry_x(acc, y, yx, nyx, vmax, mo.max_count, &w, err);
    if (!rc && nyx) rc = prepare_y(acc, y, yx, nyx, mo.max_count, &w, err);
    if (!rc) rerank(acc->own, y, &w, vmax, mo.max_count);
    /* LLVM 13 sets the entry-first flag from each input in turn (the last
     * one wins): Y's inputs come last */
    pbi_llvm_target t;
    uint64_t xflags = pb_profile_flags(acc->own);
    if (!rc && y_merged && pbi_llvm_target_of(mo.llvm_release, &t) == 0 &&
        pbi_llvm_has(&t, PBI_LF_ENTRY_FIRST_LAST_INPUT))
        pb_profile_set_flags(acc->own, xflags & ~PB_VARIANT_ENTRY_FIRST);
    if (!rc) {
        /* Y's traces carry their weights already: the raw rule (a trace
         * takes the input's weight) applied when Y's inputs were merged */
        pb_origin yo = *pb_profile_origin(y), none = yo;
        memset(none.format, 0, sizeof none.format);
        pb_profile_set_origin(y, &none);
        rc = pb_profile_merge(acc->own, y, &mo, err);
        if (rc == PB_EFORMAT) pb_profile_set_flags(acc->own, xflags); /* refused: nothing changed */
        pb_profile_set_origin(y, &yo);
        if (!pb_profile_origin(acc->own)->format[0]) pb_profile_set_origin(acc->own, &yo);
    }
    for (size_t i = w.nu; i-- > 0;) *w.u[i].count = w.u[i].old;
    free(w.u);
    if (rc) {
        free(w.r);
        return rc;
    }
    w.nr = sort_unique(w.r, w.nr);
    free(acc->extra);
    acc->extra = w.r;
    acc->nextra = w.nr;
    acc->cap_extra = w.cap;
    return 0;
}

/* The extras of a one-input merge made with weight w: exist is the count
 * (c x w), fresh the count unweighted (c; exact unless c x w saturated). */
static int single_extras(const pb_profile *q, uint64_t wt, uint64_t vmax, pbi_extra **out, size_t *n,
                         pb_error *err) {
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    for (size_t j = 0; j < pb_profile_record_count(q); j++) {
        const pb_record *r = pb_profile_record(q, j);
        const char *name;
        size_t len;
        uint64_t hash;
        int rc = pb_profile_record_name(q, r, &name, &len, &hash, err);
        if (rc) return rc;
        uint64_t ref = pb_md5_ref(len ? name : "", len);
        for (int k = 0; k < PB_VK_COUNT; k++)
            for (uint32_t s = 0; s < r->num_sites[k]; s++)
                for (uint32_t i = 0; i < r->sites[k][s].num_values; i++) {
                    const pb_value *v = &r->sites[k][s].values[i];
                    uint64_t fresh = v->count >= vmax ? vmax / wt : v->count / wt;
                    if (fresh == v->count) continue;
                    if (pbu_grow_err((void **)out, &cap, *n + 1, sizeof **out, err)) return PB_ENOMEM;
                    (*out)[(*n)++] =
                        (pbi_extra){ref, hash, s, (uint8_t)k, v->value, dup_rank(&r->sites[k][s], i), v->count, fresh};
                }
    }
    *n = sort_unique(*out, *n);
    return 0;
}

int pbi_partial_take(pb_partial *p, pb_profile *q, uint64_t w, int merged, pb_error *err) {
    uint64_t vmax = pbi_partial_value_max(&p->rules);
    pbi_extra *qx = NULL;
    size_t nqx = 0;
    int rc = w > 1 ? single_extras(q, w, vmax, &qx, &nqx, err) : 0;
    if (!rc && !p->own) {
        /* the first input: the flat merge takes it as the accumulator */
        p->own = q;
        q = NULL;
        p->extra = qx;
        p->nextra = p->cap_extra = nqx;
        qx = NULL;
    } else if (!rc) {
        rc = pbi_partial_combine_profile(p, q, qx, nqx, merged, p->nin ? p->in[p->nin - 1].name : NULL, err);
        /* a kind that cannot merge fails the input, as in the flat merge
         * (found before anything changed) */
        if (rc == PB_EFORMAT && p->nin) {
            pb_error e = *err;
            pb_error_clear(err);
            rc = pbi_partial_fail_input(p, p->nin - 1, &e, err);
        }
    }
    free(qx);
    pb_profile_free(q);
    return rc;
}

int pb_partial_combine(pb_partial *acc, const pb_partial *next, pb_error *err) {
    if (err) pb_error_clear(err);
    if (!acc || !next || acc == next)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                            acc == next && acc ? "pb_partial_combine: a partial cannot follow itself"
                                               : "pb_partial_combine: NULL argument");
    const char *why = pbi_partial_rules_differ(&acc->rules, &next->rules);
    if (why)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, why,
                            "the partials were made under other merge rules (%s differs)", why + 6);
    int rc = 0;
    for (size_t i = 0; i < next->nin && !rc; i++) {
        const pbi_partial_in *in = &next->in[i];
        rc = pbi_partial_add_input(acc, in->name, in->weight, in->size, in->sha256, in->status, in->err, err);
    }
    if (rc || !next->own) return rc;
    int merged = 0;
    for (size_t i = 0; i < next->nin; i++) merged |= next->in[i].status == PB_PARTIAL_MERGED;
    /* next's profile is used in place for the call (its counts set and
     * restored): the caller's next is unchanged after it */
    pb_partial *y = (pb_partial *)(uintptr_t)next;
    if (!acc->own && !acc->nextra) {
        /* nothing yet: next's profile merged into an empty one is itself */
        rc = pb_profile_new(&acc->own, err);
        if (rc) return rc;
    }
    size_t first = acc->nin - next->nin;
    rc = pbi_partial_combine_profile(acc, y->own, y->extra, y->nextra, merged,
                                     next->nin ? next->in[0].name : NULL, err);
    if (rc == PB_EFORMAT) {
        /* next's kind cannot merge after acc's: as the flat merge refuses
         * each of its inputs, every one it merged fails (its records are
         * not taken; found before anything changed) */
        pb_error e = *err;
        pb_error_clear(err);
        rc = 0;
        for (size_t i = first; i < acc->nin && !rc; i++)
            if (acc->in[i].status == PB_PARTIAL_MERGED) rc = pbi_partial_fail_input(acc, i, &e, err);
    }
    return rc;
}
