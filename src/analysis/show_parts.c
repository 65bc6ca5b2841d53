/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_parts.c -- a raw file for show, in one pass over its bytes
 * (pb_visit): every profile it holds as read alone, and their merged model,
 * which is what pb_read reads.
 *
 * A raw file may hold several profiles back to back (a program and its
 * shared libraries write into one file). llvm-profdata show lists the
 * records of each profile, so a function in two of them appears twice; its
 * summary is that of the merged model. show used to read the file once for
 * the model and visit it again for the profiles. Now one visit builds one
 * model per profile (records in file order, a (name, hash) pair repeated
 * within the profile merged as llvm-profdata merges it) and, from the second
 * profile on, the merged model too: a copy of the first profile's records,
 * then every later record added as the reader adds it, then the whole
 * input's head (end_input: flags, binary ids as the release keeps them, one
 * temporal trace). A file of one profile (nearly all) builds one model.
 */
#include <stdlib.h>
#include <string.h>

#include "show_parts.h"
#include "util/grow.h"

/* A model built from visited records. The records' value symbols are the
 * head's: map[k] is the model's index of the head's symbol k. */
typedef struct builder {
    pb_profile *p;
    uint32_t *map;
    size_t nmap, cap_map;
    pb_site *sites; /* a record's value sites with the model's symbols */
    size_t cap_sites;
    pb_value *vals;
    size_t cap_vals;
} builder;

typedef struct parts {
    pb_profile **v; /* the profiles, each alone */
    size_t n, cap;
    builder cur;    /* the profile being visited */
    builder all;    /* the merged model, from the second profile on */
    const pb_read_options *o;
    pb_error scratch;
} parts;

static void builder_free(builder *b) {
    pb_profile_free(b->p);
    free(b->map);
    free(b->sites);
    free(b->vals);
    memset(b, 0, sizeof *b);
}

/* Maps the head's symbols not mapped yet (a raw reader adds a profile's
 * vtable names before its records, and the model's own come in that order). */
static int map_symbols(builder *b, const pb_profile *head, pb_error *err) {
    size_t n = pb_profile_symbol_count(head);
    if (n > b->nmap && pbu_grow_err((void **)&b->map, &b->cap_map, n, sizeof *b->map, err))
        return PB_ENOMEM;
    int rc = 0;
    for (; b->nmap < n && !rc; b->nmap++) {
        const pb_symbol *sy = pb_profile_symbol(head, (uint32_t)b->nmap);
        if (sy->placeholder) {
            rc = pb_profile_add_placeholder_symbol(b->p, sy->placeholder_id, &b->map[b->nmap], err);
        } else {
            size_t len;
            const char *s = pb_profile_str(head, sy->name, &len);
            rc = pb_profile_add_symbol(b->p, s, len, &b->map[b->nmap], err);
        }
    }
    return rc;
}

static uint32_t mapped(const builder *b, uint32_t s) { return s < b->nmap ? b->map[s] : PB_NONE; }

/* *t = r with the model's value symbols: r itself unless one changes. */
static int with_model_symbols(builder *b, const pb_record *r, pb_record *t, pb_error *err) {
    *t = *r;
    size_t nsites = 0, nvals = 0;
    int differs = 0;
    for (int k = 0; k < PB_VK_COUNT; k++)
        for (uint32_t j = 0; j < r->num_sites[k]; j++, nsites++)
            for (uint32_t v = 0; v < r->sites[k][j].num_values; v++, nvals++) {
                uint32_t s = r->sites[k][j].values[v].symbol;
                differs |= s != PB_NONE && mapped(b, s) != s;
            }
    if (!differs) return 0;
    if (pbu_grow_err((void **)&b->sites, &b->cap_sites, nsites, sizeof *b->sites, err) ||
        pbu_grow_err((void **)&b->vals, &b->cap_vals, nvals, sizeof *b->vals, err))
        return PB_ENOMEM;
    size_t si = 0, vi = 0;
    for (int k = 0; k < PB_VK_COUNT; k++) {
        t->sites[k] = r->num_sites[k] ? b->sites + si : NULL;
        for (uint32_t j = 0; j < r->num_sites[k]; j++, si++) {
            const pb_site *s = &r->sites[k][j];
            b->sites[si] = (pb_site){s->num_values, b->vals + vi};
            for (uint32_t v = 0; v < s->num_values; v++, vi++) {
                b->vals[vi] = s->values[v];
                if (s->values[v].symbol != PB_NONE) b->vals[vi].symbol = mapped(b, s->values[v].symbol);
            }
        }
    }
    return 0;
}

/* Adds record r named name[0..len) as the raw reader adds it to its model:
 * a (name, hash) pair seen before is merged as llvm-profdata merges it
 * (formats/raw/raw_read.c add_to_model). */
static int add(parts *ps, builder *b, const pb_profile *head, const char *name, size_t len, const pb_record *r,
               pb_error *err) {
    pb_record t;
    int rc = map_symbols(b, head, err);
    if (!rc) rc = with_model_symbols(b, r, &t, err);
    if (!rc) rc = pb_profile_intern(b->p, name, len, &t.name, err);
    if (rc) return rc;
    rc = pb_profile_add_record(b->p, &t, NULL, &ps->scratch);
    if (rc == 0) return 0; /* the scratch is untouched: clearing its 1.3 kB twice a record was 5% of show */
    if (rc != PB_EEXIST) {
        if (rc) *err = ps->scratch;
        pb_error_clear(&ps->scratch);
        return rc;
    }
    pb_error_clear(&ps->scratch);
    pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
    mo.max_values_per_site = PB_MAX_VALUES_PER_SITE_LLVM;
    mo.diag = ps->o->diag;
    mo.diag_ctx = ps->o->diag_ctx;
    return pb_profile_merge_record(b->p, &t, &mo, err);
}

/* The merged model starts as the first profile's records (it was read
 * alone, with the same rule the merged read uses). */
static int start_merged(parts *ps, pb_error *err) {
    const pb_profile *first = ps->v[0];
    int rc = pb_profile_new(&ps->all.p, err);
    for (size_t i = 0; !rc && i < pb_profile_record_count(first); i++) {
        const pb_record *r = pb_profile_record(first, i);
        size_t len;
        const char *name = pb_profile_str(first, r->name, &len);
        rc = add(ps, &ps->all, first, name, len, r, err);
    }
    ps->all.nmap = 0; /* the next profile's head is mapped afresh */
    return rc;
}

static int begin(void *ctx, size_t k, const pb_profile *head, pb_error *err) {
    parts *ps = ctx;
    (void)head;
    (void)k;
    int rc = ps->n == 1 && !ps->all.p ? start_merged(ps, err) : 0; /* the second profile visited */
    ps->all.nmap = 0;
    ps->cur.nmap = 0;
    return rc ? rc : pb_profile_new(&ps->cur.p, err);
}

static int record(void *ctx, const pb_profile *head, const char *name, size_t len, const pb_record *r,
                  pb_error *err) {
    parts *ps = ctx;
    int rc = add(ps, &ps->cur, head, name, len, r, err);
    if (!rc && ps->all.p) rc = add(ps, &ps->all, head, name, len, r, err);
    return rc;
}

/* The profile-level data of head into b's model: its symbols (also those
 * no record names), binary ids, traces, flags, origin. */
static int finish(builder *b, const pb_profile *head, pb_error *err) {
    int rc = map_symbols(b, head, err);
    if (!rc) rc = pb_profile_add_run_data(b->p, head, err);
    if (rc) return rc;
    pb_profile_set_flags(b->p, pb_profile_flags(head));
    pb_profile_set_origin(b->p, pb_profile_origin(head));
    return 0;
}

static int end(void *ctx, size_t k, const pb_profile *head, pb_error *err) {
    parts *ps = ctx;
    (void)k;
    int rc = finish(&ps->cur, head, err);
    if (rc) return rc;
    if (pbu_grow_err((void **)&ps->v, &ps->cap, ps->n + 1, sizeof *ps->v, err)) return PB_ENOMEM;
    ps->v[ps->n++] = ps->cur.p;
    ps->cur.p = NULL;
    return 0;
}

static int end_input(void *ctx, const pb_profile *all, pb_error *err) {
    parts *ps = ctx;
    if (!ps->all.p) return 0; /* one profile: its model is the input's */
    ps->all.nmap = 0;
    return finish(&ps->all, all, err);
}

int pbi_show_raw_read(pb_source *src, const pb_read_options *ro, pb_profile **model, pb_profile ***out,
                      size_t *nout, pb_error *err) {
    static const pb_record_visitor visitor = {begin, record, end, end_input};
    parts ps;
    memset(&ps, 0, sizeof ps);
    ps.o = ro;
    pb_error_clear(&ps.scratch);
    *model = NULL;
    *out = NULL;
    *nout = 0;
    int rc = pb_visit(src, ro, &visitor, &ps, err);
    if (rc == 0 && ps.n == 1) {
        *model = ps.v[0];
        ps.n = 0;
    } else if (rc == 0) {
        *model = ps.all.p;
        ps.all.p = NULL;
        *out = ps.v;
        *nout = ps.n;
        ps.v = NULL;
        ps.n = 0;
    }
    for (size_t k = 0; k < ps.n; k++) pb_profile_free(ps.v[k]);
    free(ps.v);
    builder_free(&ps.cur);
    builder_free(&ps.all);
    return rc;
}
