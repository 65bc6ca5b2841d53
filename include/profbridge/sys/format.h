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
 * visit's prepared state and merges_by_visit. */
#define PB_FORMAT_ABI 4

/* A plugin option, e.g. {"iprof-version", "V", "write this iprof version"}.
 * The CLI accepts --NAME VALUE for every option of the plugin in use. */
typedef struct pb_option_desc {
    const char *name;
    const char *arg;  /* argument placeholder, NULL for a flag */
    const char *help;
} pb_option_desc;

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
};

#ifdef __cplusplus
}
#endif
#endif
