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

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " validate IN... [--from FORMAT] [--lenient]\n"
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
          "  -h, --help           show this help\n"
          "\nExit status: 0 every input is valid, 1 some input is invalid,\n"
          "2 usage or I/O error (an input could not be read at all).\n",
          out);
}

enum { OPT_FROM = 1, OPT_LENIENT };

/* Parsed with LLVM's rules (llvm_args.h): -x and --x, -x=v and -x v. */
static const pbc_arg_spec specs[] = {
    {.name = "from", .id = OPT_FROM, .kind = PBC_ARG_VALUE, .arg = "FORMAT"},
    {.name = "lenient", .id = OPT_LENIENT, .kind = PBC_ARG_BOOL},
    PBC_ARG_END};

typedef struct problem_sink {
    const char *name; /* the input, for problems that do not name it */
    size_t problems;
    char last[2048];  /* the last problem printed, to not print the final error twice */
} problem_sink;

static void print_problem(problem_sink *ps, const pb_error *e) {
    pb_error copy = *e;
    pb_error_set_source(&copy, ps->name);
    pbc_error_text(&copy, ps->last, sizeof ps->last);
    printf("%s\n", ps->last);
    ps->problems++;
}

static void validate_diag(void *ctx, int severity, const pb_error *e) {
    if (severity >= PB_DIAG_ERROR) {
        print_problem(ctx, e);
        return;
    }
    pbc_diag(NULL, severity, e);
}

/* Validates one input; returns its exit status. */
static int validate_one(const char *path, const char *from, int lenient) {
    problem_sink ps = {strcmp(path, "-") == 0 ? "<stdin>" : path, 0, ""};
    pb_source *src = NULL;
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    int rc = pbc_open_input(path, &src, &err);
    if (rc) {
        pbc_print_error(&err);
        printf("%s: not checked (cannot be read)\n", ps.name);
        return PBC_EXIT_USAGE;
    }
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = from;
    ro.lenient = lenient;
    ro.report_all = 1;
    pbc_apply_limits(&ro);
    ro.diag = validate_diag;
    ro.diag_ctx = &ps;
    rc = pb_read(&p, src, &ro, &err);
    int status = PBC_EXIT_OK;
    if (rc == PB_EIO || rc == PB_ENOMEM || rc == PB_EINVAL || rc == PB_EUNSUPPORTED || rc == PB_ELIMIT) {
        pbc_print_error(&err);
        status = PBC_EXIT_USAGE;
    } else if (rc) {
        /* The final error repeats the last problem, or is the only one (a
         * reader that cannot go on, an input no plugin recognises). */
        char line[2048];
        pb_error copy = err;
        pb_error_set_source(&copy, ps.name);
        pbc_error_text(&copy, line, sizeof line);
        if (ps.problems == 0 || (rc != PB_EFORMAT && strcmp(line, ps.last) != 0)) print_problem(&ps, &err);
    } else {
        /* Every inconsistency reaches validate_diag, which counts it. */
        (void)pb_profile_check(p, validate_diag, &ps);
    }
    if (status == PBC_EXIT_USAGE)
        printf("%s: not fully checked (%s)\n", ps.name, pb_strerror(rc));
    else if (ps.problems == 0 && rc == 0)
        printf("%s: valid\n", ps.name);
    else
        printf("%s: %zu problem%s\n", ps.name, ps.problems, ps.problems == 1 ? "" : "s");
    if (status == PBC_EXIT_OK && (ps.problems || rc)) status = PBC_EXIT_INVALID;
    pb_profile_free(p);
    pb_source_free(src);
    return status;
}

int pbc_cmd_validate(int argc, char **argv) {
    const char *from = NULL;
    int lenient = 0;
    pbc_args a;
    if (pbc_args_parse("validate", "validate [options] IN...", specs, argc, argv, 0, 0, &a)) return PBC_EXIT_USAGE;
    for (size_t i = 0; i < a.nopt; i++) {
        switch (a.opt[i].id) {
        case OPT_FROM: from = a.opt[i].value; break;
        case OPT_LENIENT: lenient = (int)a.opt[i].u; break;
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
    for (size_t i = 0; i < a.npos; i++) {
        int s = validate_one(a.pos[i], from, lenient);
        if (s > status) status = s;
        /* Problems and summaries appear in order with stderr's messages. */
        fflush(stdout);
    }
    pbc_args_free(&a);
    return status;
}
