/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/format.h -- format plugins and the registry.
 *
 * A format plugin is one const pb_format descriptor (libarchive's bidders,
 * libgit2's backends): a name, a content probe and the operations it
 * supports. A NULL operation means "not supported"; the registry's message
 * then names the plugin. Plugins meet only in pb_profile.
 *
 * Input formats are found by content: every probe bids on the first bytes,
 * the highest bid wins, and a tie at the top is an error, never a guess.
 * Output formats are named or follow the output file's extension.
 *
 * The pb_format struct is the plugin implementer's interface; consumers use
 * the functions below. Errors (error.h): every function here that takes a
 * pb_error resets it on entry, checks its pointers (PB_EINVAL with a
 * message for a NULL that is not marked "may be NULL") and its options'
 * version (PB_EINVAL for one this library does not know). Every reading
 * function sets *out to NULL first and leaves it NULL on failure, with
 * nothing leaked; errors name the input (pb_error.source).
 *
 * Thread safety: the registry (pb_format_*) is constant and may be used
 * from any thread. Reads of distinct sources, and writes of one profile
 * (const) to distinct sinks, may run on several threads at once; a read
 * with merge_into needs that profile to itself.
 */
#ifndef PROFBRIDGE_FORMAT_H
#define PROFBRIDGE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "io.h"
#include "profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A format plugin, as callers see it: opaque but for the getters below. Its
 * fields are the plugin implementer's business (profbridge/sys/format.h). */
typedef struct pb_format pb_format;

/* What a format is, as data (no caller compares plugin names). */
typedef enum pb_format_family {
    PB_FAMILY_OTHER = 0,
    PB_FAMILY_LLVM = 1,  /* LLVM instrumentation profiles: raw, indexed, text */
    PB_FAMILY_JAVA = 2,  /* GraalVM Native Image profiles: iprof */
    PB_FAMILY_MODEL = 3  /* profbridge's own lossless view of the model: json */
} pb_format_family;

/* Which of LLVM's three forms of an instrumentation profile a format is:
 * the rules of llvm-profdata differ by form (a release reads only its own
 * raw version but every older indexed one; a raw file holds several
 * profiles; show prints a heading for an indexed file's binary ids). */
typedef enum pb_format_form {
    PB_FORM_OTHER = 0,   /* not an LLVM form (iprof, json) */
    PB_FORM_RAW = 1,     /* what an instrumented program dumps: .profraw */
    PB_FORM_INDEXED = 2, /* what compilers read: .profdata */
    PB_FORM_TEXT = 3     /* llvm-profdata's text form: .proftext */
} pb_format_form;

/* A plugin option's value as given by the caller ("1" for flags). */
typedef struct pb_kv {
    const char *key;
    const char *value;
} pb_kv;

/* The value of `key` in kv[0..n), or NULL. The last occurrence wins.
 * kv may be NULL when n is 0. */
const char *pb_kv_get(const pb_kv *kv, size_t n, const char *key);

typedef struct pb_read_options {
    unsigned version;   /* PB_READ_OPTIONS_VERSION: first, always (see error.h) */
    const char *format; /* force this plugin (its name); NULL = detect by content */
    int lenient;        /* keep data that breaks rules when it can be kept (documented per plugin) */
    int report_all;     /* validation: report every problem through diag, then fail */
    pb_diag_fn diag;    /* notices, warnings and (report_all) errors */
    void *diag_ctx;
    const pb_kv *kv;    /* plugin options */
    size_t nkv;
    /*
     * Streaming merge: when set, pb_read merges what it reads into this
     * profile (as pb_profile_merge with `merge`, NULL = its defaults) and
     * leaves *out NULL, so merging N inputs never holds a whole input model.
     * A plugin that streams (pb_format_streams) is visited (pb_visit): each
     * record goes straight into it; for any other plugin pb_read reads a
     * profile and merges it. If the read fails half-way, records already
     * merged stay (as llvm-profdata merge keeps them); profile-level data of
     * that input (binary ids, traces, properties) is not merged.
     */
    pb_profile *merge_into;
    const pb_merge_options *merge;
    /*
     * Input limits (pb_source_set_limits): the most bytes one input may hold
     * after decompression, and the most a gzip input may inflate (ratio of
     * decompressed to compressed bytes, checked past PB_INFLATION_FLOOR).
     * 0 keeps the source's limits (the defaults, PB_DEFAULT_MAX_INPUT_SIZE
     * and PB_DEFAULT_MAX_INFLATION, unless the caller set others);
     * PB_NO_LIMIT removes one.
     */
    uint64_t max_input_size;
    uint64_t max_inflation;
    /*
     * Version 2. The LLVM release (13..24) whose llvm-profdata reads: its
     * rules for what a file may hold and what is kept (docs/indexed.md,
     * docs/raw.md); 0 = release 19. Out of range: the read fails with
     * PB_EINVAL naming "llvm_release". The one carrier of the release: the
     * plugin option "llvm-version" of version 1 is read no more.
     */
    int llvm_release;
    /*
     * Version 3. What LLVM sees: 1 = a profile read by a plugin outside the
     * LLVM family (iprof, json, ...) is handed back as llvm-profdata would
     * read the .profdata `convert` writes of it for llvm_release (written
     * and read back: the same records in the same order as that tool sees
     * them); a profile read from an LLVM format is left as read. Ignored
     * with merge_into. 0 = the profile as read.
     */
    int llvm_view;
} pb_read_options;
#define PB_READ_OPTIONS_VERSION 3
#define PB_READ_OPTIONS_INIT {PB_READ_OPTIONS_VERSION, NULL, 0, 0, NULL, NULL, NULL, 0, NULL, NULL, 0, 0, 0, 0}
/* Fills *o with the defaults of layout `version` (PB_READ_OPTIONS_VERSION),
 * like PB_READ_OPTIONS_INIT. Returns PB_OK, or PB_EINVAL (o untouched) for a
 * NULL o or a version this library does not know. Thread-safe. */
int pb_read_options_init(pb_read_options *o, unsigned version);

typedef struct pb_write_options {
    unsigned version;   /* PB_WRITE_OPTIONS_VERSION: first, always (see error.h) */
    pb_diag_fn diag; /* notices about data the target cannot hold, never silent */
    void *diag_ctx;
    const pb_kv *kv; /* plugin options, e.g. {"iprof-version","1.0.0"}, {"raw-version","8"} */
    size_t nkv;
    /*
     * Version 2. The LLVM release (13..24) whose tools the LLVM writers
     * write as (llvm-profdata-N merge; compiler-rt N for raw): the file
     * version, what it can hold and its notices; 0 = release 19, and then
     * a version option ("indexed-version", "raw-version") alone picks the
     * file version. Out of range: the write fails with PB_EINVAL naming
     * "llvm_release". Replaces the plugin option "llvm-version".
     */
    int llvm_release;
} pb_write_options;
#define PB_WRITE_OPTIONS_VERSION 2
#define PB_WRITE_OPTIONS_INIT {PB_WRITE_OPTIONS_VERSION, NULL, NULL, NULL, 0, 0}
/* Fills *o with the defaults of layout `version` (PB_WRITE_OPTIONS_VERSION),
 * like PB_WRITE_OPTIONS_INIT. Returns PB_OK, or PB_EINVAL (o untouched) for a
 * NULL o or a version this library does not know. Thread-safe. */
int pb_write_options_init(pb_write_options *o, unsigned version);

typedef struct pb_dump_options {
    unsigned version;   /* PB_DUMP_OPTIONS_VERSION: first, always (see error.h) */
    int json;        /* 1: JSON instead of text */
    pb_diag_fn diag;
    void *diag_ctx;
    const pb_kv *kv;
    size_t nkv;
} pb_dump_options;
#define PB_DUMP_OPTIONS_VERSION 1
#define PB_DUMP_OPTIONS_INIT {PB_DUMP_OPTIONS_VERSION, 0, NULL, NULL, NULL, 0}
/* Fills *o with the defaults of layout `version` (PB_DUMP_OPTIONS_VERSION),
 * like PB_DUMP_OPTIONS_INIT. Returns PB_OK, or PB_EINVAL (o untouched) for a
 * NULL o or a version this library does not know. Thread-safe. */
int pb_dump_options_init(pb_dump_options *o, unsigned version);

/* The plugin's name ("raw"), its one-line description, its family. */
const char *pb_format_name(const pb_format *f);
const char *pb_format_description(const pb_format *f);
pb_format_family pb_format_family_of(const pb_format *f);
/* The write option that picks the file version ("raw-version",
 * "indexed-version", "iprof-version"), or NULL when the format has none. */
const char *pb_format_version_option(const pb_format *f);
/* 1 when the plugin streams: it hands out one record at a time
 * (pb_visit below), so a caller never holds the whole input as a model. */
int pb_format_streams(const pb_format *f);
/* The LLVM form of f (PB_FORM_OTHER for NULL and for non-LLVM formats). */
pb_format_form pb_format_form_of(const pb_format *f);

/* Registered plugins, in registry order (i < pb_format_count(); NULL for i
 * out of range). Descriptors are static: never freed. */
size_t pb_format_count(void);
const pb_format *pb_format_at(size_t i);

/* The plugin called `name`, or NULL (also for a NULL name). */
const pb_format *pb_format_lookup(const char *name);

/* The plugin whose extension ends `path` (longest match), or NULL. */
const pb_format *pb_format_for_path(const char *path);

/*
 * Runs every probe on the source's first bytes. *out = the highest bidder.
 * Returns 0; PB_EINVAL (NULL in or out); PB_EFORMAT when nobody bids (err
 * says what the first bytes look like) or when two plugins tie at the top;
 * the errors of pb_source_peek (PB_EIO, PB_ELIMIT). The bytes stay unread.
 */
int pb_format_detect(pb_source *in, const pb_format **out, pb_error *err) PB_WARN_UNUSED;

/*
 * Reads a profile with the plugin o->format names, or the one pb_format_detect
 * picks. o may be NULL (the defaults). On success *out owns the profile
 * (NULL when o->merge_into is set: then the input was merged into it).
 * Errors carry the source name. Returns 0 or: PB_EINVAL (NULL out or in, an
 * unknown format name or options version, a plugin option the plugin
 * refuses), PB_EFORMAT / PB_ETRUNC / PB_EVERSION (the input breaks its
 * format: err has the byte offset or JSON path and line), PB_EUNSUPPORTED
 * (recognised, but the plugin cannot read it, e.g. a debug-info-correlated
 * raw profile), PB_EIO, PB_ELIMIT (past o->max_input_size or
 * o->max_inflation), PB_ENOMEM. With o->merge_into, the merge's errors
 * (pb_profile_merge) too, and a failed read leaves in merge_into what
 * pb_read_options.merge_into says.
 */
int pb_read(pb_profile **out, pb_source *in, const pb_read_options *o, pb_error *err) PB_WARN_UNUSED;

/* Convenience: opens `path` ("-": standard input) and reads it with
 * pb_read. Returns what pb_source_open_file and pb_read return. */
int pb_read_file(pb_profile **out, const char *path, const pb_read_options *o,
                 pb_error *err) PB_WARN_UNUSED;

/*
 * A read split in two, so that a merge can load and index the next input on
 * another thread while it merges the current one: pb_prepare_file opens and
 * detects `path` and runs the plugin's first half (thread-safe: it touches
 * no shared profile); pb_read_prepared finishes the read exactly as
 * pb_read_file would with the same options (o->merge_into included; errors
 * and diagnostics included). A plugin without the two halves reads the whole
 * profile in pb_prepare_file (its errors surface there), and pb_read_prepared
 * then hands it out or merges it. pb_read_prepared may be called once.
 * Both return what pb_read returns. On failure *out is NULL. pb_prepared_free
 * accepts NULL. A pb_prepared is used by one thread at a time (it may move
 * between threads).
 */
typedef struct pb_prepared pb_prepared;

/* Returns what pb_read_file returns; on failure *out is NULL. */
int pb_prepare_file(pb_prepared **out, const char *path, const pb_read_options *o,
                    pb_error *err) PB_WARN_UNUSED;
/* The same from a source the caller opened (and frees after pb_prepared_free),
 * so that a failed read can be read again from it (pb_source_rewind).
 * Returns what pb_read returns; on failure *out is NULL. */
int pb_prepare(pb_prepared **out, pb_source *src, const pb_read_options *o,
               pb_error *err) PB_WARN_UNUSED;
/* Returns what pb_read returns (PB_EINVAL also for a NULL pr); on failure
 * *out is NULL. */
int pb_read_prepared(pb_profile **out, pb_prepared *pr, const pb_read_options *o,
                     pb_error *err) PB_WARN_UNUSED;

/* 1 when pr holds only the input's bytes and indexes (the rest of the read
 * streams into merge_into), 0 when it holds a whole profile: how much memory
 * an input waiting to be merged costs. */
int pb_prepared_streams(const pb_prepared *pr);

void pb_prepared_free(pb_prepared *pr);

/*
 * Streaming: a caller that looks at each record once (merge, show) visits
 * the input instead of reading a model of it. For every profile the input
 * holds (a raw file may hold several: a program and its libraries), in file
 * order and in one pass:
 *   begin_profile(ctx, k, head)  profile k starts; head is a profile without
 *                                records: the reader's tables so far (flags,
 *                                symbols, strings), valid until end_profile;
 *   record(ctx, head, name, len, r)  one record; a function's name is
 *                                name[0..len) (r->name is not set), value
 *                                symbols and Java contexts are head's; r and
 *                                name are valid during the call only;
 *   end_profile(ctx, k, head)    head is complete: flags, origin, binary
 *                                ids, temporal traces of profile k alone;
 *   end_input(ctx, all)          after the last profile: `all` is the
 *                                profile-level data pb_read's model of the
 *                                whole input has, without records: every
 *                                profile's flags and symbols, the binary ids
 *                                the llvm-version keeps, one temporal trace
 *                                of every timestamp, the origin. For an
 *                                input of one profile, what head had.
 * Records repeating a (name, hash) pair are handed out one by one (a model
 * merges them). So the records plus `all` are what pb_read reads, and the
 * records of profile k plus its head what reading profile k alone gives:
 * merge and show both use it (show lists a raw file's profiles one by one
 * and prints their merged model from one pass). A callback may be NULL;
 * nonzero from one stops the visit and is returned. Errors are pb_read's,
 * with the same offsets; a visit that fails calls no end_input.
 */
typedef struct pb_record_visitor {
    int (*begin_profile)(void *ctx, size_t k, const pb_profile *head, pb_error *err);
    int (*record)(void *ctx, const pb_profile *head, const char *name, size_t len, const pb_record *r,
                  pb_error *err);
    int (*end_profile)(void *ctx, size_t k, const pb_profile *head, pb_error *err);
    int (*end_input)(void *ctx, const pb_profile *all, pb_error *err);
} pb_record_visitor;

/* Visits `in` (o->format's plugin, or the content auction's winner; o may
 * be NULL: the defaults). Returns 0; PB_EINVAL (NULL in or v, an unknown
 * options version); PB_EUNSUPPORTED when that plugin does not stream
 * (pb_format_streams); what pb_read returns for the input's faults; or a
 * callback's nonzero value. Records handed out before a failure stay
 * handed out (the visit cannot take them back). Thread-safe for distinct
 * sources. */
int pb_visit(pb_source *in, const pb_read_options *o, const pb_record_visitor *v, void *ctx,
             pb_error *err) PB_WARN_UNUSED;

/*
 * What llvm-profdata-N prints about an input it cannot read, where a read
 * of profbridge failed with `e` (pb_read_file, pb_merger's failed inputs,
 * ...; e->source names the input). The plugin of the form LLVM takes the
 * bytes for (pb_format's llvm_claims) words it, from the error and the
 * bytes: a regular file is opened once more and mapped for that (a pipe, a
 * device, standard input or a gzip file is not looked at: LLVM reads no
 * gzip, and a stream's bytes are gone). Writes into words[0..n) what LLVM
 * prints after "FILE: " (two lines for a raw version mismatch from release
 * table row WORDS_RAW_VERSION_MISMATCH on) and into note[0..note_n) the
 * note LLVM's exitWithError adds after "note: " ("Perhaps you forgot to
 * use the --sample or --memory option?" after an unrecognized format; ""
 * when none), cut to fit; returns 1. Returns 0, with words and note "",
 * when LLVM's words for that damage are not known (the caller prints
 * profbridge's own), for a release outside pb_release_min..max (0 is the
 * default release), a NULL e, words or note or a zero n or note_n. Needs
 * no pb_error: it only looks. Thread-safe.
 */
int pb_llvm_read_error_words(const pb_error *e, int llvm_release, char *words, size_t n, char *note, size_t note_n);

/*
 * Writes with plugin `f`. o may be NULL (the defaults). Returns 0,
 * PB_EINVAL (NULL p, out or f, an unknown options version, a plugin option
 * the plugin refuses or data the target cannot hold at all),
 * PB_EUNSUPPORTED (naming the plugin) if it cannot write, PB_EIO or
 * PB_ENOMEM. p is not changed (it is const and may be shared by threads);
 * after a failure the sink holds part of the output: do not commit it.
 */
int pb_write(const pb_profile *p, pb_sink *out, const pb_format *f, const pb_write_options *o,
             pb_error *err) PB_WARN_UNUSED;

/*
 * Convenience: writes `p` to `path` with plugin `f` (NULL: by extension),
 * gzip-compressed when the path ends in ".gz", through a temporary file that
 * replaces `path` only on success. The writer's diagnostics that name no file
 * reach o->diag with `path` as their source ("<stdout>" for "-").
 * Returns what pb_sink_open_file, pb_write and pb_sink_commit return, and
 * PB_EINVAL when f is NULL and no plugin claims the extension. After a
 * failure `path` is as it was.
 */
int pb_write_file(const pb_profile *p, const char *path, const pb_format *f,
                  const pb_write_options *o, pb_error *err) PB_WARN_UNUSED;

/*
 * pb_write_file for a caller that is done with `p`: p is freed, on success
 * and on failure, and may be freed before the write ends, as soon as what
 * is written no longer needs it. Same output and errors as pb_write_file.
 * For a big conversion the peak memory is lower: an LLVM profile written
 * as iprof is released once its iprof form is built (`profbridge convert`
 * of an indexed file: 430 MiB peak instead of 516 MiB at 60,000 methods).
 */
int pb_write_file_take(pb_profile *p, const char *path, const pb_format *f, const pb_write_options *o,
                       pb_error *err) PB_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif
