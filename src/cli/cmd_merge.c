/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_merge.c -- `profbridge merge IN... -o OUT`: llvm-profdata merge for
 * instrumentation profiles. Inputs (any readable format) are read one at a
 * time and merged into one model with pb_profile_merge (weights, saturation
 * at the target LLVM's maximum), then written once. With the same inputs and
 * --num-threads 1, the indexed and text outputs are the bytes llvm-profdata
 * merge writes (docs/indexed.md). Inputs are read on --num-threads threads
 * (merge_feed.c) but merged in input order, so any thread count gives those
 * bytes; the first input becomes the accumulator. With one thread the later
 * inputs are merged while they are read (pb_read_options.merge_into): memory
 * is the accumulator plus one input's bytes, not plus its model.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/buf.h"
#include "cli.h"
#include "util/diag.h"
#include "diag_defer.h"
#include "llvm/target.h"
#include "llvm_options.h"
#include "llvm_input_error.h"
#include "correlation.h"
#include "merge_feed.h"
#include "merge_summary.h"
#include "opts.h"
#include "progress.h"

/* A regular file of 0 bytes ("-" and other non-files are never empty here). */
static int is_empty_file(const char *path) {
    struct stat st;
    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
}


#define USAGE "merge [options] IN... -o OUT"

enum { OPT_NO_KEEP_VT = PBC_LO_OWN, OPT_TO, OPT_LLVM, OPT_INDEXED, OPT_JSON_SUMMARY };

/* llvm-profdata merge's options (llvm_options.c), then ours; the plugins'
 * options are parsed with them (llvm_args.h: -x and --x, -x=v and -x v). */
static const pbc_arg_spec specs[] = {
    PBC_ARG_INCLUDE(pbc_llvm_merge_options),
    {.name = "no-keep-vtable-symbols", .id = OPT_NO_KEEP_VT, .kind = PBC_ARG_FLAG,
     .help = "an empty vtable-names section, llvm-profdata's default (profbridge's default keeps them)"},
    {.name = "to", .id = OPT_TO, .kind = PBC_ARG_VALUE, .arg = "FORMAT",
     .help = "write FORMAT (iprof, raw, indexed, text, json)"},
    {.name = "llvm-version", .id = OPT_LLVM, .kind = PBC_ARG_VALUE, .arg = "N",
     .help = "act as llvm-profdata-N merge, N = 13..24 (default: $PROFBRIDGE_LLVM_VERSION, else 19)"},
    {.name = "indexed-version", .id = OPT_INDEXED, .kind = PBC_ARG_VALUE, .arg = "N",
     .help = "indexed version to write (4-14) instead of N's"},
    PBC_ARG_INCLUDE(pbc_progress_specs),
    {.name = "json-summary", .id = OPT_JSON_SUMMARY, .kind = PBC_ARG_VALUE, .arg = "FILE",
     .help = "write what the merge did as JSON to FILE ('-': stdout, when the profile goes to -o FILE)"},
    PBC_ARG_END};

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " " USAGE "\n"
          "\n"
          "Merges profiles as `llvm-profdata merge` does: records with the same name and\n"
          "hash add up (x weight, saturating), value sites are merged, binary ids and\n"
          "temporal traces collected. Inputs may be of any readable format; a directory\n"
          "stands for every regular file under it, as in llvm-profdata.\n"
          "\nOptions (-x and --x alike, -x=V or -x V; docs/llvm-profdata.md):\n",
          out);
    pbc_args_print_help(out, specs, 0);
    fputs("\n--input-files LIST: one input a line, 'W,FILE' or 'FILE' (spaces around it are\n"
          "trimmed; lines starting with '#' are comments), as llvm-profdata reads it.\n"
          "--num-threads: the default (0) is llvm-profdata's, min(hardware threads,\n"
          "(inputs + 1) / 2); inputs are merged in input order, so the output is the same\n"
          "for every N (= llvm-profdata --num-threads 1).\n"
          "--llvm-version N: its indexed version (13-14 v7, 15 v8, 16 v9, 17 v10, 18 v11,\n"
          "19-21 v12, 22 v13, 23-24 v14), its text, order and saturation rules. Clang N\n"
          "reads indexed files of N and older only: 19's v12 is refused by 18 and older,\n"
          "whose clang reads --llvm-version 14's v7 (so do all 13-24).\n"
          "\nPlugin options (--NAME VALUE; accepted when the plugin is the writer):\n",
          out);
    pbc_args_print_plugin_options(out, specs);
    fputs("\nExit status: 0 merged, 1 an input is invalid or missing, 2 usage or I/O error.\n", out);
}

typedef struct input {
    char *path;
    uint64_t weight;
} input;

typedef struct inputs {
    input *v;
    size_t n, cap;
} inputs;

static int add_input(inputs *in, const char *path, size_t len, uint64_t weight) {
    if (in->n == in->cap) {
        size_t cap = in->cap ? in->cap * 2 : 8;
        input *nv = realloc(in->v, cap * sizeof *nv);
        if (!nv) return -1;
        in->v = nv;
        in->cap = cap;
    }
    char *p = malloc(len + 1);
    if (!p) return -1;
    memcpy(p, path, len);
    p[len] = '\0';
    in->v[in->n].path = p;
    in->v[in->n++].weight = weight;
    return 0;
}

/* What llvm-profdata says of a name that does not exist ("" too), before it
 * reads anything (addWeightedInput; every release 13-24). */
static void no_such_file(const char *path) {
    if (*path) pbc_error_line("%s: No such file or directory", path);
    else pbc_error_line("No such file or directory");
}

/*
 * An input as llvm-profdata's addWeightedInput takes it: a name that does
 * not exist stops the merge at once (returns -2 after the message); a
 * directory stands for every regular file under it, walked depth first in
 * readdir order (as llvm::sys::fs::recursive_directory_iterator, which does
 * not sort). A FIFO or device is read by profbridge (docs: every command
 * reads from pipes); the personality leaves it out, as llvm-profdata does.
 * Returns 0, -1 (out of memory) or -2.
 */
static int add_walk(inputs *in, const char *path, uint64_t weight, int depth) {
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
    DIR *d = opendir(path);
    if (!d) {
        pbc_msg("%s: cannot read the directory", path);
        return -1;
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
        rc = add_walk(in, sub, weight, depth + 1);
        free(sub);
    }
    closedir(d);
    return rc;
}

static int add_path(inputs *in, const char *path, size_t len, uint64_t weight) {
    if (len == 1 && path[0] == '-') return add_input(in, path, len, weight);
    char *z = malloc(len + 1);
    if (!z) return -1;
    memcpy(z, path, len);
    z[len] = '\0';
    int rc = add_walk(in, z, weight, 0);
    free(z);
    return rc;
}

/* Whether W,FILE's FILE starts "~/" for $HOME: from LLVM 21 on (checked with
 * llvm-profdata-19, 21-24; 20 was not at hand). */
static int tilde;

/* "W,FILE" -> weight and file, as llvm-profdata's parseWeightedFile: W is
 * decimal digits only and >= 1 (else -3); FILE may be empty (it then does
 * not exist). Returns add_path's 0, -1 or -2, or -3. */
static int weighted(inputs *in, const char *arg, size_t len) {
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

/*
 * The --input-files list as llvm-profdata's parseInputFilenamesFile reads
 * it: lines split at '\n' (empty ones dropped), each trimmed of " \t\v\f\r";
 * a line starting with '#' is a comment; with a comma it is W,FILE, else
 * FILE (checked with llvm-profdata-19 and 23: "   2,b.profraw" is weight 2).
 */
/* A weighted input whose W is not a positive integer (-3 of weighted()). */
static void bad_weight(const char *where, const char *arg, size_t len) {
    if (pbc_args_llvm_style) pbc_error_line("input weight must be a positive integer");
    else pbc_msg("%s: bad weight in '%.*s' (expected W,FILE with W a decimal integer >= 1)", where, (int)len, arg);
}

/* Reads a whole file named on the command line (the -f list, the remapping
 * file): a name that cannot be opened is LLVM's "error: FILE: why". */
/* Reads a named file whole (the -f list, the remapping file). Returns 0, or
 * the exit status of the failure, said on stderr: 1 for a name that does not
 * exist (llvm-profdata's exit), else the read's (2 for I/O and for the
 * --max-input-size limit, which are no input's fault). */
static int read_named_file(const char *path, pb_source **src, const uint8_t **d, size_t *len) {
    struct stat st;
    if (strcmp(path, "-") != 0 && stat(path, &st) != 0) {
        pbc_error_line("%s: %s", path, strerror(errno));
        return PBC_EXIT_INVALID;
    }
    pb_error err;
    pb_error_clear(&err);
    int rc = pbc_open_input(path, src, &err);
    if (rc == 0) rc = pb_source_read_all(*src, d, len, &err);
    if (rc) {
        pbc_print_error(&err);
        return pbc_exit_for(rc);
    }
    return 0;
}

/* Returns 0; an exit status > 0 when the list cannot be read (said);
 * -1 out of memory (said), -2 a file that does not exist (said), -3 a bad
 * weight (said). */
static int input_file_list(inputs *in, const char *list) {
    pb_source *src = NULL;
    const uint8_t *d;
    size_t len;
    int frc = read_named_file(list, &src, &d, &len);
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
            rc = weighted(in, s, n);
            if (rc == -3) bad_weight(list, s, n);
        } else {
            rc = add_path(in, s, n, 1);
        }
    }
    if (rc == -1) pbc_msg("out of memory");
    pb_source_free(src);
    return rc;
}

/* "merged i/n inputs" on stderr, by default only when stderr is a terminal
 * and the merge has run for more than a second; redrawn at most 4 times a
 * second and erased at the end, so logs and pipes never see it. --progress:
 * from the start, one line per input when stderr is not a terminal; --quiet
 * or the personality: never (progress.h). */
typedef struct progress {
    int on, forced, tty;
    size_t n;
    double start, last;
    int shown;
} progress;

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void progress_start(progress *pg, size_t n, pbc_progress_mode mode) {
    pg->tty = isatty(STDERR_FILENO);
    pg->forced = mode == PBC_PROGRESS_ON;
    pg->on = n > 1 && (pg->forced || (mode == PBC_PROGRESS_AUTO && pg->tty));
    pg->n = n;
    pg->start = pg->last = pg->on ? now_s() : 0;
    pg->shown = 0;
}

static void progress_update(progress *pg, size_t done) {
    if (!pg->on) return;
    double t = now_s();
    if (!pg->tty && pg->forced) { /* a log: every input */
        fprintf(stderr, PBC_PROG " merge: %zu/%zu inputs merged\n", done, pg->n);
        return;
    }
    if ((!pg->forced && t - pg->start < 1.0) || t - pg->last < 0.25) return;
    pg->last = t;
    pg->shown = 1;
    fprintf(stderr, "\r" PBC_PROG " merge: %zu/%zu inputs merged", done, pg->n);
    fflush(stderr);
}

static void progress_end(progress *pg) {
    if (pg->on && pg->tty && pg->shown) fputs("\r\033[K", stderr); /* erase the line */
}

/*
 * The raw version of a raw profile at `path` (the low half of its version
 * word), 0 when it is not a readable raw file (or is standard input, read
 * already). Only the first 16 bytes are looked at, through the look-ahead
 * every source has for probes.
 */
static uint32_t raw_version_of(const char *path) {
    pb_error e;
    pb_error_clear(&e);
    pb_source *src = NULL;
    const pb_format *f = NULL;
    const uint8_t *h;
    size_t n;
    uint32_t v = 0;
    if (strcmp(path, "-") != 0 && pb_source_open_file(&src, path, &e) == 0 &&
        pb_format_detect(src, &f, &e) == 0 && f && strcmp(f->name, "raw") == 0 &&
        pb_source_peek(src, &h, &n, &e) == 0 && n >= 16) {
        /* the magic's last byte is 0x81 in the file's byte order: first byte little-endian */
        int le = h[0] == 0x81;
        for (int i = 0; i < 4; i++) v |= (uint32_t)h[le ? 8 + i : 15 - i] << (8 * i);
    }
    pb_source_free(src);
    return v;
}

/*
 * When every input is a raw profile of one version older than the target's
 * (clang-14's v8 with the default 19, say), the compiler that made them
 * probably cannot read what is written: a hint names the release whose
 * indexed version every compiler writing that raw version reads.
 */
static void old_raw_hint(const inputs *in, const pbi_llvm_target *t, const char *out_path, pbc_diag_ctx *dc) {
    uint32_t rv = 0;
    for (size_t i = 0; i < in->n; i++) {
        uint32_t v = raw_version_of(in->v[i].path);
        if (!v || (rv && v != rv) || v >= t->raw_version) return;
        rv = v;
    }
    int lo = 0, hi = 0;
    for (int r = PBI_LLVM_MIN; r <= PBI_LLVM_MAX; r++) {
        pbi_llvm_target x;
        if (pbi_llvm_target_of(r, &x) == 0 && x.raw_version == rv) {
            if (!lo) lo = r;
            hi = r;
        }
    }
    pbi_llvm_target old;
    if (!lo || pbi_llvm_target_of(lo, &old) || old.indexed_version >= t->indexed_version) return;
    char who[32];
    if (lo == hi) snprintf(who, sizeof who, "clang %d", lo);
    else snprintf(who, sizeof who, "clang %d-%d", lo, hi);
    pb_diag(pbc_diag, dc, PB_DIAG_NOTICE, 0, out_path, PB_NO_OFFSET, NULL,
            "the inputs are raw v%u profiles (%s) but LLVM %d's indexed v%u was written, which clang and "
            "llvm-profdata %d and older refuse; for them: --llvm-version %d (indexed v%u)",
            rv, who, t->release, t->indexed_version, pbi_llvm_first_reading_indexed(t->indexed_version) - 1, lo,
            old.indexed_version);
}

/* Keeps only the function records the filters allow, in a new profile. */
/* A diagnostic without a source (a reader's or writer's that does not know
 * its file) gets the name of the file read or written, never "<input>". */
typedef struct named_ctx {
    pbc_diag_ctx *dc;
    const char *name;
    /* merge: a raw counter above 2^56 in this input (large_seen, its
     * diagnostic in `large`); large_fails: the release fails the input for it */
    int large_fails, large_seen;
    pb_error large;
    unsigned hinted; /* the PB_MERGE_* kinds whose hint was given */
} named_ctx;

/* What InstrProfWriter reports (profile.h PB_MERGE_*): llvm-profdata's
 * handleMergeWriterError prints "FILE: FUNC: what" with no prefix, and for
 * a mismatch a hint the first time that kind is seen. */
static int writer_problem(named_ctx *n, int severity, const pb_error *e) {
    static const char *const kinds[] = {PB_MERGE_COUNTER_OVERFLOW, PB_MERGE_COUNT_MISMATCH,
                                        PB_MERGE_VALUE_SITE_COUNT_MISMATCH, PB_MERGE_BITMAP_MISMATCH};
    unsigned k = 0;
    while (k < 4 && strcmp(e->path, kinds[k]) != 0) k++;
    if (k == 4 || severity != PB_DIAG_WARNING) return 0;
    if (n->dc) n->dc->warnings++;
    const char *src = e->source[0] ? e->source : n->name ? n->name : "";
    if (pbc_args_llvm_style) fprintf(stderr, "%s: %s\n", src, e->message);
    else fprintf(stderr, "%s: warning: %s: %s\n", pbc_args_prog, src, e->message);
    if (!(n->hinted & 1u << k) && (k == 1 || k == 2))
        fprintf(stderr, "%s%s\n", pbc_args_llvm_style ? "" : PBC_PROG ": note: ",
                "Make sure that all profile data to be merged is generated from the same binary.");
    n->hinted |= 1u << k;
    return 1;
}

static void named_diag(void *ctx, int severity, const pb_error *e) {
    named_ctx *n = ctx;
    if (writer_problem(n, severity, e)) return;
    if (severity == PB_DIAG_WARNING &&
        strncmp(e->message, PBI_LARGE_COUNTER_WORDS, sizeof PBI_LARGE_COUNTER_WORDS - 1) == 0) {
        /* LLVM 18+ fails the input (its first such counter, once); 13-17
         * say nothing, so the personality says nothing either */
        if (n->large_fails && !n->large_seen) {
            n->large_seen = 1;
            n->large = *e;
            if (!n->large.source[0] && n->name) snprintf(n->large.source, sizeof n->large.source, "%s", n->name);
        }
        if (n->large_fails || pbc_args_llvm_style) return;
    }
    if (e->source[0] || !n->name) {
        pbc_diag(n->dc, severity, e);
        return;
    }
    pb_error c = *e;
    snprintf(c.source, sizeof c.source, "%s", n->name);
    pbc_diag(n->dc, severity, &c);
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int filter_functions(pb_profile **pp, const regex_t *keep, const regex_t *drop, pb_error *err) {
    pb_profile *src = *pp, *dst = NULL;
    int rc = pb_profile_new(&dst, err);
    if (rc) return rc;
    pb_profile_set_flags(dst, pb_profile_flags(src));
    pb_profile_set_origin(dst, pb_profile_origin(src));
    for (size_t i = 0; i < pb_profile_symbol_count(src) && !rc; i++) {
        const pb_symbol *s = pb_profile_symbol(src, (uint32_t)i);
        uint32_t idx;
        if (s->placeholder) rc = pb_profile_add_placeholder_symbol(dst, s->placeholder_id, &idx, err);
        else {
            size_t n;
            const char *name = pb_profile_str(src, s->name, &n);
            rc = pb_profile_add_symbol(dst, name, n, &idx, err);
        }
        if (!rc && idx != i)
            rc = pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "symbol table could not be copied in order");
    }
    if (!rc) rc = pb_profile_add_run_data(dst, src, err); /* dst is new: the same as a copy */
    pb_buf name = PB_BUF_INIT;
    size_t nrec = pb_profile_record_count(src), nseen = 0;
    uint64_t *seen = nrec ? malloc(nrec * sizeof *seen) : NULL; /* name << 1 | dropped */
    if (nrec && !seen) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < pb_profile_record_count(src) && !rc; i++) {
        pb_record r = *pb_profile_record(src, i);
        if (r.kind != PB_REC_FUNCTION) {
            rc = pb_error_set(err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL,
                              "--function/--no-function cannot filter iprof-derived records yet");
            break;
        }
        size_t n;
        const char *s = pb_profile_str(src, r.name, &n);
        pbi_buf_reset(&name);
        pbi_buf_append(&name, s, n);
        if (name.failed) {
            rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
            break;
        }
        const char *z = name.data ? name.data : "";
        int out = (keep && regexec(keep, z, 0, NULL, 0) != 0) || (drop && regexec(drop, z, 0, NULL, 0) == 0);
        seen[nseen++] = (uint64_t)r.name << 1 | (uint64_t)out;
        if (out) continue;
        if ((rc = pb_profile_intern(dst, s, n, &r.name, err))) break;
        rc = pb_profile_add_record(dst, &r, NULL, err);
    }
    pbi_buf_free(&name);
    if (!rc) {
        /* llvm-profdata 18+ (filterFunctions) counts names, not records,
         * and says so on stderr without a prefix */
        qsort(seen, nseen, sizeof *seen, cmp_u64);
        size_t names = 0, dropped = 0;
        for (size_t i = 0; i < nseen; i++)
            if (i == 0 || seen[i] >> 1 != seen[i - 1] >> 1) names++, dropped += seen[i] & 1;
        fprintf(stderr, "%zu of %zu functions in the original profile are filtered.\n", dropped, names);
    }
    free(seen);
    if (rc) {
        pb_profile_free(dst);
        return rc;
    }
    pb_profile_free(src);
    *pp = dst;
    return 0;
}

/* llvm-profdata's words when OUT cannot be written (raw_fd_ostream's
 * errno: "Is a directory", "No such file or directory", ...; standard
 * output on a terminal takes text only). Returns 0 or -1 after the message. */
static int llvm_output_check(const char *out, int is_text) {
    struct stat st;
    if (strcmp(out, "-") == 0) {
        if (is_text || !isatty(STDOUT_FILENO)) return 0;
        pbc_error_line("cannot write a non-text format profile to the terminal");
        return -1;
    }
    int e = 0;
    if (stat(out, &st) == 0) {
        if (S_ISDIR(st.st_mode)) e = EISDIR;
        else if (access(out, W_OK) != 0) e = errno;
    } else {
        const char *slash = strrchr(out, '/');
        char *dir = slash ? strndup(out, slash == out ? 1 : (size_t)(slash - out)) : strdup(".");
        if (!dir) e = ENOMEM;
        else if (stat(dir, &st) != 0) e = ENOENT;
        else if (!S_ISDIR(st.st_mode)) e = ENOTDIR;
        else if (access(dir, W_OK | X_OK) != 0) e = errno;
        free(dir);
    }
    if (!e) return 0;
    pbc_error_line("%s: %s", out, strerror(e));
    return -1;
}

/* An input that could not be merged, reported at the end as LLVM does. */
typedef struct failed_input {
    size_t input, rank; /* rank: where llvm-profdata lists it */
    pb_error err;
} failed_input;

/*
 * The order in which llvm-profdata warns about failed inputs: with T
 * threads input i is loaded into writer context i % T, each context keeps
 * its failures in input order, and the contexts are merged pairwise
 * (mergeWriterContexts: ctx[i] takes ctx[i + mid]'s for i < mid, then
 * ctx[0] takes ctx[end - 1]'s when end is odd; mid halves until 0), so
 * ctx[0] ends with the contexts' lists in the order computed here.
 * rank[c] = position of context c. Returns -1 when out of memory.
 */
static int context_ranks(size_t t, size_t *rank) {
    size_t *next = malloc(t * sizeof *next), *tail = malloc(t * sizeof *tail);
    if (!next || !tail) {
        free(next);
        free(tail);
        return -1;
    }
    for (size_t c = 0; c < t; c++) next[c] = SIZE_MAX, tail[c] = c;
    for (size_t end = t, mid = t / 2; mid > 0; end = mid, mid /= 2) {
        for (size_t i = 0; i < mid; i++) next[tail[i]] = i + mid, tail[i] = tail[i + mid];
        if (end & 1) next[tail[0]] = end - 1, tail[0] = tail[end - 1];
    }
    size_t r = 0;
    for (size_t c = 0; c != SIZE_MAX; c = next[c]) rank[c] = r++;
    free(next);
    free(tail);
    return 0;
}

static int cmp_failure(const void *a, const void *b) {
    const failed_input *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return x->input < y->input ? -1 : x->input > y->input;
}

int pbc_cmd_merge(int argc, char **argv) {
    const char *out_path = NULL, *to = NULL, *failure = "any", *fn_re = NULL, *nofn_re = NULL;
    const char *llvm = NULL, *indexed = NULL;
    int sparse = 0, keep_vt = 1, text = 0, binary = 0, dump_list = 0, rc = PBC_EXIT_USAGE;
    int have_keep = 0, have_drop = 0;
    const char *debug_info = NULL, *binary_file = NULL, *debuginfod = NULL;
    unsigned max_warn = 5; /* --max-debug-info-correlation-warnings's default */
    unsigned threads = 0; /* 0: llvm-profdata's default */
    uint64_t reservoir = 100, trace_len = 10000; /* llvm-profdata's defaults */
    const char **paths = NULL;
    pbc_feed *feed = NULL;
    regex_t keep_re, drop_re;
    inputs in = {NULL, 0, 0}, win = {NULL, 0, 0}, lin = {NULL, 0, 0};
    pbc_args args = {0};
    pb_profile *acc = NULL;
    pb_kv *kv = NULL, *rkv = NULL;
    pbc_diag_defer dd = {NULL, NULL, NULL, 0, 0, PB_BUF_INIT, 0};
    const char *remap_path = NULL;
    pb_remap *remap = NULL;
    failed_input *fails = NULL;
    size_t nfails = 0, cap_fails = 0;
    const char *summary_path = NULL; /* --json-summary (merge_summary.h) */
    pbc_merge_summary *summary = NULL;
    const char *out_format = NULL;
    int target_release = 0;
    pb_error err;
    pb_error_clear(&err);

    if (pbc_args_parse("merge", USAGE, specs, argc, argv, 0, PBC_ARGS_PLUGIN, &args)) goto out;
    const char *list = NULL;
    for (size_t i = 0; i < args.nopt; i++) {
        const pbc_arg *o = &args.opt[i];
        switch (o->id) {
        case PBC_LO_OUTPUT: out_path = o->value; break;
        case PBC_LO_WEIGHTED_INPUT: break; /* read below, once the release is known */
        case PBC_LO_INPUT_FILES: list = o->value; break; /* a cl::opt: the last one counts */
        case PBC_LO_SPARSE: sparse = (int)o->u; break;
        case PBC_LO_FAILURE_MODE: failure = o->value; break;
        case PBC_LO_FUNCTION: fn_re = o->value; break;
        case PBC_LO_NO_FUNCTION: nofn_re = o->value; break;
        case PBC_LO_KEEP_VTABLE_SYMBOLS: keep_vt = (int)o->u; break;
        case OPT_NO_KEEP_VT: keep_vt = 0; break;
        /* 0 is llvm-profdata's default: min(hardware threads, (inputs + 1) / 2) */
        case PBC_LO_NUM_THREADS: threads = o->u > 1024 ? 1024 : (unsigned)o->u; break;
        case PBC_LO_TRACE_RESERVOIR: reservoir = o->u; break;
        case PBC_LO_TRACE_MAX_LENGTH: trace_len = o->u; break;
        case PBC_LO_DUMP_INPUT_FILE_LIST: dump_list = (int)o->u; break;
        case PBC_LO_TEXT: text = 1; break;
        case PBC_LO_BINARY: binary = 1; break;
        case PBC_LO_INSTR: break; /* the only kind profbridge merges */
        case PBC_LO_MAX_CORRELATION_WARNINGS: max_warn = o->u > UINT32_MAX ? UINT32_MAX : (unsigned)o->u; break;
        case PBC_LO_DEBUG_INFO: debug_info = o->value; break;
        case PBC_LO_BINARY_FILE: binary_file = o->value; break;
        case PBC_LO_DEBUGINFOD: if (o->u) debuginfod = o->spelled; break; /* refused below */
        case PBC_LO_REMAPPING_FILE: remap_path = o->value; break; /* a cl::opt: the last one counts */
        /* LLVM 17+ trims only sample profiles to it (SampleProfileWriter::
         * writeWithSizeLimit); an instrumentation profile is written whole
         * (llvm-profdata-17..24 write the same bytes with and without it) */
        case PBC_LO_OUTPUT_SIZE_LIMIT: break;
        case OPT_TO: to = o->value; break;
        case OPT_LLVM: llvm = o->value; break;
        case OPT_INDEXED: indexed = o->value; break;
        case OPT_JSON_SUMMARY: summary_path = o->value; break;
        case PBC_ARG_HELP_ID: help(stdout); rc = PBC_EXIT_OK; goto out;
        default: break;
        }
    }
    /* The release is resolved once, before any input is read: a bad value
     * is a usage error whatever the inputs hold; it says how W,FILE reads. */
    pbi_llvm_target target;
    if (pbc_llvm_target("merge", llvm, &target)) goto out;
    if (pbc_args_check_release("merge", &args, target.release)) goto out;
    if (debuginfod) {
        /* debuginfod fetches the binary by build id from a network service:
         * profbridge reads local files only */
        pbc_usage_error("merge", "%s needs a debuginfod network service, which profbridge does not use; "
                                 "give the binary with --binary-file or --debug-info instead",
                        debuginfod);
        goto out;
    }
    tilde = target.release >= 21;
    /* llvm-profdata's order: positional inputs, then --weighted-input, then
     * the --input-files list (it matters for key and record order, and for
     * which missing file or bad weight is reported: the first stops it). */
    rc = PBC_EXIT_INVALID; /* llvm-profdata's exit status for all of these */
    for (size_t i = 0; i < args.npos; i++) {
        int arc = add_path(&in, args.pos[i], strlen(args.pos[i]), 1);
        if (arc == -1) {
            pbc_msg("out of memory");
            rc = PBC_EXIT_USAGE;
        }
        if (arc) goto out;
    }
    for (size_t i = 0; i < args.nopt; i++) {
        const pbc_arg *o = &args.opt[i];
        int wrc = o->id == PBC_LO_WEIGHTED_INPUT ? weighted(&win, o->value, strlen(o->value)) : 0;
        if (wrc == -3) bad_weight("--weighted-input", o->value, strlen(o->value));
        if (wrc == -1) {
            pbc_msg("out of memory");
            rc = PBC_EXIT_USAGE;
        }
        if (wrc) goto out;
    }
    int lrc = list ? input_file_list(&lin, list) : 0;
    if (lrc > 0) rc = lrc;                 /* the list could not be read */
    if (lrc == -1) rc = PBC_EXIT_USAGE;    /* out of memory */
    if (lrc) goto out;
    rc = PBC_EXIT_USAGE;
    for (size_t k = 0; k < 2; k++) {
        inputs *from = k ? &lin : &win;
        for (size_t i = 0; i < from->n; i++)
            if (add_input(&in, from->v[i].path, strlen(from->v[i].path), from->v[i].weight)) {
                pbc_msg("out of memory");
                goto out;
            }
    }
    if (dump_list && in.n) {
        /* llvm-profdata merge --dump-input-file-list: "W,FILE" lines, then
         * exit (a name that does not exist failed above; what is not a
         * regular file is left out). */
        struct stat st;
        for (size_t i = 0; i < in.n; i++)
            if (strcmp(in.v[i].path, "-") == 0 || (stat(in.v[i].path, &st) == 0 && S_ISREG(st.st_mode)))
                printf("%" PRIu64 ",%s\n", in.v[i].weight, in.v[i].path);
        rc = fflush(stdout) ? PBC_EXIT_USAGE : PBC_EXIT_OK;
        goto out;
    }
    if (in.n == 0) {
        /* the personality: llvm-profdata's words (13-24 alike), exit 1 */
        if (pbc_args_llvm_style) pbc_error_line("no input files specified. See %s merge -help", pbc_args_tool);
        else pbc_usage_error("merge", "no input files");
        goto out;
    }
    if (remap_path) {
        /* llvm-profdata's SymbolRemapper, read once the inputs are known */
        pb_source *rsrc = NULL;
        const uint8_t *rd;
        size_t rlen;
        int bad = read_named_file(remap_path, &rsrc, &rd, &rlen); /* an exit status */
        if (!bad && pb_remap_parse(&remap, rd, rlen, &err)) {
            bad = PBC_EXIT_INVALID;
            if (err.code == PB_ENOMEM) {
                pbc_msg("out of memory");
                bad = PBC_EXIT_USAGE;
            } else {
                pbc_error_line("%s:%d: %s", remap_path, err.line, err.message);
                fprintf(stderr, "%s%s\n", pbc_args_llvm_style ? "note: " : PBC_PROG ": note: ",
                        "expected 'old_symbol new_symbol'");
            }
        }
        pb_source_free(rsrc);
        if (bad) {
            rc = bad;
            goto out;
        }
    }
    /* llvm-profdata's --output defaults to "-" (cl::init): without -o the
     * merged profile goes to standard output, as a Makefile's
     * "llvm-profdata merge *.profraw > m.profdata" expects */
    if (!out_path) out_path = "-";
    if (strcmp(failure, "any") && strcmp(failure, "all") && strcmp(failure, "warn")) {
        pbc_usage_error("merge", "--failure-mode wants any, all or warn, got '%s'", failure);
        goto out;
    }
    if (strcmp(failure, "warn") == 0 && !pbi_llvm_has(&target, PBI_LF_MERGE_FAILURE_MODE_WARN)) {
        /* llvm-profdata 13-17's cl::opt knows any and all only (pbc_args_prog
         * is "llvm-profdata-N merge" there, as 13-17 name the subcommand) */
        if (pbc_args_llvm_style)
            fprintf(stderr, "%s: for the --failure-mode option: Cannot find option named 'warn'!\n", pbc_args_prog);
        else
            pbc_usage_error("merge", "--failure-mode warn is LLVM 18's and later's (this is LLVM %d)",
                            target.release);
        goto out;
    }
    int explicit_llvm = llvm || (getenv("PROFBRIDGE_LLVM_VERSION") && *getenv("PROFBRIDGE_LLVM_VERSION"));
    if (indexed && !explicit_llvm) {
        /* --indexed-version N alone: the rules of the first release writing N
         * (the indexed writer's own rule, formats/indexed/indexed_write.c) */
        uint64_t v;
        if (pbc_parse_u64(indexed, &v) == 0 && v <= UINT32_MAX && v != target.indexed_version) {
            int r = pbi_llvm_first_reading_indexed((uint32_t)v);
            if (r) pbi_llvm_target_of(r, &target);
        }
        explicit_llvm = 1;
    }
    char release[8];
    snprintf(release, sizeof release, "%d", target.release);
    if (text + binary + (to != NULL) > 1) {
        pbc_usage_error("merge", "--text, --binary and --to exclude each other");
        goto out;
    }
    const pb_format *out_f = NULL;
    if (to) out_f = pbc_format_arg("merge", "--to", to);
    else if (text) out_f = pb_format_lookup("text");
    else if (binary) out_f = pb_format_lookup("indexed");
    else {
        out_f = pb_format_for_path(out_path);
        if (!out_f || strcmp(out_path, "-") == 0) out_f = pb_format_lookup("indexed");
    }
    if (!out_f) goto out;
    out_format = out_f->name;
    if (summary_path && strcmp(summary_path, out_path) == 0) {
        pbc_usage_error("merge", "--json-summary %s: the merged profile goes there (give -o FILE)", summary_path);
        goto out;
    }
    if (fn_re) {
        if (regcomp(&keep_re, fn_re, REG_EXTENDED | REG_NOSUB)) {
            pbc_usage_error("merge", "--function: bad regular expression '%s'", fn_re);
            goto out;
        }
        have_keep = 1;
    }
    if (nofn_re) {
        if (regcomp(&drop_re, nofn_re, REG_EXTENDED | REG_NOSUB)) {
            pbc_usage_error("merge", "--no-function: bad regular expression '%s'", nofn_re);
            goto out;
        }
        have_drop = 1;
    }
    if (pbc_check_plugin_options("merge", &args.plugin, NULL, out_f)) goto out;

    pbc_diag_ctx dc = {0, 0, 0};
    pb_merge_options mo = PB_MERGE_OPTIONS_INIT;
    mo.max_count = pbi_llvm_has(&target, PBI_LF_SATURATE_U64_MAX) ? PB_MAX_COUNT_LLVM14 : PB_MAX_COUNT_LLVM;
    mo.llvm_release = target.release; /* its merge rules (profile_merge.c) */
    if (strcmp(out_f->name, "iprof") == 0) {
        /* iprof has no 255-values-per-site limit and counts are Java longs:
         * a type histogram keeps every type (docs/mapping.md §6) */
        mo.max_values_per_site = 0;
        mo.max_count = PB_MAX_COUNT_IPROF;
    }
    mo.trace_reservoir = reservoir;
    mo.trace_max_length = trace_len;
    mo.remap = remap;
    int first_bad = 0;
    if (threads == 0) {
        /* llvm-profdata: min(hardware threads, (inputs + 1) / 2) */
        long hw = sysconf(_SC_NPROCESSORS_ONLN);
        size_t half = (in.n + 1) / 2;
        threads = (unsigned)(hw < 1 ? 1 : (size_t)hw < half ? (size_t)hw : half);
        if (threads > 1024) threads = 1024;
    }
    if (!(paths = malloc(in.n * sizeof *paths))) {
        pbc_msg("out of memory");
        goto out;
    }
    for (size_t i = 0; i < in.n; i++) paths[i] = in.v[i].path;
    /* the personality checks OUT where llvm-profdata opens it: after the merge */
    if (!pbc_args_llvm_style && (rc = pbc_check_output("merge", out_path, paths, in.n)) != 0) goto out;
    if (summary_path && (rc = pbc_check_output("merge", summary_path, paths, in.n)) != 0) goto out;
    rc = PBC_EXIT_USAGE;
    target_release = target.release;
    if (summary_path && !(summary = pbc_merge_summary_new(in.n))) {
        pbc_msg("out of memory");
        goto out;
    }
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    pbc_apply_limits(&ro);
    ro.diag = pbc_diag;
    ro.diag_ctx = &dc;
    /* Readers get the release too: some of their rules are a release's
     * (which binary ids of a raw file LLVM 15-17 keep, ...). */
    if (debug_info || binary_file) {
        /* llvm-profdata correlates once, before reading any input: a binary
         * it cannot use is "error: FILE: ..." and exit 1 whatever the inputs
         * (each raw input is then correlated by its reader: formats/raw/raw_correlate.c) */
        if ((rc = pbc_merge_correlation_check(&target, debug_info, binary_file, max_warn, &dc)) != 0) goto out;
        rc = PBC_EXIT_USAGE;
    }
    if (!(rkv = calloc(args.plugin.n + 2, sizeof *rkv))) {
        pbc_msg("out of memory");
        goto out;
    }
    size_t nrkv = 0;
    if (explicit_llvm) rkv[nrkv++] = (pb_kv){"llvm-version", release};
    if (debug_info) rkv[nrkv++] = (pb_kv){"debug-info", debug_info};
    else if (binary_file) rkv[nrkv++] = (pb_kv){"binary-file", binary_file};
    for (size_t i = 0; i < args.plugin.n; i++) rkv[nrkv++] = args.plugin.kv[i];
    ro.kv = rkv;
    ro.nkv = nrkv;
    pb_error_clear(&err);
    if (pbc_feed_start(&feed, paths, in.n, threads, &ro, &err)) {
        pbc_print_error(&err);
        goto out;
    }
    progress pg;
    progress_start(&pg, in.n, pbc_progress_mode_of(&args));
    named_ctx rn; /* the reads' diagnostics name the input */
    memset(&rn, 0, sizeof rn);
    rn.dc = &dc;
    rn.large_fails = pbi_llvm_has(&target, PBI_LF_MERGE_LARGE_COUNTER_FAILS);
    mo.diag = named_diag; /* the merge's problems in llvm-profdata's words */
    mo.diag_ctx = &rn;
    dd.fn = named_diag;
    dd.ctx = &rn;
    /* A remapped record is merged under its new name: every input goes
     * through the merge, none becomes the accumulator as it is. */
    if (remap && pb_profile_new(&acc, &err)) {
        pbc_print_error(&err);
        goto out;
    }
    for (size_t i = 0; i < in.n; i++) {
        rn.name = in.v[i].path;
        rn.large_seen = 0;
        pb_profile *p = NULL;
        pb_prepared *pr = NULL;
        pb_source *isrc = NULL; /* the feed's source of this input, to read it again */
        pb_error_clear(&err);
        int prc = 0;
        mo.weight = in.v[i].weight;
        mo.source = in.v[i].path;
        /* One thread: the reader merges straight into the accumulator
         * (pb_read_options.merge_into), so no model of the input is built;
         * the feed is not used past the first input. */
        int stream = acc && threads == 1, done = 0;
        /* LLVM 13 sets the entry-first flag from each input in turn (the
         * last one wins) where later releases OR the inputs' flags */
        uint64_t acc_flags = acc ? pb_profile_flags(acc) : 0;
        if (acc && pbi_llvm_has(&target, PBI_LF_ENTRY_FIRST_LAST_INPUT))
            pb_profile_set_flags(acc, acc_flags & ~PB_VARIANT_ENTRY_FIRST);
        if (!stream) {
            prc = pbc_feed_next(feed, &pr, &isrc, &err);
            if (prc == 0 && !acc) {
                /* The first input becomes the accumulator: what merging it
                 * into an empty profile would give, without the copy. Its
                 * reader's diagnostics wait for the read to succeed. */
                pb_read_options fro = ro;
                fro.diag = pbc_defer_diag;
                fro.diag_ctx = &dd;
                prc = pb_read_prepared(&p, pr, &fro, &err);
                if (prc) pbc_defer_drop(&dd);
                pbc_defer_flush(&dd);
                if (prc == 0) {
                    done = 1;
                    prc = pb_profile_apply_weight(p, &mo, &err);
                    if (prc == 0) {
                        acc = p;
                        p = NULL;
                    }
                }
            }
            /* A failed read is read again, streaming: a raw input that
             * fails half-way then keeps the records read before the error
             * (as llvm-profdata does) and its diagnostics are those of the
             * streaming read (the feed and the first input's read above
             * drop a failed read's), so every thread count gives the same
             * output and stderr. It is read again through the descriptor
             * the feed opened (never by name): a regular file rewinds, a
             * stream (FIFO, pipe) cannot and its first error is reported. */
            if (prc && !done) {
                pb_prepared_free(pr);
                pr = NULL;
                pb_error rerr;
                pb_error_clear(&rerr);
                if (isrc && pb_source_rewind(isrc, &rerr) == 0) {
                    pb_error_clear(&err);
                    prc = acc ? 0 : pb_profile_new(&acc, &err);
                    stream = 1;
                }
            }
        }
        if (prc == 0 && !done) {
            /* Into the accumulator: streaming from the file, or from the
             * prepared input (the same reader code either way), or merging
             * the model of a plugin that does not stream. */
            pb_read_options sro = ro; /* the feed keeps pointing at ro */
            sro.diag = named_diag;
            sro.diag_ctx = &rn;
            sro.merge_into = acc;
            sro.merge = &mo;
            /* the merge's warnings after the reader's, as when reading a model first */
            mo.diag = pbc_defer_diag;
            mo.diag_ctx = &dd;
            if (!stream) prc = pb_read_prepared(&p, pr, &sro, &err);
            else if (isrc) prc = pb_read(&p, isrc, &sro, &err); /* the failed input, rewound */
            else prc = pb_read_file(&p, in.v[i].path, &sro, &err); /* one thread: opened once, here */
            pbc_defer_flush(&dd);
            mo.diag = named_diag;
            mo.diag_ctx = &rn;
        }
        pb_prepared_free(pr);
        pb_source_free(isrc);
        if (prc && acc) pb_profile_set_flags(acc, acc_flags); /* a failed input sets no flag */
        if (prc) pb_error_set_source(&err, in.v[i].path);
        pb_profile_free(p);
        if (prc && is_empty_file(in.v[i].path)) {
            /* llvm-profdata merge skips an empty input without a word
             * (InstrProfReader's empty_raw_profile): so do we, with a note
             * (none under the personality) */
            if (!pbc_args_llvm_style)
                pb_diag(pbc_diag, &dc, PB_DIAG_NOTICE, 0, in.v[i].path, PB_NO_OFFSET, NULL,
                        "empty input skipped, as llvm-profdata merge skips it");
            prc = 0;
            pbc_merge_summary_input(summary, i, in.v[i].path, in.v[i].weight, PBC_MERGE_SKIPPED, NULL);
        } else {
            pbc_merge_summary_input(summary, i, in.v[i].path, in.v[i].weight,
                                    prc || rn.large_seen ? PBC_MERGE_FAILED : PBC_MERGE_MERGED,
                                    prc ? &err : rn.large_seen ? &rn.large : NULL);
        }
        if (prc == 0 && rn.large_seen) {
            /* LLVM 18+: the records are merged, the input counts as failed */
            err = rn.large;
            prc = PB_EFORMAT;
        }
        if (prc) {
            /* llvm-profdata reads every input and then says "warning: FILE:
             * why" for each that failed (our detail, byte offset and field,
             * stays in the line), in its writer contexts' order */
            if (!first_bad) first_bad = prc;
            if (!err.code) err.code = prc;
            if (nfails == cap_fails) {
                size_t cap = cap_fails ? cap_fails * 2 : 8;
                failed_input *nf = realloc(fails, cap * sizeof *nf);
                if (!nf) {
                    pbc_msg("out of memory");
                    goto out;
                }
                fails = nf;
                cap_fails = cap;
            }
            fails[nfails].input = i;
            fails[nfails++].err = err;
        }
        progress_update(&pg, i + 1);
    }
    progress_end(&pg);
    pbc_feed_free(feed);
    feed = NULL;
    if (nfails) {
        size_t *rank = malloc(threads * sizeof *rank);
        if (!rank || context_ranks(threads, rank)) {
            free(rank);
            pbc_msg("out of memory");
            goto out;
        }
        for (size_t k = 0; k < nfails; k++) fails[k].rank = rank[fails[k].input % threads];
        free(rank);
        qsort(fails, nfails, sizeof *fails, cmp_failure);
        for (size_t k = 0; k < nfails; k++) {
            const pb_error *fe = &fails[k].err;
            if (strncmp(fe->message, PBI_LARGE_COUNTER_WORDS, sizeof PBI_LARGE_COUNTER_WORDS - 1) == 0) {
                /* LLVM's line as it is, then where the counter is */
                dc.warnings++;
                fprintf(stderr, "%s%s: %s\n", pbc_args_llvm_style ? "warning: " : PBC_PROG ": warning: ", fe->source,
                        fe->message);
                if (!pbc_args_llvm_style)
                    fprintf(stderr, PBC_PROG ": note: %s: byte 0x%" PRIx64 " (%s)\n", fe->source, fe->offset, fe->path);
            } else if (pbc_args_llvm_style) {
                dc.warnings++;
                pbc_llvm_print_input_error("merge", "warning", NULL, fe); /* LLVM's words, then ours */
            } else {
                pbc_diag(&dc, PB_DIAG_WARNING, fe); /* every field: line, expected, found */
            }
        }
    }
    /* "no profile can be merged": every input failed (unless --failure-mode
     * warn), or any did with --failure-mode any (the default) */
    if ((nfails == in.n && strcmp(failure, "warn") != 0) || (nfails && strcmp(failure, "any") == 0)) {
        pbc_error_line("no profile can be merged");
        rc = pbc_exit_for(first_bad);
        goto out;
    }
    if (!acc && pb_profile_new(&acc, &err)) {
        pbc_print_error(&err);
        goto out;
    }
    if (have_keep || have_drop) {
        pb_error_clear(&err);
        if (filter_functions(&acc, have_keep ? &keep_re : NULL, have_drop ? &drop_re : NULL, &err)) {
            pbc_print_error(&err);
            goto out;
        }
    }
    /* Writer options: ours first, then the plugin options given directly. */
    kv = calloc(args.plugin.n + 6, sizeof *kv);
    if (!kv) {
        pbc_msg("out of memory");
        goto out;
    }
    size_t nkv = 0;
    int is_text = strcmp(out_f->name, "text") == 0, is_indexed = strcmp(out_f->name, "indexed") == 0;
    if (explicit_llvm) kv[nkv++] = (pb_kv){"llvm-version", release};
    if (indexed && is_indexed) kv[nkv++] = (pb_kv){"indexed-version", indexed};
    if (sparse && (is_text || is_indexed)) kv[nkv++] = (pb_kv){"sparse", "1"};
    if (is_text || is_indexed) kv[nkv++] = (pb_kv){"keep-vtable-symbols", keep_vt ? "1" : "0"};
    /* Emulate llvm-profdata's containers on the merged order (never keep an
     * input file's order: that is what `convert` does). */
    if (is_indexed) kv[nkv++] = (pb_kv){"order", "llvm"};
    for (size_t i = 0; i < args.plugin.n; i++) kv[nkv++] = args.plugin.kv[i];
    if (pbc_args_llvm_style) {
        rc = PBC_EXIT_INVALID;
        if (llvm_output_check(out_path, is_text)) goto out;
        if (pbc_check_output("merge", out_path, paths, in.n)) goto out;
    }
    if (summary && pbc_merge_summary_stage(summary, summary_path, out_path, out_format, acc, target.release, failure)) {
        rc = PBC_EXIT_USAGE;
        goto out;
    }
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    named_ctx wn; /* the writer's notices name OUT */
    memset(&wn, 0, sizeof wn);
    wn.dc = &dc;
    wn.name = out_path;
    wo.diag = named_diag;
    wo.diag_ctx = &wn;
    wo.kv = kv;
    wo.nkv = nkv;
    pb_error_clear(&err);
    if (pb_write_file(acc, out_path, out_f, &wo, &err)) {
        /* the error names OUT (pb_write_file sets it as the source) */
        pbc_print_error(&err);
        rc = PBC_EXIT_USAGE;
        goto out;
    }
    if (is_indexed && !explicit_llvm && !nfails) old_raw_hint(&in, &target, out_path, &dc);
    rc = PBC_EXIT_OK;
out:
    if (summary) { /* every input was read: what became of them, written or not */
        int src = pbc_merge_summary_write(summary, summary_path, out_path, out_format, rc ? NULL : acc,
                                          target_release, failure, rc);
        if (src && !rc) rc = src;
        pbc_merge_summary_free(summary);
    }
    pbc_defer_free(&dd);
    pbc_feed_free(feed);
    free(paths);
    if (have_keep) regfree(&keep_re);
    if (have_drop) regfree(&drop_re);
    inputs *all[3] = {&in, &win, &lin};
    for (size_t k = 0; k < 3; k++) {
        for (size_t i = 0; i < all[k]->n; i++) free(all[k]->v[i].path);
        free(all[k]->v);
    }
    free(kv);
    free(rkv);
    free(fails);
    pb_remap_free(remap);
    pb_profile_free(acc);
    pbc_args_free(&args);
    return rc;
}
