/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_validate.c -- `profbridge validate IN...`: reads every input in the
 * readers' report-all mode and prints every problem, one line each, then one
 * summary line per file. The report goes to standard output; warnings, notes
 * and I/O errors go to standard error.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "llvm_args.h"
#include "opts.h"
#include "progress.h"
#include "util/buf.h"
#include "util/json_text.h"
#include "util/report_version.h"

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " validate IN... [--from FORMAT] [--lenient] [--json]\n"
          "\n"
          "Checks each profile and prints every problem found (not just the first),\n"
          "one line each:\n"
          "  FILE[:LINE:COLUMN]: [byte OFFSET] [(PATH)]: expected ..., found ...\n"
          "then one line per file: 'FILE: valid' or 'FILE: N problems'.\n"
          "'-' reads standard input. After a successful read the model's\n"
          "consistency check runs too.\n"
          "\nOptions:\n"
          "      --from FORMAT    read the inputs as FORMAT instead of recognising them by content\n"
          "      --lenient        apply the readers' lenient rules (problems they can\n"
          "                       repair are not counted)\n"
          "      --json           print one JSON document instead (docs/schemas/validate.schema.json):\n"
          "                       every problem with file, offset, path, expected and found\n"
          "      --progress       show reading progress on stderr, even when it is not a terminal\n"
          "  -q, --quiet          no progress line (default: one on a terminal for big or slow inputs)\n"
          "  -h, --help           show this help\n"
          "\nExit status: 0 every input is valid, 1 some input is invalid,\n"
          "2 usage or I/O error (an input could not be read at all).\n",
          out);
}

enum { OPT_FROM = 1, OPT_LENIENT, OPT_JSON };

/* Parsed with LLVM's rules (llvm_args.h): -x and --x, -x=v and -x v. */
static const pbc_arg_spec specs[] = {
    {.name = "from", .id = OPT_FROM, .kind = PBC_ARG_VALUE, .arg = "FORMAT"},
    {.name = "lenient", .id = OPT_LENIENT, .kind = PBC_ARG_BOOL},
    PBC_ARG_INCLUDE(pbc_progress_specs),
    {.name = "json", .id = OPT_JSON, .kind = PBC_ARG_BOOL},
    PBC_ARG_END};

typedef struct problem_sink {
    const char *name; /* the input, for problems that do not name it */
    size_t problems;
    char last[2048];  /* the last problem printed, to not print the final error twice */
    pb_buf *json;     /* --json: the problems' objects go here instead of stdout */
    pb_error oom;     /* the check ran out of memory: no problem of the input (exit 2) */
    pbc_progress *pg; /* erased before a problem is printed on the terminal */
} problem_sink;

/* `, "KEY": "TEXT"` (json_text.h's rule for bytes that are not UTF-8), or
 * `, "KEY": null` for an empty field. */
static void json_field(pb_buf *b, const char *key, const char *s) {
    pbu_buf_puts(b, ", ");
    if (*s) pbu_json_put_text_member(b, key, s, strlen(s), PBU_JSON_HEX_SUFFIX);
    else pbu_buf_printf(b, "\"%s\": null", key);
}

/* A stable word for an error code (the schema's enum; pb_strerror's
 * sentences are for people and may change). */
static const char *code_word(int code) {
    static const char *const words[] = {"invalid-argument", "out-of-memory", "io",         "format",
                                        "truncated",        "version",       "unsupported", "not-found",
                                        "exists",           "limit"};
    return code <= -1 && code >= -10 ? words[-code - 1] : "other";
}

/* One problem as JSON: the line the text report prints, then its parts. */
static void json_problem(pb_buf *b, const pb_error *e, const char *line, int first) {
    pbu_buf_puts(b, first ? "\n    {" : ",\n    {");
    pbu_json_put_text_member(b, "message", line, strlen(line), PBU_JSON_HEX_SUFFIX);
    pbu_buf_printf(b, ", \"kind\": \"%s\"", code_word(e->code));
    json_field(b, "file", e->source);
    if (e->offset == PB_NO_OFFSET) pbu_buf_puts(b, ", \"offset\": null");
    else pbu_buf_printf(b, ", \"offset\": %llu", (unsigned long long)e->offset);
    json_field(b, "path", e->path);
    if (e->line > 0) pbu_buf_printf(b, ", \"line\": %d, \"column\": %d", e->line, e->column);
    else pbu_buf_puts(b, ", \"line\": null, \"column\": null");
    json_field(b, "expected", e->expected);
    json_field(b, "found", e->found);
    json_field(b, "detail", e->message);
    pbu_buf_putc(b, '}');
}

static void print_problem(problem_sink *ps, const pb_error *e) {
    pbc_progress_clear(ps->pg);
    pb_error copy = *e;
    pb_error_set_source(&copy, ps->name);
    pbc_error_text(&copy, ps->last, sizeof ps->last);
    if (ps->json) json_problem(ps->json, &copy, ps->last, ps->problems == 0);
    else printf("%s\n", ps->last);
    ps->problems++;
}

static void validate_diag(void *ctx, int severity, const pb_error *e) {
    problem_sink *ps = ctx;
    if (e->code == PB_ENOMEM) {
        if (!ps->oom.code) ps->oom = *e;
        return;
    }
    if (severity >= PB_DIAG_ERROR) {
        print_problem(ctx, e);
        return;
    }
    pbc_progress_clear(((problem_sink *)ctx)->pg);
    pbc_diag(NULL, severity, e);
}

/* The end of a file's JSON object: status, count, the error that stopped it. */
static void json_file_end(pb_buf *b, const char *status, size_t problems, const pb_error *stop) {
    pbu_buf_printf(b, "%s], \"status\": \"%s\", \"problem_count\": %zu, \"error\": ", problems ? "\n   " : "",
                   status, problems);
    if (stop) {
        char line[2048];
        pbc_error_text(stop, line, sizeof line);
        pbu_json_put_text(b, line, strlen(line));
    } else {
        pbu_buf_puts(b, "null");
    }
    pbu_buf_putc(b, '}');
}

/* IN read with every problem the reader finds reported to ps (report_all),
 * the input limits applied. */
static int read_reporting_all(pb_source *src, const char *from, int lenient, problem_sink *ps, pb_profile **p,
                              pb_error *err) {
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = from;
    ro.lenient = lenient;
    ro.report_all = 1;
    pbc_apply_limits(&ro);
    ro.diag = validate_diag;
    ro.diag_ctx = ps;
    pbc_progress_watch(ps->pg, src);
    int rc = pb_read(p, src, &ro, err);
    pbc_progress_end(ps->pg);
    return rc;
}

/* What the read (rc) means: a failure of ours (I/O, memory, a limit, an
 * option) leaves the file not fully checked (PBC_EXIT_USAGE); the reader's
 * final error is one more problem unless it repeats the last one; a profile
 * read whole is checked for inconsistencies. Running out of memory in the
 * check is ours too (*rc becomes PB_ENOMEM). */
static int weigh_read(int *rc, const pb_profile *p, pb_error *err, problem_sink *ps) {
    int status = PBC_EXIT_OK;
    if (*rc == PB_EIO || *rc == PB_ENOMEM || *rc == PB_EINVAL || *rc == PB_EUNSUPPORTED || *rc == PB_ELIMIT) {
        pbc_print_error(err);
        status = PBC_EXIT_USAGE;
    } else if (*rc) {
        /* The final error repeats the last problem, or is the only one (a
         * reader that cannot go on, an input no plugin recognises). */
        char line[2048];
        pb_error copy = *err;
        pb_error_set_source(&copy, ps->name);
        pbc_error_text(&copy, line, sizeof line);
        if (ps->problems == 0 || (*rc != PB_EFORMAT && strcmp(line, ps->last) != 0)) print_problem(ps, err);
    } else {
        /* Every inconsistency reaches validate_diag, which counts it. */
        (void)pb_profile_check(p, validate_diag, ps);
    }
    if (ps->oom.code && status != PBC_EXIT_USAGE) { /* reported as out of memory, not counted */
        *err = ps->oom;
        *rc = PB_ENOMEM;
        pbc_print_error(err);
        status = PBC_EXIT_USAGE;
    }
    return status;
}

/* The file's verdict: its JSON object's end, or a line on stdout. */
static void print_verdict(pb_buf *json, const problem_sink *ps, int status, int rc, const pb_error *err) {
    if (json)
        json_file_end(json, status == PBC_EXIT_USAGE ? "incomplete" : ps->problems == 0 && rc == 0 ? "valid" : "invalid",
                      ps->problems, status == PBC_EXIT_USAGE ? err : NULL);
    else if (status == PBC_EXIT_USAGE)
        printf("%s: not fully checked (%s)\n", ps->name, pb_strerror(rc));
    else if (ps->problems == 0 && rc == 0)
        printf("%s: valid\n", ps->name);
    else
        printf("%s: %zu problem%s\n", ps->name, ps->problems, ps->problems == 1 ? "" : "s");
}

/* Validates one input; returns its exit status. With json, appends the
 * file's object to it instead of printing. */
static int validate_one(const char *path, const char *from, int lenient, pb_buf *json,
                        pbc_progress_mode mode) {
    pbc_progress pg;
    problem_sink ps = {strcmp(path, "-") == 0 ? "<stdin>" : path, 0, "", json, {0}, &pg};
    pbc_progress_begin(&pg, mode, "validate", ps.name);
    if (json) {
        pbu_buf_puts(json, "{");
        pbu_json_put_text_member(json, "file", ps.name, strlen(ps.name), PBU_JSON_HEX_SUFFIX);
        pbu_buf_puts(json, ", \"problems\": [");
    }
    pb_source *src = NULL;
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    int rc = pbc_open_input(path, &src, &err);
    if (rc) {
        pbc_print_error(&err);
        if (json) json_file_end(json, "unreadable", 0, &err);
        else printf("%s: not checked (cannot be read)\n", ps.name);
        return PBC_EXIT_USAGE;
    }
    rc = read_reporting_all(src, from, lenient, &ps, &p, &err);
    int status = weigh_read(&rc, p, &err, &ps);
    print_verdict(json, &ps, status, rc, &err);
    if (status == PBC_EXIT_OK && (ps.problems || rc)) status = PBC_EXIT_INVALID;
    pb_profile_free(p);
    pb_source_free(src);
    return status;
}

int pbc_cmd_validate(int argc, char **argv) {
    const char *from = NULL;
    int lenient = 0, json = 0;
    pbc_args a;
    if (pbc_args_parse("validate", "validate [options] IN...", specs, argc, argv, 0, 0, &a)) return PBC_EXIT_USAGE;
    for (size_t i = 0; i < a.nopt; i++) {
        switch (a.opt[i].id) {
        case OPT_FROM: from = a.opt[i].value; break;
        case OPT_LENIENT: lenient = (int)a.opt[i].u; break;
        case OPT_JSON: json = (int)a.opt[i].u; break;
        case PBC_ARG_HELP_ID: help(stdout); pbc_args_free(&a); return PBC_EXIT_OK;
        default: break;
        }
    }
    int status = PBC_EXIT_OK;
    if (a.npos == 0 || (from && !pbc_format_arg("validate", "--from", from))) {
        if (a.npos == 0) pbc_usage_error("validate", "missing input file");
        pbc_args_free(&a);
        return PBC_EXIT_USAGE;
    }
    /* --json: one document, printed once every input is checked */
    pb_buf doc = PB_BUF_INIT;
    if (json) pbu_buf_puts(&doc, "{\"format_version\": \"" PBU_REPORT_VALIDATE "\", \"files\": [");
    for (size_t i = 0; i < a.npos; i++) {
        if (json) pbu_buf_puts(&doc, i ? ",\n  " : "\n  ");
        int s = validate_one(a.pos[i], from, lenient, json ? &doc : NULL, pbc_progress_mode_of(&a));
        if (s > status) status = s;
        /* Problems and summaries appear in order with stderr's messages. */
        fflush(stdout);
    }
    if (json) {
        pbu_buf_printf(&doc, "],\n \"valid\": %s, \"exit_status\": %d}\n", status ? "false" : "true", status);
        if (pbu_buf_failed(&doc)) {
            pbc_msg("out of memory");
            status = PBC_EXIT_USAGE;
        } else {
            fwrite(doc.data, 1, doc.len, stdout);
        }
        pbu_buf_free(&doc);
    }
    pbc_args_free(&a);
    return status;
}
