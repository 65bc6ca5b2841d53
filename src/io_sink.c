/*
 * io_sink.c -- byte sinks: a file written through a temporary file, stdout, or memory.
 *
 * A file sink writes "<path>.pbtmp.<pid>.<n>" in the target's directory (so
 * the final rename stays on one file system) and renames it over the target
 * only in pb_sink_commit(). A sink freed before commit removes its temporary
 * file: a failed conversion never leaves a truncated output behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "buf.h"
#include "profbridge/io.h"

#define SINK_BUF 65536

struct pb_sink {
    char *path;     /* target; NULL for memory and stdout */
    char *tmp;      /* temporary file name */
    int fd;         /* -1 for memory */
    int gzip;
    z_stream z;
    int z_live;
    int committed;
    int failed;
    uint64_t offset;
    pb_buf mem;     /* memory sinks: all bytes; file sinks: the pending buffer */
};

static int sink_os_error(pb_sink *s, pb_error *err, const char *what) {
    s->failed = 1;
    pb_error_set_source(err, s->path ? s->path : "<stdout>");
    return pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "%s: %s", what, strerror(errno));
}

static int write_fd(pb_sink *s, const uint8_t *d, size_t n, pb_error *err) {
    while (n) {
        ssize_t w = write(s->fd, d, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return sink_os_error(s, err, "cannot write");
        }
        d += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Pushes bytes to the fd, through deflate when gzip. `finish` ends the stream. */
static int push(pb_sink *s, const uint8_t *d, size_t n, int finish, pb_error *err) {
    if (!s->gzip) return write_fd(s, d, n, err);
    uint8_t out[SINK_BUF];
    s->z.next_in = (Bytef *)(uintptr_t)d;
    s->z.avail_in = (uInt)n;
    for (;;) {
        s->z.next_out = out;
        s->z.avail_out = sizeof out;
        int zr = deflate(&s->z, finish ? Z_FINISH : Z_NO_FLUSH);
        if (zr == Z_STREAM_ERROR) {
            s->failed = 1;
            return pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "gzip compression failed");
        }
        size_t have = sizeof out - s->z.avail_out;
        int rc = write_fd(s, out, have, err);
        if (rc) return rc;
        if (finish ? zr == Z_STREAM_END : (s->z.avail_in == 0 && s->z.avail_out != 0)) break;
    }
    return 0;
}

static int flush_pending(pb_sink *s, pb_error *err) {
    if (s->fd < 0 || s->mem.len == 0) return 0;
    int rc = push(s, (const uint8_t *)s->mem.data, s->mem.len, 0, err);
    pbi_buf_reset(&s->mem);
    return rc;
}

int pb_sink_open_memory(pb_sink **out, pb_error *err) {
    *out = calloc(1, sizeof **out);
    if (!*out) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    (*out)->fd = -1;
    return 0;
}

int pb_sink_open_file(pb_sink **out, const char *path, int gzip, pb_error *err) {
    *out = NULL;
    pb_sink *s = calloc(1, sizeof *s);
    if (!s) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    s->fd = -1;
    if (strcmp(path, "-") == 0) {
        s->fd = 1;
    } else {
        size_t n = strlen(path) + 64;
        s->path = strdup(path);
        s->tmp = malloc(n);
        if (!s->path || !s->tmp) {
            pb_sink_free(s);
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        }
        /* O_EXCL with a fresh name each try; mode 0666 so the umask decides, as for any file. */
        for (unsigned i = 0; i < 100 && s->fd < 0; i++) {
            snprintf(s->tmp, n, "%s.pbtmp.%ld.%u", path, (long)getpid(), i);
            s->fd = open(s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (s->fd < 0 && errno != EEXIST) break;
        }
        if (s->fd < 0) {
            int rc = sink_os_error(s, err, "cannot create the output file");
            free(s->tmp);
            s->tmp = NULL;
            pb_sink_free(s);
            return rc;
        }
    }
    if (gzip) {
        /* windowBits 15 + 16: a gzip wrapper, as `gzip` writes. */
        if (deflateInit2(&s->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            pb_sink_free(s);
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot start zlib");
        }
        s->gzip = s->z_live = 1;
    }
    *out = s;
    return 0;
}

int pb_sink_write(pb_sink *s, const void *data, size_t n, pb_error *err) {
    if (s->failed) return pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "write after a failed write");
    if (s->fd >= 0 && s->mem.len + n > SINK_BUF) {
        int rc = flush_pending(s, err);
        if (rc) return rc;
        if (n > SINK_BUF) {
            s->offset += n;
            return push(s, data, n, 0, err);
        }
    }
    pbi_buf_append(&s->mem, data, n);
    if (pbi_buf_failed(&s->mem)) {
        s->failed = 1;
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    s->offset += n;
    return 0;
}

int pb_sink_printf(pb_sink *s, pb_error *err, const char *fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "bad format string");
    if ((size_t)n < sizeof small) return pb_sink_write(s, small, (size_t)n, err);
    pb_buf b = PB_BUF_INIT;
    va_start(ap, fmt);
    pbi_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    int rc = pbi_buf_failed(&b) ? pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory")
                                : pb_sink_write(s, b.data, b.len, err);
    pbi_buf_free(&b);
    return rc;
}

uint64_t pb_sink_offset(const pb_sink *s) { return s->offset; }

int pb_sink_commit(pb_sink *s, pb_error *err) {
    if (s->failed) return pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "an earlier write failed");
    if (s->fd < 0) {
        s->committed = 1;
        return 0;
    }
    int rc = flush_pending(s, err);
    if (rc == 0 && s->gzip) rc = push(s, NULL, 0, 1, err);
    if (rc) return rc;
    if (s->path) {
        if (close(s->fd) != 0) {
            s->fd = -1;
            return sink_os_error(s, err, "cannot finish writing");
        }
        s->fd = -1;
        if (rename(s->tmp, s->path) != 0) return sink_os_error(s, err, "cannot replace the output file");
    }
    s->committed = 1;
    return 0;
}

void pb_sink_free(pb_sink *s) {
    if (!s) return;
    if (s->z_live) deflateEnd(&s->z);
    if (s->path) {
        if (s->fd >= 0) close(s->fd);
        if (!s->committed && s->tmp) unlink(s->tmp);
    }
    free(s->tmp);
    free(s->path);
    pbi_buf_free(&s->mem);
    free(s);
}

const uint8_t *pb_sink_memory(const pb_sink *s, size_t *len) {
    if (s->fd >= 0 || s->path) return NULL;
    if (len) *len = s->mem.len;
    return s->mem.data ? (const uint8_t *)s->mem.data : (const uint8_t *)"";
}
