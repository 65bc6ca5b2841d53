/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_indexed.c -- `show` on an indexed profile (.profdata) without a
 * model: the records go from the on-disk table straight to the printer of
 * show_llvm.c, in file order, as llvm-profdata show reads them. Building
 * the model (interning every name, copying every record, checking MD5(name)
 * against every key hash) was most of the time of `show --all-functions
 * --counts` on big files, and most of its memory.
 *
 * A regular input is mapped through the descriptor the caller opened, not
 * read (the names handed to the printer point into it); a gzip file or a
 * stream is read into memory once. It is walked once, checked as it is
 * printed (with the reader's notices and warnings). The listing goes out in
 * 64 KiB blocks as it grows (pbi_show_llvm_record), so a big file damaged
 * after its first records prints the records before the damage, then the
 * error, as llvm-profdata-19 and 23 do (their output buffer is written as it
 * fills: 4.3 MB of a 100k-function listing damaged halfway); a small one
 * prints only the error, as theirs; OUT is not committed on failure. The
 * separate check pass before printing was a quarter of the run.
 */
#include <stdlib.h>
#include <string.h>

#include "profbridge/indexed.h"
#include "show_llvm_state.h"

typedef struct show_ctx {
    const pbi_show_llvm_opts *o;
    pb_sink *out;
    pbi_show_llvm_state *st;
} show_ctx;

static int on_start(void *ctx, uint64_t flags, pb_error *err) {
    show_ctx *c = ctx;
    return pbi_show_llvm_begin(&c->st, flags, c->o, c->out, err);
}

static int on_record(void *ctx, const char *name, size_t len, const pb_record *r, pb_error *err) {
    show_ctx *c = ctx;
    return pbi_show_llvm_record(c->st, NULL, r, name, len, r->hash, err);
}

int pbi_show_indexed_print(const uint8_t *data, size_t len, const char *name, const pb_read_options *ro,
                           const pbi_show_llvm_opts *so, const pb_show_options *o, pb_sink *out, pb_error *err) {
    show_ctx c = {so, out, NULL};
    pb_profile *side = NULL; /* the profile-level data: summary, version, binary ids */
    int rc = pb_indexed_foreach(data, len, name, ro, on_start, on_record, &c, &side, err);
    if (!rc) {
        pbi_show_release_note(o, so->t, side, name);
        pbi_show_llvm_state *st = c.st;
        c.st = NULL;
        rc = pbi_show_llvm_end(st, side, err);
    }
    pbi_show_llvm_free(c.st);
    pb_profile_free(side);
    return rc;
}
