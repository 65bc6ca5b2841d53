/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/merge.h -- merging many profiles as `llvm-profdata merge` does.
 *
 * A pb_merger takes inputs (files, each with a weight), reads them on one or
 * more threads and merges them, in input order, into one profile: records
 * with the same name and hash add up (x weight, saturating at the release's
 * maximum), value sites are merged and cut, binary ids and temporal traces
 * collected (pb_profile_merge). The result does not depend on the thread
 * count: with the same inputs it is what llvm-profdata merge --num-threads 1
 * of the chosen release builds, and written as indexed or text it is that
 * tool's bytes (docs/indexed.md). With writer_contexts it is what that tool
 * builds on `threads` threads instead.
 *
 * Inputs that cannot be read are handled as llvm-profdata handles them: the
 * merge goes on, each failure is reported at the end through
 * pb_merger_options.failed (in the order llvm-profdata prints its
 * "warning: FILE: ..." lines), and the failure mode decides whether the
 * merge as a whole fails. A raw input that breaks half-way keeps the records
 * read before the error, as in llvm-profdata.
 *
 * Typical use:
 *   pb_merger_options mo = PB_MERGER_OPTIONS_INIT;
 *   pb_merger *m = NULL;
 *   pb_profile *out = NULL;
 *   pb_error err;
 *   if (pb_merger_new(&m, &mo, &err) == 0 && pb_merger_add_file(m, "a.profraw", 1, &err) == 0 &&
 *       pb_merger_add_file(m, "b.profraw", 3, &err) == 0 && pb_merger_run(m, &out, &err) == 0)
 *       (void)pb_write_file(out, "ab.profdata", NULL, NULL, &err);
 *   pb_profile_free(out);
 *   pb_merger_free(m);
 *
 * Thread-safety: a pb_merger is used by one thread at a time; different
 * mergers are independent. pb_merger_run starts and joins its own threads;
 * every callback is called on the thread that called pb_merger_run, never
 * concurrently.
 */
#ifndef PROFBRIDGE_MERGE_H
#define PROFBRIDGE_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "format.h"
#include "profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* When the merge as a whole fails (llvm-profdata's --failure-mode). */
enum {
    PB_MERGE_FAIL_ANY = 0, /* any input failed (llvm-profdata's default) */
    PB_MERGE_FAIL_ALL = 1, /* every input failed */
    PB_MERGE_FAIL_WARN = 2 /* never: failed inputs are only reported (LLVM 18+) */
};

/* pb_error.path of pb_merger_run's error when the failure mode says that no
 * profile can be merged (err->message: "no profile can be merged"). */
#define PB_MERGER_NOTHING_MERGED "merge.inputs"
/* pb_error.path of the notice that an empty input was skipped (as
 * llvm-profdata merge skips it, silently). */
#define PB_MERGER_EMPTY_INPUT "merge.empty_input"
/* pb_error.path of the notice saying how many functions the function filters
 * removed; its message is llvm-profdata 18+'s line, "D of N functions in the
 * original profile are filtered." (N counts names, not records). */
#define PB_MERGER_FILTERED "merge.filtered"
/* pb_error.path of pb_merger_new's error for a bad regular expression. */
#define PB_MERGER_KEEP_FUNCTIONS "keep_functions"
#define PB_MERGER_DROP_FUNCTIONS "drop_functions"

/* Progress: `done` of `total` inputs merged (called after each input). */
typedef void (*pb_merger_progress_fn)(void *ctx, size_t done, size_t total);

/* A failed input: `input` is its index (0-based, in pb_merger_add_file
 * order), `name` the path it was added with, `e` why (e->source names it;
 * valid during the call only). */
typedef void (*pb_merger_failure_fn)(void *ctx, size_t input, const char *name, const pb_error *e);

/* Layout 2 added writer_contexts (a version-1 struct ends before it and is
 * never read past its end). */
#define PB_MERGER_OPTIONS_VERSION 2

typedef struct pb_merger_options {
    unsigned version; /* PB_MERGER_OPTIONS_VERSION */
    /* Threads in all, the caller's included (1: no thread is started); 0:
     * llvm-profdata's default, min(hardware threads, (inputs + 1) / 2).
     * More than 1024 counts as 1024. The result is the same for every value
     * unless writer_contexts is set. */
    unsigned threads;
    int failure_mode; /* PB_MERGE_FAIL_* */
    /* The llvm-profdata release whose merge rules apply (13..24; 0: the
     * default release, 19): saturation point, which profile kinds merge,
     * whether a raw counter above 2^56 fails its input (18+), how LLVM 13
     * sets the entry-first flag (src/llvm/target.h). The readers read as
     * this release too, unless read->llvm_release names another. */
    int llvm_release;
    /* Saturation point of counts; 0: the release's (PB_MAX_COUNT_LLVM, or
     * PB_MAX_COUNT_LLVM14 for 13-14). An iprof output wants PB_MAX_COUNT_IPROF. */
    uint64_t max_count;
    /* Nonzero: value sites keep every value (an iprof output); 0: cut to
     * llvm-profdata's 255 per site. */
    int keep_all_values;
    /* Temporal traces (llvm-profdata's --temporal-profile-trace-reservoir-size
     * and --temporal-profile-max-trace-length). */
    uint64_t trace_reservoir;
    uint64_t trace_max_length;
    /* Function names renamed before records are merged (NULL: none); must
     * outlive the merger. */
    const pb_remap *remap;
    /* POSIX extended regular expressions on function names (NULL: none):
     * after the merge only the functions matching keep_functions and not
     * matching drop_functions stay (llvm-profdata 18+'s --function and
     * --no-function); a notice with path PB_MERGER_FILTERED then says how
     * many were removed. */
    const char *keep_functions;
    const char *drop_functions;
    /* How inputs are read (limits, plugin options; NULL: defaults), copied
     * when pb_merger_run starts (so it may be filled in after
     * pb_merger_new). Its diag, merge_into and merge are ignored. */
    const pb_read_options *read;
    /* Notices and warnings of the reads and of the merge, in the order a
     * one-thread merge raises them, with e->source set to the input's path:
     * mismatches and overflows have e->path one of PB_MERGE_* (profile.h),
     * and the PB_MERGER_* notices above. NULL discards them. */
    pb_diag_fn diag;
    void *diag_ctx;
    /* The failed inputs, called by pb_merger_run after the last input was
     * merged, in llvm-profdata's order (it depends on the thread count, as
     * llvm-profdata's does: input i fails in writer context i % threads, the
     * contexts' lists are joined as its mergeWriterContexts joins them).
     * NULL: not reported. */
    pb_merger_failure_fn failed;
    void *failed_ctx;
    pb_merger_progress_fn progress; /* NULL: none */
    void *progress_ctx;
    /* (layout 2) Nonzero: merge as llvm-profdata of llvm_release does on
     * `threads` threads, byte for byte, so that the result depends on the
     * thread count as its does (the llvm-profdata-N personality sets it).
     * Input i is merged into writer context i % threads, each context on a
     * thread of its own (diagnostics, failures and progress still reach the
     * callbacks on the caller's thread, in input order); at the end the
     * contexts are merged pairwise (context I takes I + T/2, the odd last
     * one goes into context 0, then again with half as many), each merge
     * with the release's rule for kinds (16+: checked, a conflict fails the
     * run with PB_EFORMAT, err->path PB_MERGER_CONTEXT_KINDS and the
     * conflict's own words; 13-15: the first context's kind stays). The
     * records of one name then come in that order, value sites and traces
     * are merged in it, and a mismatch or overflow met between two contexts
     * is reported through diag once per kind for the whole run (unless an
     * input's merge reported that kind first), with e->path PB_MERGE_* and
     * no e->source, as llvm-profdata's "warning: WHAT" without a file.
     * 0: every input in input order into one profile, whatever `threads`. */
    int writer_contexts;
} pb_merger_options;

#define PB_MERGER_OPTIONS_INIT                                                                                   \
    {PB_MERGER_OPTIONS_VERSION, 0, PB_MERGE_FAIL_ANY, 0, 0, 0, 100, 10000, NULL, NULL, NULL, NULL, NULL, NULL, \
     NULL, NULL, NULL, NULL, 0}

/* pb_error.path of pb_merger_run's error when two writer contexts' kinds
 * conflict (writer_contexts, LLVM 16+). */
#define PB_MERGER_CONTEXT_KINDS "merge.contexts"

/* Sets *o to PB_MERGER_OPTIONS_INIT of layout `version` (1 or 2: a version-1
 * struct is written only up to its end). Returns PB_OK, or PB_EINVAL (o NULL,
 * or a version this library does not know: *o untouched). */
int pb_merger_options_init(pb_merger_options *o, unsigned version);

typedef struct pb_merger pb_merger;

/*
 * Creates a merger with options o (copied; the pointers in it must outlive
 * the merger). Returns PB_OK with *out set; PB_EINVAL for NULL out or o, an
 * unknown o->version, an unknown failure mode or release (e.g. WARN before
 * LLVM 18), or a bad regular expression (err->path PB_MERGER_KEEP_FUNCTIONS
 * or PB_MERGER_DROP_FUNCTIONS); PB_ENOMEM. On failure *out is NULL. err (may
 * be NULL) is cleared first.
 */
int pb_merger_new(pb_merger **out, const pb_merger_options *o, pb_error *err) PB_WARN_UNUSED;

/*
 * Adds the input at `path` ("-": standard input) with `weight` (>= 1). The
 * path is copied; the file is not opened before pb_merger_run. Returns
 * PB_OK; PB_EINVAL for a NULL argument, weight 0, or a merger that has run
 * (nothing added); PB_ENOMEM (nothing added). err (may be NULL) is cleared
 * first.
 */
int pb_merger_add_file(pb_merger *m, const char *path, uint64_t weight, pb_error *err) PB_WARN_UNUSED;

/* Inputs added so far. */
size_t pb_merger_input_count(const pb_merger *m);

/*
 * Reads and merges every input, once. On PB_OK *out is the merged profile
 * (the caller frees it with pb_profile_free): empty when every input failed
 * under PB_MERGE_FAIL_WARN or every input was an empty file. Failed inputs
 * have been reported through o->failed first.
 *
 * Returns PB_OK; when the failure mode fails the merge, the code of the
 * first failed input (in input order; PB_EFORMAT, PB_ETRUNC, PB_EIO, ...)
 * with err->path PB_MERGER_NOTHING_MERGED; with writer_contexts, PB_EFORMAT
 * with err->path PB_MERGER_CONTEXT_KINDS when two contexts' kinds conflict
 * (before any failed input is reported, as llvm-profdata exits there); PB_EINVAL for NULL arguments, no
 * inputs, or a second run; PB_ENOMEM or the function filter's error. On any
 * failure *out is NULL. Whatever the result the merger does not run again
 * (free it with pb_merger_free). err (may be NULL) is cleared first.
 *
 * Memory: with one thread, the accumulator plus the input being read (raw
 * inputs are merged record by record while read, never held as a model);
 * with more, plus one raw input prepared ahead (its bytes and name index) or
 * up to `threads` inputs of other formats read ahead. On glibc, a program
 * merging on several threads may want mallopt(M_ARENA_MAX, 1) (as
 * `profbridge merge` does): inputs are allocated by a worker and freed by
 * the merging thread, and per-thread arenas then keep freed memory apart.
 */
int pb_merger_run(pb_merger *m, pb_profile **out, pb_error *err) PB_WARN_UNUSED;

/* Frees the merger (NULL is a no-op). */
void pb_merger_free(pb_merger *m);

/* ---- how a merge is written (profbridge merge, Python, any program) ---- */

/*
 * The output of a merge: which format, which release's rules and bytes, and
 * the writer's choices. One struct that `profbridge merge`, the Python
 * package and partial merges share, so that the same inputs give the same
 * bytes whichever of them merges.
 */
#define PB_MERGE_OUTPUT_VERSION 1
typedef struct pb_merge_output {
    unsigned version;       /* PB_MERGE_OUTPUT_VERSION */
    const pb_format *format; /* NULL: indexed */
    /* The release (13..24; 0: the default release, 19) and whether it was
     * chosen (an option, the environment, the tool's name): only then are
     * the readers and the writer told (their llvm_release), else they keep their
     * own defaults (a text writer then writes the oldest form it can). */
    int llvm_release;
    int release_explicit;
    const char *indexed_version; /* indexed only: "N" instead of the release's; NULL: the release's */
    int sparse;                  /* indexed and text: leave out all-zero records (llvm-profdata --sparse) */
    /* Indexed and text: keep the vtable names (1, the default of profbridge
     * merge and of Python: nothing is lost) or write an empty vtable-names
     * section as llvm-profdata does unless --keep-vtable-symbols (0). */
    int keep_vtable_symbols;
    const pb_kv *kv; /* more writer options, after these (a plugin's); may be NULL */
    size_t nkv;
} pb_merge_output;

#define PB_MERGE_OUTPUT_INIT {PB_MERGE_OUTPUT_VERSION, NULL, 0, 0, NULL, 0, 1, NULL, 0}

/*
 * Fills the merge rules that depend on the output into *mo: llvm_release,
 * and for an iprof output (family PB_FAMILY_JAVA) keep_all_values = 1 and
 * max_count = PB_MAX_COUNT_IPROF (iprof has no per-site limit and counts are
 * Java longs; docs/mapping.md), else keep_all_values = 0 and max_count 0
 * (the release's). Nothing else of *mo changes. Returns PB_OK, or PB_EINVAL
 * (NULL argument, an unknown version: *mo untouched).
 */
int pb_merge_output_rules(const pb_merge_output *o, pb_merger_options *mo) PB_WARN_UNUSED;

/*
 * Writes the merged profile `p` to `path` as o says (the writer's options
 * in llvm-profdata merge's order: indexed-version, sparse,
 * keep-vtable-symbols, order=llvm for indexed output, then o->kv; the
 * release in its llvm_release when explicit). `base` (may be NULL) gives the
 * diagnostics callback;
 * its kv is ignored. Returns what pb_write_file returns; PB_EINVAL (NULL
 * p, path or o, an unknown version); PB_ENOMEM. After a failure `path` is
 * as it was.
 */
int pb_merge_write_file(const pb_profile *p, const char *path, const pb_merge_output *o,
                        const pb_write_options *base, pb_error *err) PB_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
