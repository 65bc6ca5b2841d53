/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cov_filter.c -- llvm-cov's filters that decide which files export and
 * report see (CodeCoverage.cpp): -ignore-filename-regex (and, 23+,
 * -include-filename-regex), and the SOURCES operands: made absolute with
 * their dots removed, directories walked, the ones that do not exist
 * dropped with llvm-cov's warning (kept when -path-equivalence is given),
 * mapped back through -path-equivalence, and those the coverage does not
 * name dropped (removeUnmappedInputs).
 *
 * The name filters (-name, -name-regex, -name-allowlist) only select what
 * `llvm-cov show` prints; export and report ignore them, so here they are
 * only checked (a regular expression that does not compile is an error).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coverage/cov_state.h"
#include "coverage/cov_filter.h"
#include "util/grow.h"

/* A pattern that compiles and never matches ("x^": an x, then the start
 * of the string). */
#define PBI_NEVER_MATCHES "x^"

int pbi_cov_compile_regexes(const char *const *src, size_t n, const char *option, regex_t **out, size_t *nout,
                            pb_error *err) {
    *out = NULL;
    *nout = 0;
    if (!n) return 0;
    regex_t *v = calloc(n, sizeof *v);
    if (!v) return pbu_nomem(err, option);
    for (size_t i = 0; i < n; i++) {
        /* llvm::Regex that does not compile matches nothing, silently
         * (llvm-cov-24 -ignore-filename-regex='a(' ignores no file,
         * -include-filename-regex='a(' keeps none) */
        if (src[i] && regcomp(&v[i], src[i], REG_EXTENDED | REG_NOSUB) == 0) continue;
        if (regcomp(&v[i], PBI_NEVER_MATCHES, REG_EXTENDED | REG_NOSUB) != 0) {
            for (size_t k = 0; k < i; k++) regfree(&v[k]);
            free(v);
            return pbu_nomem(err, option);
        }
    }
    *out = v;
    *nout = n;
    return 0;
}

void pbi_cov_free_regexes(regex_t *v, size_t n) {
    for (size_t i = 0; i < n; i++) regfree(&v[i]);
    free(v);
}

static int matches_any(const regex_t *v, size_t n, const char *s) {
    for (size_t i = 0; i < n; i++)
        if (regexec(&v[i], s, 0, NULL, 0) == 0) return 1;
    return 0;
}

/* An ignore regex that matches drops the file; with include regexes (23+)
 * the file stays only when every one of them matches (llvm-cov-24:
 * "a/" and "x" keep the files matching both). */
int pbi_cov_filename_ignored(const pb_coverage *c, const char *filename) {
    if (matches_any(c->ignore, c->nignore, filename)) return 1;
    for (size_t i = 0; i < c->ninclude; i++)
        if (regexec(&c->include[i], filename, 0, NULL, 0) != 0) return 1;
    return 0;
}

/* The first problem of one -name-allowlist file in SpecialCaseList's words
 * ("" when none), into why[0..n). Only the line shapes are checked: the
 * names in it select nothing for export and report. */
static void allowlist_problem(const char *path, char *why, size_t n) {
    why[0] = '\0';
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(why, n, "can't open file '%s': %s", path, strerror(errno));
        return;
    }
    pb_buf text = PB_BUF_INIT;
    char chunk[4096];
    ssize_t got;
    while ((got = read(fd, chunk, sizeof chunk)) > 0) pbu_buf_append(&text, chunk, (size_t)got);
    close(fd);
    if (got < 0 || text.failed) {
        snprintf(why, n, "can't open file '%s': %s", path, got < 0 ? strerror(errno) : "out of memory");
        pbu_buf_free(&text);
        return;
    }
    size_t line_no = 0;
    for (size_t i = 0; i < text.len;) {
        size_t end = i;
        while (end < text.len && text.data[end] != '\n') end++;
        line_no++;
        size_t a = i, z = end;
        while (a < z && strchr(" \t\r\v\f", text.data[a])) a++;
        while (z > a && strchr(" \t\r\v\f", text.data[z - 1])) z--;
        const char *l = text.data + a;
        int len = (int)(z - a);
        i = end + 1;
        if (!len || l[0] == '#') continue;
        if (l[0] == '[') {
            if (l[len - 1] != ']') {
                snprintf(why, n, "error parsing file '%s': malformed section header on line %zu: %.*s", path, line_no,
                         len, l);
                break;
            }
            continue;
        }
        if (!memchr(l, ':', (size_t)len) || l[len - 1] == ':') {
            snprintf(why, n, "error parsing file '%s': malformed line %zu: '%.*s'", path, line_no, len, l);
            break;
        }
    }
    pbu_buf_free(&text);
}

void pbi_cov_check_allowlists(const pb_cov_options *o) {
    for (size_t i = 0; i < o->nname_allowlists; i++) {
        char why[512];
        if (!o->name_allowlists[i]) continue;
        allowlist_problem(o->name_allowlists[i], why, sizeof why);
        if (why[0]) {
            pb_diag(o->diag, o->diag_ctx, PB_DIAG_ERROR, 0, NULL, PB_NO_OFFSET, "name_allowlist", "%s", why);
            return;
        }
    }
}

/* sys::path::remove_dots(remove_dot_dot = true), in place: "." goes, ".."
 * takes the component before it (never a ".." kept at the start of a
 * relative path; at the root of an absolute one it goes), repeated
 * separators become one, a trailing one goes. */
void pbi_cov_remove_dots(char *p) {
    size_t parts[512], np = 0, w = 0, i = 0;
    unsigned char dotdot[512];
    int abs = p[0] == '/';
    char *out = p;
    if (abs) w = 1, i = 1;
    while (p[i]) {
        while (p[i] == '/') i++;
        if (!p[i]) break;
        size_t s = i;
        while (p[i] && p[i] != '/') i++;
        size_t len = i - s;
        if (len == 1 && p[s] == '.') continue;
        int is_dotdot = len == 2 && p[s] == '.' && p[s + 1] == '.';
        if (is_dotdot) {
            if (np && !dotdot[np - 1]) {
                w = parts[--np];
                continue;
            }
            if (abs) continue;
        }
        if (np < 512) {
            dotdot[np] = (unsigned char)is_dotdot;
            parts[np++] = w;
        }
        if (w > (size_t)abs) out[w++] = '/';
        memmove(out + w, p + s, len);
        w += len;
    }
    out[w] = '\0';
}

static char *absolute(const char *path) {
    size_t n = strlen(path);
    char *r;
    if (path[0] == '/') {
        r = malloc(n + 1);
        if (r) memcpy(r, path, n + 1);
    } else {
        char cwd[4096];
        if (!getcwd(cwd, sizeof cwd)) return NULL;
        size_t m = strlen(cwd);
        r = malloc(m + n + 2);
        if (r) {
            memcpy(r, cwd, m);
            r[m] = '/';
            memcpy(r + m + 1, path, n + 1);
        }
    }
    if (r) pbi_cov_remove_dots(r);
    return r;
}

typedef struct source_list {
    char **v;
    size_t n, cap;
} source_list;

/* addCollectedPath */
static int add_path(const pb_coverage *c, source_list *l, const char *path, pb_error *err) {
    char *abs = absolute(path);
    if (!abs) return pbu_nomem(err, "source path");
    if (pbi_cov_filename_ignored(c, abs)) {
        free(abs);
        return 0;
    }
    if (pbu_grow_err((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v, err)) {
        free(abs);
        return PB_ENOMEM;
    }
    l->v[l->n++] = abs;
    return 0;
}

static int walk_dir(const pb_coverage *c, source_list *l, const char *dir, unsigned depth, pb_error *err) {
    if (depth > 64) return 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *p = malloc(n);
        if (!p) {
            rc = pbu_nomem(err, "source path");
            break;
        }
        snprintf(p, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0) { /* symbolic links followed, as LLVM's directory walk does */
            if (S_ISREG(st.st_mode)) rc = add_path(c, l, p, err);
            else if (S_ISDIR(st.st_mode)) rc = walk_dir(c, l, p, depth + 1, err);
        }
        free(p);
    }
    closedir(d);
    return rc;
}

/* collectPaths */
static int collect(const pb_coverage *c, source_list *l, const char *path, const pb_cov_options *o, pb_error *err) {
    struct stat st;
    if (stat(path, &st) != 0) {
        if (o->path_equivalence || o->npath_equivalences) return add_path(c, l, path, err);
        pb_diag(o->diag, o->diag_ctx, PB_DIAG_WARNING, 0, path, PB_NO_OFFSET, "sources",
                "Source file doesn't exist, proceeded by ignoring it.");
        return 0;
    }
    if (S_ISREG(st.st_mode)) return add_path(c, l, path, err);
    if (S_ISDIR(st.st_mode)) return walk_dir(c, l, path, 0, err);
    return 0;
}

/* "from,to" of -path-equivalence with the trailing separator llvm-cov adds. */
static char *with_slash(const char *s, size_t n) {
    char *r = malloc(n + 2);
    if (!r) return NULL;
    memcpy(r, s, n);
    r[n] = '\0';
    pbi_cov_remove_dots(r);
    size_t m = strlen(r);
    if (m && r[m - 1] != '/') r[m++] = '/', r[m] = '\0';
    return r;
}

/* One -path-equivalence, split and normalised; 0, or PB_EINVAL / PB_ENOMEM. */
static int split_equivalence(const char *equiv, char **from, char **to, pb_error *err) {
    *from = *to = NULL;
    const char *comma = equiv ? strchr(equiv, ',') : NULL;
    if (!comma || comma == equiv || !comma[1])
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "path_equivalence",
                            "invalid argument '%s', must be in format 'from,to'", equiv ? equiv : "");
    *from = with_slash(equiv, (size_t)(comma - equiv));
    *to = with_slash(comma + 1, strlen(comma + 1));
    if (*from && *to) return 0;
    free(*from);
    free(*to);
    *from = *to = NULL;
    return pbu_nomem(err, "path equivalence");
}

/* The local name of covered file f: the first equivalence whose "from"
 * starts f (dots removed) gives to + the rest; NULL when none does (or out
 * of memory, *oom set). */
static char *local_name(const char *f, char *const *from, char *const *to, size_t n, int *oom) {
    size_t flen = strlen(f);
    char *norm = malloc(flen + 1);
    if (!norm) {
        *oom = 1;
        return NULL;
    }
    memcpy(norm, f, flen + 1);
    pbi_cov_remove_dots(norm);
    char *local = NULL;
    for (size_t k = 0; k < n && !local; k++) {
        size_t lf = strlen(from[k]);
        if (strncmp(norm, from[k], lf) != 0) continue;
        size_t len = strlen(to[k]) + strlen(norm + lf) + 1;
        local = malloc(len);
        if (!local) *oom = 1;
        else snprintf(local, len, "%s%s", to[k], norm + lf);
        break;
    }
    free(norm);
    return local;
}

/* remapPathNames: a source that is some covered file's local name becomes
 * that file's name in the coverage (each source once). */
static int remap(const pb_coverage *c, source_list *l, const char *const *equivs, size_t n, pb_error *err) {
    char **from = calloc(n, sizeof *from), **to = calloc(n, sizeof *to);
    unsigned char *done = calloc(l->n ? l->n : 1, 1);
    int rc = (from && to && done) ? 0 : pbu_nomem(err, "path equivalence");
    size_t ready = 0;
    for (; rc == 0 && ready < n; ready++) rc = split_equivalence(equivs[ready], &from[ready], &to[ready], err);
    size_t nfiles = rc ? 0 : c->view->file_count(c->ev);
    for (size_t i = 0; rc == 0 && i < nfiles; i++) {
        const char *f = c->view->file_at(c->ev, i);
        int oom = 0;
        char *local = local_name(f, from, to, n, &oom);
        if (oom) rc = pbu_nomem(err, "path equivalence");
        for (size_t s = 0; local && rc == 0 && s < l->n; s++) {
            if (done[s] || strcmp(l->v[s], local) != 0) continue;
            size_t flen = strlen(f);
            char *copy = malloc(flen + 1);
            if (!copy) {
                rc = pbu_nomem(err, "path equivalence");
                break;
            }
            memcpy(copy, f, flen + 1);
            free(l->v[s]);
            l->v[s] = copy;
            done[s] = 1;
        }
        free(local);
    }
    for (size_t k = 0; from && to && k < ready; k++) {
        free(from[k]);
        free(to[k]);
    }
    free(from);
    free(to);
    free(done);
    return rc;
}

static int covered(const pb_coverage *c, const char *f) {
    size_t lo = 0, hi = c->view->file_count(c->ev);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = strcmp(c->view->file_at(c->ev, mid), f);
        if (r == 0) return 1;
        if (r < 0) lo = mid + 1;
        else hi = mid;
    }
    return 0;
}

int pbi_cov_collect_sources(pb_coverage *c, const pb_cov_options *o, pb_error *err) {
    source_list l = {NULL, 0, 0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < o->nsources; i++)
        if (o->sources[i]) rc = collect(c, &l, o->sources[i], o, err);
    size_t nequiv = (o->path_equivalence ? 1 : 0) + o->npath_equivalences;
    if (rc == 0 && nequiv) {
        const char **all = calloc(nequiv, sizeof *all);
        if (!all) rc = pbu_nomem(err, "path equivalence");
        else {
            size_t k = 0;
            if (o->path_equivalence) all[k++] = o->path_equivalence;
            for (size_t i = 0; i < o->npath_equivalences; i++) all[k++] = o->path_equivalences[i];
            rc = remap(c, &l, all, nequiv, err);
            free(all);
        }
    }
    size_t keep = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (rc == 0 && covered(c, l.v[i])) l.v[keep++] = l.v[i];
        else free(l.v[i]);
    }
    if (rc) {
        free(l.v);
        return rc;
    }
    c->sources = l.v;
    c->nsources = keep;
    return 0;
}
