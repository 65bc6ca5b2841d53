/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * profbridge/sys/format.h -- the format plugin interface, for those who
 * write a plugin (formats/<name>/) or the registry. Callers of the library
 * need only profbridge/format.h, where pb_format is opaque.
 *
 * A format plugin is one const pb_format descriptor (libarchive's bidders,
 * libgit2's backends): a name, what it is (family, version option), a
 * content probe and the operations it supports. A NULL operation means "not
 * supported"; the registry's message then names the plugin. Plugins meet
 * only in pb_profile; none includes another's headers.
 */
#ifndef PROFBRIDGE_SYS_FORMAT_H
#define PROFBRIDGE_SYS_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "../format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Raised whenever pb_format changes shape: 3 added family, version_option
 * and visit, and made the struct an implementer's type; 4 added form,
 * visit's prepared state and merges_by_visit; 5 added llvm_claims and
 * llvm_words. */
#define PB_FORMAT_ABI 5

/* A plugin option, e.g. {"iprof-version", "V", "write this iprof version"}.
 * The CLI accepts --NAME VALUE for every option of the plugin in use. */
typedef struct pb_option_desc {
    const char *name;
    const char *arg;  /* argument placeholder, NULL for a flag */
    const char *help;
} pb_option_desc;

/*
 * What a plugin's llvm_words is asked (pb_llvm_read_error_words, format.h):
 * the error a read of this plugin's form gave, and the input's bytes as
 * they are on disk (never inflated: llvm-profdata reads no gzip).
 */
typedef struct pb_llvm_words_query {
    const pb_error *error; /* the read's error; error->source names the input */
    int llvm_release;      /* the release whose llvm-profdata speaks, 13..24 */
    const uint8_t *data;   /* the whole input (may be NULL when len is 0) */
    size_t len;
    /* 1: no plugin took the bytes (the registry's "not a profile any
     * plugin recognises"), but llvm_claims said LLVM reads them as this
     * plugin's form: the words are what LLVM's reader of that form says. */
    int unrecognized;
} pb_llvm_words_query;

struct pb_format {
    unsigned abi;               /* PB_FORMAT_ABI */
    const char *name;           /* "iprof", "raw", "indexed", "text", "json" */
    const char *description;    /* one line for --help */
    /* What the format is, as data: callers branch on these, never on name. */
    pb_format_family family;
    pb_format_form form;        /* PB_FORM_OTHER unless one of LLVM's forms */
    const char *version_option; /* the write option picking the file version, or NULL */
    const char *const *extensions; /* NULL-terminated, longest first: ".iprof.gz", ".iprof" */
    /* Bids on the first bytes: 0 = not mine, else the number of bytes of evidence. */
    int (*probe)(const uint8_t *head, size_t len);
    /* Reads a whole profile. On failure *out is NULL and nothing leaks.
     * o->merge_into is the registry's business (it merges through `visit`
     * when there is one, else the profile read): plugins ignore it. */
    int (*read)(pb_profile **out, pb_source *in, const pb_read_options *o, pb_error *err);
    /* Writes a profile. Notices about dropped data go to o->diag. */
    int (*write)(const pb_profile *p, pb_sink *out, const pb_write_options *o, pb_error *err);
    /* Explains the bytes of the input (may be NULL). */
    int (*dump)(pb_source *in, pb_sink *out, const pb_dump_options *o, pb_error *err);
    const pb_option_desc *read_options;  /* NULL-name-terminated, may be NULL */
    const pb_option_desc *write_options; /* NULL-name-terminated, may be NULL */
    /*
     * A read in two halves (all three NULL, or all three set, with `visit`;
     * see pb_prepare_file): `prepare` does the part that needs no merge
     * destination (load the bytes, decode and index what the records refer
     * to) and must fail only when the input cannot be held at all (I/O,
     * memory): a format error is left to the second half, which reports it
     * as `read` would. The second half is `read_prepared` (a model, like
     * `read`) or `visit` given the state; `free_prepared` frees the state
     * in either case.
     */
    int (*prepare)(void **state, pb_source *in, const pb_read_options *o, pb_error *err);
    int (*read_prepared)(pb_profile **out, void *state, const pb_read_options *o, pb_error *err);
    void (*free_prepared)(void *state);
    /* The streaming contract (pb_visit, pb_record_visitor in format.h):
     * hands out every profile of the input and each of its records, in one
     * pass, without building a model, then the whole input's head
     * (end_input). `prepared` is `prepare`'s state of `in` (its bytes are
     * taken from there), or NULL. Merging (pb_read_options.merge_into) and
     * show go through it. NULL: the format does not stream. */
    int (*visit)(pb_source *in, void *prepared, const pb_read_options *o, const pb_record_visitor *v, void *ctx,
                 pb_error *err);
    /* 1: a merge (pb_read_options.merge_into) visits the input, record by
     * record, because the visit sees all a model read checks and warns
     * about (raw). 0: the input is read as a model and merged. Indexed:
     * its model read binds a value to a vtable symbol only when no record
     * of the file has that NameRef, which needs every record first, and it
     * checks key hashes and merges repeated keys (with warnings) that its
     * visit skips (they cost a tenth of show on big files). */
    int merges_by_visit;
    /*
     * llvm-profdata's words for an input it cannot read, for LLVM's forms
     * (NULL elsewhere: iprof, json). llvm_claims: 1 when llvm-profdata's
     * reader of this form takes data[0..len) for its own, by its own test
     * (InstrProfReader::create: the indexed magic, the raw magics, then
     * text for printable first bytes), which may differ from `probe`'s; the
     * forms' tests exclude each other. llvm_words: writes into buf[0..n)
     * (NUL-terminated, cut to fit) what llvm-profdata-(q->llvm_release)
     * prints after "FILE: " for q's error on bytes this plugin claims, and
     * returns 1; returns 0 when those words are not known (the caller
     * prints profbridge's own). Both only read the bytes; any bytes are
     * safe. Release rules are rows of the release table, not numbers.
     */
    int (*llvm_claims)(const uint8_t *data, size_t len);
    int (*llvm_words)(const pb_llvm_words_query *q, char *buf, size_t n);
};

#ifdef __cplusplus
}
#endif
#endif
