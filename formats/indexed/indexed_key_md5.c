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
#include <sys/mman.h>

#include "indexed_internal.h"
#include "util/halves.h"

/* Fewer keys than this are hashed on one thread: starting a thread costs
 * about as much as hashing a few hundred names. */
#define PARALLEL_MIN 4096

/* The smallest item: KeyHash, KeyLen and DataLen words (§3.5). */
#define MIN_ITEM_BYTES 24

typedef struct key_ref {
    uint64_t off, len;
} key_ref;

/* The block: n MD5s, then n key places (the places are only needed until
 * the hashing is done). */
typedef struct keys {
    uint64_t *md5;
    key_ref *k;
    size_t n, cap;
} keys;

static size_t block_len(size_t n) { return n * (sizeof(uint64_t) + sizeof(key_ref)); }

static int note_key(void *ctx, const pbi_idx_item *it, uint64_t bucket_off, unsigned count, pb_error *err) {
    (void)bucket_off;
    (void)count;
    (void)err;
    keys *ks = ctx;
    if (ks->n == ks->cap) return PB_EFORMAT; /* more keys than NumEntries: damaged */
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

/* The block is mapped, not malloc'ed: glibc raises its mmap threshold to
 * the size of any mapped malloc block freed, and a few MB freed here kept
 * the caller's later blocks of 128 KiB and up in the heap, resident after
 * their free: bench/cov.sh's lcov export of a 100k-function .profdata
 * peaked at 154-157 MB instead of 145-148 MB (/usr/bin/time, 3 runs each,
 * with and without this pass). */
uint64_t *pbi_idx_key_md5s(const pbi_idx_file *f, size_t *n) {
    *n = 0;
    /* NumEntries sizes the block; a claim the file cannot hold (each item
     * takes at least MIN_ITEM_BYTES) gets no block: the reader's own walk
     * says what is wrong */
    if (f->num_entries == 0 || f->num_entries > f->len / MIN_ITEM_BYTES) return NULL;
    size_t cap = (size_t)f->num_entries;
    void *block = mmap(NULL, block_len(cap), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) return NULL;
    keys ks = {block, (key_ref *)((uint64_t *)block + cap), 0, cap};
    pb_error ignored; /* a damaged table: the reader's own walk says why */
    pb_error_clear(&ignored);
    if (pbi_idx_walk(f, note_key, &ks, &ignored) != 0 || ks.n != cap) {
        munmap(block, block_len(cap));
        return NULL;
    }
    md5_job job = {f->data, ks.k, ks.md5};
    pbu_run_halves(hash_range, &job, ks.n, PARALLEL_MIN);
    *n = ks.n;
    return ks.md5;
}

void pbi_idx_key_md5s_free(uint64_t *md5s, size_t n) {
    if (md5s) munmap(md5s, block_len(n));
}
