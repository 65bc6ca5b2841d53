/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merge_report.c -- what `merge` prints around the library's pb_merger: its
 * diagnostics in llvm-profdata's words (merge_report.h), the failed inputs,
 * the progress line, the hint about old raw inputs and the output check.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "llvm_input_error.h"
#include "merge_report.h"
#include "util/diag.h"

/* What InstrProfWriter reports (profile.h PB_MERGE_*): llvm-profdata's
 * handleMergeWriterError prints "FILE: FUNC: what" with no prefix, and for
 * a mismatch a hint the first time that kind is seen. */
static int writer_problem(pbc_merge_diag_ctx *n, int severity, const pb_error *e) {
    int k = pb_merge_problem_kind(e->path);
    if (k < 0 || severity != PB_DIAG_WARNING) return 0;
    if (n->dc) n->dc->warnings++;
    if (!e->source[0]) {
        /* met merging two writer contexts (pb_merger_options.writer_contexts):
         * llvm-profdata's mergeWriterContexts says "warning: WHAT", once a kind */
        if (pbc_args_llvm_style) fprintf(stderr, "warning: %s\n", e->message);
        else fprintf(stderr, "%s: warning: %s (merging two threads' profiles)\n", pbc_args_prog, e->message);
        n->hinted |= 1u << k;
        return 1;
    }
    const char *src = e->source;
    if (pbc_args_llvm_style) fprintf(stderr, "%s: %s\n", src, e->message);
    else fprintf(stderr, "%s: warning: %s: %s\n", pbc_args_prog, src, e->message);
    if (!(n->hinted & 1u << k) && (k == 1 || k == 2))
        fprintf(stderr, "%s%s\n", pbc_args_llvm_style ? "" : PBC_PROG ": note: ",
                "Make sure that all profile data to be merged is generated from the same binary.");
    n->hinted |= 1u << k;
    return 1;
}

void pbc_merge_diag(void *ctx, int severity, const pb_error *e) {
    pbc_merge_diag_ctx *n = ctx;
    if (writer_problem(n, severity, e)) return;
    if (strcmp(e->path, PB_MERGER_FILTERED) == 0) {
        /* llvm-profdata 18+ (filterFunctions) says it without a prefix */
        fprintf(stderr, "%s\n", e->message);
        return;
    }
    /* llvm-profdata says nothing of an empty input, nor (13-17) of a large
     * counter: the personality says nothing either */
    if (pbc_args_llvm_style && (strcmp(e->path, PB_MERGER_EMPTY_INPUT) == 0 ||
                                strncmp(e->message, PBU_LARGE_COUNTER_WORDS, sizeof PBU_LARGE_COUNTER_WORDS - 1) == 0))
        return;
    pb_error c = *e;
    if (strcmp(c.path, PB_MERGER_EMPTY_INPUT) == 0) c.path[0] = '\0'; /* a note on the file */
    if (!c.source[0] && n->name) snprintf(c.source, sizeof c.source, "%s", n->name);
    pbc_diag(n->dc, severity, &c);
}

/* A failed input, as llvm-profdata reports it once every input was read:
 * "warning: FILE: why" (our detail, byte offset and field, stays in the
 * line), in its writer contexts' order (pb_merger_options.failed). */
void pbc_merge_print_failure(void *ctx, size_t input, const char *name, const pb_error *fe) {
    pbc_merge_diag_ctx *n = ctx;
    pbc_diag_ctx *dc = n->dc;
    n->failed++;
    (void)input;
    (void)name;
    if (strncmp(fe->message, PBU_LARGE_COUNTER_WORDS, sizeof PBU_LARGE_COUNTER_WORDS - 1) == 0) {
        /* LLVM's line as it is, then where the counter is */
        dc->warnings++;
        fprintf(stderr, "%s%s: %s\n", pbc_args_llvm_style ? "warning: " : PBC_PROG ": warning: ", fe->source,
                fe->message);
        if (!pbc_args_llvm_style)
            fprintf(stderr, PBC_PROG ": note: %s: byte 0x%" PRIx64 " (%s)\n", fe->source, fe->offset, fe->path);
    } else if (pbc_args_llvm_style) {
        dc->warnings++;
        pbc_llvm_print_input_error("merge", "warning", NULL, fe); /* LLVM's words, then ours */
    } else {
        pbc_diag(dc, PB_DIAG_WARNING, fe); /* every field: line, expected, found */
    }
}

/* "merged i/n inputs" on stderr, only when stderr is a terminal and the merge
 * has run for more than a second; redrawn at most 4 times a second and
 * erased at the end, so logs and pipes never see it. */

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void pbc_merge_progress_start(pbc_merge_progress *pg, size_t n, pbc_progress_mode mode) {
    pg->tty = isatty(STDERR_FILENO);
    pg->forced = mode == PBC_PROGRESS_ON;
    pg->on = n > 1 && (pg->forced || (mode == PBC_PROGRESS_AUTO && pg->tty));
    pg->n = n;
    pg->start = pg->last = pg->on ? now_s() : 0;
    pg->shown = 0;
}

void pbc_merge_progress_update(void *ctx, size_t done, size_t total) {
    pbc_merge_progress *pg = ctx;
    (void)total;
    if (!pg->on) return;
    double t = now_s();
    if (!pg->tty && pg->forced) { /* a log: every input */
        fprintf(stderr, PBC_PROG " merge: %zu/%zu inputs merged\n", done, pg->n);
        return;
    }
    if ((!pg->forced && t - pg->start < 1.0) || t - pg->last < 0.25) return;
    pg->last = t;
    pg->shown = 1;
    fprintf(stderr, "\r" PBC_PROG " merge: %zu/%zu inputs merged", done, pg->n);
    fflush(stderr);
}

void pbc_merge_progress_end(pbc_merge_progress *pg) {
    if (pg->on && pg->tty && pg->shown) fputs("\r\033[K", stderr); /* erase the line */
}

/*
 * The raw version of a raw profile at `path` (the low half of its version
 * word), 0 when it is not a readable raw file (or is standard input, read
 * already). Only the first 16 bytes are looked at, through the look-ahead
 * every source has for probes.
 */
static uint32_t raw_version_of(const char *path) {
    pb_error e;
    pb_error_clear(&e);
    pb_source *src = NULL;
    const pb_format *f = NULL;
    const uint8_t *h;
    size_t n;
    uint32_t v = 0;
    if (strcmp(path, "-") != 0 && pb_source_open_file(&src, path, &e) == 0 &&
        pb_format_detect(src, &f, &e) == 0 && pb_format_form_of(f) == PB_FORM_RAW &&
        pb_source_peek(src, &h, &n, &e) == 0 && n >= 16) {
        /* the magic's last byte is 0x81 in the file's byte order: first byte little-endian */
        int le = h[0] == 0x81;
        for (int i = 0; i < 4; i++) v |= (uint32_t)h[le ? 8 + i : 15 - i] << (8 * i);
    }
    pb_source_free(src);
    return v;
}

/*
 * When every input is a raw profile of one version older than the target's
 * (clang-14's v8 with the default 19, say), the compiler that made them
 * probably cannot read what is written: a hint names the release whose
 * indexed version every compiler writing that raw version reads.
 */
void pbc_merge_old_raw_hint(const pbc_merge_inputs *in, int release, const char *out_path, pbc_diag_ctx *dc) {
    uint32_t indexed = pb_release_indexed_version(release);
    uint32_t rv = 0;
    for (size_t i = 0; i < in->n; i++) {
        uint32_t v = raw_version_of(in->v[i].path);
        if (!v || (rv && v != rv) || v >= pb_release_raw_version(release)) return;
        rv = v;
    }
    int lo = 0, hi = 0;
    for (int r = pb_release_min(); r <= pb_release_max(); r++) {
        if (pb_release_raw_version(r) == rv) {
            if (!lo) lo = r;
            hi = r;
        }
    }
    uint32_t old = lo ? pb_release_indexed_version(lo) : 0;
    if (!old || old >= indexed) return;
    char who[32];
    if (lo == hi) snprintf(who, sizeof who, "clang %d", lo);
    else snprintf(who, sizeof who, "clang %d-%d", lo, hi);
    pb_diag(pbc_diag, dc, PB_DIAG_NOTICE, 0, out_path, PB_NO_OFFSET, NULL,
            "the inputs are raw v%u profiles (%s) but LLVM %d's indexed v%u was written, which clang and "
            "llvm-profdata %d and older refuse; for them: --llvm-version %d (indexed v%u)",
            rv, who, release, indexed, pb_release_first_reading_indexed(indexed) - 1, lo, old);
}

/* llvm-profdata's words when OUT cannot be written (raw_fd_ostream's
 * errno: "Is a directory", "No such file or directory", ...; standard
 * output on a terminal takes text only). Returns 0 or -1 after the message. */
int pbc_merge_output_check(const char *out, int is_text) {
    struct stat st;
    if (strcmp(out, "-") == 0) {
        if (is_text || !isatty(STDOUT_FILENO)) return 0;
        pbc_error_line("cannot write a non-text format profile to the terminal");
        return -1;
    }
    int e = 0;
    if (stat(out, &st) == 0) {
        if (S_ISDIR(st.st_mode)) e = EISDIR;
        else if (access(out, W_OK) != 0) e = errno;
    } else {
        const char *slash = strrchr(out, '/');
        char *dir = slash ? strndup(out, slash == out ? 1 : (size_t)(slash - out)) : strdup(".");
        if (!dir) e = ENOMEM;
        else if (stat(dir, &st) != 0) e = ENOENT;
        else if (!S_ISDIR(st.st_mode)) e = ENOTDIR;
        else if (access(dir, W_OK | X_OK) != 0) e = errno;
        free(dir);
    }
    if (!e) return 0;
    pbc_error_line("%s: %s", out, strerror(e));
    return -1;
}
