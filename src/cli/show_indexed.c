/*
 * show_indexed.c -- `show` on an indexed profile (.profdata) without a
 * model: the records go from the on-disk table straight to the printer of
 * show_llvm.c, in file order, as llvm-profdata show reads them. Building
 * the model (interning every name, copying every record, checking MD5(name)
 * against every key hash) was most of the time of `show --all-functions
 * --counts` on big files, and most of its memory.
 *
 * The input is mapped, not read (the names handed to the printer point into
 * it). It is walked twice: first only checked (with the reader's notices and
 * warnings), then printed. So a damaged file prints its error and nothing
 * else, as the model path does (no half listing, no OUT created), without
 * holding the output in memory: the check costs a fifth of the printing pass,
 * collecting the output cost more than that in page faults alone.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "profbridge/indexed.h"
#include "opts.h"

/* The indexed plugin's probe bids on the magic (a gzip file does not bid). */
static int is_indexed(const uint8_t *data, size_t len) {
    const pb_format *f = pb_format_lookup("indexed");
    return f && f->probe && f->probe(data, len < PB_PEEK_MAX ? len : PB_PEEK_MAX) > 0;
}

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

/* Maps a regular file; NULL when it is not one, is empty or cannot be mapped
 * (the caller then reads it through its source). */
static const uint8_t *map_file(const char *path, size_t *len) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    struct stat sb;
    void *m = MAP_FAILED;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 && (uint64_t)sb.st_size <= SIZE_MAX) {
        *len = (size_t)sb.st_size;
        m = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
    }
    close(fd);
    return m == MAP_FAILED ? NULL : m;
}

int pbc_show_indexed(const char *in_path, pb_source *src, const pb_read_options *ro,
                     const pbc_show_llvm_opts *so, const char *out_path) {
    pb_error err;
    pb_error_clear(&err);
    size_t len = 0;
    const uint8_t *data = NULL, *map = NULL;
    /* A gzip-compressed file maps as gzip: read it through the source then. */
    if (strcmp(in_path, "-") != 0 && (map = map_file(in_path, &len)) != NULL && !is_indexed(map, len)) {
        munmap((void *)map, len);
        map = NULL;
    }
    int rc = 0, exit_code = PBC_EXIT_USAGE;
    if (map) data = map;
    else rc = pb_source_read_all(src, &data, &len, &err);
    const char *name = pb_source_name(src);
    show_ctx c = {so, NULL, NULL};
    pb_profile *side = NULL;
    /* pass 1: check, with the notices and warnings; side = profile-level data */
    if (!rc) rc = pb_indexed_foreach(data, len, name, ro, NULL, NULL, NULL, &side, &err);
    if (rc) {
        pbc_print_error(&err);
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
    if (map) munmap((void *)map, len);
    return exit_code;
}
