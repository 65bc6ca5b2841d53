/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * merge_inputs.c -- the inputs `merge` is given, as llvm-profdata reads its
 * command line: names (a directory stands for its regular files),
 * --weighted-input W,FILE and the --input-files list (merge_inputs.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "llvm_options.h"
#include "merge_inputs.h"
#include "opts.h"
#include "util/grow.h"

static int add_input(pbc_merge_inputs *in, const char *path, size_t len, uint64_t weight) {
    if (pbu_grow((void **)&in->v, &in->cap, in->n + 1, sizeof *in->v)) return -1;
    char *p = malloc(len + 1);
    if (!p) return -1;
    memcpy(p, path, len);
    p[len] = '\0';
    in->v[in->n].path = p;
    in->v[in->n++].weight = weight;
    return 0;
}

/* The exit status of an input that does not exist: 2, an I/O error, as in
 * every other command (README, "Exit status everywhere"); the personality
 * keeps llvm-profdata's 1 (tests/interop/merge_diag_llvm.sh). */
static int missing_status(void) { return pbc_args_llvm_style ? PBC_EXIT_INVALID : PBC_EXIT_USAGE; }

/* What llvm-profdata says of a name that does not exist ("" too), before it
 * reads anything (addWeightedInput; every release 13-24). */
static void no_such_file(const char *path) {
    if (*path) pbc_error_line("%s: No such file or directory", path);
    else pbc_error_line("No such file or directory");
}

/* The directories one input's walk has entered, by device and inode: a
 * symlink to "." or to an ancestor would otherwise walk the same files again
 * (each merged 41 times for one self-link, as llvm-profdata does) or forever
 * (two self-links; llvm-profdata hangs). A deliberate difference from
 * llvm-profdata (docs/llvm-profdata.md). */
typedef struct dir_id {
    dev_t dev;
    ino_t ino;
    int used;
} dir_id;
typedef struct dir_seen {
    dir_id *v; /* open addressing, a power of two slots, at most half full */
    size_t n, cap;
} dir_seen;

static size_t dir_hash(dev_t dev, ino_t ino, size_t cap) {
    uint64_t h = ((uint64_t)dev * 0x9E3779B97F4A7C15u) ^ ((uint64_t)ino * 0xC2B2AE3D27D4EB4Fu);
    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static void dir_put(dir_id *v, size_t cap, dev_t dev, ino_t ino) {
    size_t i = dir_hash(dev, ino, cap);
    while (v[i].used) i = (i + 1) & (cap - 1);
    v[i] = (dir_id){dev, ino, 1};
}

/* 1 when (dev, ino) was entered before, else records it: 0, or -1 out of
 * memory. Constant time, so a tree of many directories stays linear. */
static int seen_before(dir_seen *seen, const struct stat *st) {
    if (seen->cap)
        for (size_t i = dir_hash(st->st_dev, st->st_ino, seen->cap); seen->v[i].used; i = (i + 1) & (seen->cap - 1))
            if (seen->v[i].dev == st->st_dev && seen->v[i].ino == st->st_ino) return 1;
    if (2 * (seen->n + 1) > seen->cap) {
        size_t cap = seen->cap ? 2 * seen->cap : 16;
        dir_id *v = calloc(cap, sizeof *v);
        if (!v) return -1;
        for (size_t i = 0; i < seen->cap; i++)
            if (seen->v[i].used) dir_put(v, cap, seen->v[i].dev, seen->v[i].ino);
        free(seen->v);
        seen->v = v;
        seen->cap = cap;
    }
    dir_put(seen->v, seen->cap, st->st_dev, st->st_ino);
    seen->n++;
    return 0;
}

/*
 * An input as llvm-profdata's addWeightedInput takes it: a name that does
 * not exist stops the merge at once (returns -2 after the message); a
 * directory stands for every regular file under it, walked depth first in
 * readdir order (as llvm::sys::fs::recursive_directory_iterator, which does
 * not sort), each directory entered once (dir_seen). A subdirectory that
 * cannot be read is left out silently, as llvm-profdata-19 does (checked as
 * an unprivileged user: exit 0, the rest merged); the input directory itself
 * unreadable is an error (llvm-profdata-19: "error: DIR: Permission denied",
 * exit 1). A FIFO or device is read by profbridge (docs: every command
 * reads from pipes); the personality leaves it out, as llvm-profdata does.
 * Returns 0, -1 (out of memory) or -2.
 */
static int add_walk(pbc_merge_inputs *in, const char *path, uint64_t weight, int depth, dir_seen *seen) {
    struct stat st;
    if (depth == 0 && stat(path, &st) != 0) {
        no_such_file(path);
        return -2;
    }
    if (depth > 64 || stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        int reg = stat(path, &st) == 0 && S_ISREG(st.st_mode);
        if (depth || pbc_args_llvm_style) return reg ? add_input(in, path, strlen(path), weight) : 0;
        return add_input(in, path, strlen(path), weight);
    }
    int again = seen_before(seen, &st);
    if (again) return again > 0 ? 0 : -1;
    DIR *d = opendir(path);
    if (!d) {
        if (depth) return 0;
        int e = errno;
        if (pbc_args_llvm_style) pbc_error_line("%s: %s", path, strerror(e));
        else pbc_msg("%s: cannot read the directory: %s", path, strerror(e));
        return -2;
    }
    size_t plen = strlen(path);
    int sep = plen && path[plen - 1] == '/';
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        size_t n = plen + 1 + strlen(e->d_name) + 1;
        char *sub = malloc(n);
        if (!sub) {
            rc = -1;
            break;
        }
        snprintf(sub, n, "%s%s%s", path, sep ? "" : "/", e->d_name);
        rc = add_walk(in, sub, weight, depth + 1, seen);
        free(sub);
    }
    closedir(d);
    return rc;
}

static int add_path(pbc_merge_inputs *in, const char *path, size_t len, uint64_t weight) {
    if (len == 1 && path[0] == '-') return add_input(in, path, len, weight);
    char *z = malloc(len + 1);
    if (!z) return -1;
    memcpy(z, path, len);
    z[len] = '\0';
    dir_seen seen = {NULL, 0, 0};
    int rc = add_walk(in, z, weight, 0, &seen);
    free(seen.v);
    free(z);
    return rc;
}

/* "W,FILE" -> weight and file, as llvm-profdata's parseWeightedFile: W is
 * decimal digits only and >= 1 (else -3); FILE may be empty (it then does
 * not exist). Returns add_path's 0, -1 or -2, or -3. tilde: whether FILE
 * starting "~/" stands for $HOME: from LLVM 21 on (checked with
 * llvm-profdata-19, 21-24; 20 was not at hand). */
static int weighted(pbc_merge_inputs *in, const char *arg, size_t len, int tilde) {
    const char *comma = memchr(arg, ',', len);
    if (!comma || comma == arg) return -3;
    uint64_t w = 0;
    for (const char *c = arg; c < comma; c++) {
        uint64_t d = (uint64_t)(*c - '0');
        if (*c < '0' || *c > '9' || w > (UINT64_MAX - d) / 10) return -3; /* getAsInteger: 2^64-1 at most */
        w = w * 10 + d;
    }
    if (w == 0) return -3;
    const char *f = comma + 1;
    size_t flen = (size_t)(arg + len - f);
    const char *home = getenv("HOME");
    if (tilde && home && f[0] == '~' && (flen == 1 || f[1] == '/')) {
        /* LLVM 21+ (sys::fs::expand_tilde on W,FILE's FILE only; 19 does not) */
        size_t hl = strlen(home), n = hl + flen;
        char *x = malloc(n);
        if (!x) return -1;
        memcpy(x, home, hl);
        memcpy(x + hl, f + 1, flen - 1);
        int rc = add_path(in, x, n - 1, w);
        free(x);
        return rc;
    }
    return add_path(in, f, flen, w);
}

/* A weighted input whose W is not a positive integer (-3 of weighted()). */
static void bad_weight(const char *where, const char *arg, size_t len) {
    if (pbc_args_llvm_style) pbc_error_line("input weight must be a positive integer");
    else pbc_msg("%s: bad weight in '%.*s' (expected W,FILE with W a decimal integer >= 1)", where, (int)len, arg);
}

/* Reads a named file whole (the -f list, the remapping file). Returns 0, or
 * the exit status of the failure, said on stderr: missing_status() for a
 * name that does not exist, else the read's (2 for I/O and for the
 * --max-input-size limit, which are no input's fault). */
int pbc_merge_read_named_file(const char *path, pb_source **src, const uint8_t **d, size_t *len) {
    struct stat st;
    if (strcmp(path, "-") != 0 && stat(path, &st) != 0) {
        pbc_error_line("%s: %s", path, strerror(errno));
        return missing_status();
    }
    pb_error err;
    pb_error_clear(&err);
    int rc = pbc_open_input(path, src, &err);
    if (rc == 0 && pbc_limits.max_input_size == 0) pb_source_set_limits(*src, PBC_LIST_MAX_BYTES, 0);
    if (rc == 0) rc = pb_source_read_all(*src, d, len, &err);
    if (rc) {
        pbc_print_error(&err);
        return pbc_exit_for(rc);
    }
    return 0;
}

/*
 * The --input-files list as llvm-profdata's parseInputFilenamesFile reads
 * it: lines split at '\n' (empty ones dropped), each trimmed of " \t\v\f\r";
 * a line starting with '#' is a comment; with a comma it is W,FILE, else
 * FILE (checked with llvm-profdata-19 and 23: "   2,b.profraw" is weight 2).
 */
/* Returns 0; an exit status > 0 when the list cannot be read (said);
 * -1 out of memory (said), -2 a file that does not exist (said), -3 a bad
 * weight (said). */
static int input_file_list(pbc_merge_inputs *in, const char *list, int tilde) {
    pb_source *src = NULL;
    const uint8_t *d;
    size_t len;
    int frc = pbc_merge_read_named_file(list, &src, &d, &len);
    if (frc) {
        pb_source_free(src);
        return frc;
    }
    static const char ws[] = " \t\v\f\r";
    int rc = 0;
    for (size_t pos = 0; pos < len && rc == 0;) {
        const char *s = (const char *)d + pos;
        const char *nl = memchr(s, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - s) : len - pos;
        pos += n + 1;
        if (n == 0) continue;
        while (n && strchr(ws, s[0]) && s[0]) s++, n--;
        while (n && strchr(ws, s[n - 1]) && s[n - 1]) n--;
        if (n && s[0] == '#') continue;
        if (memchr(s, ',', n)) {
            rc = weighted(in, s, n, tilde);
            if (rc == -3) bad_weight(list, s, n);
        } else {
            rc = add_path(in, s, n, 1);
        }
    }
    if (rc == -1) pbc_msg("out of memory");
    pb_source_free(src);
    return rc;
}

int pbc_merge_collect_inputs(pbc_merge_inputs *in, const pbc_args *args, const char *list, int tilde) {
    pbc_merge_inputs win = {NULL, 0, 0}, lin = {NULL, 0, 0};
    /* llvm-profdata's order: positional inputs, then --weighted-input, then
     * the --input-files list (it matters for key and record order, and for
     * which missing file or bad weight is reported: the first stops it). */
    int rc = PBC_EXIT_INVALID; /* a bad weight: llvm-profdata's exit status */
    for (size_t i = 0; i < args->npos; i++) {
        int arc = add_path(in, args->pos[i], strlen(args->pos[i]), 1);
        if (arc == -1) {
            pbc_msg("out of memory");
            rc = PBC_EXIT_USAGE;
        }
        if (arc == -2) rc = missing_status();
        if (arc) goto out;
    }
    for (size_t i = 0; i < args->nopt; i++) {
        const pbc_arg *o = &args->opt[i];
        int wrc = o->id == PBC_LO_WEIGHTED_INPUT ? weighted(&win, o->value, strlen(o->value), tilde) : 0;
        if (wrc == -3) bad_weight("--weighted-input", o->value, strlen(o->value));
        if (wrc == -1) {
            pbc_msg("out of memory");
            rc = PBC_EXIT_USAGE;
        }
        if (wrc == -2) rc = missing_status();
        if (wrc) goto out;
    }
    int lrc = list ? input_file_list(&lin, list, tilde) : 0;
    if (lrc > 0) rc = lrc;              /* the list could not be read */
    if (lrc == -1) rc = PBC_EXIT_USAGE; /* out of memory */
    if (lrc == -2) rc = missing_status();
    if (lrc) goto out;
    rc = PBC_EXIT_USAGE;
    for (size_t k = 0; k < 2; k++) {
        pbc_merge_inputs *from = k ? &lin : &win;
        for (size_t i = 0; i < from->n; i++)
            if (add_input(in, from->v[i].path, strlen(from->v[i].path), from->v[i].weight)) {
                pbc_msg("out of memory");
                goto out;
            }
    }
    rc = 0;
out:
    pbc_merge_inputs_free(&win);
    pbc_merge_inputs_free(&lin);
    return rc;
}

void pbc_merge_inputs_free(pbc_merge_inputs *in) {
    for (size_t i = 0; i < in->n; i++) free(in->v[i].path);
    free(in->v);
    in->v = NULL;
    in->n = in->cap = 0;
}
