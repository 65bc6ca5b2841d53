/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/show.h -- llvm-profdata's `show` report and profbridge's Java
 * view of an iprof profile, written into a pb_sink.
 *
 * The LLVM view prints byte for byte what `llvm-profdata-N show` prints for
 * the same flags, N the options' llvm_release (docs/show.md); the Java view
 * is profbridge's own listing of a profile read from iprof. An indexed input
 * is printed as its records stream from the file (no model) when the flags
 * need no name table; everything else is read into a model first.
 *
 * Use: pb_show_file (read and print in one call), or pb_show_read, then
 * pb_show_view / pb_show_write, then pb_show_input_free (what the tool does,
 * so that it opens its output only once the input was read).
 *
 * Thread safety: distinct inputs and options are independent.
 */
#ifndef PROFBRIDGE_SHOW_H
#define PROFBRIDGE_SHOW_H

#include <stddef.h>
#include <stdint.h>

#include "profbridge/error.h"
#include "profbridge/format.h"
#include "profbridge/io.h"
#include "profbridge/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What to print: llvm-profdata show's flags for instrumentation profiles. */
typedef struct pb_show_options {
    unsigned version;         /* PB_SHOW_OPTIONS_VERSION: first, always (see error.h) */
    int llvm_release;         /* 13..24: print as that release's llvm-profdata; 0 = 19 */
    int release_notes;        /* 1: a note (diag) when that release's own tool would refuse the input */
    int llvm;                 /* 1: the LLVM view also for a profile read from iprof */
    int all_functions;        /* --all-functions */
    int counts;               /* --counts */
    const char *function;     /* --function NAME (substring match, as llvm-profdata) */
    int ic_targets;           /* --ic-targets */
    int memop_sizes;          /* --memop-sizes */
    int show_vtables;         /* --show-vtables */
    int detailed_summary;     /* --detailed-summary */
    const char *cutoffs;      /* --detailed-summary-cutoffs=a,b,c (NULL = the release's defaults) */
    unsigned topn;            /* --topn N (0 = off; the Java view too) */
    uint64_t value_cutoff;    /* --value-cutoff N */
    int list_below_cutoff;    /* --list-below-cutoff */
    int showcs;               /* --showcs */
    int covered;              /* --covered */
    int binary_ids;           /* --binary-ids */
    int temporal_traces;      /* --temporal-profile-traces */
    int profile_version;      /* --profile-version */
    int text;                 /* --text */
    int json;                 /* profbridge's JSON of the same content (both views) */
    int hot_func_list;        /* --hot-func-list (printed from LLVM 22 on, as those releases do) */
    pb_diag_fn diag;          /* the release_notes note (PB_DIAG_NOTICE); NULL = none */
    void *diag_ctx;
} pb_show_options;
#define PB_SHOW_OPTIONS_VERSION 1
#define PB_SHOW_OPTIONS_INIT                                                                                        \
    {PB_SHOW_OPTIONS_VERSION, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 0, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, NULL}
/* Fills *o with the defaults of layout `version` (PB_SHOW_OPTIONS_VERSION),
 * like PB_SHOW_OPTIONS_INIT. Returns PB_OK, or PB_EINVAL (o untouched) for a
 * NULL o or a version this library does not know. Thread-safe. */
int pb_show_options_init(pb_show_options *o, unsigned version);

/* An input read for show (a model, a raw file's profiles, or a checked indexed file). */
typedef struct pb_show_input pb_show_input;

/*
 * Reads src for show, as llvm-profdata show reads it: detects the format
 * (or ro->format), checks a streamable indexed file whole (its notices and
 * warnings go to ro->diag; the records are printed later from the file),
 * leaves a raw file to be read as pb_show_write prints it when the flags
 * allow it (not --binary-ids, --topn, --hot-func-list, --ic-targets,
 * --show-vtables, --text, traces), else reads its profiles one by one and
 * merged, anything else with pb_read. With o->release_notes, the note that release's tool would refuse
 * the file goes to o->diag. src must stay open until pb_show_input_free.
 * Returns 0, PB_EINVAL (a bad options version or release, an unknown
 * format), or pb_read's errors (PB_EFORMAT, PB_ETRUNC, PB_EVERSION, PB_EIO,
 * PB_ENOMEM, PB_ELIMIT...); on failure *in is NULL and err says why.
 */
int pb_show_read(pb_show_input **in, pb_source *src, const pb_read_options *ro, const pb_show_options *o,
                 pb_error *err) PB_WARN_UNUSED;

/* The view pb_show_write prints for in: PB_SHOW_VIEW_JAVA for a profile of
 * Java origin without o->llvm, else PB_SHOW_VIEW_LLVM. */
enum { PB_SHOW_VIEW_LLVM = 0, PB_SHOW_VIEW_JAVA = 1 };
int pb_show_view(const pb_show_input *in, const pb_show_options *o);

/*
 * Prints in into out (not committed). A profile whose input format is not
 * LLVM's is shown as llvm-profdata shows the .profdata convert writes of it
 * (the rule of pb_read_options.llvm_view). input_name names the input in the Java
 * view's heading. Returns 0, PB_EINVAL (bad options), PB_ENOMEM, PB_EIO (the
 * sink), PB_EFORMAT (a broken name table met while listing), pb_read's
 * errors for a raw file read as it is printed (see pb_show_read) or, for the LLVM
 * view of another format, the indexed writer's errors (PB_EUNSUPPORTED when
 * the indexed plugin is not built in); what was printed before a failure
 * stays in out (uncommitted), and in stays valid (to free).
 */
int pb_show_write(pb_sink *out, pb_show_input *in, const char *input_name, const pb_show_options *o,
                  pb_error *err) PB_WARN_UNUSED;

/* Frees in (NULL: nothing). */
void pb_show_input_free(pb_show_input *in);

/* pb_show_read, pb_show_write and pb_show_input_free in one call: the
 * return codes of both; nothing is printed when the read fails (a raw file
 * read as it is printed: what was listed before its fault stays in out,
 * uncommitted, as llvm-profdata-N prints the records before it). */
int pb_show_file(pb_sink *out, pb_source *src, const pb_read_options *ro, const pb_show_options *o,
                 pb_error *err) PB_WARN_UNUSED;

/* Prints a model as llvm-profdata show prints a file of its origin format
 * (the LLVM view, whatever the origin). Returns as pb_show_write. */
int pb_show_profile(pb_sink *out, const pb_profile *p, const pb_show_options *o, pb_error *err) PB_WARN_UNUSED;

/* Would llvm-profdata of release llvm_release (13..24, 0 = 19) refuse p,
 * which profbridge reads whatever its version (raw: another raw version;
 * indexed: a newer version; text: header lines, value kinds or bitmap bytes
 * its reader does not know)? Returns 1 and fills *note with the sentence
 * (code PB_EVERSION, "NAME: raw version 9, which llvm-profdata-18 does not
 * read ..."), else 0 (also for a release out of range). */
int pb_show_release_note(const pb_profile *p, int llvm_release, const char *name, pb_error *note);

#ifdef __cplusplus
}
#endif

#endif
