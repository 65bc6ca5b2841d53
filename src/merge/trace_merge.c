/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * trace_merge.c -- temporal profile traces merged the way llvm-profdata merge
 * keeps them (LLVM 17-19 InstrProfWriter::addTemporalProfileTraces): a
 * reservoir of at most `reservoir` traces (default 100) over a stream of all
 * traces seen, so that a merge of thousands of runs keeps a uniform sample.
 *
 * Byte-identical output needs the same random numbers, so this draws what
 * the LLVM binaries draw (mt19937.c, shared with order.c): std::mt19937 with
 * its default seed (a member of the writer, never reseeded), libstdc++'s
 * uniform_int_distribution<u64> over a 32-bit engine (Lemire's nearly-
 * divisionless method for ranges below 2^32 -- libstdc++ >= 11 -- and its
 * upscaling loop above), and llvm::shuffle (g() % size, front to back). Per input, in LLVM's order:
 *  1. traces longer than max_length are cut, empty ones dropped;
 *  2. if only the input is sampled (stream size > reservoir), it and the
 *     accumulated traces swap places;
 *  3. an input that is not sampled adds its traces one by one: appended
 *     while the stream is below the reservoir, else written over a random
 *     slot (or dropped) -- each adds 1 to the stream size;
 *  4. a sampled input draws one random slot per trace of its stream, then
 *     shuffles its traces and writes them over the distinct slots drawn, in
 *     the order drawn.
 */
#include <stdlib.h>
#include <string.h>

#include "merge/trace_merge.h"

#include "llvm/mt19937.h"
#include "util/api.h"
#include "util/grow.h"

/* Step 4 draws one number per trace of the input's stream; a crafted stream
 * size would make that loop (LLVM's too) run for ever. */
#define MAX_SAMPLED_STREAM PB_MAX_TRACE_STREAM

/* The generator itself is shared with order.c (mt19937.c). */
struct pbi_trace_rng {
    pbi_mt19937 mt;
};

/* One malloc'ed block holding no pointers: pb_profile_free frees it with
 * free() (src/model/profile.c), so the model need not call up into merge/. */
pbi_trace_rng *pbi_trace_rng_new(void) {
    pbi_trace_rng *g = malloc(sizeof *g);
    if (g) pbi_mt19937_seed(&g->mt, PBI_MT19937_DEFAULT_SEED);
    return g;
}

static uint32_t mt_next(pbi_trace_rng *g) { return pbi_mt19937_next(&g->mt); }

static uint64_t uniform(pbi_trace_rng *g, uint64_t hi) { return pbi_mt19937_uniform_u64(&g->mt, hi); }

/* ---- the reservoir ------------------------------------------------------- */

typedef struct tlist {
    pbi_trace *v;
    size_t n, cap;
} tlist;

static int need_rng(pbi_trace_set *dst, pb_error *err) {
    if (!dst->rng && !(dst->rng = pbi_trace_rng_new()))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    return 0;
}

static int push(tlist *l, pbi_trace t, pb_error *err) {
    if (pbu_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v)) return pbu_nomem(err, "a trace");
    l->v[l->n++] = t;
    return 0;
}

static void free_list(tlist *l) {
    for (size_t i = 0; i < l->n; i++) free(l->v[i].refs);
    free(l->v);
    memset(l, 0, sizeof *l);
}

/* addTemporalProfileTrace: takes t (its refs are freed if it is dropped). */
static int add_one(pbi_trace_set *dst, tlist *d, pbi_trace t, uint64_t reservoir, pb_error *err) {
    int rc = 0;
    if (dst->stream_size < reservoir) {
        rc = push(d, t, err);
        if (rc) free(t.refs);
    } else if ((rc = need_rng(dst, err)) == 0) {
        uint64_t r = uniform(dst->rng, dst->stream_size);
        if (r < d->n) {
            free(d->v[r].refs);
            d->v[r] = t;
        } else {
            free(t.refs);
        }
    } else {
        free(t.refs);
    }
    if (!rc) dst->stream_size++;
    return rc;
}

/* Step 4: a sampled source into a sampled destination. */
static int add_sampled(pbi_trace_set *dst, tlist *d, tlist *s, uint64_t src_stream, pb_error *err) {
    if (src_stream > MAX_SAMPLED_STREAM)
        return pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, "temporal traces",
                            "a trace stream of %llu runs is too large to sample (at most 2^28)",
                            (unsigned long long)src_stream);
    int rc = need_rng(dst, err);
    if (rc) return rc;
    size_t *slots = malloc((d->n ? d->n : 1) * sizeof *slots);
    unsigned char *seen = calloc(d->n ? d->n : 1, 1);
    if (!slots || !seen) {
        free(slots);
        free(seen);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    size_t nslots = 0;
    for (uint64_t i = 0; i < src_stream; i++) {
        uint64_t r = uniform(dst->rng, dst->stream_size);
        if (r < d->n && !seen[r]) {
            seen[r] = 1;
            slots[nslots++] = (size_t)r;
        }
        dst->stream_size++;
    }
    /* llvm::shuffle */
    for (size_t first = 0, size = s->n; size > 1; first++, size--) {
        size_t off = (size_t)(mt_next(dst->rng) % size);
        if (off) {
            pbi_trace t = s->v[first];
            s->v[first] = s->v[first + off];
            s->v[first + off] = t;
        }
    }
    for (size_t k = 0; k < nslots && k < s->n; k++) {
        free(d->v[slots[k]].refs);
        d->v[slots[k]] = s->v[k];
        s->v[k].refs = NULL;
    }
    free(slots);
    free(seen);
    return 0;
}

/* The end of both writers: the kept traces d back into p, what is left of
 * the input's list s freed. */
static void give_back(pb_profile *p, pbi_trace_set *dst, const tlist *d, tlist *s) {
    dst->v = d->v;
    dst->n = d->n;
    dst->cap = d->cap;
    pbi_profile_put_traces(p, dst);
    free_list(s);
}

/* Step 1 of both writers: traces longer than max_length cut, empty ones dropped. */
static void cut_traces(tlist *s, uint64_t max_length) {
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->v[i].n > max_length) s->v[i].n = (size_t)max_length;
        if (s->v[i].n == 0) free(s->v[i].refs);
        else s->v[k++] = s->v[i];
    }
    s->n = k;
}

int pbi_merge_traces(pb_profile *p, pbi_trace *src, size_t n, uint64_t src_stream, uint64_t reservoir,
                     uint64_t max_length, pb_error *err) {
    pbi_trace_set held, *dst = &held;
    pbi_profile_take_traces(p, dst);
    tlist s = {src, n, n}, d = {dst->v, dst->n, dst->cap};
    cut_traces(&s, max_length); /* step 1 */
    /* step 2 */
    int dst_sampled = dst->stream_size > reservoir, src_sampled = src_stream > reservoir;
    if (!dst_sampled && src_sampled) {
        tlist t = d;
        d = s;
        s = t;
        uint64_t u = dst->stream_size;
        dst->stream_size = src_stream;
        src_stream = u;
        src_sampled = dst_sampled;
    }
    int rc = 0;
    if (!src_sampled) { /* step 3 */
        for (size_t i = 0; i < s.n; i++) {
            pbi_trace t = s.v[i];
            s.v[i].refs = NULL;
            if (!rc) rc = add_one(dst, &d, t, reservoir, err);
            else free(t.refs);
        }
    } else {
        rc = add_sampled(dst, &d, &s, src_stream, err);
    }
    give_back(p, dst, &d, &s);
    return rc;
}

/*
 * LLVM 22+'s writer (TRACE_RESERVOIR_FILL): the destination is cut to the
 * reservoir, the input's traces fill it in order, the rest are shuffled
 * and each later one takes a random slot with probability slots/(I+1),
 * I counting up from the destination's size to the input's stream size;
 * the stream size grows by the input's (not at all for an input left with
 * no trace). A single input with more traces than the reservoir is cut too.
 */
int pbi_merge_traces_fill(pb_profile *p, pbi_trace *src, size_t n, uint64_t src_stream, uint64_t reservoir,
                          uint64_t max_length, pb_error *err) {
    pbi_trace_set held, *dst = &held;
    pbi_profile_take_traces(p, dst);
    tlist s = {src, n, n}, d = {dst->v, dst->n, dst->cap};
    while (d.n > reservoir) free(d.v[--d.n].refs);
    cut_traces(&s, max_length);
    int rc = 0;
    size_t it = 0;
    while (!rc && s.n && d.n < reservoir && it < s.n) {
        rc = push(&d, s.v[it], err);
        if (!rc) s.v[it++].refs = NULL;
    }
    if (!rc && it < s.n) {
        if (src_stream > MAX_SAMPLED_STREAM)
            rc = pb_error_set(err, PB_EFORMAT, PB_NO_OFFSET, "temporal traces",
                              "a trace stream of %llu runs is too large to sample (at most 2^28)",
                              (unsigned long long)src_stream);
        if (!rc) rc = need_rng(dst, err);
        /* llvm::shuffle of the traces left */
        for (size_t first = it, size = s.n - it; !rc && size > 1; first++, size--) {
            size_t off = (size_t)(mt_next(dst->rng) % size);
            if (off) {
                pbi_trace t = s.v[first];
                s.v[first] = s.v[first + off];
                s.v[first + off] = t;
            }
        }
        for (uint64_t i = d.n; !rc && i < src_stream && it < s.n; i++) {
            uint64_t r = uniform(dst->rng, i);
            if (r < d.n) {
                free(d.v[r].refs);
                d.v[r] = s.v[it];
                s.v[it++].refs = NULL;
            }
        }
    }
    if (!rc && s.n) dst->stream_size += src_stream;
    give_back(p, dst, &d, &s);
    return rc;
}

void pbi_trace_rng_free(pbi_trace_rng *g) { free(g); }

uint32_t pbi_trace_rng_next(pbi_trace_rng *g) { return mt_next(g); }

uint64_t pbi_trace_rng_uniform(pbi_trace_rng *g, uint64_t hi) { return uniform(g, hi); }
