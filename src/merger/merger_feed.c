/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merger_feed.c -- parallel, ordered reading of a merger's inputs (merger_feed.h).
 *
 * Every input has a slot. A thread that is free claims the next unclaimed
 * input (if it lies inside the read-ahead window), prepares it
 * (pb_prepare_file: a plugin with two halves loads and indexes the input,
 * any other reads its whole profile) and marks the slot done. The caller
 * takes slots in order; while the one it wants is still being read it helps
 * by reading a later one itself rather than sleeping. Diagnostics raised
 * while reading are kept in the slot and replayed by the caller, so stderr
 * reads the same with 1 or N threads. Reading is thread-safe because every
 * read builds its own state and the plugins keep no mutable global state.
 */
#include "merger_feed.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "io/read_block.h"
#include "util/grow.h"

enum { SLOT_PENDING = 0, SLOT_READING, SLOT_DONE, SLOT_TAKEN };

typedef struct diag_item {
    int severity;
    pb_error e;
} diag_item;

typedef struct slot {
    int state;
    int rc;
    pb_source *src; /* the input, opened once; kept to read a failed input again */
    pb_prepared *pr;
    pb_error err;
    diag_item *diags;
    size_t ndiags, cap;
    int diag_oom; /* some diagnostics could not be kept */
} slot;

struct pbi_feed {
    const char *const *paths;
    size_t n;
    const pb_read_options *ro;
    slot *slots;
    size_t next_claim; /* first input no thread has claimed */
    size_t next_take;  /* the input pbi_feed_next hands out next */
    size_t window;     /* inputs claimed at most this far ahead of next_take (see take_window) */
    unsigned threads;
    int stop;
    pthread_mutex_t mu;
    pthread_cond_t changed; /* a slot is done, next_take moved, or stop */
    pthread_t *workers;
    unsigned nworkers;
    /* Input i is read into blocks[i % nblocks] (small regular files: see
     * read_block.h), so no worker maps an input for the merging thread to
     * fault in and unmap. nblocks = threads + 1: input i + nblocks is
     * claimed only inside the window (at most `threads` past next_take),
     * so after the caller took input i + 1, by which time it has freed
     * input i's source and with it the block (the lock orders the two). */
    pbi_read_block *blocks;
    size_t nblocks;
};

static void keep_diag(void *ctx, int severity, const pb_error *e) {
    slot *s = ctx;
    if (pbu_grow((void **)&s->diags, &s->cap, s->ndiags + 1, sizeof *s->diags)) {
        s->diag_oom = 1;
        return;
    }
    s->diags[s->ndiags].severity = severity;
    s->diags[s->ndiags++].e = *e;
}

/* Reads input i into its slot; called without the lock (the slot is ours). */
static void read_input(pbi_feed *f, size_t i) {
    slot *s = &f->slots[i];
    pb_read_options ro = *f->ro;
    ro.diag = keep_diag;
    ro.diag_ctx = s;
    pb_error_clear(&s->err);
    s->rc = pb_source_open_file(&s->src, f->paths[i], &s->err);
    if (s->rc == 0 && f->nblocks) pbi_source_lend_block(s->src, &f->blocks[i % f->nblocks]);
    if (s->rc == 0) s->rc = pb_prepare(&s->pr, s->src, &ro, &s->err);
    if (s->rc == 0 && !pb_prepared_streams(s->pr)) {
        /* a whole model is held: the source's bytes are not needed any more */
        pb_source_free(s->src);
        s->src = NULL;
    }
}

/* With the lock held: the next input this thread may read, or SIZE_MAX. */
static size_t claim(pbi_feed *f) {
    if (f->stop || f->next_claim >= f->n || f->next_claim >= f->next_take + f->window) return SIZE_MAX;
    size_t i = f->next_claim++;
    f->slots[i].state = SLOT_READING;
    return i;
}

static void finish(pbi_feed *f, size_t i) {
    pthread_mutex_lock(&f->mu);
    f->slots[i].state = SLOT_DONE;
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->mu);
}

static void *worker(void *arg) {
    pbi_feed *f = arg;
    pthread_mutex_lock(&f->mu);
    for (;;) {
        size_t i = claim(f);
        if (i == SIZE_MAX) {
            if (f->stop || f->next_claim >= f->n) break;
            pthread_cond_wait(&f->changed, &f->mu); /* window full: wait for the merge */
            continue;
        }
        pthread_mutex_unlock(&f->mu);
        read_input(f, i);
        finish(f, i);
        pthread_mutex_lock(&f->mu);
    }
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

int pbi_feed_start(pbi_feed **out, const char *const *paths, size_t n, unsigned threads,
                   const pb_read_options *ro, pb_error *err) {
    *out = NULL;
    pbi_feed *f = calloc(1, sizeof *f);
    if (!f || !(f->slots = calloc(n ? n : 1, sizeof *f->slots))) {
        free(f);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    f->paths = paths;
    f->n = n;
    f->ro = ro;
    if (threads < 1) threads = 1;
    f->threads = threads;
    f->window = 1; /* until an input shows what it costs (take_window) */
    if (pthread_mutex_init(&f->mu, NULL) || pthread_cond_init(&f->changed, NULL)) {
        free(f->slots);
        free(f);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot create a mutex");
    }
    /* without blocks (out of memory) each input is mapped or read on its own */
    if ((f->blocks = calloc((size_t)threads + 1, sizeof *f->blocks))) f->nblocks = (size_t)threads + 1;
    if (threads > 1 && n > 1) {
        unsigned want = threads - 1;
        if (want > n - 1) want = (unsigned)(n - 1);
        f->workers = calloc(want, sizeof *f->workers);
        for (unsigned k = 0; f->workers && k < want; k++) {
            if (pthread_create(&f->workers[k], NULL, worker, f)) break; /* fewer threads: still correct */
            f->nworkers++;
        }
    }
    *out = f;
    return 0;
}

/*
 * The read-ahead window after taking slot s. An input read whole is most of
 * the work: the merging thread reads one too while it waits (window =
 * threads; with threads - 1 it mostly waited, no speed-up). A prepared input
 * leaves the records to the merging thread, which is then the busy one:
 * preparing (bytes, layout, function addresses) takes less time than merging the
 * records, so one input prepared ahead keeps it busy and more would only
 * wait, each costing its bytes and name index (the 20-input merge of
 * bench/merge_memory.sh: 102 MB on 4 threads with threads - 1 ahead, the
 * same time with one).
 */
static size_t take_window(const pbi_feed *f, const slot *s) {
    if (f->threads < 2) return 1;
    return pb_prepared_streams(s->pr) ? 1 : f->threads;
}

int pbi_feed_next(pbi_feed *f, pb_prepared **pr, pb_source **src, pb_error *err) {
    *pr = NULL;
    *src = NULL;
    if (f->next_take >= f->n) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "no more inputs");
    size_t want = f->next_take;
    slot *s = &f->slots[want];
    pthread_mutex_lock(&f->mu);
    while (s->state != SLOT_DONE) {
        size_t i = claim(f); /* ours if nobody took it yet; else help with a later one */
        if (i == SIZE_MAX) {
            pthread_cond_wait(&f->changed, &f->mu);
            continue;
        }
        pthread_mutex_unlock(&f->mu);
        read_input(f, i);
        pthread_mutex_lock(&f->mu);
        f->slots[i].state = SLOT_DONE;
        pthread_cond_broadcast(&f->changed);
    }
    s->state = SLOT_TAKEN;
    f->next_take++;
    if (s->rc == 0) f->window = take_window(f, s);
    pthread_cond_broadcast(&f->changed); /* the window moved */
    pthread_mutex_unlock(&f->mu);

    const pb_read_options *ro = f->ro;
    int rc = s->rc;
    if (rc) s->ndiags = s->diag_oom = 0; /* the caller reads a failed input again to report it */
    for (size_t k = 0; k < s->ndiags; k++)
        if (ro->diag) ro->diag(ro->diag_ctx, s->diags[k].severity, &s->diags[k].e);
    if (s->diag_oom)
        pb_diag(ro->diag, ro->diag_ctx, PB_DIAG_WARNING, PB_ENOMEM, f->paths[want], PB_NO_OFFSET, NULL,
                "some diagnostics of this input were lost (out of memory)");
    free(s->diags);
    s->diags = NULL;
    s->ndiags = s->cap = 0;
    if (rc) *err = s->err;
    *pr = s->pr;
    s->pr = NULL;
    *src = s->src;
    s->src = NULL;
    return rc;
}

void pbi_feed_free(pbi_feed *f) {
    if (!f) return;
    pthread_mutex_lock(&f->mu);
    f->stop = 1;
    pthread_cond_broadcast(&f->changed);
    pthread_mutex_unlock(&f->mu);
    for (unsigned k = 0; k < f->nworkers; k++) pthread_join(f->workers[k], NULL);
    for (size_t i = 0; i < f->n; i++) {
        pb_prepared_free(f->slots[i].pr);
        pb_source_free(f->slots[i].src);
        free(f->slots[i].diags);
    }
    for (size_t k = 0; k < f->nblocks; k++) pbi_read_block_free(&f->blocks[k]);
    free(f->blocks);
    pthread_cond_destroy(&f->changed);
    pthread_mutex_destroy(&f->mu);
    free(f->workers);
    free(f->slots);
    free(f);
}
