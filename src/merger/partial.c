/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * partial.c -- a pb_partial's life cycle, its inputs and its result
 * (profbridge/partial.h). Each input is merged by a one-input pb_merger
 * (the same reading, weights, failure reports and empty-file rule as the
 * flat merge) and then combined after the inputs before it
 * (partial_combine.c).
 */
#define _GNU_SOURCE /* memfd_create: add_bytes hands the merger a file */
#include <fcntl.h>
#include <sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "merger_internal.h"
#include "partial_internal.h"
#include "util/grow.h"

/* ---- one input ------------------------------------------------------------ */

/* What a one-input merge says about its input, on its way to the caller's
 * callbacks (named as the caller named the input, its index the partial's). */
typedef struct one_input {
    const pb_partial *p;
    const char *name, *path;
    size_t index;
    int failed, empty;
    pb_error e;
} one_input;

/* The merger names the file it read: for bytes, an anonymous file's
 * /proc path, which becomes the caller's name. */
static void rename_source(pb_error *e, const one_input *o) {
    if (!o->path || strcmp(o->path, o->name) == 0 || strcmp(e->source, o->path) != 0) return;
    e->source[0] = 0;
    pb_error_set_source(e, o->name);
}

static void one_diag(void *ctx, int severity, const pb_error *e) {
    one_input *o = ctx;
    if (strcmp(e->path, PB_MERGER_EMPTY_INPUT) == 0) o->empty = 1;
    if (!o->p->rules.diag) return;
    pb_error c = *e;
    rename_source(&c, o);
    o->p->rules.diag(o->p->rules.diag_ctx, severity, &c);
}

static void one_failed(void *ctx, size_t input, const char *name, const pb_error *e) {
    (void)input, (void)name;
    one_input *o = ctx;
    o->failed = 1;
    o->e = *e;
    rename_source(&o->e, o);
    if (o->p->rules.failed) o->p->rules.failed(o->p->rules.failed_ctx, o->index, o->name, &o->e);
}

/* SHA-256 and size of a file (by path; "" and 0 when it cannot be read).
 * Returns 0, or PB_ENOMEM (no buffer: the provenance would be wrong). */
static int hash_file(const char *path, char hex[65], uint64_t *size, pb_error *err) {
    hex[0] = 0;
    *size = 0;
    if (strcmp(path, "-") == 0) return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    static const size_t chunk = 1 << 16;
    uint8_t *buf = malloc(chunk);
    if (!buf) {
        close(fd);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    SHA2_CTX c;
    SHA256Init(&c);
    ssize_t n = 0;
    uint64_t total = 0;
    while ((n = read(fd, buf, chunk)) > 0) {
        SHA256Update(&c, buf, (size_t)n);
        total += (uint64_t)n;
    }
    close(fd);
    if (n == 0) {
        SHA256End(&c, hex);
        *size = total;
    }
    free(buf);
    return 0;
}

/* Merges the input at `path` (named `name` in the provenance) into p. */
static int add_one(pb_partial *p, const char *path, const char *name, uint64_t weight, const char *sha256,
                   uint64_t size, pb_error *err) {
    one_input oi = {p, name, path, p->nin, 0, 0, {0}};
    pb_error_clear(&oi.e);
    pb_merger_options mo = p->rules;
    mo.threads = 1;
    mo.keep_functions = mo.drop_functions = NULL; /* the filters apply to the whole merge (finish) */
    mo.diag = one_diag;
    mo.diag_ctx = &oi;
    mo.failed = one_failed;
    mo.failed_ctx = &oi;
    mo.progress = NULL;
    pb_merger *m = NULL;
    pb_profile *q = NULL;
    int rc = pb_merger_new(&m, &mo, err);
    if (!rc) {
        m->keep_on_failure = 1;
        rc = pb_merger_add_file(m, path, weight, err);
    }
    if (!rc) rc = pb_merger_run(m, &q, err);
    pb_merger_free(m);
    if (!rc && oi.failed && oi.e.code == PB_ENOMEM) {
        /* out of memory is the machine's state, not the input's: no
         * partial may record the input as failed for it */
        if (err) *err = oi.e;
        rc = PB_ENOMEM;
    }
    if (rc) {
        pb_profile_free(q);
        return rc;
    }
    int status = oi.failed ? PB_PARTIAL_FAILED : oi.empty ? PB_PARTIAL_SKIPPED_EMPTY : PB_PARTIAL_MERGED;
    rc = pbi_partial_add_input(p, name, weight, size, sha256, status, &oi.e, err);
    if (!rc) return pbi_partial_take(p, q, weight, status == PB_PARTIAL_MERGED, err);
    pb_profile_free(q);
    return rc;
}

/* A .pbpart input: its bytes loaded and combined after p's inputs. */
static int add_partial_file(pb_partial *p, const char *path, uint64_t weight, pb_error *err) {
    if (weight != 1)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                            "%s: a partial merge takes no weight (its inputs have theirs)", path);
    pb_source *src = NULL;
    const uint8_t *data;
    size_t len;
    pb_partial *q = NULL;
    int rc = pb_source_open_file(&src, path, err);
    if (!rc) rc = pb_source_read_all(src, &data, &len, err);
    if (!rc) rc = pb_partial_load(&q, data, len, path, &p->rules, err);
    pb_source_free(src);
    if (!rc) rc = pb_partial_combine(p, q, err);
    if (rc && err && !err->source[0]) pb_error_set_source(err, path);
    pb_partial_free(q);
    return rc;
}

static int is_partial_file(const char *path) {
    if (strcmp(path, "-") == 0) return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    uint8_t head[8];
    ssize_t n = read(fd, head, sizeof head);
    close(fd);
    return n == (ssize_t)sizeof head && pb_partial_sniff(head, sizeof head);
}

int pb_partial_add_file(pb_partial *p, const char *path, uint64_t weight, pb_error *err) {
    if (err) pb_error_clear(err);
    if (!p || !path || weight == 0)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                            !p || !path ? "pb_partial_add_file: NULL argument" : "an input's weight must be at least 1");
    if (is_partial_file(path)) return add_partial_file(p, path, weight, err);
    char hex[65];
    uint64_t size;
    int rc = hash_file(path, hex, &size, err);
    return rc ? rc : add_one(p, path, path, weight, hex, size, err);
}

int pb_partial_add_bytes(pb_partial *p, const char *name, const void *bytes, size_t len, uint64_t weight,
                         pb_error *err) {
    if (err) pb_error_clear(err);
    if (!p || (!bytes && len) || weight == 0)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                            !p || (!bytes && len) ? "pb_partial_add_bytes: NULL argument"
                                                  : "an input's weight must be at least 1");
    if (!name) name = "<memory>";
    if (pb_partial_sniff(bytes, len)) {
        if (weight != 1)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL,
                                "%s: a partial merge takes no weight (its inputs have theirs)", name);
        pb_partial *q = NULL;
        int rc = pb_partial_load(&q, bytes, len, name, &p->rules, err);
        if (!rc) rc = pb_partial_combine(p, q, err);
        pb_partial_free(q);
        return rc;
    }
    /* The merger reads files: the bytes become an anonymous one, so that
     * they are read exactly as the flat merge reads the same file. */
    int fd = memfd_create("profbridge-input", MFD_CLOEXEC);
    if (fd < 0) return pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "%s: cannot create a memory file", name);
    size_t off = 0;
    while (off < len) {
        ssize_t n = write(fd, (const uint8_t *)bytes + off, len - off);
        if (n <= 0) {
            close(fd);
            return pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "%s: cannot write a memory file", name);
        }
        off += (size_t)n;
    }
    char path[64], hex[65];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    SHA2_CTX c;
    SHA256Init(&c);
    SHA256Update(&c, bytes, len);
    SHA256End(&c, hex);
    int rc = add_one(p, path, name, weight, hex, len, err);
    close(fd);
    return rc;
}

/* ---- the result -------------------------------------------------------------- */

int pb_partial_finish(pb_partial *p, pb_profile **out, pb_error *err) {
    if (err) pb_error_clear(err);
    if (out) *out = NULL;
    if (!p || !out) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "pb_partial_finish: NULL argument");
    if (p->nin == 0) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "no inputs to merge");
    size_t failed = 0;
    int first = 0;
    for (size_t i = 0; i < p->nin; i++)
        if (p->in[i].status == PB_PARTIAL_FAILED) {
            failed++;
            if (!first) first = p->in[i].err && p->in[i].err->code ? p->in[i].err->code : PB_EFORMAT;
        }
    int fails = p->rules.failure_mode == PB_MERGE_FAIL_WARN ? 0
                : p->rules.failure_mode == PB_MERGE_FAIL_ALL ? failed == p->nin
                                                             : failed > 0;
    if (fails) return pb_error_set(err, first, PB_NO_OFFSET, PB_MERGER_NOTHING_MERGED, "no profile can be merged");
    pb_profile *r = p->own;
    int rc = 0;
    if (!r && (rc = pb_profile_new(&r, err))) return rc;
    p->own = NULL;
    free(p->extra);
    p->extra = NULL;
    p->nextra = p->cap_extra = 0;
    if (p->keep || p->drop) {
        /* the filters as the flat merge applies them, after the last input */
        pb_merger_options mo = p->rules;
        pb_merger *m = NULL;
        rc = pb_merger_new(&m, &mo, err);
        if (!rc) rc = pbi_merger_filter(m, &r, err);
        pb_merger_free(m);
    }
    if (rc) {
        pb_profile_free(r);
        return rc;
    }
    *out = r;
    return PB_OK;
}
