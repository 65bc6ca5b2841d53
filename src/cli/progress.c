/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * progress.c -- the progress line of progress.h: what it looks like, when it
 * appears and when it is erased.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

const pbc_arg_spec pbc_progress_specs[] = {
    {.name = "progress", .id = PBC_ARG_PROGRESS_ID, .kind = PBC_ARG_FLAG,
     .help = "show reading progress on stderr, even when it is not a terminal"},
    {.name = "quiet", .alias = "q", .id = PBC_ARG_QUIET_ID, .kind = PBC_ARG_FLAG,
     .help = "no progress line (default: one on a terminal for big or slow inputs)"},
    PBC_ARG_END};

pbc_progress_mode pbc_progress_mode_of(const pbc_args *a) {
    if (pbc_args_llvm_style) return PBC_PROGRESS_OFF;
    pbc_progress_mode m = PBC_PROGRESS_AUTO;
    for (size_t i = 0; i < a->nopt; i++) {
        if (a->opt[i].id == PBC_ARG_PROGRESS_ID) m = PBC_PROGRESS_ON;
        if (a->opt[i].id == PBC_ARG_QUIET_ID) m = PBC_PROGRESS_OFF;
    }
    return m;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void pbc_progress_begin(pbc_progress *p, pbc_progress_mode mode, const char *cmd, const char *what) {
    p->tty = isatty(STDERR_FILENO);
    p->forced = mode == PBC_PROGRESS_ON;
    p->on = p->forced || (mode == PBC_PROGRESS_AUTO && p->tty);
    p->shown = 0;
    p->last_pct = -1;
    p->start = p->last = p->on ? now_s() : 0;
    p->cmd = cmd;
    p->what = what;
    p->diag = NULL;
    p->diag_ctx = NULL;
}

static void on_bytes(void *ctx, uint64_t done, uint64_t total) { pbc_progress_update(ctx, done, total); }

void pbc_progress_watch(pbc_progress *p, pb_source *src) {
    if (p->on && src) pb_source_set_progress(src, on_bytes, p);
}

static void diag_after_clear(void *ctx, int severity, const pb_error *e) {
    pbc_progress *p = ctx;
    pbc_progress_clear(p);
    if (p->diag) p->diag(p->diag_ctx, severity, e);
}

void pbc_progress_watch_diag(pbc_progress *p, pb_read_options *ro) {
    if (!p->on || !p->tty || !ro->diag) return; /* only a terminal line needs erasing */
    p->diag = ro->diag;
    p->diag_ctx = ro->diag_ctx;
    ro->diag = diag_after_clear;
    ro->diag_ctx = p;
}

static double mib(uint64_t n) { return (double)n / (1024.0 * 1024.0); }

/* "profbridge convert: reading big.iprof: 42% (13.2 of 31.4 MiB)" */
static void print_line(const pbc_progress *p, uint64_t done, uint64_t total, const char *end) {
    if (total)
        fprintf(stderr, "%s" PBC_PROG " %s: reading %s: %d%% (%.1f of %.1f MiB)%s", p->tty ? "\r" : "", p->cmd,
                p->what, (int)(done * 100 / total), mib(done), mib(total), end);
    else
        fprintf(stderr, "%s" PBC_PROG " %s: reading %s: %.1f MiB%s", p->tty ? "\r" : "", p->cmd, p->what, mib(done),
                end);
    fflush(stderr);
}

void pbc_progress_update(pbc_progress *p, uint64_t done, uint64_t total) {
    if (!p->on) return;
    if (total && done > total) done = total; /* a file that grew while read */
    int end = total && done == total;
    double t = now_s();
    if (!p->forced && !p->shown && total < PBC_PROGRESS_BIG && t - p->start < PBC_PROGRESS_SLOW_S) return;
    if (p->tty) {
        if (end) {
            pbc_progress_end(p);
            return;
        }
        if (p->shown && t - p->last < 0.1) return; /* at most ten redraws a second */
        print_line(p, done, total, "\033[K");
        p->shown = 1;
        p->last = t;
        return;
    }
    /* a log file: a line every 5% (every second when the size is unknown), and 100% */
    if (total) {
        int pct = (int)(done * 100 / total);
        if (!end && pct < p->last_pct + 5) return;
        p->last_pct = pct;
    } else if (t - p->last < 1.0) {
        return;
    }
    p->last = t;
    print_line(p, done, total, "\n");
    if (end) p->on = 0;
}

void pbc_progress_clear(pbc_progress *p) {
    if (p->tty && p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->shown = 0;
}

void pbc_progress_end(pbc_progress *p) {
    pbc_progress_clear(p);
    p->on = 0;
}
