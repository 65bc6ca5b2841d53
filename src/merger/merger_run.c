/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merger_run.c -- pb_merger_run: the inputs are read on the merger's threads
 * (merger_feed.c) but merged in input order, so every thread count gives the
 * same profile and the same diagnostics; the first input becomes the
 * accumulator. With one thread the later inputs are merged while they are
 * read (pb_read_options.merge_into): memory is the accumulator plus one
 * input's bytes, not plus its model. With writer_contexts there is one
 * accumulator per llvm-profdata writer context (input i into i % threads),
 * each merged on a thread of its own, as one thread would, and merged
 * pairwise at the end as its mergeWriterContexts does.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "merger_defer.h"
#include "merger_feed.h"
#include "merger_internal.h"
#include "io/read_block.h"
#include "llvm/containers.h"
#include "merge/profile_merge.h"
#include "model/profile_records.h"
#include "model/options.h"
#include "util/diag.h"

/* The diagnostics of one input's read and merge: named after the input, and
 * (LLVM 18+) a raw counter above 2^56 noted, as it fails the input. */
typedef struct input_diag_ctx {
    const pb_merger *m;
    const char *name;
    int large_fails, large_seen;
    pb_error large;
    unsigned *kinds_seen; /* the run's: an input's mismatch or overflow counts as reported */
} input_diag_ctx;

static unsigned writer_kind_bit(const pb_error *e);

static void input_diag(void *ctx, int severity, const pb_error *e) {
    input_diag_ctx *n = ctx;
    if (n->large_fails && severity == PB_DIAG_WARNING &&
        strncmp(e->message, PBU_LARGE_COUNTER_WORDS, sizeof PBU_LARGE_COUNTER_WORDS - 1) == 0) {
        /* LLVM 18+ fails the input (its first such counter, once) */
        if (!n->large_seen) {
            n->large_seen = 1;
            n->large = *e;
            if (!n->large.source[0] && n->name) pb_error_set_source(&n->large, n->name);
        }
        return;
    }
    if (n->kinds_seen && severity == PB_DIAG_WARNING) *n->kinds_seen |= writer_kind_bit(e);
    if (!n->m->o.diag) return;
    if (e->source[0] || !n->name) {
        n->m->o.diag(n->m->o.diag_ctx, severity, e);
        return;
    }
    pb_error c = *e;
    pb_error_set_source(&c, n->name);
    n->m->o.diag(n->m->o.diag_ctx, severity, &c);
}

typedef struct run {
    pb_merger *m;
    unsigned threads;
    pbi_feed *feed;
    const char **paths;
    pb_profile *acc;
    pb_read_options ro; /* the feed's: its diag goes to the caller's */
    pb_merge_options mo;
    input_diag_ctx rn;
    pbi_diag_defer dd; /* the merge's warnings wait for the read's */
    pbi_merger_failures fails;
    /* writer contexts: ctx[c] is context c's accumulator (NULL: nothing
     * merged into it yet, LLVM's empty writer); acc is the one being fed */
    pb_profile **ctx;
    unsigned nctx;
    unsigned kinds_seen; /* PB_MERGE_* kinds reported so far (bit per kind), LLVM's WriterErrorCodes */
    pbi_read_block *block; /* a context thread's: lent to each input it streams (NULL: none) */
} run;

/* A run of m's inputs on `threads` threads (no input read yet); its
 * diagnostics go to m->o.diag. */
static void run_init(run *r, pb_merger *m, unsigned threads) {
    memset(r, 0, sizeof *r);
    r->m = m;
    r->threads = threads;
    pb_read_options rd = PB_READ_OPTIONS_INIT;
    r->ro = m->o.read ? *m->o.read : rd;
    r->ro.diag = m->o.diag; /* what the feed replays, on this thread */
    r->ro.diag_ctx = m->o.diag_ctx;
    r->ro.merge_into = NULL;
    r->ro.merge = NULL;
    /* the readers read as the release that merges, unless the caller's read
     * options name one (a layout-1 struct names none) */
    if (!pbi_read_release(&r->ro)) r->ro.llvm_release = m->o.llvm_release;
    if (r->ro.version < 3) r->ro.llvm_view = 0; /* a layout-2 struct ends before it */
    r->ro.version = PB_READ_OPTIONS_VERSION;
    pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
    r->mo = mo;
    r->mo.llvm_release = m->target.release; /* its merge rules (profile_merge.c) */
    r->mo.max_count = m->o.max_count                                         ? m->o.max_count
                      : pbi_llvm_has(&m->target, PBI_LF_SATURATE_U64_MAX) ? PB_MAX_COUNT_LLVM14
                                                                           : PB_MAX_COUNT_LLVM;
    r->mo.max_values_per_site = m->o.keep_all_values ? 0 : PB_MAX_VALUES_PER_SITE_LLVM;
    r->mo.trace_reservoir = m->o.trace_reservoir;
    r->mo.trace_max_length = m->o.trace_max_length;
    r->mo.remap = m->o.remap;
    r->mo.diag = input_diag; /* the merge's problems name the input */
    r->mo.diag_ctx = &r->rn;
    r->rn.m = m;
    r->rn.large_fails = pbi_llvm_has(&m->target, PBI_LF_MERGE_LARGE_COUNTER_FAILS);
    pbi_diag_defer dd = {input_diag, &r->rn, NULL, 0, 0, PB_BUF_INIT, 0};
    r->dd = dd;
    r->rn.kinds_seen = &r->kinds_seen;
}

/* The PB_MERGE_* kind of a writer's problem as one bit (0: none). */
static unsigned writer_kind_bit(const pb_error *e) {
    int k = pb_merge_problem_kind(e->path);
    return k < 0 ? 0 : 1u << k;
}

/* A regular file of 0 bytes ("-" and other non-files are never empty here). */
static int is_empty_file(const char *path) {
    struct stat st;
    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
}

/* Input i from the feed: as the accumulator when it is the first, else
 * into it. *isrc is kept to read a failed input again. Returns the read's
 * code; *stream 1 when the input is to be read again, streaming. */
static int take_fed(run *r, size_t i, pb_prepared **pr, pb_source **isrc, int *stream, int *done, pb_error *e) {
    (void)i;
    int prc = pbi_feed_next(r->feed, pr, isrc, e);
    if (prc == 0 && !r->acc) {
        /* The first input becomes the accumulator: what merging it into an
         * empty profile would give, without the copy. Its reader's
         * diagnostics wait for the read to succeed. */
        pb_profile *p = NULL;
        pb_read_options fro = r->ro;
        fro.diag = pbi_defer_diag;
        fro.diag_ctx = &r->dd;
        prc = pb_read_prepared(&p, *pr, &fro, e);
        if (prc) pbi_defer_drop(&r->dd);
        pbi_defer_flush(&r->dd);
        if (prc == 0) {
            *done = 1;
            prc = pb_profile_apply_weight(p, &r->mo, e);
            if (prc == 0) {
                r->acc = p;
                p = NULL;
            }
        }
        pb_profile_free(p);
    }
    /* A failed read is read again, streaming: a raw input that fails
     * half-way then keeps the records read before the error (as
     * llvm-profdata does) and its diagnostics are those of the streaming
     * read (the feed and the first input's read above drop a failed read's),
     * so every thread count gives the same profile and diagnostics. It is
     * read again through the descriptor the feed opened (never by name): a
     * regular file rewinds, a stream (FIFO, pipe) cannot and its first error
     * is reported. */
    if (prc && !*done) {
        pb_prepared_free(*pr);
        *pr = NULL;
        pb_error rerr;
        pb_error_clear(&rerr);
        if (*isrc && pb_source_rewind(*isrc, &rerr) == 0) {
            pb_error_clear(e);
            prc = r->acc ? 0 : pb_profile_new(&r->acc, e);
            *stream = 1;
        }
    }
    return prc;
}

/* pb_read_file, with r's block (if any) lent to the source. */
static int read_streaming(run *r, pb_profile **p, const char *path, const pb_read_options *o, pb_error *e) {
    pb_source *src = NULL;
    int rc = pb_source_open_file(&src, path, e);
    if (rc == 0) {
        pbi_source_lend_block(src, r->block);
        rc = pb_read(p, src, o, e);
    }
    pb_source_free(src);
    return rc;
}

/* Reads and merges input i; a failure is kept in r->fails. Returns 0, or
 * PB_ENOMEM when even that cannot be kept. */
static int merge_input(run *r, size_t i) {
    pb_merger *m = r->m;
    const char *path = m->in[i].path;
    r->rn.name = path;
    r->rn.large_seen = 0;
    pb_profile *p = NULL;
    pb_prepared *pr = NULL;
    pb_source *isrc = NULL; /* the feed's source of this input, to read it again */
    pb_error e;
    pb_error_clear(&e);
    int prc = 0;
    r->mo.weight = m->in[i].weight;
    r->mo.source = path;
    /* One thread: the reader merges straight into the accumulator
     * (pb_read_options.merge_into), so no model of the input is built; the
     * feed is not used past the first input. */
    int stream = r->acc && r->threads == 1, done = 0;
    /* LLVM 13 sets the entry-first flag from each input in turn (the last
     * one wins) where later releases OR the inputs' flags */
    uint64_t acc_flags = r->acc ? pb_profile_flags(r->acc) : 0;
    /* LLVM 13 sets the writer's IR level from the first input's header,
     * before its records are read: an input failing after its header sets
     * it all the same (FE_IR_MIX_REFUSED; 14+ keep the whole kind, below) */
    int level_unset = !r->acc || (!pb_profile_record_count(r->acc) && !pb_profile_origin(r->acc)->format[0]);
    if (r->acc && pbi_llvm_has(&m->target, PBI_LF_ENTRY_FIRST_LAST_INPUT))
        pb_profile_set_flags(r->acc, acc_flags & ~PB_VARIANT_ENTRY_FIRST);
    if (!stream) prc = take_fed(r, i, &pr, &isrc, &stream, &done, &e);
    if (prc == 0 && !done) {
        /* Into the accumulator: streaming from the file, or from the
         * prepared input (the same reader code either way), or merging the
         * model of a plugin that does not stream. */
        pb_read_options sro = r->ro; /* the feed keeps pointing at ro */
        sro.diag = input_diag;
        sro.diag_ctx = &r->rn;
        sro.merge_into = r->acc;
        sro.merge = &r->mo;
        /* the merge's warnings after the reader's, as when reading a model first */
        r->mo.diag = pbi_defer_diag;
        r->mo.diag_ctx = &r->dd;
        if (!stream) prc = pb_read_prepared(&p, pr, &sro, &e);
        else if (isrc) prc = pb_read(&p, isrc, &sro, &e); /* the failed input, rewound */
        else prc = read_streaming(r, &p, path, &sro, &e); /* one thread: opened once, here */
        pbi_defer_flush(&r->dd);
        r->mo.diag = input_diag;
        r->mo.diag_ctx = &r->rn;
    }
    pb_prepared_free(pr);
    pb_source_free(isrc);
    pb_profile_free(p);
    if (prc && r->acc && pbi_llvm_has(&m->target, PBI_LF_FE_IR_MIX_REFUSED)) {
        /* 13: a failed input sets no flag, but for its IR level (above) */
        uint64_t level = level_unset ? pb_profile_flags(r->acc) & PB_VARIANT_IR : 0;
        pb_profile_set_flags(r->acc, acc_flags | level);
    }
    /* 14+ merge an input's kind into the writer's when its reader is made
     * (mergeProfileKind, before the records are read): one that fails
     * after its header keeps the kind its read merged (llvm-profdata 14-24:
     * cut2.profraw then a ':fe' text refuses the text) */
    if (prc) pb_error_set_source(&e, path);
    if (prc && is_empty_file(path)) {
        /* llvm-profdata merge skips an empty input without a word
         * (InstrProfReader's empty_raw_profile) */
        pb_diag(m->o.diag, m->o.diag_ctx, PB_DIAG_NOTICE, 0, path, PB_NO_OFFSET, PB_MERGER_EMPTY_INPUT,
                "empty input skipped, as llvm-profdata merge skips it");
        prc = 0;
    }
    if (prc == 0 && r->rn.large_seen) {
        /* LLVM 18+: the records are merged, the input counts as failed */
        e = r->rn.large;
        prc = PB_EFORMAT;
    }
    /* llvm-profdata reads every input and then warns about each that failed */
    if (prc && pbi_merger_fail(&r->fails, i, prc, &e)) return PB_ENOMEM;
    return 0;
}

/* A mismatch or overflow met while merging two contexts: llvm-profdata's
 * "warning: WHAT", once per kind in the run (its WriterErrorCodes). */
static void context_diag(void *ctx, int severity, const pb_error *e) {
    run *r = ctx;
    unsigned bit = severity == PB_DIAG_WARNING ? writer_kind_bit(e) : 0;
    if (!bit || (r->kinds_seen & bit)) return;
    r->kinds_seen |= bit;
    if (!r->m->o.diag) return;
    pb_error c = *e;
    c.source[0] = '\0';
    /* LLVM names no function here: the kind's words alone */
    snprintf(c.message, sizeof c.message, "%s", pb_merge_problem_words(pb_merge_problem_kind(e->path)));
    r->m->o.diag(r->m->o.diag_ctx, severity, &c);
}

/* Context s into context d, as llvm-profdata's mergeWriterContexts: the
 * kinds first (MERGE_CONTEXT_KINDS: checked, a conflict is fatal; before:
 * d's kind stays), then the records in s's order after d's, its binary ids
 * and traces. An empty context (NULL) is LLVM's writer that got no input. */
static int merge_context(run *r, unsigned d, unsigned s, pb_error *err) {
    pb_profile *dst = r->ctx[d], *src = r->ctx[s];
    int checked = pbi_llvm_has(&r->m->target, PBI_LF_MERGE_CONTEXT_KINDS);
    uint64_t dk = dst ? pb_profile_flags(dst) : 0, sk = src ? pb_profile_flags(src) : 0;
    int rc;
    if (dst && (rc = pbi_merge_context_kinds(dk, sk, r->m->target.release, err))) {
        if (rc == PB_EFORMAT) snprintf(err->path, sizeof err->path, "%s", PB_MERGER_CONTEXT_KINDS);
        return rc;
    }
    if (!src) return 0;
    if (!dst) {
        /* an empty writer takes the other's records (and, 16+, its kind;
         * before, it keeps its own: none) */
        if (!checked) pb_profile_set_flags(src, sk & ~PBI_MERGE_KIND_FLAGS);
        r->ctx[d] = src;
        r->ctx[s] = NULL;
        return 0;
    }
    /* mergeRecordsFromWriter walks src's writer: its StringMap of names,
     * each name's SmallDenseMap of hashes; dst takes the records new to it
     * in that order, which its own containers then keep */
    size_t n = pb_profile_record_count(src);
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    rc = pbi_llvm_writer_order(src, &r->m->target, order, err);
    if (!rc) rc = pbi_profile_permute_records(src, order, err);
    free(order);
    if (rc) return rc;
    /* src is a writer now, no longer the raw file it began as: its traces
     * carry their inputs' weights (a raw input's traces take the weight
     * they are merged with, pb_profile_merge) */
    pb_origin built;
    memset(&built, 0, sizeof built);
    pb_profile_set_origin(src, &built);
    pb_merge_options mo = r->mo;
    mo.weight = 1; /* the inputs' weights were applied in their contexts */
    mo.source = NULL;
    mo.remap = NULL; /* the records were renamed when their inputs were merged */
    mo.diag = context_diag;
    mo.diag_ctx = r;
    /* 13-15 check nothing here: src is merged as if of dst's kind, and dst's
     * kind is put back after (pb_profile_merge ORs the kinds) */
    if (!checked) pb_profile_set_flags(src, (sk & ~PBI_MERGE_KIND_FLAGS) | (dk & PBI_MERGE_KIND_FLAGS));
    rc = pbi_profile_merge_writer(dst, src, &mo, err);
    if (!rc && !checked)
        pb_profile_set_flags(dst, (pb_profile_flags(dst) & ~PBI_MERGE_KIND_FLAGS) | (dk & PBI_MERGE_KIND_FLAGS));
    pb_profile_free(src);
    r->ctx[s] = NULL;
    return rc;
}

/* llvm-profdata's merge of its T writer contexts: context I takes I + T/2
 * for every I < T/2, the odd last one goes into context 0, then again over
 * the first half, until one is left. */
static int merge_contexts(run *r, pb_error *err) {
    unsigned mid = r->nctx / 2, end = r->nctx;
    int rc = 0;
    do {
        for (unsigned i = 0; i < mid && !rc; i++) rc = merge_context(r, i, i + mid, err);
        if (!rc && (end & 1)) rc = merge_context(r, 0, end - 1, err);
        end = mid;
        mid /= 2;
    } while (mid > 0 && !rc);
    return rc;
}

/* ---- writer contexts, each on its own thread ------------------------------ */

/*
 * llvm-profdata merges input i into writer context i % T on thread i % T.
 * Context c here is merged on its own thread too, input by input as with one
 * thread (streaming into its accumulator), which is what makes -j 2 faster
 * than -j 1: one merging thread with readers beside it was the bottleneck
 * (bench/many_merge.sh: 200 .profdata at -j 2 took the time of -j 1 with 1.75x
 * its CPU). The contexts meet only at the end (merge_contexts), so each
 * one's profile is what the one-thread loop made. Their diagnostics are kept
 * per input and replayed by the calling thread in input order, with the
 * progress, so stderr reads the same as with one thread.
 */
typedef struct par_state {
    size_t n;
    pbi_diag_defer *caps; /* input i's diagnostics, until replayed */
    unsigned char *done;  /* input i merged (or given up) */
    pthread_mutex_t mu;
    pthread_cond_t changed;
} par_state;

typedef struct ctx_worker {
    par_state *ps;
    pb_merger m;         /* the caller's, its diagnostics kept in ps->caps */
    run r;               /* context c's: its own feed, accumulator and failures */
    unsigned c, nctx;
    size_t cur;          /* the input being merged */
    const char **paths;  /* inputs c, c + nctx, ... */
    int rc, started;
    pthread_t th;
    pbi_read_block block; /* the inputs' bytes, one after another */
} ctx_worker;

static void keep_input_diag(void *ctx, int severity, const pb_error *e) {
    ctx_worker *w = ctx;
    pbi_defer_diag(&w->ps->caps[w->cur], severity, e);
}

static void mark_done(par_state *ps, size_t i) {
    pthread_mutex_lock(&ps->mu);
    ps->done[i] = 1;
    pthread_cond_broadcast(&ps->changed);
    pthread_mutex_unlock(&ps->mu);
}

static void *ctx_main(void *arg) {
    ctx_worker *w = arg;
    size_t n = w->ps->n, i = w->c;
    if (w->rc == 0) {
        for (; i < n; i += w->nctx) {
            w->cur = i;
            if ((w->rc = merge_input(&w->r, i))) break;
            mark_done(w->ps, i);
        }
    }
    for (; i < n; i += w->nctx) mark_done(w->ps, i); /* given up: nobody waits for them */
    return NULL;
}

/* Sets worker w up for context c of r (no thread yet): 0 or PB_ENOMEM. */
static int ctx_worker_init(ctx_worker *w, run *r, par_state *ps, unsigned c, pb_error *err) {
    pb_merger *m = r->m;
    w->ps = ps;
    w->m = *m; /* read only, but for where its diagnostics go */
    if (m->o.diag) {
        w->m.o.diag = keep_input_diag;
        w->m.o.diag_ctx = w;
    }
    run_init(&w->r, &w->m, 1); /* one thread: inputs after the first stream in */
    w->r.block = &w->block;
    w->c = c;
    w->nctx = r->nctx;
    w->r.acc = r->ctx[c]; /* remap: an empty profile */
    r->ctx[c] = NULL;
    size_t k = 0;
    if (!(w->paths = malloc((ps->n / r->nctx + 1) * sizeof *w->paths)))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = c; i < ps->n; i += r->nctx) w->paths[k++] = m->in[i].path;
    return pbi_feed_start(&w->r.feed, w->paths, k, 1, &w->r.ro, err);
}

/* Worker w's context and failures into r; frees the rest of w. */
static void ctx_worker_finish(ctx_worker *w, run *r) {
    r->ctx[w->c] = w->r.acc;
    w->r.acc = NULL;
    r->kinds_seen |= w->r.kinds_seen;
    pbi_feed_free(w->r.feed);
    pbi_defer_free(&w->r.dd);
    pbi_read_block_free(&w->block);
    free(w->paths);
}

/* Replays input i's diagnostics and progress once its worker is done with it. */
static void replay_input(run *r, par_state *ps, size_t i) {
    pthread_mutex_lock(&ps->mu);
    while (!ps->done[i]) pthread_cond_wait(&ps->changed, &ps->mu);
    pthread_mutex_unlock(&ps->mu);
    pbi_defer_flush(&ps->caps[i]);
    pbi_defer_free(&ps->caps[i]);
    if (r->m->o.progress) r->m->o.progress(r->m->o.progress_ctx, i + 1, r->m->n);
}

/* The failures of the workers into r's, in input order (which sets its
 * first code as the one-thread loop does). 0 or PB_ENOMEM. */
static int gather_failures(run *r, ctx_worker *w, size_t n) {
    size_t *next = calloc(r->nctx, sizeof *next);
    int rc = next ? 0 : PB_ENOMEM;
    for (size_t i = 0; i < n && !rc; i++) {
        pbi_merger_failures *f = &w[i % r->nctx].r.fails;
        size_t *k = &next[i % r->nctx];
        if (*k < f->n && f->v[*k].input == i) {
            rc = pbi_merger_fail(&r->fails, i, f->v[*k].code, &f->v[*k].err);
            ++*k;
        }
    }
    free(next);
    return rc;
}

static int merge_contexts_parallel(run *r, pb_error *err) {
    pb_merger *m = r->m;
    par_state ps;
    memset(&ps, 0, sizeof ps);
    ps.n = m->n;
    ctx_worker *w = calloc(r->nctx, sizeof *w);
    ps.caps = calloc(ps.n, sizeof *ps.caps);
    ps.done = calloc(ps.n, 1);
    int rc = 0, sync = pthread_mutex_init(&ps.mu, NULL) == 0;
    if (sync && pthread_cond_init(&ps.changed, NULL)) {
        pthread_mutex_destroy(&ps.mu);
        sync = 0;
    }
    if (!w || !ps.caps || !ps.done || !sync) {
        rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < ps.n; i++) {
        pbi_diag_defer d = {m->o.diag, m->o.diag_ctx, NULL, 0, 0, PB_BUF_INIT, 0};
        ps.caps[i] = d;
    }
    unsigned c;
    for (c = 0; c < r->nctx && !rc; c++) rc = ctx_worker_init(&w[c], r, &ps, c, err);
    if (rc) goto workers;
    /* a context whose thread cannot start is merged on this one, before the replay */
    for (c = 0; c < r->nctx; c++) w[c].started = pthread_create(&w[c].th, NULL, ctx_main, &w[c]) == 0;
    for (c = 0; c < r->nctx; c++)
        if (!w[c].started) ctx_main(&w[c]);
    for (size_t i = 0; i < ps.n; i++) replay_input(r, &ps, i);
workers:
    for (c = 0; c < r->nctx; c++)
        if (w[c].started) pthread_join(w[c].th, NULL);
    for (c = 0; c < r->nctx && !rc; c++)
        if (w[c].rc) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    if (!rc && gather_failures(r, w, ps.n)) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (c = 0; c < r->nctx; c++) {
        if (w[c].r.m) ctx_worker_finish(&w[c], r);
        pbi_merger_failures_free(&w[c].r.fails);
    }
out:
    if (sync) {
        pthread_mutex_destroy(&ps.mu);
        pthread_cond_destroy(&ps.changed);
    }
    for (size_t i = 0; ps.caps && i < ps.n; i++) pbi_defer_free(&ps.caps[i]);
    free(ps.caps);
    free(ps.done);
    free(w);
    return rc;
}

static int run_inputs(run *r, pb_error *err) {
    pb_merger *m = r->m;
    if (!(r->paths = malloc(m->n * sizeof *r->paths)))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < m->n; i++) r->paths[i] = m->in[i].path;
    r->nctx = m->o.writer_contexts ? r->threads : 1;
    if (!(r->ctx = calloc(r->nctx, sizeof *r->ctx)))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    int rc;
    /* A remapped record is merged under its new name: every input goes
     * through the merge, none becomes the accumulator as it is. */
    for (unsigned c = 0; c < r->nctx && m->o.remap; c++)
        if ((rc = pb_profile_new(&r->ctx[c], err))) return rc;
    if (r->nctx > 1) {
        if ((rc = merge_contexts_parallel(r, err))) return rc;
    } else {
        if ((rc = pbi_feed_start(&r->feed, r->paths, m->n, r->threads, &r->ro, err))) return rc;
        for (size_t i = 0; i < m->n; i++) {
            r->acc = r->ctx[0];
            rc = merge_input(r, i);
            r->ctx[0] = r->acc;
            r->acc = NULL;
            if (rc) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
            if (m->o.progress) m->o.progress(m->o.progress_ctx, i + 1, m->n);
        }
        pbi_feed_free(r->feed);
        r->feed = NULL;
    }
    if (r->nctx > 1 && (rc = merge_contexts(r, err))) return rc;
    r->acc = r->ctx[0];
    r->ctx[0] = NULL;
    int verdict = pbi_merger_report_failures(m, &r->fails, r->threads);
    if (verdict < 0) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    if (verdict && !m->keep_on_failure)
        return pb_error_set(err, r->fails.first_code, PB_NO_OFFSET, PB_MERGER_NOTHING_MERGED,
                            "no profile can be merged");
    if (!r->acc && (rc = pb_profile_new(&r->acc, err))) return rc;
    return pbi_merger_filter(m, &r->acc, err);
}

int pb_merger_run(pb_merger *m, pb_profile **out, pb_error *err) {
    if (err) pb_error_clear(err);
    if (out) *out = NULL;
    if (!m || !out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_merger_run: NULL argument");
    if (m->ran) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "a merger runs once");
    if (m->n == 0) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "no inputs to merge");
    m->ran = 1;
    run r;
    run_init(&r, m, pbi_merger_threads(m));
    int rc = run_inputs(&r, err);
    for (unsigned c = 0; r.ctx && c < r.nctx; c++) pb_profile_free(r.ctx[c]);
    free(r.ctx);
    pbi_feed_free(r.feed);
    pbi_defer_free(&r.dd);
    pbi_merger_failures_free(&r.fails);
    free(r.paths);
    if (rc) {
        pb_profile_free(r.acc);
        return rc;
    }
    *out = r.acc;
    return PB_OK;
}
