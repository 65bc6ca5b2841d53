/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* opts.c -- option handling and messages shared by the subcommands (opts.h). */
#define _GNU_SOURCE /* fopencookie: reports are printed through a pb_sink */
#include "opts.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *pbc_args_prog = PBC_PROG;
const char *pbc_args_argv0 = NULL;
const char *pbc_args_tool = PBC_PROG;
int pbc_args_llvm_style = 0;

int pbc_exit_for(int code) {
    switch (code) {
    case PB_OK: return PBC_EXIT_OK;
    case PB_EFORMAT:
    case PB_ETRUNC:
    case PB_EVERSION: return PBC_EXIT_INVALID;
    default: return PBC_EXIT_USAGE;
    }
}

/* Where a message line starts. llvm-profdata prints its own diagnostics
 * through WithColor: "error: ..." / "warning: ..." with no program name (only
 * the command-line parser names the program), so in the personality our
 * lines start the same way; in profbridge's own name they start
 * "profbridge: ". */
static void line_start(const char *label) {
    if (pbc_args_llvm_style) fprintf(stderr, "%s: ", label ? label : "error");
    else if (label) fprintf(stderr, "%s: %s: ", pbc_args_prog, label);
    else fprintf(stderr, "%s: ", pbc_args_prog);
}

void pbc_print_error(const pb_error *e) {
    char line[2048];
    pbc_error_text(e, line, sizeof line);
    line_start(NULL);
    fprintf(stderr, "%s\n", line);
}

void pbc_error_line(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    line_start("error");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void pbc_lenient_hint(int code, int lenient) {
    /* llvm-profdata-N has no --lenient to point at */
    if (code == PB_EFORMAT && !lenient && !pbc_args_llvm_style)
        fputs(PBC_PROG ": note: --lenient keeps what the reader can repair (see the format's notes)\n",
              stderr);
}

void pbc_msg(const char *fmt, ...) {
    /* a message written as a note is one: the personality prints none */
    if (pbc_args_llvm_style && strncmp(fmt, "note: ", 6) == 0) return;
    va_list ap;
    va_start(ap, fmt);
    line_start(NULL);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int pbc_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s %s: ", pbc_args_tool, cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry '%s %s --help' for more information.\n", pbc_args_tool, cmd);
    va_end(ap);
    return PBC_EXIT_USAGE;
}

void pbc_diag(void *ctx, int severity, const pb_error *e) {
    pbc_diag_ctx *c = ctx;
    const char *label = "note";
    if (severity == PB_DIAG_WARNING) label = "warning";
    if (severity >= PB_DIAG_ERROR) label = "error";
    if (c) {
        if (severity == PB_DIAG_NOTICE) c->notices++;
        else if (severity == PB_DIAG_WARNING) c->warnings++;
        else c->errors++;
    }
    /* llvm-profdata has no notes: the personality's stderr is its stderr */
    if (severity == PB_DIAG_NOTICE && pbc_args_llvm_style) return;
    char line[2048];
    pbc_error_text(e, line, sizeof line);
    line_start(label);
    fprintf(stderr, "%s\n", line);
}

static void list_format_names(FILE *out) {
    for (size_t i = 0; i < pb_format_count(); i++)
        fprintf(out, "%s%s", i ? ", " : "", pb_format_at(i)->name);
    if (pb_format_count() == 0) fputs("(none built in)", out);
}

const pb_format *pbc_format_arg(const char *cmd, const char *option, const char *name) {
    const pb_format *f = pb_format_lookup(name);
    if (f) return f;
    fprintf(stderr, PBC_PROG " %s: unknown format '%s' for %s; known formats: ", cmd, name, option);
    list_format_names(stderr);
    fprintf(stderr, "\nTry '" PBC_PROG " %s --help' for more information.\n", cmd);
    return NULL;
}

void pbc_print_formats(FILE *out) {
    if (pb_format_count() == 0) {
        fputs("  (no format plugins are built in)\n", out);
        return;
    }
    for (size_t i = 0; i < pb_format_count(); i++) {
        const pb_format *f = pb_format_at(i);
        char ext[128] = "";
        size_t k = 0;
        for (const char *const *e = f->extensions; e && *e && k < sizeof ext; e++) {
            int w = snprintf(ext + k, sizeof ext - k, "%s%s", k ? " " : "", *e);
            if (w < 0) break;
            k += (size_t)w;
        }
        fprintf(out, "  %-8s %-22s %s%s%s%s\n", f->name, ext[0] ? ext : "-",
                f->description ? f->description : "", f->read ? "" : " [no read]",
                f->write ? "" : " [no write]", f->dump ? "" : " [no dump]");
    }
}

static void print_option_table(FILE *out, const char *plugin, const char *role,
                               const pb_option_desc *d) {
    for (; d && d->name; d++) {
        char lhs[96];
        snprintf(lhs, sizeof lhs, "--%s%s%s", d->name, d->arg ? " " : "", d->arg ? d->arg : "");
        fprintf(out, "  %-26s %s (%s %s)\n", lhs, d->help ? d->help : "", plugin, role);
    }
}

static void print_plugin_options(FILE *out, int writers) {
    int any = 0;
    for (size_t i = 0; i < pb_format_count(); i++) {
        const pb_format *f = pb_format_at(i);
        any |= (f->read_options && f->read_options->name) || (writers && f->write_options && f->write_options->name);
        print_option_table(out, f->name, "reader", f->read_options);
        if (writers) print_option_table(out, f->name, "writer", f->write_options);
    }
    if (!any) fputs("  (none: no built-in plugin declares options)\n", out);
}

void pbc_print_plugin_reader_options(FILE *out) { print_plugin_options(out, 0); }

static int declared_in(const pb_option_desc *d, const char *key) {
    for (; d && d->name; d++)
        if (strcmp(d->name, key) == 0) return 1;
    return 0;
}

int pbc_check_plugin_options(const char *cmd, const pbc_plugin_opts *po, const pb_format *in,
                             const pb_format *out) {
    for (size_t i = 0; i < po->n; i++) {
        const char *key = po->kv[i].key;
        if ((in && declared_in(in->read_options, key)) || (out && declared_in(out->write_options, key)))
            continue;
        fprintf(stderr, PBC_PROG " %s: option '--%s' belongs to no plugin in use (", cmd, key);
        if (in) fprintf(stderr, "reader '%s'", in->name);
        if (in && out) fputs(", ", stderr);
        if (out) fprintf(stderr, "writer '%s'", out->name);
        fputs(")\n", stderr);
        int any = 0;
        if (in && in->read_options && in->read_options->name) any = 1;
        if (out && out->write_options && out->write_options->name) any = 1;
        if (any) {
            fputs("Options of the plugins in use:\n", stderr);
            if (in) print_option_table(stderr, in->name, "reader", in->read_options);
            if (out) print_option_table(stderr, out->name, "writer", out->write_options);
        } else {
            fputs("The plugins in use take no options.\n", stderr);
        }
        return PBC_EXIT_USAGE;
    }
    return 0;
}

void pbc_plugin_opts_free(pbc_plugin_opts *po) {
    free(po->kv);
    po->kv = NULL;
    po->n = 0;
}

int pbc_finish_stdout(void) {
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        pbc_msg("cannot write to standard output: %s", errno ? strerror(errno) : "write error");
        return PBC_EXIT_USAGE;
    }
    return 0;
}

int pbc_parse_u64(const char *s, uint64_t *out) {
    if (!s || *s < '0' || *s > '9') return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v))
            return -1;
    }
    *out = v;
    return 0;
}

int pbc_parse_bool(const char *s) {
    if (!s || strcmp(s, "true") == 0 || strcmp(s, "1") == 0 || strcmp(s, "TRUE") == 0 ||
        strcmp(s, "True") == 0)
        return 1;
    if (strcmp(s, "false") == 0 || strcmp(s, "0") == 0 || strcmp(s, "FALSE") == 0 ||
        strcmp(s, "False") == 0)
        return 0;
    return -1;
}

/* stdio's buffer for a file or pipe is 4 KiB: 2000 write()s for the 8 MB of
 * a 100k-function listing. */
#define OUT_BUFFER (256 * 1024)

/* The report file open through pbc_open_out: a stdio stream whose bytes go
 * into a pb_sink, so reports follow the rules of every output (io.h). A
 * command has one report at a time. */
static struct {
    FILE *file;
    pb_sink *sink;
    pb_error err; /* the sink's first failure */
} report;

static ssize_t report_write(void *cookie, const char *buf, size_t n) {
    (void)cookie;
    if (pb_sink_write(report.sink, buf, n, &report.err) != 0) {
        errno = EIO;
        return -1;
    }
    return (ssize_t)n;
}

FILE *pbc_open_out(const char *out_path) {
    FILE *out = stdout;
    if (out_path && strcmp(out_path, "-") != 0) {
        pb_error_clear(&report.err);
        if (report.file || pb_sink_open_file(&report.sink, out_path, 0, &report.err) != 0) {
            if (!report.file) pbc_print_error(&report.err);
            return NULL;
        }
        cookie_io_functions_t io = {NULL, report_write, NULL, NULL};
        if (!(out = fopencookie(NULL, "w", io))) {
            pbc_msg("cannot open '%s' for writing: %s", out_path, strerror(errno));
            pb_sink_free(report.sink);
            report.sink = NULL;
            return NULL;
        }
        report.file = out;
    }
    setvbuf(out, NULL, _IOFBF, OUT_BUFFER);
    return out;
}

int pbc_close_out(FILE *out, const char *out_path, int exit_code) {
    if (out == stdout || out != report.file) return exit_code;
    (void)out_path;
    errno = 0;
    int closed = fclose(out);
    report.file = NULL;
    /* A failed command leaves OUT as it was (the temporary file goes). */
    if (exit_code == PBC_EXIT_OK && (closed != 0 || pb_sink_commit(report.sink, &report.err) != 0)) {
        if (!report.err.code) pb_error_set(&report.err, PB_EIO, PB_NO_OFFSET, NULL, "write error");
        pb_error_set_source(&report.err, out_path);
        pbc_print_error(&report.err);
        exit_code = PBC_EXIT_USAGE;
    }
    pb_sink_free(report.sink);
    report.sink = NULL;
    return exit_code;
}

/* ---- input limits and the output-is-an-input check -------------------------- */

pbc_limits_t pbc_limits = {0, 0};

/* "N", "NK", "NM", "NG", "NT" (binary units, an optional "iB"/"B"); 0 = no limit. */
static int parse_size(const char *s, uint64_t *out) {
    char num[32];
    size_t k = 0;
    while (s[k] >= '0' && s[k] <= '9' && k < sizeof num - 1) num[k] = s[k], k++;
    num[k] = '\0';
    uint64_t v, mul = 1;
    if (k == 0 || pbc_parse_u64(num, &v)) return -1;
    const char *u = s + k;
    if (*u) {
        const char *units = "KMGT";
        const char *p = strchr(units, *u >= 'a' ? *u - 32 : *u);
        if (!p || !*u) return -1;
        for (const char *q = units; q <= p; q++) mul <<= 10;
        u++;
        if (strcmp(u, "") && strcmp(u, "B") && strcmp(u, "iB")) return -1;
    }
    if (__builtin_mul_overflow(v, mul, &v)) return -1;
    *out = v ? v : PB_NO_LIMIT;
    return 0;
}

const pbc_limit_option pbc_limit_options[] = {{"max-input-size", "SIZE"}, {"max-inflation", "RATIO"}};
const size_t pbc_limit_option_count = sizeof pbc_limit_options / sizeof pbc_limit_options[0];

int pbc_take_limit_options(int *argc, char **argv) {
    const char *const names[2] = {pbc_limit_options[0].name, pbc_limit_options[1].name};
    int n = *argc, w = 1;
    for (int i = 1; i < n; i++) {
        char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            while (i < n) argv[w++] = argv[i++];
            break;
        }
        const char *name = a[0] == '-' ? a + 1 + (a[1] == '-') : NULL;
        int which = -1;
        const char *val = NULL;
        for (int k = 0; name && k < 2 && which < 0; k++) {
            size_t len = strlen(names[k]);
            if (strncmp(name, names[k], len) == 0 && (name[len] == '\0' || name[len] == '=')) {
                which = k;
                val = name[len] == '=' ? name + len + 1 : NULL;
            }
        }
        if (which < 0) {
            argv[w++] = a;
            continue;
        }
        if (!val) {
            if (i + 1 >= n) {
                pbc_msg("option '--%s' needs a value", names[which]);
                return PBC_EXIT_USAGE;
            }
            val = argv[++i];
        }
        uint64_t v;
        if (which == 0 ? parse_size(val, &v) : pbc_parse_u64(val, &v)) {
            pbc_msg("--%s wants %s, got '%s'", names[which],
                    which == 0 ? "a size in bytes (K, M, G, T suffixes allowed; 0 = no limit)"
                               : "a ratio (0 = no limit)",
                    val);
            return PBC_EXIT_USAGE;
        }
        if (which == 0) pbc_limits.max_input_size = v;
        else pbc_limits.max_inflation = v ? v : PB_NO_LIMIT;
    }
    argv[w] = NULL;
    *argc = w;
    return 0;
}

void pbc_apply_limits(pb_read_options *ro) {
    ro->max_input_size = pbc_limits.max_input_size;
    ro->max_inflation = pbc_limits.max_inflation;
}

int pbc_open_input(const char *path, pb_source **src, pb_error *err) {
    int rc = pb_source_open_file(src, path, err);
    if (rc == 0) pb_source_set_limits(*src, pbc_limits.max_input_size, pbc_limits.max_inflation);
    return rc;
}

int pbc_check_output(const char *cmd, const char *out_path, const char *const *inputs, size_t n, int is_report) {
    if (!out_path || strcmp(out_path, "-") == 0) return 0;
    pb_error err;
    pb_error_clear(&err);
    if (pb_sink_check(out_path, &err) != 0) {
        pbc_print_error(&err);
        return PBC_EXIT_USAGE;
    }
    if (pb_sink_check_inputs(out_path, inputs, n, is_report, &err) != 0) {
        pbc_msg("%s: %s", cmd, err.message);
        return PBC_EXIT_USAGE;
    }
    return 0;
}

const char *pbc_release_env;

int pbc_release_of(const char *cmd, const char *value, pbc_release *r) {
    const char *what = "--llvm-version";
    if (!value && pbc_release_env && *pbc_release_env) {
        value = pbc_release_env;
        what = "PROFBRIDGE_LLVM_VERSION";
    }
    if (!value) {
        *r = (pbc_release){pb_release_default(), 0};
        return 0;
    }
    int n = 0;
    pb_error e;
    if (pb_release_parse(value, what, &n, &e))
        return pbc_usage_error(cmd, "%s wants an LLVM release from %d to %d, got '%s'", what, pb_release_min(),
                               pb_release_max(), value);
    *r = (pbc_release){n, 1};
    return 0;
}
