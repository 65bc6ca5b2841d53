/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_raw.c -- `show` on a raw profile (.profraw) without a model: one
 * visit of the file (pb_visit) hands each record, in file order and profile
 * by profile, straight to the printer of show_llvm.c, as llvm-profdata show
 * lists what its raw reader gives record by record. Building the model of
 * the whole profile first was a quarter of the time of `show
 * --all-functions --counts` of a big raw file and most of its memory (its
 * peak was above llvm-profdata-19's); it also merged a (name, hash) pair
 * repeated within one profile, which llvm-profdata-N lists twice.
 *
 * The listing goes out in blocks as it grows, so a file damaged after its
 * first records prints the records before the damage, then the error, as
 * llvm-profdata-N does (its output buffer is written as it fills; on a
 * small file neither prints a listing). The summary, --profile-version and
 * the release note come from the whole input's head (end_input).
 */
#include "show_llvm_state.h"

typedef struct raw_show {
    const pbi_show_llvm_opts *so;
    const pb_show_options *o; /* the release note's options */
    const char *name;
    pb_sink *out;
    pbi_show_llvm_state *st; /* begun at the first record (its profile's kind known) */
} raw_show;

/* The printer's state, begun with the flags of the first profile: its
 * kind (IR or front-end) is every profile's, the reader refuses a mix. */
static int start(raw_show *c, const pb_profile *head, pb_error *err) {
    return c->st ? 0 : pbi_show_llvm_begin(&c->st, pb_profile_flags(head), c->so, c->out, err);
}

static int on_record(void *ctx, const pb_profile *head, const char *name, size_t len, const pb_record *r,
                     pb_error *err) {
    raw_show *c = ctx;
    int rc = start(c, head, err);
    return rc ? rc : pbi_show_llvm_record(c->st, head, r, name, len, r->hash, err);
}

static int on_end_input(void *ctx, const pb_profile *all, pb_error *err) {
    raw_show *c = ctx;
    int rc = start(c, all, err);
    if (rc) return rc;
    /* the summary's flags are the whole input's (entry_first of any profile) */
    c->st->flags = pb_profile_flags(all);
    pbi_show_release_note(c->o, c->so->t, all, c->name);
    pbi_show_llvm_state *st = c->st;
    c->st = NULL;
    return pbi_show_llvm_end(st, all, err);
}

int pbi_show_raw_streamable(const pbi_show_llvm_opts *so) {
    /* --binary-ids lists each profile's (show_parts.c keeps them apart);
     * --topn and --hot-func-list keep names until the end, and a visit's
     * names last one profile */
    return pbi_show_llvm_streamable(so) && !so->binary_ids && !so->topn && !pbi_show_wants_hot_list(so, so->t);
}

int pbi_show_raw_print(pb_source *src, const pb_read_options *ro, const char *name, const pbi_show_llvm_opts *so,
                       const pb_show_options *o, pb_sink *out, pb_error *err) {
    static const pb_record_visitor visitor = {NULL, on_record, NULL, on_end_input};
    raw_show c = {so, o, name, out, NULL};
    int rc = pb_visit(src, ro, &visitor, &c, err);
    pbi_show_llvm_free(c.st);
    return rc;
}
