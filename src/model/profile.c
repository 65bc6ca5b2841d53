/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profile.c -- the model's life cycle and profile-level facts: flags,
 * origin, properties, binary ids and temporal traces.
 */
#include <stdlib.h>
#include <string.h>

#include "model/attach.h"
#include "model/profile_internal.h"
#include "util/api.h"
#include "util/bytes.h"
#include "util/grow.h"

/* util/bytes.h decodes with the model's byte-order values without seeing them */
_Static_assert(PBU_BYTES_BE == PB_ORDER_BE, "util/bytes.h PBU_BYTES_BE is PB_ORDER_BE");

int pb_profile_new(pb_profile **out, pb_error *err) {
    pbu_api_enter(err);
    if (!out) return pbu_null_arg(err, __func__, "out");
    *out = NULL;
    pb_profile *p = calloc(1, sizeof *p);
    if (!p) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate a profile");
    pthread_mutexattr_t a;
    int bad = pthread_mutexattr_init(&a);
    if (!bad) {
        bad = pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE) || pthread_mutex_init(&p->cache_mu, &a);
        pthread_mutexattr_destroy(&a);
    }
    if (bad) {
        free(p);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot create a profile's lock");
    }
    /* Only strings need a NUL after their bytes. */
    p->sym_keys.no_nul = p->meth_keys.no_nul = p->ctxs.no_nul = p->ints.no_nul = 1;
    *out = p;
    return 0;
}

void pb_profile_free(pb_profile *p) {
    if (!p) return;
    for (size_t i = 0; i < p->num_props; i++) {
        free(p->props[i].key);
        free(p->props[i].value);
    }
    free(p->props);
    for (size_t i = 0; i < p->num_bids; i++) free(p->bids[i].data);
    free(p->bids);
    for (size_t i = 0; i < p->num_traces; i++) free(p->traces[i].refs);
    free(p->traces);
    free(p->trace_rng); /* one malloc'ed block without pointers (trace_merge.c): the model
                           * frees it without calling up into merge/ */
    pbu_intern_free(&p->strs);
    pbu_intern_free(&p->sym_keys);
    free(p->syms);
    pbu_map_free(&p->sym_by_md5);
    pbu_intern_free(&p->meth_keys);
    free(p->meths);
    pbu_intern_free(&p->ctxs);
    pbu_intern_free(&p->ints);
    pbu_arena_free(&p->arena);
    pbu_map_free(&p->grown_cap);
    free(p->recs);
    free(p->key_slots);
    pbu_arena_free(&p->name_arena);
    free(p->rnames);
    pbu_arena_free(&p->desc_arena);
    free(p->descs);
    free(p->lookup);
    free(p->keys);
    pbu_buf_free(&p->scratch);
    pbi_profile_detach_all(p);
    pthread_mutex_destroy(&p->cache_mu);
    free(p);
}

void pbi_cache_lock(const pb_profile *p) { pthread_mutex_lock(&((pb_profile *)(uintptr_t)p)->cache_mu); }
void pbi_cache_unlock(const pb_profile *p) { pthread_mutex_unlock(&((pb_profile *)(uintptr_t)p)->cache_mu); }

uint64_t pb_profile_flags(const pb_profile *p) { return p->flags; }
void pb_profile_set_flags(pb_profile *p, uint64_t variant_flags) { p->flags = variant_flags; }

const pb_origin *pb_profile_origin(const pb_profile *p) { return &p->origin; }
void pb_profile_set_origin(pb_profile *p, const pb_origin *o) {
    if (!o) {
        memset(&p->origin, 0, sizeof p->origin);
        return;
    }
    p->origin = *o;
    p->origin.format[sizeof p->origin.format - 1] = '\0';
}

/* Grows an array of `size`-byte elements so one more fits. 0 or -1. */
/* ---- properties ------------------------------------------------------- */

static pbi_prop *find_prop(const pb_profile *p, const char *key) {
    for (size_t i = 0; i < p->num_props; i++)
        if (strcmp(p->props[i].key, key) == 0) return &p->props[i];
    return NULL;
}

int pb_profile_set_prop(pb_profile *p, const char *key, const void *value, size_t len,
                        pb_error *err) {
    pbu_api_enter(err);
    if (!key || (!value && len)) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "property key or value missing");
    if (len == SIZE_MAX) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, key, "property too long");
    char *v = malloc(len + 1);
    if (!v) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, key, "cannot allocate a property");
    if (len) memcpy(v, value, len);
    v[len] = '\0';
    pbi_prop *old = find_prop(p, key);
    if (old) {
        free(old->value);
        old->value = v;
        old->len = len;
        return 0;
    }
    char *k = strdup(key);
    if (!k || pbu_grow((void **)&p->props, &p->cap_props, p->num_props + 1, sizeof *p->props)) {
        free(k);
        free(v);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, key, "cannot allocate a property");
    }
    p->props[p->num_props++] = (pbi_prop){k, v, len};
    return 0;
}

const char *pb_profile_prop(const pb_profile *p, const char *key, size_t *len) {
    const pbi_prop *pr = key ? find_prop(p, key) : NULL;
    if (!pr) return NULL;
    if (len) *len = pr->len;
    return pr->value;
}

size_t pb_profile_prop_count(const pb_profile *p) { return p->num_props; }

const char *pb_profile_prop_at(const pb_profile *p, size_t i, const char **value, size_t *len) {
    if (i >= p->num_props) return NULL;
    if (value) *value = p->props[i].value;
    if (len) *len = p->props[i].len;
    return p->props[i].key;
}

void pb_profile_remove_prop(pb_profile *p, const char *key) {
    pbi_prop *pr = key ? find_prop(p, key) : NULL;
    if (!pr) return;
    size_t i = (size_t)(pr - p->props);
    free(pr->key);
    free(pr->value);
    /* Keep insertion order for the rest. */
    memmove(&p->props[i], &p->props[i + 1], (p->num_props - i - 1) * sizeof *p->props);
    p->num_props--;
}

/* ---- binary ids -------------------------------------------------------- */

int pb_profile_add_binary_id(pb_profile *p, const uint8_t *id, size_t len, pb_error *err) {
    pbu_api_enter(err);
    if (!id && len) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "binary id missing");
    for (size_t i = 0; i < p->num_bids; i++)
        if (p->bids[i].len == len && (len == 0 || memcmp(p->bids[i].data, id, len) == 0)) return 0;
    uint8_t *d = malloc(len ? len : 1);
    if (!d || pbu_grow((void **)&p->bids, &p->cap_bids, p->num_bids + 1, sizeof *p->bids)) {
        free(d);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate a binary id");
    }
    if (len) memcpy(d, id, len);
    p->bids[p->num_bids++] = (pbi_bytes){d, len};
    return 0;
}

size_t pb_profile_binary_id_count(const pb_profile *p) { return p->num_bids; }

const uint8_t *pb_profile_binary_id(const pb_profile *p, size_t i, size_t *len) {
    if (i >= p->num_bids) return NULL;
    if (len) *len = p->bids[i].len;
    return p->bids[i].data;
}

/* ---- temporal traces ---------------------------------------------------- */

int pb_profile_add_trace(pb_profile *p, uint64_t weight, const uint64_t *refs, size_t n,
                         pb_error *err) {
    pbu_api_enter(err);
    if (!refs && n) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "trace missing");
    if (n > SIZE_MAX / sizeof *refs - 1)
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "trace too long");
    uint64_t *d = malloc((n ? n : 1) * sizeof *d);
    if (!d || pbu_grow((void **)&p->traces, &p->cap_traces, p->num_traces + 1, sizeof *p->traces)) {
        free(d);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot allocate a trace");
    }
    if (n) memcpy(d, refs, n * sizeof *d);
    p->traces[p->num_traces++] = (pbi_trace){weight, d, n};
    return 0;
}

size_t pb_profile_trace_count(const pb_profile *p) { return p->num_traces; }

const uint64_t *pb_profile_trace(const pb_profile *p, size_t i, uint64_t *weight, size_t *n) {
    if (i >= p->num_traces) return NULL;
    if (weight) *weight = p->traces[i].weight;
    if (n) *n = p->traces[i].n;
    return p->traces[i].refs;
}

uint64_t pb_profile_trace_stream_size(const pb_profile *p) { return p->trace_stream_size; }
void pb_profile_set_trace_stream_size(pb_profile *p, uint64_t n) { p->trace_stream_size = n; }

void pbi_profile_take_traces(pb_profile *p, pbi_trace_set *out) {
    *out = (pbi_trace_set){p->traces, p->num_traces, p->cap_traces, p->trace_stream_size, p->trace_rng};
    p->traces = NULL;
    p->num_traces = p->cap_traces = 0;
    p->trace_stream_size = 0;
    p->trace_rng = NULL;
}

void pbi_profile_put_traces(pb_profile *p, pbi_trace_set *in) {
    p->traces = in->v;
    p->num_traces = in->n;
    p->cap_traces = in->cap;
    p->trace_stream_size = in->stream_size;
    p->trace_rng = in->rng;
    memset(in, 0, sizeof *in);
}
