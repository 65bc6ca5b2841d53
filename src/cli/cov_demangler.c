/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_demangler.c -- llvm-cov's -Xdemangler: the program is found as
 * sys::findProgramByName finds it when the command line is read; after the
 * load it gets every function name of the coverage (one per line, in
 * getCoveredFunctions order, pb_coverage_function_name) on standard input
 * from a temporary file, its standard output goes to another, its standard
 * error to /dev/null, and its lines become the names report -show-functions
 * prints (CodeCoverageTool::demangleSymbols). When the demangler fails,
 * llvm-cov prints one error line and goes on with the names as they are, so
 * the exit status does not change; so do we, with its words.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "cov_demangler.h"
#include "llvm_args.h"

extern char **environ;

/* The demangler's output is read whole; more than this many bytes per byte
 * of input (plus a floor) is no list of names, and is refused rather than
 * read into memory. */
#define PBC_DEMANGLER_GROWTH 64
#define PBC_DEMANGLER_FLOOR (16u << 20)

typedef struct dm_entry {
    const char *name; /* the library's bytes, valid while the coverage is */
    size_t len;
    size_t order;     /* position in the list: a later duplicate wins */
    char *label;      /* NUL-terminated, in labels */
} dm_entry;

struct pbc_demangler {
    dm_entry *e;
    size_t n;
    char *labels;
};

/* sys::fs::can_execute: a regular file we may read and execute. */
static int can_execute(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, R_OK | X_OK) == 0;
}

int pbc_demangler_find(const char *name, char **path) {
    *path = NULL;
    if (strchr(name, '/')) {
        /* verbatim, as sh(1) takes a name with a slash */
        *path = strdup(name);
        return *path ? 0 : ENOMEM;
    }
    const char *env = getenv("PATH");
    if (!env) return ENOENT;
    size_t nl = strlen(name);
    for (const char *p = env; *p;) {
        const char *end = strchr(p, ':');
        size_t dl = end ? (size_t)(end - p) : strlen(p);
        if (dl) {
            char *cand = malloc(dl + 1 + nl + 1);
            if (!cand) return ENOMEM;
            memcpy(cand, p, dl);
            cand[dl] = '/';
            memcpy(cand + dl + 1, name, nl + 1);
            if (can_execute(cand)) {
                *path = cand;
                return 0;
            }
            free(cand);
        }
        p += dl;
        if (*p == ':') p++;
    }
    return ENOENT;
}

/* llvm-cov's error(Message, Whence). */
static void dm_error(const char *whence, const char *message) {
    if (pbc_args_llvm_style) fprintf(stderr, "error: %s%s%s\n", whence ? whence : "", whence ? ": " : "", message);
    else fprintf(stderr, PBC_PROG " cov: error: %s%s%s\n", whence ? whence : "", whence ? ": " : "", message);
}

static int write_all(int fd, const char *s, size_t n) {
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* An unlinked temporary file, open for reading and writing; -1 with errno. */
static int temp_fd(void) {
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    char tmpl[4096];
    if (snprintf(tmpl, sizeof tmpl, "%s/profbridge-demangle-XXXXXX", dir) >= (int)sizeof tmpl) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkstemp(tmpl);
    if (fd >= 0) unlink(tmpl);
    return fd;
}

/* The names, one per line, into fd; their total size into *bytes. */
static int write_names(int fd, const pb_coverage *c, size_t *bytes) {
    size_t n = pb_coverage_function_count(c);
    *bytes = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = 0;
        const char *s = pb_coverage_function_name(c, i, &len);
        if (write_all(fd, s, len) || write_all(fd, "\n", 1)) return -1;
        *bytes += len + 1;
    }
    return lseek(fd, 0, SEEK_SET) < 0 ? -1 : 0;
}

/* ExecuteAndWait's result: 0 when the program exited with 0; else the
 * message llvm-cov prints after the program's path. */
static int run_program(const char *const *argv, int in, int out, char *msg, size_t cap) {
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa)) {
        snprintf(msg, cap, "posix_spawn failed: %s", strerror(ENOMEM));
        return -1;
    }
    int rc = posix_spawn_file_actions_adddup2(&fa, in, 0);
    if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, out, 1);
    if (!rc) rc = posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    if (!rc) rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) {
        snprintf(msg, cap, "posix_spawn failed: %s", strerror(rc));
        return -1;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(msg, cap, "%s", strerror(errno));
            return -1;
        }
    if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        /* the shell's "not found" and "cannot execute" */
        if (code == 127) snprintf(msg, cap, "%s", strerror(ENOENT));
        else if (code == 126) snprintf(msg, cap, "Program could not be executed");
        else msg[0] = 0;
        return code;
    }
    if (WIFSIGNALED(status)) {
        const char *s = strsignal(WTERMSIG(status));
        int core = 0;
#ifdef WCOREDUMP
        core = WCOREDUMP(status) != 0;
#endif
        snprintf(msg, cap, "%s%s", s ? s : "Unknown signal", core ? " (core dumped)" : "");
        return -2;
    }
    msg[0] = 0;
    return -1;
}

/* The whole output file, NUL-terminated, at most limit bytes; NULL with
 * *too_big or errno. */
static char *read_output(int fd, size_t limit, size_t *len, int *too_big) {
    struct stat st;
    *too_big = 0;
    if (fstat(fd, &st) || lseek(fd, 0, SEEK_SET) < 0) return NULL;
    if ((uintmax_t)st.st_size > limit) {
        *too_big = 1;
        return NULL;
    }
    size_t n = (size_t)st.st_size, got = 0;
    char *b = malloc(n + 1);
    if (!b) return NULL;
    while (got < n) {
        ssize_t r = read(fd, b + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    b[got] = 0;
    *len = got;
    return b;
}

/* StringRef::split(Out, '\n', MaxSplit = want, KeepEmpty = false): at most
 * `want` cuts, empty pieces dropped, the rest one piece. Fills the first
 * `want` pieces' bounds; returns how many pieces there are. */
static size_t split_lines(char *s, size_t len, size_t want, char **start, size_t *plen) {
    size_t count = 0, pos = 0, cuts = 0;
    while (cuts < want) {
        char *nl = memchr(s + pos, '\n', len - pos);
        if (!nl) break;
        size_t idx = (size_t)(nl - (s + pos));
        if (idx > 0) {
            if (count < want) start[count] = s + pos, plen[count] = idx;
            count++;
        }
        pos += idx + 1;
        cuts++;
    }
    if (pos < len) {
        if (count < want) start[count] = s + pos, plen[count] = len - pos;
        count++;
    }
    return count;
}

static int cmp_entry(const void *a, const void *b) {
    const dm_entry *x = a, *y = b;
    size_t m = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->name, y->name, m);
    if (c) return c;
    if (x->len != y->len) return x->len < y->len ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The table of names and labels from the demangler's n lines. */
static int build(pbc_demangler *d, const pb_coverage *c, char **start, size_t *plen, size_t n) {
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        /* rtrim(): llvm-cov cuts trailing blanks (the "\r" of "\r\n") */
        while (plen[i] && strchr(" \t\n\v\f\r", start[i][plen[i] - 1])) plen[i]--;
        total += plen[i] + 1;
    }
    d->e = calloc(n ? n : 1, sizeof *d->e);
    d->labels = malloc(total ? total : 1);
    if (!d->e || !d->labels) return -1;
    char *w = d->labels;
    for (size_t i = 0; i < n; i++) {
        d->e[i].name = pb_coverage_function_name(c, i, &d->e[i].len);
        d->e[i].order = i;
        d->e[i].label = w;
        memcpy(w, start[i], plen[i]);
        w[plen[i]] = 0;
        w += plen[i] + 1;
    }
    d->n = n;
    qsort(d->e, n, sizeof *d->e, cmp_entry);
    return 0;
}

int pbc_demangler_run(pbc_demangler **out, const char *const *argv, const pb_coverage *c, int lowercase) {
    *out = NULL;
    size_t n = pb_coverage_function_count(c), bytes = 0, len = 0;
    char msg[512];
    int in = temp_fd();
    if (in < 0) {
        dm_error("demangle-in", strerror(errno));
        return 0;
    }
    int outfd = temp_fd();
    if (outfd < 0) {
        dm_error("demangle-out", strerror(errno));
        close(in);
        return 0;
    }
    char *data = NULL, **start = NULL;
    size_t *plen = NULL;
    pbc_demangler *d = NULL;
    int rc = 0, too_big = 0;
    if (write_names(in, c, &bytes)) {
        dm_error("demangle-in", strerror(errno));
        goto done;
    }
    if (run_program(argv, in, outfd, msg, sizeof msg)) {
        dm_error(argv[0], msg);
        goto done;
    }
    size_t limit = bytes > (SIZE_MAX - PBC_DEMANGLER_FLOOR) / PBC_DEMANGLER_GROWTH
                       ? SIZE_MAX
                       : PBC_DEMANGLER_FLOOR + bytes * PBC_DEMANGLER_GROWTH;
    data = read_output(outfd, limit, &len, &too_big);
    if (!data) {
        if (too_big) {
            snprintf(msg, sizeof msg, "its output is larger than %zu bytes; names are printed as the binary has them",
                     limit);
            dm_error(argv[0], msg);
        } else if (errno == ENOMEM) {
            rc = -1;
        } else {
            dm_error("demangle-out", strerror(errno));
        }
        goto done;
    }
    start = malloc((n ? n : 1) * sizeof *start);
    plen = malloc((n ? n : 1) * sizeof *plen);
    d = calloc(1, sizeof *d);
    if (!start || !plen || !d) {
        rc = -1;
        goto done;
    }
    if (split_lines(data, len, n, start, plen) != n) {
                dm_error(NULL, lowercase ? "demangler did not provide expected number of symbols"
                                                  : "Demangler did not provide expected number of symbols");
        goto done;
    }
    if (build(d, c, start, plen, n)) {
        rc = -1;
        goto done;
    }
    *out = d;
    d = NULL;
done:
    pbc_demangler_free(d);
    free(start);
    free(plen);
    free(data);
    close(in);
    close(outfd);
    return rc;
}

const char *pbc_demangler_name(void *ctx, const char *name, size_t len) {
    const pbc_demangler *d = ctx;
    if (!d || !d->n) return NULL;
    /* the last entry of the name (sorted by name, then by order) */
    size_t lo = 0, hi = d->n;
    dm_entry key = {name, len, (size_t)-1, NULL};
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_entry(&d->e[mid], &key) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return NULL;
    const dm_entry *e = &d->e[lo - 1];
    return e->len == len && memcmp(e->name, name, len) == 0 ? e->label : NULL;
}

void pbc_demangler_free(pbc_demangler *d) {
    if (!d) return;
    free(d->e);
    free(d->labels);
    free(d);
}
