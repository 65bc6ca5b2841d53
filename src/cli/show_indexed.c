/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * show_indexed.c -- `show` on an indexed profile (.profdata) without a
 * model: the records go from the on-disk table straight to the printer of
 * show_llvm.c, in file order, as llvm-profdata show reads them. Building
 * the model (interning every name, copying every record, checking MD5(name)
 * against every key hash) was most of the time of `show --all-functions
 * --counts` on big files, and most of its memory.
 *
 * A regular input is mapped through the descriptor the command opened, not
 * read (the names handed to the printer point into it); a gzip file or a
 * stream is read into memory once. It is walked twice: first only checked (with the reader's notices and
 * warnings), then printed. So a damaged file prints its error and nothing
 * else, as the model path does (no half listing, no OUT created), without
 * holding the output in memory: the check costs a fifth of the printing pass,
 * collecting the output cost more than that in page faults alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "profbridge/indexed.h"
#include "llvm_input_error.h"
#include "opts.h"

typedef struct show_ctx {
    const pbc_show_llvm_opts *o;
    FILE *out;
    pbc_show_llvm_state *st;
} show_ctx;

static int on_start(void *ctx, uint64_t flags, pb_error *err) {
    show_ctx *c = ctx;
    return pbc_show_llvm_begin(&c->st, flags, c->o, c->out, err);
}

static int on_record(void *ctx, const char *name, size_t len, const pb_record *r, pb_error *err) {
    (void)err;
    show_ctx *c = ctx;
    pbc_show_llvm_record(c->st, NULL, r, name, len, r->hash);
    return 0;
}

int pbc_show_indexed(const char *in_path, pb_source *src, const pb_read_options *ro,
                     const pbc_show_llvm_opts *so, const char *out_path) {
    (void)in_path; /* read through `src`, never opened again by name */
    pb_error err;
    pb_error_clear(&err);
    size_t len = 0;
    const uint8_t *data = NULL;
    int exit_code = PBC_EXIT_USAGE;
    /* a regular file is mapped, anything else (gzip, a pipe) read into memory */
    int rc = pb_source_map(src, &data, &len, &err);
    const char *name = pb_source_name(src);
    show_ctx c = {so, NULL, NULL};
    pb_profile *side = NULL;
    /* pass 1: check, with the notices and warnings; side = profile-level data */
    if (!rc) rc = pb_indexed_foreach(data, len, name, ro, NULL, NULL, NULL, &side, &err);
    if (rc) {
        pbc_print_input_error(&err);
        pbc_lenient_hint(rc, ro->lenient);
        exit_code = pbc_exit_for(rc);
        goto done;
    }
    /* a version the release does not read: refused before anything is written */
    if ((exit_code = pbc_llvm_check_readable(so->t, side, name)) != 0) goto done;
    exit_code = PBC_EXIT_USAGE;
    /* pass 2: print (the diagnostics were given) */
    if (!(c.out = pbc_open_out(out_path))) goto done;
    pb_read_options quiet = *ro;
    quiet.diag = NULL;
    rc = pb_indexed_foreach(data, len, name, &quiet, on_start, on_record, &c, NULL, &err);
    if (!rc) {
        pbc_show_llvm_state *st = c.st;
        c.st = NULL;
        rc = pbc_show_llvm_end(st, side, &err);
    }
    pbc_show_llvm_free(c.st);
    if (rc) pbc_print_error(&err);
    exit_code = pbc_close_out(c.out, out_path, rc ? pbc_exit_for(rc) : PBC_EXIT_OK);
done:
    pb_profile_free(side);
    return exit_code;
}
