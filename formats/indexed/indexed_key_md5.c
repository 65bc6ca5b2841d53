/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * indexed_key_md5.c -- the MD5 of every key of an indexed file's hash
 * table, in walk order, on two cores where the machine has them.
 *
 * The reader checks each KeyHash against the MD5 of its key (a bad one
 * makes lookups miss) and keeps the MD5 for the writers: 12% of indexed ->
 * iprof of a 60,000-method iprof's 1 KB Java names (perf record,
 * bench/iprof.sh xi). Each hash depends only on its key, so a first walk
 * notes where the keys are and two threads hash them; the result is the
 * same with one thread or two.
 */
#include <stdlib.h>

#include "indexed_internal.h"
#include "util/grow.h"
#include "util/halves.h"

/* Fewer keys than this are hashed on one thread: starting a thread costs
 * about as much as hashing a few hundred names. */
#define PARALLEL_MIN 4096

typedef struct key_ref {
    uint64_t off, len;
} key_ref;

typedef struct keys {
    key_ref *k;
    size_t n, cap;
} keys;

static int note_key(void *ctx, const pbi_idx_item *it, uint64_t bucket_off, unsigned count, pb_error *err) {
    (void)bucket_off;
    (void)count;
    (void)err;
    keys *ks = ctx;
    if (pbu_grow((void **)&ks->k, &ks->cap, ks->n + 1, sizeof *ks->k)) return PB_ENOMEM;
    ks->k[ks->n].off = it->key_off;
    ks->k[ks->n].len = it->key_len;
    ks->n++;
    return 0;
}

typedef struct md5_job {
    const uint8_t *data;
    const key_ref *k;
    uint64_t *out;
} md5_job;

static void hash_range(void *ctx, size_t from, size_t to) {
    const md5_job *j = ctx;
    for (size_t i = from; i < to; i++) j->out[i] = pb_md5_ref(j->data + j->k[i].off, (size_t)j->k[i].len);
}

uint64_t *pbi_idx_key_md5s(const pbi_idx_file *f, size_t *n) {
    *n = 0;
    keys ks = {NULL, 0, 0};
    pb_error ignored; /* a damaged table: the reader's own walk says why */
    pb_error_clear(&ignored);
    uint64_t *out = NULL;
    if (pbi_idx_walk(f, note_key, &ks, &ignored) == 0 && ks.n &&
        (out = malloc(ks.n * sizeof *out)) != NULL) {
        md5_job job = {f->data, ks.k, out};
        pbu_run_halves(hash_range, &job, ks.n, PARALLEL_MIN);
        *n = ks.n;
    }
    free(ks.k);
    return out;
}
