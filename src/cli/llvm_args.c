/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* llvm_args.c -- the command-line parser with LLVM's cl::opt rules (llvm_args.h). */
#include "llvm_args.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"


/* ---- response files ----------------------------------------------------------- */

static int push_word(char ***words, size_t *n, size_t *cap, const char *s, size_t len) {
    if (pbu_grow((void **)words, cap, *n + 1, sizeof **words)) return -1;
    char **w = *words;
    if (!(w[*n] = malloc(len + 1))) return -1;
    memcpy(w[*n], s, len);
    w[*n][len] = '\0';
    (*n)++;
    return 0;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

/* cl::TokenizeGNUCommandLine: whitespace separates words; a backslash takes
 * the next character as it is; '...' and "..." quote (a backslash inside
 * still escapes the next character); quotes join with what touches them. */
int pbc_args_tokenize_gnu(const char *src, size_t e, char ***words, size_t *n) {
    char *tok = malloc(e + 1);
    if (!tok) return -1;
    size_t t = 0, cap = *n; /* *words holds at least *n words */
    int have = 0; /* a quoted "" is an empty word */
    for (size_t i = 0; i < e; i++) {
        if (!have && t == 0) {
            while (i < e && is_space(src[i])) i++;
            if (i == e) break;
        }
        char c = src[i];
        if (c == '\\' && i + 1 < e) {
            tok[t++] = src[++i];
            have = 1;
            continue;
        }
        if (c == '\'' || c == '"') {
            i++;
            while (i < e && src[i] != c) {
                if (src[i] == '\\' && i + 1 < e) i++;
                tok[t++] = src[i++];
            }
            have = 1;
            if (i == e) break;
            continue;
        }
        if (is_space(c)) {
            if ((t || have) && push_word(words, n, &cap, tok, t)) goto oom;
            t = 0;
            have = 0;
            continue;
        }
        tok[t++] = c;
        have = 1;
    }
    if ((t || have) && push_word(words, n, &cap, tok, t)) goto oom;
    free(tok);
    return 0;
oom:
    free(tok);
    return -1;
}

/* The file's bytes, at most `most` + 1 of them (*len > most: past the
 * bound); NULL when it cannot be read or memory runs out (*oom). */
static char *read_all(const char *path, size_t most, size_t *len, int *oom) {
    *oom = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t want = cap - n;
        if (want > most + 1 - n) want = most + 1 - n;
        size_t r = fread(buf + n, 1, want, f);
        n += r;
        if (r < want || n > most) break;
        if (n == cap && pbu_grow((void **)&buf, &cap, cap + 1, 1)) {
            free(buf);
            buf = NULL;
        }
    }
    if (!buf) *oom = 1;
    int bad = buf && ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

typedef struct expand_state {
    const char *cmd;
    char **argv; /* the growing result */
    size_t n, cap;
    pbc_args *own;
    char *chain[64]; /* real paths of the files being expanded (recursion check) */
    int depth;
    size_t words, bytes, files; /* taken from response files so far (PBC_RESPONSE_MAX_*) */
} expand_state;

/* Past one of the expansion's bounds: a usage error. */
static int too_much(expand_state *s, const char *path, const char *what, size_t bound) {
    fprintf(stderr,
            "%s %s: response files expand to more than %zu %s (at '%s'); files that name each other "
            "several times multiply\n",
            pbc_args_prog, s->cmd, bound, what, path);
    return PBC_EXIT_USAGE;
}

/* Appends arg to the expanded argv; PBC_EXIT_USAGE after the message when
 * memory runs out (a silent exit 2 is what the allocation sweep catches). */
static int keep(expand_state *s, char *arg) {
    if (pbu_grow((void **)&s->argv, &s->cap, s->n + 2, sizeof *s->argv)) {
        fprintf(stderr, "%s %s: out of memory\n", pbc_args_prog, s->cmd);
        return PBC_EXIT_USAGE;
    }
    s->argv[s->n++] = arg;
    s->argv[s->n] = NULL;
    return 0;
}

static int expand_one(expand_state *s, char *arg);

/* @path: the file's words in its place (each one expanded again); a file
 * that cannot be read leaves "@path" as it is, as LLVM does. */
static int expand_file(expand_state *s, char *arg) {
    const char *path = arg + 1;
    size_t len = 0;
    int oom;
    if (s->files >= PBC_RESPONSE_MAX_FILES) return too_much(s, path, "files", PBC_RESPONSE_MAX_FILES);
    char *text = read_all(path, PBC_RESPONSE_MAX_BYTES - s->bytes, &len, &oom);
    if (!text && oom) {
        fprintf(stderr, "%s %s: out of memory\n", pbc_args_prog, s->cmd);
        return PBC_EXIT_USAGE;
    }
    if (!text) return keep(s, arg);
    if (len > PBC_RESPONSE_MAX_BYTES - s->bytes) {
        free(text);
        return too_much(s, path, "bytes", PBC_RESPONSE_MAX_BYTES);
    }
    s->bytes += len;
    s->files++;
    char *real = realpath(path, NULL);
    for (int i = 0; real && i < s->depth; i++) {
        if (strcmp(s->chain[i], real) == 0) {
            fprintf(stderr, "%s %s: recursive expansion of: '%s'\n", pbc_args_prog, s->cmd, real);
            free(real);
            free(text);
            return PBC_EXIT_USAGE;
        }
    }
    if (s->depth >= (int)(sizeof s->chain / sizeof s->chain[0])) {
        fprintf(stderr, "%s %s: response files nested deeper than %d at '%s'\n", pbc_args_prog, s->cmd,
                s->depth, path);
        free(real);
        free(text);
        return PBC_EXIT_USAGE;
    }
    char **w = NULL;
    size_t nw = 0;
    int rc = pbc_args_tokenize_gnu(text, len, &w, &nw);
    free(text);
    if (rc == 0 && nw > PBC_RESPONSE_MAX_WORDS - s->words) {
        for (size_t i = 0; i < nw; i++) free(w[i]);
        free(w);
        free(real);
        return too_much(s, path, "words", PBC_RESPONSE_MAX_WORDS);
    }
    s->words += nw;
    /* the words belong to the pbc_args from now on */
    if (rc || pbu_grow((void **)&s->own->words, &s->own->cap_words, s->own->nwords + nw, sizeof *w)) {
        for (size_t i = 0; i < nw; i++) free(w[i]);
        free(w);
        free(real);
        fprintf(stderr, "%s %s: out of memory\n", pbc_args_prog, s->cmd);
        return PBC_EXIT_USAGE;
    }
    if (nw) memcpy(s->own->words + s->own->nwords, w, nw * sizeof *w);
    s->own->nwords += nw;
    free(w);
    s->chain[s->depth++] = real ? real : strdup(path);
    /* nested files grow own->words: index it anew each time */
    size_t base = s->own->nwords - nw;
    for (size_t i = 0; i < nw && rc == 0; i++) rc = expand_one(s, s->own->words[base + i]);
    free(s->chain[--s->depth]);
    return rc;
}

static int expand_one(expand_state *s, char *arg) {
    if (arg[0] == '@' && arg[1]) return expand_file(s, arg);
    return keep(s, arg);
}

int pbc_args_expand(const char *cmd, int argc, char **argv, int *out_argc, char ***out_argv, pbc_args *a) {
    expand_state s = {cmd, NULL, 0, 0, a, {0}, 0, 0, 0, 0};
    int rc = keep(&s, argc > 0 ? argv[0] : (char *)cmd);
    for (int i = 1; i < argc && rc == 0; i++) rc = expand_one(&s, argv[i]);
    if (rc) {
        free(s.argv);
        return rc;
    }
    *out_argc = (int)s.n;
    *out_argv = s.argv;
    return 0;
}

/* ---- the table ------------------------------------------------------------------ */

static int name_is(const char *spec_name, const char *name, size_t len) {
    return spec_name && strlen(spec_name) == len && memcmp(spec_name, name, len) == 0;
}

const pbc_arg_spec *pbc_args_find(const pbc_arg_spec *specs, const char *name, size_t len) {
    for (const pbc_arg_spec *s = specs; s && s->name; s++) {
        if (s->include) {
            const pbc_arg_spec *r = pbc_args_find(s->include, name, len);
            if (r) return r;
        } else if (name_is(s->name, name, len) || name_is(s->alias, name, len)) {
            return s;
        }
    }
    return NULL;
}

/* LLVM's generic options, known to every command: help, and the two that
 * print option values (accepted and ignored). */
static const pbc_arg_spec generic_specs[] = {
    {.name = "help", .alias = "h", .id = PBC_ARG_HELP_ID, .kind = PBC_ARG_FLAG, .help = "show this help"},
    {.name = "help-hidden", .id = PBC_ARG_HELP_ID, .kind = PBC_ARG_FLAG},
    {.name = "help-list", .id = PBC_ARG_HELP_ID, .kind = PBC_ARG_FLAG},
    {.name = "help-list-hidden", .id = PBC_ARG_HELP_ID, .kind = PBC_ARG_FLAG},
    {.name = "print-options", .id = PBC_ARG_IGNORED_ID, .kind = PBC_ARG_BOOL},
    {.name = "print-all-options", .id = PBC_ARG_IGNORED_ID, .kind = PBC_ARG_BOOL},
    PBC_ARG_END};

const pbc_arg_spec *pbc_args_generic_specs(void) { return generic_specs; }

/* Levenshtein distance with replacements (StringRef::edit_distance). */
static size_t edit_distance(const char *a, size_t na, const char *b, size_t nb) {
    size_t row[128];
    if (nb >= sizeof row / sizeof row[0]) return (size_t)-1;
    for (size_t j = 0; j <= nb; j++) row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t prev = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t old = row[j];
            size_t best = prev + (a[i - 1] == b[j - 1] ? 0 : 1);
            if (row[j] + 1 < best) best = row[j] + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            prev = old;
        }
    }
    return row[nb];
}

static int in_release(const pbc_arg_spec *s, int release);
/* The release of the command line being parsed (0: any): options outside it
 * are never suggested. */
static int parse_release;
/* The flags of the command line being parsed (PBC_ARGS_COV: llvm-cov's). */
static unsigned parse_flags;

/* The LLVM tool whose releases messages name. */
static const char *tool_word(void) { return parse_flags & PBC_ARGS_COV ? "llvm-cov" : "llvm-profdata"; }

/* 1 when llvm-cov of `release` lists global option g (bit release-13 of
 * g->releases, llvm_args.h); a release outside the table lists none. */
static int global_in(const pbc_arg_extra *g, int release) {
    int bit = release - pb_release_min();
    return pb_release_known(release) && bit < 16 && ((g->releases >> bit) & 1u);
}

/* libLLVM's global option `name` as llvm-cov of `release` (0: any) lists it, or NULL. */
static const pbc_arg_extra *find_global(const char *name, size_t len, int release) {
    if (!(parse_flags & PBC_ARGS_COV)) return NULL;
    for (size_t i = 0; i < pbc_llvm_cov_nglobals; i++) {
        const pbc_arg_extra *g = &pbc_llvm_cov_globals[i];
        if (release && !global_in(g, release)) continue;
        if (name_is(g->name, name, len)) return g;
    }
    return NULL;
}

/* The nearest global option, when nearer than *best_d (or none found yet). */
static void nearest_global(const char *name, size_t len, int have, const char **best_name, size_t *best_d) {
    if (!(parse_flags & PBC_ARGS_COV)) return;
    for (size_t i = 0; i < pbc_llvm_cov_nglobals; i++) {
        const pbc_arg_extra *g = &pbc_llvm_cov_globals[i];
        /* a release outside the table (a bad --llvm-version) knows no global option */
        if (parse_release && !global_in(g, parse_release)) continue;
        size_t d = edit_distance(g->name, strlen(g->name), name, len);
        if (!have || d < *best_d) {
            *best_name = g->name;
            *best_d = d;
            have = 1;
        }
    }
}

static void nearest_in(const pbc_arg_spec *specs, const char *name, size_t len, const pbc_arg_spec **best,
                       const char **best_name, size_t *best_d) {
    for (const pbc_arg_spec *s = specs; s && s->name; s++) {
        if (s->include) {
            nearest_in(s->include, name, len, best, best_name, best_d);
            continue;
        }
        /* never suggest what is refused, but llvm-profdata-N knows them all */
        if (s->refused && !pbc_args_llvm_style) continue;
        if (!in_release(s, parse_release)) continue;
        /* llvm-profdata-N suggests its own options only, not profbridge's */
        if (pbc_args_llvm_style && !(parse_flags & PBC_ARGS_COV) &&
            (s->id >= PBC_ARGS_OWN_ID_MIN || s->id <= PBC_ARGS_OWN_NEG_MAX))
            continue;
        const char *names[2] = {s->name, s->alias};
        for (int k = 0; k < 2; k++) {
            if (!names[k]) continue;
            size_t d = edit_distance(names[k], strlen(names[k]), name, len);
            if (!*best || d < *best_d) {
                *best = s;
                *best_name = names[k];
                *best_d = d;
            }
        }
    }
}

const pbc_arg_spec *pbc_args_nearest(const pbc_arg_spec *specs, const char *name, size_t len) {
    const pbc_arg_spec *best = NULL;
    const char *best_name = NULL;
    size_t d = 0;
    nearest_in(specs, name, len, &best, &best_name, &d);
    return best;
}

/* "-o" for a one-letter name, "--output" otherwise (LLVM's PrintArg). */
static const char *dashes(const char *name) { return strlen(name) == 1 ? "-" : "--"; }

static int in_release(const pbc_arg_spec *s, int release) {
    return !release || ((!s->since || release >= s->since) && (!s->until || release <= s->until));
}

static void print_help_lines(FILE *out, const pbc_arg_spec *specs, int llvm_release) {
    for (const pbc_arg_spec *s = specs; s && s->name; s++) {
        if (s->include) print_help_lines(out, s->include, llvm_release);
        if (!s->help || s->refused || !in_release(s, llvm_release)) continue;
        char lhs[80];
        const char *val = s->kind == PBC_ARG_VALUE ? (s->arg ? s->arg : "VALUE") : NULL;
        if (s->alias)
            snprintf(lhs, sizeof lhs, "%s%s, --%s%s%s", dashes(s->alias), s->alias, s->name, val ? " " : "",
                     val ? val : "");
        else
            snprintf(lhs, sizeof lhs, "    --%s%s%s", s->name, val ? " " : "", val ? val : "");
        if (strlen(lhs) > 26)
            fprintf(out, "  %s\n  %-26s %s\n", lhs, "", s->help);
        else
            fprintf(out, "  %-26s %s\n", lhs, s->help);
    }
}

void pbc_args_print_help(FILE *out, const pbc_arg_spec *specs, int llvm_release) {
    print_help_lines(out, specs, llvm_release);
    print_help_lines(out, generic_specs, llvm_release);
}

/* ---- the words of shell completion ----------------------------------------------- */

/* The values of an option: its enumeration, the format names for a FORMAT,
 * the releases of the target table for --llvm-version, or a plugin's
 * "a|b|c" placeholder; nothing when they are not a list. */
static void print_word_values(FILE *out, const char *name, const char *arg, const char *values) {
    if (strcmp(name, "llvm-version") == 0) {
        for (int n = pb_release_min(); n <= pb_release_max(); n++)
            if (pb_release_known(n)) fprintf(out, " %d", n);
        return;
    }
    if (arg && strcmp(arg, "FORMAT") == 0) {
        for (size_t i = 0; i < pb_format_count(); i++) fprintf(out, " %s", pb_format_at(i)->name);
        return;
    }
    if (!values && arg && strchr(arg, '|')) values = arg;
    if (!values) return;
    fputc(' ', out);
    for (const char *v = values; *v; v++) {
        if (*v == '{' || *v == '}') continue;
        fputc(*v == '|' ? ' ' : *v, out);
    }
}

/* "--name ARG values" ("-o" for a one-letter name, as LLVM prints it). */
static void print_word_line(FILE *out, const char *name, const char *arg, const char *values) {
    fprintf(out, "%s%s %s", strlen(name) == 1 ? "-" : "--", name, arg ? arg : "-");
    print_word_values(out, name, arg, values);
    fputc('\n', out);
}

static void print_word_specs(FILE *out, const pbc_arg_spec *root, const pbc_arg_spec *specs) {
    for (const pbc_arg_spec *s = specs; s && s->name; s++) {
        if (s->include) {
            print_word_specs(out, root, s->include);
            continue;
        }
        if (s->refused) continue;
        const char *arg = s->kind == PBC_ARG_VALUE ? (s->arg ? s->arg : "VALUE") : NULL;
        const char *names[2] = {s->name, s->alias};
        for (int k = 0; k < 2; k++)
            /* a name the table has twice is the first one's, as parsed */
            if (names[k] && pbc_args_find(root, names[k], strlen(names[k])) == s)
                print_word_line(out, names[k], arg, s->type == PBC_VAL_ENUM ? s->values : NULL);
    }
}

/* Whether an earlier plugin than `upto` declared `name` already. */
static int plugin_declared_before(size_t upto, int upto_table, const char *name) {
    for (size_t i = 0; i <= upto; i++) {
        const pb_format *f = pb_format_at(i);
        const pb_option_desc *tables[2] = {f->read_options, f->write_options};
        for (int t = 0; t < 2 && (i < upto || t < upto_table); t++)
            for (const pb_option_desc *d = tables[t]; d && d->name; d++)
                if (strcmp(d->name, name) == 0) return 1;
    }
    return 0;
}

void pbc_args_print_words(FILE *out, const pbc_arg_spec *specs, unsigned flags) {
    print_word_specs(out, specs, specs);
    print_word_line(out, "help", NULL, NULL);
    print_word_line(out, "h", NULL, NULL);
    if (!(flags & PBC_ARGS_PLUGIN)) return;
    for (size_t i = 0; i < pb_format_count(); i++) {
        const pb_format *f = pb_format_at(i);
        const pb_option_desc *tables[2] = {f->read_options, f->write_options};
        for (int t = 0; t < 2; t++)
            for (const pb_option_desc *d = tables[t]; d && d->name; d++) {
                /* the command's own option of that name is the one parsed */
                if (pbc_args_find(specs, d->name, strlen(d->name)) || plugin_declared_before(i, t, d->name))
                    continue;
                print_word_line(out, d->name, d->arg, NULL);
            }
    }
}

/* ---- plugin options ------------------------------------------------------------- */

static const pb_option_desc *find_plugin_option(const char *name, size_t len) {
    for (size_t i = 0; i < pb_format_count(); i++) {
        const pb_format *f = pb_format_at(i);
        const pb_option_desc *tables[2] = {f->read_options, f->write_options};
        for (int t = 0; t < 2; t++)
            for (const pb_option_desc *d = tables[t]; d && d->name; d++)
                if (name_is(d->name, name, len)) return d;
    }
    return NULL;
}

static const char *nearest_plugin_option(const char *name, size_t len, size_t *best_d) {
    const char *best = NULL;
    for (size_t i = 0; i < pb_format_count(); i++) {
        const pb_format *f = pb_format_at(i);
        const pb_option_desc *tables[2] = {f->read_options, f->write_options};
        for (int t = 0; t < 2; t++)
            for (const pb_option_desc *d = tables[t]; d && d->name; d++) {
                size_t dd = edit_distance(d->name, strlen(d->name), name, len);
                if (dd < *best_d) {
                    *best_d = dd;
                    best = d->name;
                }
            }
    }
    return best;
}

/* ---- values --------------------------------------------------------------------- */

/* StringRef::getAsInteger(0, ...): decimal, 0x hex, 0 octal, 0b binary; no sign. */
static int parse_unsigned(const char *s, uint64_t max, uint64_t *out) {
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, s += 2;
    else if (s[0] == '0' && s[1]) base = 8, s += 1;
    if (!*s) return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        int dg = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
                 : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : 99;
        if (dg >= base) return -1;
        if (__builtin_mul_overflow(v, (uint64_t)base, &v) || __builtin_add_overflow(v, (uint64_t)dg, &v))
            return -1;
    }
    if (v > max) return -1;
    *out = v;
    return 0;
}

static int enum_has(const char *values, const char *v) {
    size_t n = strlen(v);
    for (const char *p = values; p && *p;) {
        const char *bar = strchr(p, '|');
        size_t k = bar ? (size_t)(bar - p) : strlen(p);
        if (k == n && memcmp(p, v, n) == 0) return 1;
        p = bar ? bar + 1 : p + k;
    }
    return 0;
}

static int usage(const char *cmd, const char *use, const char *fmt, const char *a, const char *b) {
    if (pbc_args_llvm_style) fprintf(stderr, "%s: ", pbc_args_prog);
    else fprintf(stderr, "%s %s: ", pbc_args_prog, cmd);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    if (pbc_args_llvm_style) return PBC_EXIT_USAGE; /* LLVM adds no hint */
    if (use) fprintf(stderr, "Usage: %s %s\n", pbc_args_prog, use);
    fprintf(stderr, "Try '%s %s --help' for more information.\n", pbc_args_prog, cmd);
    return PBC_EXIT_USAGE;
}

/* Checks and converts the value of one option (LLVM's messages). */
static int take_value(const char *cmd, const pbc_arg_spec *s, const char *opt, pbc_arg *r) {
    const char *v = r->value;
    char what[160];
    snprintf(what, sizeof what, "for the %s option", opt);
    if (s->kind == PBC_ARG_BOOL) {
        /* parser<bool>: "-x=" is true, as "-x" (llvm-profdata-19 merge -sparse=) */
        int b = v && *v ? pbc_parse_bool(v) : 1;
        /* parser<bool> of 24 takes true/false/1/0 only (ARGS_BOOL_LOWER_ONLY), in the parse */
        if (b >= 0 && v && pbc_args_llvm_style && strcmp(v, "true") && strcmp(v, "false") && strcmp(v, "1") &&
            strcmp(v, "0") && pb_release_has(parse_release, "ARGS_BOOL_LOWER_ONLY"))
            b = -1;
        if (b < 0 && !pbc_args_llvm_style) /* profbridge's words, LLVM's in the personality */
            return usage(cmd, NULL, "'%s' is not a boolean value for %s (true, false, 1 or 0)", v, opt);
        if (b < 0) return usage(cmd, NULL, "%s: '%s' is invalid value for boolean argument! Try 0 or 1", what, v);
        r->u = (uint64_t)b;
        return 0;
    }
    if (s->kind == PBC_ARG_FLAG) {
        if (v && pbc_args_llvm_style && s->group) { /* Option::error of an unnamed option: no program name */
            int tail = s->group_tail && parse_release >= s->group_tail_since;
            /* the descriptions are "Profile kind:" but "Format of output profile" */
            fprintf(stderr, "%s%s%s option: does not allow a value! '%s' specified.\n", s->group,
                    tail ? s->group_tail : "", strcmp(s->group, "Format of output profile") ? ":" : "", v);
            return PBC_EXIT_USAGE;
        }
        if (v) return usage(cmd, NULL, "%s: does not allow a value! '%s' specified.", what, v);
        return 0;
    }
    switch (s->type) {
    case PBC_VAL_LIST:
        /* cl::list<unsigned> CommaSeparated: each item checked as it is parsed */
        for (const char *p = v; s->uint_items && pbc_args_llvm_style;) {
            size_t n = strcspn(p, ",");
            char item[64];
            uint64_t u;
            snprintf(item, sizeof item, "%.*s", (int)(n < sizeof item ? n : sizeof item - 1), p);
            if (n >= sizeof item || parse_unsigned(item, UINT32_MAX, &u))
                return usage(cmd, NULL, "%s: '%s' value invalid for uint argument!", what, item);
            if (!p[n]) break;
            p += n + 1;
        }
        break;
    case PBC_VAL_UINT:
    case PBC_VAL_ULONG:
    case PBC_VAL_ULLONG:
        if (parse_unsigned(v, s->type == PBC_VAL_UINT ? UINT32_MAX : UINT64_MAX, &r->u) && !pbc_args_llvm_style)
            return usage(cmd, NULL, s->type == PBC_VAL_UINT ? "%s needs a number from 0 to 4294967295, found '%s'"
                                                            : "%s needs a number (unsigned 64-bit), found '%s'",
                         opt, v);
        if (parse_unsigned(v, s->type == PBC_VAL_UINT ? UINT32_MAX : UINT64_MAX, &r->u))
            return usage(cmd, NULL, s->type == PBC_VAL_UINT    ? "%s: '%s' value invalid for uint argument!"
                                    : s->type == PBC_VAL_ULONG ? "%s: '%s' value invalid for ulong argument!"
                                                               : "%s: '%s' value invalid for ullong argument!",
                         what, v);
        break;
    case PBC_VAL_NUMBER: {
        char *end;
        errno = 0;
        r->d = strtod(v, &end);
        /* LLVM's to_float: strtod must reach the end, nothing more (an empty
         * value is 0, an out-of-range one inf); profbridge's own names are
         * stricter */
        if (*end || (!pbc_args_llvm_style && (!*v || errno)))
            return usage(cmd, NULL, "%s: '%s' value invalid for floating point argument!", what, v);
        break;
    }
    case PBC_VAL_ENUM:
        if (!enum_has(s->values, v)) {
            if (pbc_args_llvm_style) {
                fprintf(stderr, "%s: %s: Cannot find option named '%s'!\n", pbc_args_prog, what, v);
                return PBC_EXIT_USAGE;
            }
            fprintf(stderr, "%s %s: %s: Cannot find option named '%s'! (one of: ", pbc_args_prog, cmd, what, v);
            for (const char *p = s->values; *p; p++) fputc(*p == '|' ? ',' : *p, stderr);
            fputs(")\n", stderr);
            return PBC_EXIT_USAGE;
        }
        break;
    default: break;
    }
    return 0;
}

static int release_error(const char *cmd, const pbc_arg_spec *s, const char *optname, int release) {
    char rel[64];
    if (s->since && release < s->since)
        snprintf(rel, sizeof rel, "from LLVM %d on, not in LLVM %d", s->since, release);
    else
        snprintf(rel, sizeof rel, "up to LLVM %d, not in LLVM %d", s->until, release);
    char fmt[96];
    snprintf(fmt, sizeof fmt, "%%s is an option of %s %%s (--llvm-version)", tool_word());
    return usage(cmd, NULL, fmt, optname, rel);
}

int pbc_args_check_release(const char *cmd, const pbc_args *a, int release) {
    for (size_t i = 0; i < a->nopt; i++) {
        const pbc_arg_spec *s = a->opt[i].spec;
        if (!s || in_release(s, release)) continue;
        char optname[96];
        snprintf(optname, sizeof optname, "%s%s", dashes(s->name), s->name);
        return release_error(cmd, s, optname, release);
    }
    /* parser<bool>'s spellings: 24 knows only the lower-case ones */
    for (size_t j = 0; pbc_args_llvm_style && j < a->nopt; j++) {
        const pbc_arg_spec *s = a->opt[j].spec;
        const char *v = a->opt[j].value;
        if (!s || s->kind != PBC_ARG_BOOL || !v || !*v || strcmp(v, "true") == 0 || strcmp(v, "false") == 0 ||
            strcmp(v, "1") == 0 || strcmp(v, "0") == 0)
            continue;
        if (pb_release_has(release, "ARGS_BOOL_LOWER_ONLY")) {
            char what[160];
            snprintf(what, sizeof what, "for the %s%s option", dashes(s->name), s->name);
            return usage(cmd, NULL, "%s: '%s' is invalid value for boolean argument! Try 0 or 1", what, v);
        }
    }
    /* cl::opt's occurrence check (LLVM 13-14), for the commands that learn
     * the release after parsing (a personality's release is known before) */
    for (size_t j = 1; pbc_args_llvm_style && j < a->nopt; j++) {
        const pbc_arg_spec *s = a->opt[j].spec;
        if (!s || !s->once_until || release > s->once_until || s->type == PBC_VAL_LIST) continue;
        for (size_t i = 0; i < j; i++) {
            int id = a->opt[i].id;
            if (a->opt[i].spec && (id == s->id || (s->once_with && id == s->once_with))) {
                char optname[96];
                snprintf(optname, sizeof optname, "%s%s", dashes(s->name), s->name);
                return usage(cmd, NULL, "for the %s option: %s", optname,
                             s->required_until ? "must occur exactly one time!" : "may only occur zero or one times!");
            }
        }
    }
    return 0;
}

/* ---- parsing -------------------------------------------------------------------- */

static int add_opt(pbc_args *a, const pbc_arg *r) {
    if (pbu_grow((void **)&a->opt, &a->cap_opt, a->nopt + 1, sizeof *a->opt)) return -1;
    a->opt[a->nopt++] = *r;
    return 0;
}

static int unknown(const char *cmd, const char *use, const pbc_arg_spec *specs, unsigned flags, const char *arg,
                   const char *name, size_t len, const char *eq) {
    const pbc_arg_spec *best = NULL;
    const char *best_name = NULL;
    size_t d = 0;
    nearest_in(specs, name, len, &best, &best_name, &d);
    nearest_in(generic_specs, name, len, &best, &best_name, &d);
    nearest_global(name, len, best != NULL, &best_name, &d);
    if ((flags & PBC_ARGS_PLUGIN) && !pbc_args_llvm_style) { /* llvm-profdata-N knows no plugin */
        size_t pd = best ? d : (size_t)-1;
        const char *p = nearest_plugin_option(name, len, &pd);
        if (p) best_name = p;
    }
    if (pbc_args_llvm_style) { /* cl::ParseCommandLineOptions' words */
        fprintf(stderr, "%s: Unknown command line argument '%s'.  Try: '%s --help'\n", pbc_args_prog, arg,
                pbc_args_argv0 ? pbc_args_argv0 : pbc_args_prog);
        /* PrintArg: one dash only when the whole suggestion ("o=3") is one letter */
        if (best_name)
            fprintf(stderr, "%s: Did you mean '%s%s%s'?\n", pbc_args_prog,
                    strlen(best_name) + (eq ? strlen(eq) : 0) == 1 ? "-" : "--", best_name, eq ? eq : "");
        return PBC_EXIT_USAGE;
    }
    fprintf(stderr, "%s %s: unknown option '%s'", pbc_args_prog, cmd, arg);
    if (best_name) fprintf(stderr, "; did you mean '%s%s'?", dashes(best_name), best_name);
    fputc('\n', stderr);
    if (use) fprintf(stderr, "Usage: %s %s\n", pbc_args_prog, use);
    fprintf(stderr, "Try '%s %s --help' for more information.\n", pbc_args_prog, cmd);
    return PBC_EXIT_USAGE;
}

/* One command line being parsed against one command's table. */
typedef struct parse_state {
    const char *cmd, *use;
    const pbc_arg_spec *specs;
    int release;
    unsigned flags;
    int argc;
    char **argv; /* after response-file expansion */
    int i;       /* the word being parsed */
    pbc_args *a;
    int fatal;   /* the last usage error stops the parse even with PBC_ARGS_ALL_ERRORS */
    int errors;  /* usage errors reported so far (PBC_ARGS_ALL_ERRORS) */
} parse_state;

/* add_opt's and push_word's failure, told apart from a usage error's exit
 * status so that the caller prints "out of memory". */
enum { PARSE_OOM = -1 };

/* A shell completing a command line asks for the words: they are the table
 * being parsed, so print it and stop here, before the command runs
 * (llvm_args.h: PBC_COMPLETE_OPTION). */
static void print_words_and_exit(parse_state *ps) {
    pbc_args_print_words(stdout, ps->specs, ps->flags);
    free(ps->argv);
    pbc_args_free(ps->a);
    exit(fflush(stdout) || ferror(stdout) ? PBC_EXIT_USAGE : PBC_EXIT_OK);
}

/* A value given as the next word ("--x V") when none came with "=". */
static int next_word_value(parse_state *ps, pbc_arg *r) {
    if (r->value) return 1;
    if (ps->i + 1 >= ps->argc) return 0;
    r->value = ps->argv[++ps->i];
    return 1;
}

/* A plugin's option: --NAME VALUE, or a plugin's switch (--NAME, --NAME=V). */
static int take_plugin_option(parse_state *ps, const pb_option_desc *pd, const char *name, size_t len, pbc_arg *r) {
    pbc_args *a = ps->a;
    if (push_word(&a->words, &a->nwords, &a->cap_words, name, len)) return PARSE_OOM;
    char *key = a->words[a->nwords - 1];
    if (pd->arg && !next_word_value(ps, r))
        return usage(ps->cmd, NULL, "option '--%s' needs a value (%s)", key, pd->arg);
    a->plugin.kv[a->plugin.n].key = key;
    a->plugin.kv[a->plugin.n].value = r->value ? r->value : "1";
    a->plugin.n++;
    return 0;
}

/* An option of the command's table (or the generic one): refused, outside
 * the release, or checked and kept. */
static int grouped_value(const parse_state *ps, const char *arg, const char *name, size_t len);

static int take_table_option(parse_state *ps, const pbc_arg_spec *s, const char *arg, const char *name, size_t len,
                             const char *eq, pbc_arg *r) {
    char optname[96]; /* as LLVM names it: the name matched, "-" before one letter */
    snprintf(optname, sizeof optname, "%s%.*s", len == 1 ? "-" : "--", (int)len, name);
    if (s->refused) {
        ps->fatal = 1;
        return usage(ps->cmd, NULL, "%s: %s", optname, s->refused);
    }
    if (!in_release(s, ps->release)) {
        /* llvm-profdata-N has no such option at all */
        if (grouped_value(ps, arg, name, len)) return PBC_EXIT_USAGE;
        return pbc_args_llvm_style ? unknown(ps->cmd, ps->use, ps->specs, ps->flags, arg, name, len, eq)
                                   : release_error(ps->cmd, s, optname, ps->release);
    }
    if (s->kind == PBC_ARG_VALUE && !next_word_value(ps, r))
        return usage(ps->cmd, NULL, "for the %s option: requires a value!%s", optname, "");
    r->id = s->id;
    r->spec = s;
    r->npos_before = ps->a->npos;
    /* cl::opt names the option itself in a bad value's message, not the alias typed */
    char canon[96];
    snprintf(canon, sizeof canon, "%s%s", dashes(s->name), s->name);
    /* a flag given a value: cl's ProvideOption refuses it before the
     * occurrence is counted (llvm-profdata-13 merge --text= --text=false
     * says "does not allow a value!" twice, 14's -binary --text=1 once) */
    if (s->kind == PBC_ARG_FLAG && r->value) return take_value(ps->cmd, s, pbc_args_llvm_style ? canon : optname, r);
    /* cl::opt's occurrence check up to LLVM 14 (naming the option, not the
     * alias typed), before the value is looked at */
    if (s->once_until && ps->release && ps->release <= s->once_until && s->type != PBC_VAL_LIST &&
        (pbc_args_last(ps->a, s->id) || (s->once_with && pbc_args_last(ps->a, s->once_with))))
        return usage(ps->cmd, NULL, "for the %s option: %s", pbc_args_llvm_style ? canon : optname,
                     s->required_until ? "must occur exactly one time!" : "may only occur zero or one times!");
    int rc = take_value(ps->cmd, s, pbc_args_llvm_style ? canon : optname, r);
    /* a refused value still counts as an occurrence for cl (13-14's check),
     * and with every error reported the parse fails anyway */
    if (rc && (ps->flags & PBC_ARGS_ALL_ERRORS) && s->once_until) return add_opt(ps->a, r) ? PARSE_OOM : rc;
    if (rc) return rc;
    return add_opt(ps->a, r) ? PARSE_OOM : 0;
}

/* cl::Grouping's words (ARGS_GROUPED_VALUE_ERROR): llvm-profdata reads an
 * unknown name ("-oFILE", "-j2", "--random-seed=3" before 24) as the group
 * of one-letter options "-o" "-F"..., whatever its dashes, and a one-letter
 * option that takes a value cannot be in a group. LLVM says so, then calls
 * the whole word unknown and suggests the letter (its lookup has cut the
 * word down to it). Returns 1 when it printed that. */
static int grouped_value(const parse_state *ps, const char *arg, const char *name, size_t len) {
    if (!pbc_args_llvm_style || (parse_flags & PBC_ARGS_COV) || len < 2) return 0;
    if (!pb_release_has(ps->release, "ARGS_GROUPED_VALUE_ERROR")) return 0;
    const pbc_arg_spec *s = pbc_args_find(ps->specs, name, 1);
    if (!s || s->kind != PBC_ARG_VALUE || !in_release(s, ps->release) || s->refused) return 0;
    fprintf(stderr, "%s: for the -%c option: may not occur within a group!\n", pbc_args_prog, name[0]);
    fprintf(stderr, "%s: Unknown command line argument '%s'.  Try: '%s --help'\n", pbc_args_prog, arg,
            pbc_args_argv0 ? pbc_args_argv0 : pbc_args_prog);
    fprintf(stderr, "%s: Did you mean '-%c'?\n", pbc_args_prog, name[0]);
    return 1;
}

/* One word starting with '-' (not "-" or "--"): "-x", "--x", "-x=V", "--x=V". */
static int parse_option(parse_state *ps, char *arg) {
    const char *name = arg + 1 + (arg[1] == '-');
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    pbc_arg r = {0, NULL, eq ? eq + 1 : NULL, 0, 0, arg, 0};
    const pbc_arg_spec *s = pbc_args_find(ps->specs, name, len);
    if (!s) s = pbc_args_find(generic_specs, name, len);
    const pb_option_desc *pd = NULL;
    if (!s && (ps->flags & PBC_ARGS_PLUGIN)) pd = find_plugin_option(name, len);
    if (!s && !pd && find_global(name, len, ps->release)) {
        /* llvm-cov-N takes it (libLLVM's) and does nothing with it for export or report */
        ps->fatal = 1;
        return usage(ps->cmd, NULL, "%s: %s", arg,
                     "a libLLVM code-generation option that llvm-cov accepts and ignores; profbridge does not take it");
    }
    if (!s && !pd && grouped_value(ps, arg, name, len)) return PBC_EXIT_USAGE;
    if (!s && !pd) return unknown(ps->cmd, ps->use, ps->specs, ps->flags, arg, name, len, eq);
    if (pd) return take_plugin_option(ps, pd, name, len, &r);
    return take_table_option(ps, s, arg, name, len, eq, &r);
}

/* The words after the command: positionals (all of them after "--") and
 * options. */
static int parse_words(parse_state *ps) {
    int only_pos = 0;
    for (ps->i = 1; ps->i < ps->argc; ps->i++) {
        char *arg = ps->argv[ps->i];
        if (!pbc_args_llvm_style && !only_pos && strcmp(arg, PBC_COMPLETE_OPTION) == 0) print_words_and_exit(ps);
        if (only_pos || arg[0] != '-' || arg[1] == '\0') {
            ps->a->pos[ps->a->npos++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            only_pos = 1;
            continue;
        }
        int rc = parse_option(ps, arg);
        if (rc == PBC_EXIT_USAGE && (ps->flags & PBC_ARGS_ALL_ERRORS) && !ps->fatal) {
            ps->errors++; /* cl::ParseCommandLineOptions goes on */
            continue;
        }
        if (rc) return rc;
    }
    return 0;
}

/* After the words (PBC_ARGS_ALL_ERRORS): cl::Required options never given. */
static int missing_required(parse_state *ps, const pbc_arg_spec *specs) {
    int missing = 0;
    for (const pbc_arg_spec *s = specs; s && s->name; s++) {
        if (s->include) {
            missing += missing_required(ps, s->include);
            continue;
        }
        if (!s->required_until || !in_release(s, ps->release) || (ps->release && ps->release > s->required_until))
            continue;
        if (pbc_args_last(ps->a, s->id)) continue;
        char optname[96];
        snprintf(optname, sizeof optname, "%s%s", dashes(s->name), s->name);
        (void)usage(ps->cmd, NULL, "for the %s option: must be specified at least once!%s", optname, "");
        missing++;
    }
    return missing;
}

int pbc_llvm_input_count(size_t npos, size_t min, size_t max, int debug_info_alt) {
    if (!pbc_args_llvm_style || (npos >= min && npos <= max)) return 0;
    if (npos < min && debug_info_alt)
        fputs("error: the positional argument '<profdata-file>' is required unless '--debug-info' is provided\n",
              stderr);
    else if (npos < min)
        fprintf(stderr, "%s: Not enough positional command line arguments specified!\n"
                        "Must specify at least %zu positional argument%s: See: %s --help\n",
                pbc_args_prog, min, min == 1 ? "" : "s", pbc_args_prog);
    else
        fprintf(stderr, "%s: Too many positional arguments specified!\n"
                        "Can specify at most %zu positional arguments: See: %s --help\n",
                pbc_args_prog, max, pbc_args_prog);
    return 1;
}

/* The next parse's positional count as cl checks it (pbc_args_llvm_positionals). */
static struct {
    int set;
    size_t min, max;
    const char *alt;
} llvm_positionals;

void pbc_args_llvm_positionals(size_t min, size_t max, const char *alt) {
    llvm_positionals.set = 1;
    llvm_positionals.min = min;
    llvm_positionals.max = max;
    llvm_positionals.alt = alt;
}

/* After words that were refused (PBC_ARGS_ALL_ERRORS), cl still checks the
 * number of positionals before it stops: its words after the others. */
static void llvm_positional_check(const parse_state *ps) {
    if (!llvm_positionals.set || !ps->errors || !pbc_args_llvm_style) return;
    size_t min = llvm_positionals.min;
    const pbc_arg_spec *alt =
        llvm_positionals.alt ? pbc_args_find(ps->specs, llvm_positionals.alt, strlen(llvm_positionals.alt)) : NULL;
    if (alt && in_release(alt, ps->release)) min = 0; /* the input is optional then */
    (void)pbc_llvm_input_count(ps->a->npos, min, llvm_positionals.max, 0);
}

int pbc_args_parse(const char *cmd, const char *use, const pbc_arg_spec *specs, int argc0, char **argv0,
                   int release, unsigned flags, pbc_args *a) {
    memset(a, 0, sizeof *a);
    /* llvm-profdata-N's release is its name's: options outside it are
     * unknown where they stand, as cl sees them (merge and order learn the
     * release only after parsing otherwise) */
    pbc_release named;
    if (!release && pbc_args_llvm_style && !(flags & PBC_ARGS_COV) && pbc_release_of(cmd, NULL, &named) == 0)
        release = named.release;
    parse_release = release;
    parse_flags = flags;
    parse_state ps = {cmd, use, specs, release, flags, 0, NULL, 0, a, 0, 0};
    int rc = pbc_args_expand(cmd, argc0, argv0, &ps.argc, &ps.argv, a);
    if (rc) {
        pbc_args_free(a);
        return rc;
    }
    a->pos = calloc((size_t)ps.argc + 1, sizeof *a->pos);
    a->plugin.kv = calloc((size_t)ps.argc + 1, sizeof *a->plugin.kv);
    rc = !a->pos || !a->plugin.kv ? PARSE_OOM : parse_words(&ps);
    if (rc == 0 && (flags & PBC_ARGS_ALL_ERRORS)) llvm_positional_check(&ps);
    llvm_positionals.set = 0;
    int answered = pbc_args_last(a, PBC_ARG_HELP_ID) || pbc_args_last(a, PBC_ARG_VERSION_ID);
    if (rc == 0 && (flags & PBC_ARGS_ALL_ERRORS) && !answered && (missing_required(&ps, specs) || ps.errors))
        rc = PBC_EXIT_USAGE;
    free(ps.argv);
    if (rc == PARSE_OOM) {
        fprintf(stderr, "%s %s: out of memory\n", pbc_args_prog, cmd);
        rc = PBC_EXIT_USAGE;
    }
    if (rc) pbc_args_free(a);
    return rc;
}

const pbc_arg *pbc_args_last(const pbc_args *a, int id) {
    for (size_t i = a->nopt; i-- > 0;)
        if (a->opt[i].id == id) return &a->opt[i];
    return NULL;
}

void pbc_args_free(pbc_args *a) {
    free(a->opt);
    free(a->pos);
    pbc_plugin_opts_free(&a->plugin);
    for (size_t i = 0; i < a->nwords; i++) free(a->words[i]);
    free(a->words);
    memset(a, 0, sizeof *a);
}

/* For --help; see llvm_args.h. */
void pbc_args_print_plugin_options(FILE *out, const pbc_arg_spec *specs) {
    const char *seen[64];
    size_t nseen = 0;
    for (size_t i = 0; i < pb_format_count(); i++) {
        const pb_format *f = pb_format_at(i);
        const pb_option_desc *tables[2] = {f->read_options, f->write_options};
        for (int t = 0; t < 2; t++)
            for (const pb_option_desc *d = tables[t]; d && d->name; d++) {
                if (pbc_args_find(specs, d->name, strlen(d->name))) continue;
                size_t k = 0;
                while (k < nseen && strcmp(seen[k], d->name) != 0) k++;
                if (k < nseen) continue;
                if (nseen < sizeof seen / sizeof *seen) seen[nseen++] = d->name;
                char lhs[96];
                snprintf(lhs, sizeof lhs, "--%s%s%s", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
                fprintf(out, "  %-26s %s (%s %s)\n", lhs, d->help ? d->help : "", f->name, t ? "writer" : "reader");
            }
    }
}

int pbc_parse_llvm_command(const char *cmd, const char *usage, const pbc_arg_spec *llvm_specs,
                           const pbc_arg_spec *specs, int argc, char **argv, pbc_args *out) {
    int release = 0;
    pbc_release t;
    if (pbc_args_llvm_style && pbc_release_of(cmd, NULL, &t) == 0) release = t.release;
    /* as cl::ParseCommandLineOptions, llvm-profdata-N reports every bad word */
    return pbc_args_parse(cmd, usage, pbc_args_llvm_style ? llvm_specs : specs, argc, argv, release,
                          pbc_args_llvm_style ? PBC_ARGS_ALL_ERRORS : 0, out);
}
