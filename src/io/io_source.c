/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * io_source.c -- byte sources: files, stdin and memory, gzip transparently.
 *
 * Every source keeps a small look-ahead so probes can see the first bytes
 * without consuming them. gzip is recognised by its magic (1f 8b), never by
 * the file name, and decompressed with zlib's inflate (concatenated members
 * are read as one stream, like gzip -d does).
 */
#define _GNU_SOURCE /* gettid: read_small's main-thread test */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "util/buf.h"
#include "util/grow.h"
#include "io/read_block.h"
#include "profbridge/io.h"
#include "util/api.h"

#define RAW_CHUNK 65536

/* Regular files smaller than this are read into one heap block, not mapped
 * (pb_source_map): a mapping costs a page fault per 16 pages touched and an
 * munmap whose TLB flush interrupts every CPU the process ran on, per file;
 * a freed block of about the same size is reused by the next file's
 * malloc (glibc raises its mmap threshold to it), so its pages fault once.
 * Merging 50 .profdata of 1.2 MB each: 0.77x the CPU time (farm-bench).
 * Bigger files stay mapped: their pages can leave resident memory behind
 * the reader (pb_source_map_done_before), and the copy would cost more. */
#define MAP_MIN ((uint64_t)4 << 20)

struct pb_source {
    char *name;
    int fd;                /* file sources: the descriptor (-1 for memory) */
    int close_fd;          /* 0 for stdin */
    const uint8_t *mem;    /* memory sources: the caller's bytes */
    size_t mem_len, mem_pos;
    int gzip;              /* 1 when the bytes are gzip */
    int gz_done;           /* inflate reached the end of the last member */
    z_stream z;
    int z_live;
    uint8_t *raw;          /* compressed bytes read from fd */
    size_t raw_len;        /* file sources: bytes of raw[] not yet given to inflate */
    uint8_t head[PB_PEEK_MAX]; /* look-ahead of decompressed content */
    size_t head_pos, head_len;
    int head_filled;
    uint8_t *all;          /* read_all result */
    pbi_read_block *lent;  /* pbi_source_lend_block's, NULL = none */
    int lent_held;         /* the file's bytes are in lent->data */
    void *map;             /* pb_source_map result, munmap'ed on free */
    size_t map_len;
    size_t map_dropped; /* [0, map_dropped) advised away (pb_source_map_done_before) */
    int eof;
    uint64_t max_size, max_inflation; /* limits; PB_NO_LIMIT = none */
    uint64_t content_total;           /* decompressed bytes produced so far */
    uint64_t raw_total;               /* bytes taken from the fd or memory */
    int64_t start_off;                /* the fd's offset at open (-1: not seekable) */
    pb_progress_fn progress;          /* pb_source_set_progress, NULL = none */
    void *progress_ctx;
    uint64_t progress_total;          /* 0 = unknown */
    uint64_t progress_last;           /* raw_total at the last call */
    int progress_ended;               /* the end was reported */
};

/* "FILE: what: strerror", or "FILE: strerror" without `what` (a file that
 * cannot be opened: the words of cat, cp and llvm-profdata alike). */
static int os_error(pb_source *s, pb_error *err, const char *what) {
    pb_error_set_source(err, s->name);
    if (!what) return pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "%s", strerror(errno));
    return pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "%s: %s", what, strerror(errno));
}

static int size_limit_error(pb_source *s, pb_error *err) {
    pb_error_set_source(err, s->name);
    return pb_error_set(err, PB_ELIMIT, s->max_size, NULL,
                        "the input is bigger than the size limit of %" PRIu64
                        " bytes (pb_read_options.max_input_size)",
                        s->max_size);
}

/* Offset of the next compressed byte inflate will look at. */
static uint64_t gz_offset(const pb_source *s) { return s->raw_total - s->z.avail_in; }

/* Tells the progress callback about raw_total: every PB_PROGRESS_STEP bytes,
 * and once at the end (`end`: the input gave its last byte). */
static void report_progress(pb_source *s, int end) {
    if (!s->progress || s->progress_ended) return;
    if (end) {
        s->progress_ended = 1;
        s->progress(s->progress_ctx, s->raw_total, s->progress_total);
    } else if (s->raw_total - s->progress_last >= PB_PROGRESS_STEP) {
        s->progress_last = s->raw_total;
        s->progress(s->progress_ctx, s->raw_total, s->progress_total);
    }
}

/* Reads raw (possibly compressed) bytes from the underlying fd or memory. */
static int raw_read(pb_source *s, uint8_t *buf, size_t n, size_t *got, pb_error *err) {
    *got = 0;
    if (s->fd < 0) {
        size_t k = s->mem_len - s->mem_pos;
        if (k > n) k = n;
        if (k) memcpy(buf, s->mem + s->mem_pos, k);
        s->mem_pos += k;
        s->raw_total += k;
        *got = k;
        report_progress(s, k == 0 && n > 0);
        return 0;
    }
    for (;;) {
        ssize_t r = read(s->fd, buf, n);
        if (r >= 0) {
            *got = (size_t)r;
            s->raw_total += (uint64_t)r;
            report_progress(s, r == 0 && n > 0);
            return 0;
        }
        if (errno != EINTR) return os_error(s, err, "cannot read");
    }
}

/* Decompresses up to n bytes into buf. */
static int gz_read(pb_source *s, uint8_t *buf, size_t n, size_t *got, pb_error *err) {
    *got = 0;
    while (*got == 0 && !s->gz_done) {
        if (s->z.avail_in == 0) {
            size_t k;
            int rc = raw_read(s, s->raw, RAW_CHUNK, &k, err);
            if (rc) return rc;
            if (k == 0) {
                pb_error_set_source(err, s->name);
                return pb_error_set(err, PB_ETRUNC, s->raw_total, "compressed",
                                    "gzip stream ends early (the compressed file is truncated)");
            }
            s->z.next_in = s->raw;
            s->z.avail_in = (uInt)k;
        }
        s->z.next_out = buf;
        s->z.avail_out = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
        int zr = inflate(&s->z, Z_NO_FLUSH);
        *got = (size_t)(s->z.next_out - buf);
        uint64_t out_total = s->content_total + *got, in_used = gz_offset(s);
        if (s->max_inflation != PB_NO_LIMIT && out_total > PB_INFLATION_FLOOR &&
            (in_used == 0 || out_total / in_used > s->max_inflation)) {
            pb_error_set_source(err, s->name);
            return pb_error_set(err, PB_ELIMIT, in_used, "compressed",
                                "the gzip data inflates more than %" PRIu64 ":1 (%" PRIu64
                                " bytes from %" PRIu64 " compressed bytes; pb_read_options.max_inflation)",
                                s->max_inflation, out_total, in_used);
        }
        if (zr == Z_STREAM_END) {
            /* Another member may follow (gzip -c a b > c); trailing zeros are padding. */
            for (;;) {
                while (s->z.avail_in && *s->z.next_in == 0) s->z.next_in++, s->z.avail_in--;
                if (s->z.avail_in) break;
                size_t k;
                int rc = raw_read(s, s->raw, RAW_CHUNK, &k, err);
                if (rc) return rc;
                if (k == 0) break;
                s->z.next_in = s->raw;
                s->z.avail_in = (uInt)k;
            }
            if (s->z.avail_in == 0) s->gz_done = 1;
            else if (inflateReset(&s->z) != Z_OK) s->gz_done = 1;
        } else if (zr == Z_MEM_ERROR) { /* zlib allocates its window at the first inflate */
            pb_error_set_source(err, s->name);
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory inflating the gzip data");
        } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
            pb_error_set_source(err, s->name);
            return pb_error_set(err, PB_EFORMAT, gz_offset(s), "compressed", "broken gzip data: %s",
                                s->z.msg ? s->z.msg : "inflate failed");
        }
    }
    return 0;
}

/* Reads decompressed content, bypassing the look-ahead. */
static int content_read(pb_source *s, uint8_t *buf, size_t n, size_t *got, pb_error *err) {
    if (s->eof) {
        *got = 0;
        return 0;
    }
    if (s->max_size != PB_NO_LIMIT && n > s->max_size - s->content_total + 1)
        n = (size_t)(s->max_size - s->content_total + 1); /* one byte past the limit tells */
    int rc = s->gzip ? gz_read(s, buf, n, got, err) : raw_read(s, buf, n, got, err);
    if (rc) return rc;
    if (*got == 0) s->eof = 1;
    s->content_total += *got;
    if (s->content_total > s->max_size) return size_limit_error(s, err);
    return 0;
}

/* Looks at the first raw bytes to decide gzip or not, and starts inflate. */
static int start(pb_source *s, pb_error *err) {
    uint8_t magic[2];
    size_t k = 0, got;
    while (k < 2) {
        int rc = raw_read(s, magic + k, 2 - k, &got, err);
        if (rc) return rc;
        if (got == 0) break;
        k += got;
    }
    if (k == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        s->gzip = 1;
        s->raw = malloc(RAW_CHUNK);
        if (!s->raw) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        memcpy(s->raw, magic, 2);
        s->z.next_in = s->raw;
        s->z.avail_in = 2;
        if (inflateInit2(&s->z, 15 + 16) != Z_OK)
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "cannot start zlib");
        s->z_live = 1;
        return 0;
    }
    /* Not gzip: the bytes we took become the start of the look-ahead. */
    for (size_t i = 0; i < k && i < sizeof magic; i++) s->head[i] = magic[i];
    s->head_len = k;
    s->content_total = k;
    if (k < 2) s->eof = 1;
    return 0;
}

static int make(pb_source **out, const char *name, pb_error *err) {
    pb_source *s = calloc(1, sizeof *s);
    if (!s || !(s->name = strdup(name))) {
        free(s);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    s->fd = -1;
    s->max_size = PB_DEFAULT_MAX_INPUT_SIZE;
    s->max_inflation = PB_DEFAULT_MAX_INFLATION;
    *out = s;
    return 0;
}

void pb_source_set_progress(pb_source *s, pb_progress_fn fn, void *ctx) {
    s->progress = fn;
    s->progress_ctx = ctx;
    s->progress_last = s->raw_total;
    s->progress_ended = 0;
    s->progress_total = 0;
    struct stat st;
    if (s->fd < 0) {
        s->progress_total = s->mem_len;
    } else if (fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        uint64_t size = (uint64_t)st.st_size, from = s->start_off > 0 ? (uint64_t)s->start_off : 0;
        s->progress_total = size > from ? size - from : 0;
    }
    /* a memory source without gzip hands its bytes out in one piece (read_all) */
    if (fn && s->eof && s->raw_total >= s->progress_total) report_progress(s, 1);
}

void pb_source_set_limits(pb_source *s, uint64_t max_size, uint64_t max_inflation) {
    if (max_size) s->max_size = max_size;
    if (max_inflation) s->max_inflation = max_inflation;
}

int pb_source_open_file(pb_source **out, const char *path, pb_error *err) {
    pbu_api_enter(err);
    if (!out) return pbu_null_arg(err, __func__, "out");
    *out = NULL;
    if (!path) return pbu_null_arg(err, __func__, "path");
    *out = NULL;
    int is_stdin = strcmp(path, "-") == 0;
    pb_source *s = NULL;
    int rc = make(&s, is_stdin ? "<stdin>" : path, err);
    if (rc) return rc;
    if (is_stdin) {
        s->fd = 0;
        s->start_off = lseek(0, 0, SEEK_CUR);
    } else {
        s->fd = open(path, O_RDONLY);
        if (s->fd < 0) {
            rc = os_error(s, err, NULL);
            pb_source_free(s);
            return rc;
        }
        s->close_fd = 1;
        s->start_off = lseek(s->fd, 0, SEEK_CUR);
        struct stat st;
        if (fstat(s->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
            pb_error_set_source(err, path);
            rc = pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "is a directory, not a file");
            pb_source_free(s);
            return rc;
        }
    }
    if ((rc = start(s, err)) != 0) {
        pb_source_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

int pb_source_open_memory(pb_source **out, const void *data, size_t len, const char *name,
                          pb_error *err) {
    pbu_api_enter(err);
    if (!out) return pbu_null_arg(err, __func__, "out");
    *out = NULL;
    if (!data && len) return pbu_null_arg(err, __func__, "data");
    *out = NULL;
    pb_source *s = NULL;
    int rc = make(&s, name ? name : "<memory>", err);
    if (rc) return rc;
    s->mem = data;
    s->mem_len = data ? len : 0;
    if ((rc = start(s, err)) != 0) {
        pb_source_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

static void give_back(pb_source *s) {
    if (s->lent_held) s->lent->busy = 0;
    s->lent_held = 0;
}

void pbi_source_lend_block(pb_source *s, pbi_read_block *b) {
    if (s && !s->lent_held) s->lent = b;
}

void pbi_read_block_free(pbi_read_block *b) {
    free(b->data);
    b->data = NULL;
    b->cap = 0;
    b->busy = 0;
}

void pb_source_free(pb_source *s) {
    if (!s) return;
    if (s->z_live) inflateEnd(&s->z);
    if (s->close_fd && s->fd >= 0) close(s->fd);
    if (s->map) munmap(s->map, s->map_len);
    free(s->raw);
    free(s->all);
    give_back(s);
    free(s->name);
    free(s);
}

const char *pb_source_name(const pb_source *s) { return s ? s->name : "<none>"; }

int pb_source_is_gzip(const pb_source *s) { return s && s->gzip; }

int pb_source_peek(pb_source *s, const uint8_t **head, size_t *len, pb_error *err) {
    pbu_api_enter(err);
    if (!s->head_filled) {
        /* Shift what is left to the front, then top it up to PB_PEEK_MAX. */
        memmove(s->head, s->head + s->head_pos, s->head_len - s->head_pos);
        s->head_len -= s->head_pos;
        s->head_pos = 0;
        while (s->head_len < PB_PEEK_MAX && !s->eof) {
            size_t got;
            int rc = content_read(s, s->head + s->head_len, PB_PEEK_MAX - s->head_len, &got, err);
            if (rc) return rc;
            s->head_len += got;
        }
        s->head_filled = 1;
    }
    *head = s->head + s->head_pos;
    *len = s->head_len - s->head_pos;
    return 0;
}

int pb_source_read(pb_source *s, void *buf, size_t n, size_t *got, pb_error *err) {
    pbu_api_enter(err);
    *got = 0;
    if (s->head_pos < s->head_len) {
        size_t k = s->head_len - s->head_pos;
        if (k > n) k = n;
        memcpy(buf, s->head + s->head_pos, k);
        s->head_pos += k;
        *got = k;
        return 0;
    }
    s->head_pos = s->head_len = 0;
    s->head_filled = 0;
    /* Memory sources without gzip hand out bytes straight from the caller. */
    return content_read(s, buf, n, got, err);
}

int pb_source_read_all(pb_source *s, const uint8_t **data, size_t *len, pb_error *err) {
    pbu_api_enter(err);
    if (s->fd < 0 && !s->gzip && s->head_pos == s->head_len) {
        *data = s->mem + s->mem_pos;
        *len = s->mem_len - s->mem_pos;
        s->mem_pos = s->mem_len;
        s->raw_total = s->mem_len;
        s->eof = 1;
        report_progress(s, 1);
        return 0;
    }
    if (s->fd < 0 && !s->gzip) {
        /* The look-ahead holds a prefix of the caller's bytes: point back into them. */
        size_t unread_head = s->head_len - s->head_pos;
        *data = s->mem + s->mem_pos - unread_head;
        *len = s->mem_len - s->mem_pos + unread_head;
        s->head_pos = s->head_len;
        s->mem_pos = s->mem_len;
        s->raw_total = s->mem_len;
        s->eof = 1;
        report_progress(s, 1);
        return 0;
    }
    pb_buf b = PB_BUF_INIT;
    struct stat st;
    if (!s->gzip && s->fd >= 0 && fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        /* A file bigger than the limit is refused before its bytes are read. */
        if ((uint64_t)st.st_size > s->max_size) return size_limit_error(s, err);
        if ((uint64_t)st.st_size < SIZE_MAX) pbu_buf_reserve(&b, (size_t)st.st_size + 1);
    }
    pbu_buf_append(&b, s->head + s->head_pos, s->head_len - s->head_pos);
    s->head_pos = s->head_len;
    for (;;) {
        if (pbu_buf_reserve(&b, RAW_CHUNK)) break;
        size_t got;
        int rc = content_read(s, (uint8_t *)b.data + b.len, RAW_CHUNK, &got, err);
        if (rc) {
            pbu_buf_free(&b);
            return rc;
        }
        if (got == 0) break;
        b.len += got;
    }
    if (pbu_buf_failed(&b)) {
        pbu_buf_free(&b);
        pb_error_set_source(err, s->name);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory reading the input");
    }
    free(s->all);
    s->all = (uint8_t *)b.data;
    *data = s->all ? s->all : (const uint8_t *)"";
    *len = b.len;
    return 0;
}

/* The block read_small reads into: the lent one (grown), else a new one. */
static uint8_t *small_block(pb_source *s, size_t size) {
    pbi_read_block *l = s->lent;
    if (!l || l->busy) return malloc(size);
    if (pbu_grow((void **)&l->data, &l->cap, size, 1)) return NULL;
    l->busy = 1;
    s->lent_held = 1;
    return l->data;
}

/* pb_source_map of a small regular file (MAP_MIN): its `size` bytes, the
 * look-ahead's first, read into one block (fewer if it shrank meanwhile).
 * Progress is reported once, at the end, as for a mapping. */
static int read_small(pb_source *s, size_t size, const uint8_t **data, size_t *len, pb_error *err) {
    uint8_t *b = small_block(s, size);
    if (!b) {
        pb_error_set_source(err, s->name);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory reading the input");
    }
    memcpy(b, s->head, s->head_len);
    size_t have = s->head_len;
    while (have < size) {
        ssize_t r = read(s->fd, b + have, size - have);
        if (r > 0) have += (size_t)r;
        else if (r == 0) break;
        else if (errno != EINTR) {
            if (s->lent_held) give_back(s);
            else free(b);
            return os_error(s, err, "cannot read");
        }
    }
    s->head_pos = s->head_len;
    s->eof = 1;
    s->raw_total = s->content_total = have;
    report_progress(s, 1);
    free(s->all);
    s->all = s->lent_held ? NULL : b;
    *data = b;
    *len = have;
    return 0;
}

int pb_source_map(pb_source *s, const uint8_t **data, size_t *len, pb_error *err) {
    pbu_api_enter(err);
    struct stat st;
    /* Only when the look-ahead holds the file's first bytes, unconsumed, and
     * the descriptor started at offset 0 (a redirected stdin may not). */
    if (s->fd >= 0 && !s->gzip && !s->map && s->head_pos == 0 && s->content_total == s->head_len &&
        fstat(s->fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size >= s->head_len && (uint64_t)st.st_size <= SIZE_MAX &&
        s->start_off == 0 && (uint64_t)lseek(s->fd, 0, SEEK_CUR) == s->raw_total) {
        if ((uint64_t)st.st_size > s->max_size) return size_limit_error(s, err);
        /* Only on the process's main thread: glibc trims a thread's own
         * arena (heap_trim) as its blocks are freed, so there each input's
         * pages fault afresh and the copy costs more than the mapping
         * (merge -j 2 of 200 .profdata read on the feed's worker: sys 0.72 s
         * against 0.14 s mapped). */
        if ((uint64_t)st.st_size < MAP_MIN && ((s->lent && !s->lent->busy) || gettid() == getpid()))
            return read_small(s, (size_t)st.st_size, data, len, err);
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, s->fd, 0);
        if (m != MAP_FAILED) {
            s->map = m;
            s->map_len = (size_t)st.st_size;
            s->head_pos = s->head_len;
            s->eof = 1;
            s->raw_total = s->map_len; /* every byte is there at once */
            report_progress(s, 1);
            *data = m;
            *len = s->map_len;
            return 0;
        }
    }
    return pb_source_read_all(s, data, len, err);
}

void pb_source_map_done_before(pb_source *s, size_t upto) {
    if (!s || !s->map) return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) return;
    if (upto > s->map_len) upto = s->map_len;
    upto -= upto % (size_t)page;
    if (upto <= s->map_dropped) return;
    /* read-only private file pages: dropped, they are read from the file
     * again if touched (never zero-filled); a failure only keeps them */
    (void)madvise((uint8_t *)s->map + s->map_dropped, upto - s->map_dropped, MADV_DONTNEED);
    s->map_dropped = upto;
}

void pb_source_map_done_range(pb_source *s, size_t from, size_t to) {
    if (!s || !s->map) return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) return;
    size_t p = (size_t)page;
    if (to > s->map_len) to = s->map_len;
    if (from > SIZE_MAX - p) return;
    from = (from + p - 1) / p * p; /* whole pages only: the bytes around stay */
    to -= to % p;
    if (from >= to) return;
    (void)madvise((uint8_t *)s->map + from, to - from, MADV_DONTNEED);
}

int pb_source_rewind(pb_source *s, pb_error *err) {
    pbu_api_enter(err);
    if (s->fd >= 0) {
        /* The same descriptor, back to where it started: the bytes a regular
         * file gave the first time (a name is never opened again). */
        struct stat st;
        if (s->start_off < 0 || fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
            lseek(s->fd, s->start_off, SEEK_SET) != s->start_off) {
            pb_error_set_source(err, s->name);
            return pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL,
                                "the input cannot be read again (it is not a regular file)");
        }
    }
    s->mem_pos = 0;
    if (s->z_live) inflateEnd(&s->z);
    memset(&s->z, 0, sizeof s->z);
    s->z_live = s->gzip = s->gz_done = s->eof = s->head_filled = 0;
    free(s->raw);
    s->raw = NULL;
    s->raw_len = 0;
    s->head_pos = s->head_len = 0;
    free(s->all);
    s->all = NULL;
    give_back(s);
    if (s->map) munmap(s->map, s->map_len);
    s->map = NULL;
    s->map_len = 0;
    s->map_dropped = 0;
    s->content_total = s->raw_total = 0;
    s->progress_last = 0; /* a watched source reports its second reading afresh */
    s->progress_ended = 0;
    return start(s, err);
}
