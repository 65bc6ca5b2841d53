/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * progress.h -- one progress line on stderr for the commands that may read
 * for a long time (convert, validate, show, dump), driven by the bytes their
 * input source reads (pb_source_set_progress).
 *
 * --progress shows it always (plain lines when stderr is not a terminal),
 * --quiet never; by default it appears only when stderr is a terminal and
 * the input is big (PBC_PROGRESS_BIG) or slow (PBC_PROGRESS_SLOW_S), so logs,
 * pipes and tests never see it. On a terminal the line is redrawn in place
 * with '\r' and erased when the input has been read, so it never mixes with
 * the report on stdout. Never under the llvm-profdata personality: that tool
 * prints none.
 */
#ifndef PB_CLI_PROGRESS_H
#define PB_CLI_PROGRESS_H

#include <stdint.h>

#include "llvm_args.h"

typedef enum pbc_progress_mode {
    PBC_PROGRESS_AUTO, /* a terminal, and a big or slow input */
    PBC_PROGRESS_ON,   /* --progress */
    PBC_PROGRESS_OFF   /* --quiet, or the llvm-profdata personality */
} pbc_progress_mode;

/* Input size (bytes) from which the default shows progress at once. */
#define PBC_PROGRESS_BIG ((uint64_t)16 << 20)
/* Seconds of reading after which the default shows progress anyway. */
#define PBC_PROGRESS_SLOW_S 0.5

/* Option ids of --progress and --quiet (negative: never a command's own). */
enum { PBC_ARG_PROGRESS_ID = PBC_ARGS_OWN_NEG_MAX, PBC_ARG_QUIET_ID = PBC_ARGS_OWN_NEG_MAX - 1 };

/* --progress and -q/--quiet, for PBC_ARG_INCLUDE in a command's table. */
extern const pbc_arg_spec pbc_progress_specs[];

/* The mode the command line chose (the last of --progress / --quiet wins). */
pbc_progress_mode pbc_progress_mode_of(const pbc_args *a);

/* One progress line; lives on the caller's stack, no allocation. */
typedef struct pbc_progress {
    int on;            /* may print at all */
    int forced;        /* --progress: from the first byte, whatever the size */
    int tty;           /* stderr is a terminal: redraw with '\r', erase at the end */
    int shown;         /* a line is on the terminal now */
    int last_pct;      /* not a terminal: the percentage of the last line */
    double start, last;
    const char *cmd;   /* "convert" */
    const char *what;  /* the input's name */
    pb_diag_fn diag;   /* pbc_progress_watch_diag: where messages go on to */
    void *diag_ctx;
} pbc_progress;

/* Starts a progress for reading `what` in command `cmd` (strings borrowed). */
void pbc_progress_begin(pbc_progress *p, pbc_progress_mode mode, const char *cmd, const char *what);

/* Makes `src` report to `p` (pb_source_set_progress); p must outlive the reading. */
void pbc_progress_watch(pbc_progress *p, pb_source *src);

/* Makes the reader's messages (ro->diag) erase the progress line before
 * they are printed, so that a warning never lands after the percentage on
 * the same terminal line; ro must not outlive p. */
void pbc_progress_watch_diag(pbc_progress *p, pb_read_options *ro);

/* `done` of `total` bytes (total 0: unknown) read; done == total is the end. */
void pbc_progress_update(pbc_progress *p, uint64_t done, uint64_t total);

/* Erases the line from the terminal (if one is shown) before something else
 * is printed there; the next update draws it again. */
void pbc_progress_clear(pbc_progress *p);

/* Erases the line from the terminal (if one is shown) and stops printing. */
void pbc_progress_end(pbc_progress *p);

#endif
