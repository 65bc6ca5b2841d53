/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * io_sink.c -- byte sinks: a file written through a temporary file, a
 * device or FIFO written in place, stdout, or memory.
 *
 * The one output path of every command (docs/architecture.md, "Outputs and
 * inputs"):
 *  - OUT is resolved first: a symbolic link is followed (its target is what
 *    gets replaced, the link stays a link), a directory is an error naming
 *    OUT. Because we resolve links ourselves, the kernel's
 *    fs.protected_symlinks rule would never apply: it is applied here at
 *    every link of a chain, whatever the running kernel's setting (a link in
 *    a sticky world-writable directory such as /tmp is followed only when it
 *    belongs to us or to the directory's owner), so a planted link cannot
 *    make a root user overwrite its target.
 *  - An existing file is replaced only when the caller could open it for
 *    writing, as the shell's `>` and llvm-profdata: renaming over it would
 *    otherwise replace another user's file, or our own read-only one.
 *  - A regular file (or a new name) is written into a temporary file beside
 *    the target, ".<name>.pbtmp.<pid>.<n>" with <name> cut so the whole fits
 *    NAME_MAX, then fsync'ed and renamed over the target in pb_sink_commit(),
 *    and the directory fsync'ed. An existing target's mode (and owner, where
 *    the process may set it) is copied onto the temporary file first; a new
 *    file gets 0666 minus the umask, as any file.
 *  - A character or block device, a FIFO or a socket is opened and written in
 *    place: replacing /dev/null by a regular file would break the system.
 *  - A temporary file is removed by pb_sink_free() when the sink was not
 *    committed, and by pb_sink_remove_temps() (async-signal-safe, installed
 *    for SIGINT/SIGTERM/SIGHUP/SIGXFSZ by pb_sink_catch_signals()) when the
 *    process is killed before: a fixed table of the names in use, because a
 *    signal handler may not allocate or lock.
 */
#define _GNU_SOURCE /* sync_file_range, where Linux has it */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "util/buf.h"
#include "profbridge/io.h"
#include "util/api.h"

#define SINK_BUF 65536

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* Bytes of the target's name kept in the temporary name: with the dot, the
 * ".pbtmp.<pid>.<n>" suffix (at most 30 bytes) and this, the name fits
 * NAME_MAX even for a target whose own name is NAME_MAX long. */
#define TMP_NAME_KEEP 128

/* ---- temporary names a signal handler can remove ---------------------------- */

/* Slots: 0 free, 1 being filled, 2 holds a temporary file's name. Sinks open
 * at the same time beyond TEMP_SLOTS still work; only their temporary file
 * is not removed on a signal. */
#define TEMP_SLOTS 16
static struct {
    atomic_int state;
    char path[PATH_MAX];
} temps[TEMP_SLOTS];

static int temp_register(const char *path) {
    size_t n = strlen(path);
    if (n >= PATH_MAX) return -1;
    for (int i = 0; i < TEMP_SLOTS; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&temps[i].state, &expected, 1)) {
            memcpy(temps[i].path, path, n + 1);
            atomic_store(&temps[i].state, 2);
            return i;
        }
    }
    return -1;
}

static void temp_release(int slot) {
    if (slot >= 0) atomic_store(&temps[slot].state, 0);
}

void pb_sink_remove_temps(void) {
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (atomic_load(&temps[i].state) == 2) unlink(temps[i].path);
}

static const int caught_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};

static void on_signal(int sig) {
    int saved = errno;
    pb_sink_remove_temps();
    /* Die of the same signal, with its default action (exit status, core). */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig); /* delivered when the handler returns (the signal is blocked in it) */
    errno = saved;
}

int pb_sink_catch_signals(void) {
    for (size_t i = 0; i < sizeof caught_signals / sizeof caught_signals[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(caught_signals[i], NULL, &old) != 0) return -1;
        /* An ignored signal stays ignored (nohup); a caller's handler stays. */
        if (old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO)) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        if (sigaction(caught_signals[i], &sa, NULL) != 0) return -1;
    }
    return 0;
}

/* ---- the sink ------------------------------------------------------------- */

struct pb_sink {
    char *path;     /* OUT as given, for messages; NULL for memory and stdout */
    char *target;   /* the file written or replaced (symbolic links followed) */
    char *tmp;      /* temporary file name; NULL when written in place */
    int slot;       /* temps[] slot of tmp, or -1 */
    int fd;         /* -1 for memory */
    int own_fd;     /* 0 for stdout */
    int gzip;
    z_stream z;
    int z_live;
    int committed;
    int failed;
    uint64_t offset;
    uint64_t fd_written, fd_started; /* bytes written to fd; of them, sent to the disk early */
    pb_buf mem;     /* memory sinks: all bytes; file sinks: the pending buffer */
};

static int sink_os_error(pb_sink *s, pb_error *err, const char *what) {
    s->failed = 1;
    pb_error_set_source(err, s->path ? s->path : "<stdout>");
    return pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "%s: %s", what, strerror(errno));
}

static int path_error(pb_error *err, const char *path, int code, const char *fmt, ...) PB_PRINTF(4, 5);
static int path_error(pb_error *err, const char *path, int code, const char *fmt, ...) {
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pb_error_set_source(err, path);
    return pb_error_set(err, code, PB_NO_OFFSET, NULL, "%s", msg);
}

/* dir part of `path` ("." when none), malloc'ed. */
static char *dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    size_t n = (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

/*
 * Whether the kernel's fs.protected_symlinks=1 rule lets a process follow the
 * link `link` (lstat'ed into *lst): always, unless the link's directory is
 * sticky and world-writable; then only when the link belongs to the
 * follower (effective uid) or to the directory's owner (fs/namei.c,
 * may_follow_link). Returns 1 to follow, 0 to refuse, -1 with errno set.
 */
static int may_follow(const char *link, const struct stat *lst) {
    char *dir = dir_of(link);
    if (!dir) return -1;
    struct stat dst;
    int rc = stat(dir, &dst);
    free(dir);
    if (rc != 0) return -1;
    if (!(dst.st_mode & S_ISVTX) || !(dst.st_mode & S_IWOTH)) return 1;
    return lst->st_uid == geteuid() || lst->st_uid == dst.st_uid;
}

/*
 * Follows symbolic links from `path` to the file they name (which may not
 * exist yet: a dangling link creates its target). *target is malloc'ed.
 * Returns 0; -1 with errno set (ELOOP, ENOMEM, or lstat/readlink's); or -2
 * when a link of the chain may not be followed (may_follow), with *target
 * the malloc'ed name of that link.
 */
static int resolve_links(const char *path, char **target) {
    char *cur = strdup(path);
    if (!cur) return -1;
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) != 0) {
            if (errno == ENOENT) break; /* a new file */
            free(cur);
            return -1;
        }
        if (!S_ISLNK(st.st_mode)) break;
        int follow = may_follow(cur, &st);
        if (follow <= 0) {
            if (follow == 0) *target = cur;
            else free(cur);
            return follow == 0 ? -2 : -1;
        }
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0) {
            free(cur);
            return -1;
        }
        link[n] = '\0';
        char *next;
        if (link[0] == '/') {
            next = strdup(link);
        } else {
            char *d = dir_of(cur);
            size_t k = d ? strlen(d) + 1 + (size_t)n + 1 : 0;
            next = d ? malloc(k) : NULL;
            if (next) snprintf(next, k, "%s/%s", d, link);
            free(d);
        }
        free(cur);
        if (!(cur = next)) {
            errno = ENOMEM;
            return -1;
        }
        if (hops == 39) {
            free(cur);
            errno = ELOOP;
            return -1;
        }
    }
    *target = cur;
    return 0;
}

/* What OUT is: its resolved target and whether that exists (and its stat).
 * Refuses a directory; errors name `path` (OUT as given). */
static int inspect(const char *path, char **target, int *exists, struct stat *st, pb_error *err) {
    *target = NULL;
    *exists = 0;
    if (!*path) return path_error(err, "<output>", PB_EIO, "the output file name is empty");
    int lr = resolve_links(path, target);
    if (lr == -2) {
        int rc = path_error(err, path, PB_EIO,
                            "refusing to follow the symbolic link '%s': it lies in a sticky world-writable "
                            "directory and belongs to neither you nor the directory's owner "
                            "(the fs.protected_symlinks rule)",
                            *target);
        free(*target);
        *target = NULL;
        return rc;
    }
    if (lr != 0)
        return path_error(err, path, PB_EIO, "cannot follow the output's symbolic links: %s", strerror(errno));
    if (stat(*target, st) == 0) {
        *exists = 1;
        if (S_ISDIR(st->st_mode))
            return path_error(err, path, PB_EIO, "the output is a directory, not a file");
        /* Replacing is allowed where opening for writing would be (the
         * effective ids, as open(2) checks them). */
        if (faccessat(AT_FDCWD, *target, W_OK, AT_EACCESS) != 0)
            return path_error(err, path, PB_EIO, "cannot replace the output: %s", strerror(errno));
        return 0;
    }
    if (errno != ENOENT)
        return path_error(err, path, PB_EIO, "cannot inspect the output: %s", strerror(errno));
    return 0;
}

/* The message for a temporary file that cannot be created in `dir`. */
static int create_error(pb_error *err, const char *path, const char *dir, int e) {
    if (e == ENOENT || e == ENOTDIR)
        return path_error(err, path, PB_EIO, "cannot create the output file: directory '%s' does not exist", dir);
    return path_error(err, path, PB_EIO, "cannot create the output file in '%s': %s", dir, strerror(e));
}

int pb_sink_check(const char *path, pb_error *err) {
    pbu_api_enter(err);
    if (!path) return pbu_null_arg(err, __func__, "path");
    if (strcmp(path, "-") == 0) return 0;
    char *target = NULL;
    int exists = 0;
    struct stat st;
    int rc = inspect(path, &target, &exists, &st, err);
    if (rc == 0 && (!exists || S_ISREG(st.st_mode))) {
        char *dir = dir_of(target);
        if (!dir) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        else if (access(dir, W_OK | X_OK) != 0) rc = create_error(err, path, dir, errno);
        free(dir);
    }
    free(target);
    return rc;
}

/* Whether `a` (stat'ed into *sa) and the input `in` ("-": standard input)
 * are one file. */
static int same_file(const struct stat *sa, const char *in) {
    struct stat si;
    int ok = strcmp(in, "-") == 0 ? fstat(0, &si) == 0 : stat(in, &si) == 0;
    return ok && si.st_dev == sa->st_dev && si.st_ino == sa->st_ino;
}

int pb_sink_check_inputs(const char *path, const char *const *inputs, size_t n, int report, pb_error *err) {
    pbu_api_enter(err);
    if (!path || strcmp(path, "-") == 0) return 0;
    if (n && !inputs) return pbu_null_arg(err, __func__, "inputs");
    struct stat so;
    if (stat(path, &so) != 0) return 0; /* a new file is no input */
    int in_place = !S_ISREG(so.st_mode);
    if (!report && !in_place) return 0;
    for (size_t i = 0; i < n; i++) {
        if (!inputs[i] || !same_file(&so, inputs[i])) continue;
        if (report)
            return path_error(err, path, PB_EINVAL,
                              "the output '%s' is the input '%s' (the same file): refusing to write a report "
                              "over one of its own inputs",
                              path, inputs[i]);
        return path_error(err, path, PB_EINVAL,
                          "the output '%s' is the input '%s' (the same file), which is written in place: "
                          "refusing to read and write it at once",
                          path, inputs[i]);
    }
    return 0;
}

/* A temporary file is fsync'ed before it is renamed (pb_sink_commit): its
 * bytes are handed to the disk every WRITEBACK_EVERY bytes as they are
 * written, so that the fsync waits for the last few only. Writing a 12 MB
 * .profdata, the fsync alone took 13-19 ms of wall time, a tenth of a
 * raw -> indexed merge (strace -T, bench/shapes.sh value-19). A hint: where
 * it is refused or unknown the fsync does it all, as before. */
#define WRITEBACK_EVERY ((uint64_t)1 << 20)

static void start_writeback(pb_sink *s) {
#ifdef SYNC_FILE_RANGE_WRITE
    if (!s->tmp || s->fd_written - s->fd_started < WRITEBACK_EVERY) return;
    (void)sync_file_range(s->fd, (off_t)s->fd_started, (off_t)(s->fd_written - s->fd_started),
                          SYNC_FILE_RANGE_WRITE);
    s->fd_started = s->fd_written;
#else
    (void)s;
#endif
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
        s->fd_written += (uint64_t)w;
    }
    start_writeback(s);
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
    pbu_buf_reset(&s->mem);
    return rc;
}

/* Creates the temporary file beside s->target (O_EXCL, a fresh name each try). */
static int create_temp(pb_sink *s, const struct stat *old, pb_error *err) {
    char *dir = dir_of(s->target);
    if (!dir) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    const char *slash = strrchr(s->target, '/');
    const char *base = slash ? slash + 1 : s->target;
    int keep = (int)strlen(base);
    if (keep > TMP_NAME_KEEP) keep = TMP_NAME_KEEP;
    size_t n = strlen(dir) + (size_t)keep + 64;
    if (!(s->tmp = malloc(n))) {
        free(dir);
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    int e = 0;
    for (unsigned i = 0; i < 100 && s->fd < 0; i++) {
        snprintf(s->tmp, n, "%s%s.%.*s.pbtmp.%ld.%u", slash ? dir : "", slash ? "/" : "", keep, base,
                 (long)getpid(), i);
        /* mode 0666: the umask decides, as for any new file */
        s->fd = open(s->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        e = errno;
        if (s->fd < 0 && e != EEXIST) break;
    }
    if (s->fd < 0) {
        int rc = create_error(err, s->path, dir, e);
        free(dir);
        free(s->tmp);
        s->tmp = NULL;
        s->failed = 1;
        return rc;
    }
    free(dir);
    s->slot = temp_register(s->tmp);
    if (old) {
        /* Replacing a file keeps its owner (where we may set it: root, or a
         * group we belong to) and its mode; chown first, it clears set-id bits. */
        if (old->st_uid != geteuid() || old->st_gid != getegid())
            if (fchown(s->fd, old->st_uid, old->st_gid) != 0) { /* not ours to give: keep ours */ }
        if (fchmod(s->fd, old->st_mode & 07777) != 0)
            return sink_os_error(s, err, "cannot give the output file its old mode");
    }
    return 0;
}

int pb_sink_open_memory(pb_sink **out, pb_error *err) {
    pbu_api_enter(err);
    if (!out) return pbu_null_arg(err, __func__, "out");
    *out = NULL;
    *out = calloc(1, sizeof **out);
    if (!*out) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    (*out)->fd = -1;
    (*out)->slot = -1;
    return 0;
}

int pb_sink_open_file(pb_sink **out, const char *path, int gzip, pb_error *err) {
    pbu_api_enter(err);
    if (!out) return pbu_null_arg(err, __func__, "out");
    *out = NULL;
    if (!path) return pbu_null_arg(err, __func__, "path");
    *out = NULL;
    pb_sink *s = calloc(1, sizeof *s);
    if (!s) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    s->fd = -1;
    s->slot = -1;
    if (strcmp(path, "-") == 0) {
        s->fd = 1;
    } else {
        int exists = 0, rc;
        struct stat st;
        if (!(s->path = strdup(path))) {
            pb_sink_free(s);
            return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
        }
        rc = inspect(path, &s->target, &exists, &st, err);
        if (rc == 0 && exists && !S_ISREG(st.st_mode)) {
            /* A device, FIFO or socket: written in place, never replaced. */
            s->fd = open(s->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
            if (s->fd < 0) {
                int e = errno;
                rc = path_error(err, path, PB_EIO, "cannot open the output for writing: %s%s", strerror(e),
                                S_ISSOCK(st.st_mode) ? " (it is a socket)" : "");
            } else {
                s->own_fd = 1;
            }
        } else if (rc == 0) {
            rc = create_temp(s, exists ? &st : NULL, err);
            s->own_fd = s->fd >= 0;
        }
        if (rc) {
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
    pbu_api_enter(err);
    if (s->failed) return pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "write after a failed write");
    if (s->fd >= 0 && s->mem.len + n > SINK_BUF) {
        int rc = flush_pending(s, err);
        if (rc) return rc;
        if (n > SINK_BUF) {
            s->offset += n;
            return push(s, data, n, 0, err);
        }
    }
    pbu_buf_append(&s->mem, data, n);
    if (pbu_buf_failed(&s->mem)) {
        s->failed = 1;
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    }
    s->offset += n;
    return 0;
}

int pb_sink_printf(pb_sink *s, pb_error *err, const char *fmt, ...) {
    pbu_api_enter(err);
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "bad format string");
    if ((size_t)n < sizeof small) return pb_sink_write(s, small, (size_t)n, err);
    pb_buf b = PB_BUF_INIT;
    va_start(ap, fmt);
    pbu_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    int rc = pbu_buf_failed(&b) ? pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory")
                                : pb_sink_write(s, b.data, b.len, err);
    pbu_buf_free(&b);
    return rc;
}

uint64_t pb_sink_offset(const pb_sink *s) { return s->offset; }

/* fsync of the directory holding `file`, so a rename survives a crash;
 * file systems that cannot (EINVAL) are not an error. */
static void sync_dir_of(const char *file) {
    char *dir = dir_of(file);
    if (!dir) return;
    int fd = open(dir, O_RDONLY | O_CLOEXEC | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

int pb_sink_commit(pb_sink *s, pb_error *err) {
    pbu_api_enter(err);
    if (s->failed) return pb_error_set(err, PB_EIO, PB_NO_OFFSET, NULL, "an earlier write failed");
    if (s->fd < 0) {
        s->committed = 1;
        return 0;
    }
    int rc = flush_pending(s, err);
    if (rc == 0 && s->gzip) rc = push(s, NULL, 0, 1, err);
    if (rc) return rc;
    if (s->tmp) {
        /* The data reaches the disk before the name does: after a crash OUT
         * is the old file or the whole new one, never an empty one. */
        if (fsync(s->fd) != 0) return sink_os_error(s, err, "cannot write the output to disk");
        int c = close(s->fd);
        s->fd = -1;
        if (c != 0) return sink_os_error(s, err, "cannot finish writing");
        if (rename(s->tmp, s->target) != 0) return sink_os_error(s, err, "cannot replace the output file");
        temp_release(s->slot);
        s->slot = -1;
        sync_dir_of(s->target);
    } else if (s->own_fd) {
        int c = close(s->fd);
        s->fd = -1;
        if (c != 0 && errno != EINTR) return sink_os_error(s, err, "cannot finish writing");
    }
    s->committed = 1;
    return 0;
}

void pb_sink_free(pb_sink *s) {
    if (!s) return;
    if (s->z_live) deflateEnd(&s->z);
    if (s->own_fd && s->fd >= 0) close(s->fd);
    if (!s->committed && s->tmp) unlink(s->tmp);
    temp_release(s->slot);
    free(s->tmp);
    free(s->target);
    free(s->path);
    pbu_buf_free(&s->mem);
    free(s);
}

const uint8_t *pb_sink_memory(const pb_sink *s, size_t *len) {
    if (s->fd >= 0 || s->path || s->own_fd) return NULL;
    if (len) *len = s->mem.len;
    return s->mem.data ? (const uint8_t *)s->mem.data : (const uint8_t *)"";
}
