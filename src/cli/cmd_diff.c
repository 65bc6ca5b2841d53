/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_diff.c -- `profbridge diff A B [--json]`: records only in A, only in B
 * and changed, largest change first. The exit status says whether the
 * profiles differ, so scripts can use it like cmp(1).
 */
#include <stdio.h>

#include "cli.h"
#include "compare_read.h"
#include "llvm_args.h"
#include "opts.h"

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " diff A B [--json | --html FILE] [-o OUT] [-q] [--lenient]\n"
          "\n"
          "Compares two profiles record by record, as llvm-profdata sees them: an\n"
          "iprof or json file as the .profdata that convert writes of it (jmeta:\n"
          "records included), the records show --llvm lists and overlap counts. So a\n"
          "file and its conversion to any format are equal. Lists the records only in A,\n"
          "only in B and changed (counters, bitmap bytes, value sites; deltas are\n"
          "B - A), ordered by impact, largest first: the sum of |counter deltas| and\n"
          "|value-count deltas| (for a record on one side only: the sum of its counts).\n"
          "Flags, binary ids and traces are not compared.\n"
          "\nOptions:\n"
          "      --json          machine-readable output (docs/overlap-diff.md)\n"
          "      --html FILE     write a self-contained HTML report to FILE instead\n"
          "                      (top 500 functions by impact, counter bars, filter box)\n"
          "  -o, --output OUT    write the report to OUT instead of standard output\n"
          "      --lenient       read the inputs with the readers' lenient rules\n"
          "  -q, --quiet         print nothing; only the exit status tells\n"
          "  -h, --help          show this help\n"
          "\nExit status: 0 equal, 1 different, 2 error (unreadable or invalid input,\n"
          "usage).\n",
          out);
}

enum { OPT_JSON = 1, OPT_OUTPUT, OPT_QUIET, OPT_LENIENT, OPT_HTML };

/* Parsed with LLVM's rules (llvm_args.h): -x and --x, -x=v and -x v. */
static const pbc_arg_spec specs[] = {
    {.name = "json", .id = OPT_JSON, .kind = PBC_ARG_BOOL},
    {.name = "html", .id = OPT_HTML, .kind = PBC_ARG_VALUE, .arg = "FILE"},
    {.name = "output", .alias = "o", .id = OPT_OUTPUT, .kind = PBC_ARG_VALUE, .arg = "OUT"},
    {.name = "quiet", .alias = "q", .id = OPT_QUIET, .kind = PBC_ARG_BOOL},
    {.name = "lenient", .id = OPT_LENIENT, .kind = PBC_ARG_BOOL},
    PBC_ARG_END};

int pbc_cmd_diff(int argc, char **argv) {
    const char *out_path = "-", *html = NULL;
    int json = 0, quiet = 0, lenient = 0, rc = PBC_EXIT_USAGE;
    pb_profile *a = NULL, *b = NULL;
    pb_diff *d = NULL;
    pb_sink *sink = NULL;
    pb_error err;
    pb_error_clear(&err);

    pbc_args args;
    if (pbc_args_parse("diff", "diff [options] A B", specs, argc, argv, 0, 0, &args)) return PBC_EXIT_USAGE;
    for (size_t i = 0; i < args.nopt; i++) {
        const pbc_arg *o = &args.opt[i];
        switch (o->id) {
        case OPT_JSON: json = (int)o->u; break;
        case OPT_OUTPUT: out_path = o->value; break;
        case OPT_HTML: html = o->value; break;
        case OPT_QUIET: quiet = (int)o->u; break;
        case OPT_LENIENT: lenient = (int)o->u; break;
        case PBC_ARG_HELP_ID: help(stdout); rc = PBC_EXIT_OK; goto out;
        default: break;
        }
    }
    if (args.npos != 2) {
        pbc_usage_error("diff", "expected two input files (A B), got %zu", args.npos);
        goto out;
    }
    char **in = args.pos;
    /* Any failure is exit 2 here: 1 means "different". */
    if (html) out_path = html; /* the HTML report replaces the text one */
    if (!quiet && pbc_check_output("diff", out_path, (const char *const *)in, 2, 1)) goto out;
    /* both as llvm-profdata sees them (compare_read.h): the records show
     * --llvm lists and overlap counts */
    if (pbc_read_for_compare(in[0], 1, NULL, lenient, &a) || pbc_read_for_compare(in[1], 1, NULL, lenient, &b)) goto out;
    if (pb_profile_diff(a, b, &d, &err) ||
        (!quiet && (pb_sink_open_file(&sink, out_path, 0, &err) ||
                    (html ? pb_diff_write_html(d, a, b, in[0], in[1], sink, &err)
                          : pb_diff_write(d, a, b, in[0], in[1], json, sink, &err)) ||
                    pb_sink_commit(sink, &err)))) {
        pbc_print_error(&err);
        goto out;
    }
    rc = pb_diff_count(d) ? PBC_EXIT_INVALID : PBC_EXIT_OK;
out:
    pb_sink_free(sink);
    pb_diff_free(d);
    pb_profile_free(a);
    pb_profile_free(b);
    pbc_args_free(&args);
    return rc;
}
