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
 * stream is read into memory once. It is walked twice: first only checked (with the reader's notices and
 * warnings), then printed. So a damaged file prints its error and nothing
 * else, as the model path does (no half listing, no OUT created), without
 * holding the output in memory: the check costs a fifth of the printing pass,
 * collecting the output cost more than that in page faults alone.
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

int pbi_show_indexed_check(const uint8_t *data, size_t len, const char *name, const pb_read_options *ro,
                           pb_profile **side, pb_error *err) {
    /* pass 1: check, with the notices and warnings; side = profile-level data */
    return pb_indexed_foreach(data, len, name, ro, NULL, NULL, NULL, side, err);
}

int pbi_show_indexed_print(const uint8_t *data, size_t len, const char *name, const pb_read_options *ro,
                           const pbi_show_llvm_opts *so, const pb_profile *side, pb_sink *out, pb_error *err) {
    show_ctx c = {so, out, NULL};
    /* pass 2: print (the diagnostics were given) */
    pb_read_options quiet = *ro;
    quiet.diag = NULL;
    int rc = pb_indexed_foreach(data, len, name, &quiet, on_start, on_record, &c, NULL, err);
    if (!rc) {
        pbi_show_llvm_state *st = c.st;
        c.st = NULL;
        rc = pbi_show_llvm_end(st, side, err);
    }
    pbi_show_llvm_free(c.st);
    return rc;
}
