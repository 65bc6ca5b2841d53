/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_overlap.c -- `profbridge overlap BASE TEST`: the report of
 * `llvm-profdata-N overlap` (instrumentation profiles), byte for byte, for
 * inputs of any format, N the release of --llvm-version /
 * PROFBRIDGE_LLVM_VERSION (19 by default): raw and indexed files release N
 * cannot read are refused as it refuses them. Inputs that are not LLVM
 * files (iprof, json) are compared as the .profdata `convert` would make of
 * them.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "compare_read.h"
#include "llvm_input_error.h"
#include "llvm_options.h"
#include "opts.h"

#define USAGE "overlap [options] BASE TEST"

enum { OPT_LLVM_VERSION = PBC_LO_OWN, OPT_LENIENT, OPT_HTML, OPT_JSON };

/* llvm-profdata overlap's options, then ours (llvm_args.h: -x and --x, -x=v
 * and -x v). The llvm-profdata personality parses with LLVM's table alone. */
static const pbc_arg_spec specs[] = {
    PBC_ARG_INCLUDE(pbc_llvm_overlap_options),
    {.name = "llvm-version", .id = OPT_LLVM_VERSION, .kind = PBC_ARG_VALUE, .arg = "N",
     .help = "report as llvm-profdata-N overlap (13..24; default 19)"},
    {.name = "html", .id = OPT_HTML, .kind = PBC_ARG_VALUE, .arg = "FILE",
     .help = "write a self-contained HTML report to FILE instead (functions by divergence)"},
    {.name = "lenient", .id = OPT_LENIENT, .kind = PBC_ARG_BOOL,
     .help = "read the inputs with the readers' lenient rules"},
    {.name = "json", .id = OPT_JSON, .kind = PBC_ARG_BOOL,
     .help = "the report's numbers as JSON (docs/schemas/overlap.schema.json)"},
    PBC_ARG_END};

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " " USAGE "\n"
          "\n"
          "Prints how much two profiles overlap, exactly as `llvm-profdata overlap`\n"
          "does: the program-level edge and value-profile overlap, the number of\n"
          "functions that mismatch (same name, other hash or shape) or are only in\n"
          "TEST, and optionally a function-level report. Inputs may be of any format;\n"
          "iprof records are compared under their LLVM names. --function takes a\n"
          "substring (as llvm-profdata: not a regex); --value-cutoff N reports the TEST\n"
          "functions whose largest counter is >= N.\n"
          "\nOptions (-x and --x alike, -x=V or -x V; docs/llvm-profdata.md):\n",
          out);
    pbc_args_print_help(out, specs, 0);
    fputs("\nExit status: 0 report written, 1 an input is invalid, 2 usage or I/O error.\n", out);
}

/* What the command line asks for. */
typedef struct overlap_request {
    pb_overlap_options oo;
    const char *out_path, *llvm_version, *html;
    int lenient, json, help;
} overlap_request;

static void read_overlap_options(const pbc_args *args, overlap_request *q) {
    for (size_t i = 0; i < args->nopt; i++) {
        const pbc_arg *o = &args->opt[i];
        switch (o->id) {
        case PBC_LO_OUTPUT: q->out_path = o->value; break;
        case PBC_LO_FUNCTION: q->oo.function = o->value; break;
        case PBC_LO_VALUE_CUTOFF: q->oo.value_cutoff = o->u; break;
        case PBC_LO_CS: q->oo.cs = (int)o->u; break;
        case OPT_LENIENT: q->lenient = (int)o->u; break;
        case OPT_HTML: q->html = o->value; break;
        case OPT_JSON: q->json = (int)o->u; break;
        case OPT_LLVM_VERSION: q->llvm_version = o->value; break;
        case PBC_ARG_HELP_ID: q->help = 1; return;
        default: break; /* --instr, --print-options */
        }
    }
}

/* The release, the two inputs and the output, before any input is read
 * (a bad value is a usage error whatever the inputs). */
static int check_overlap_request(const pbc_args *args, overlap_request *q, pbc_release *target) {
    int rc = pbc_release_of("overlap", q->llvm_version, target);
    if (rc == 0) rc = pbc_args_check_release("overlap", args, target->release);
    if (rc) return rc;
    q->oo.llvm_release = target->release;
    if (pbc_llvm_input_count(args->npos, 2, 2, 0)) return 1; /* as llvm-profdata-N: cl::opt's words */
    if (args->npos != 2) {
        pbc_usage_error("overlap", "expected two input files (BASE TEST), got %zu", args->npos);
        return PBC_EXIT_USAGE;
    }
    q->oo.base_name = args->pos[0];
    q->oo.test_name = args->pos[1];
    if (q->html) q->out_path = q->html; /* the HTML report replaces the text one */
    return pbc_check_output("overlap", q->out_path, (const char *const *)args->pos, 2, 1);
}

/* The report (text, JSON or HTML) into OUT. */
static int write_overlap(const pb_profile *base, const pb_profile *test, const overlap_request *q) {
    pb_sink *sink = NULL;
    pb_error err;
    pb_error_clear(&err);
    int rc = PBC_EXIT_OK;
    if (pb_sink_open_file(&sink, q->out_path, 0, &err) ||
        pb_profile_overlap_write(base, test, &q->oo, q->html ? PB_REPORT_HTML : q->json ? PB_REPORT_JSON : PB_REPORT_TEXT,
                                 sink, &err) ||
        pb_sink_commit(sink, &err)) {
        pbc_print_error(&err);
        rc = PBC_EXIT_USAGE;
    }
    pb_sink_free(sink);
    return rc;
}

static int run_overlap(const pbc_args *args) {
    overlap_request q;
    memset(&q, 0, sizeof q);
    q.oo = (pb_overlap_options)PB_OVERLAP_OPTIONS_INIT;
    q.out_path = "-";
    read_overlap_options(args, &q);
    if (q.help) {
        help(stdout);
        return PBC_EXIT_OK;
    }
    pbc_release target;
    int rc = check_overlap_request(args, &q, &target);
    if (rc) return rc;
    /* llvm-profdata overlap sums both inputs' counts first, the base
     * wholly before the test: a file it cannot open fails there, without
     * its name, and a damaged base is blamed before an empty test */
    const char *sums = "error in getting profile count sums";
    pb_profile *base = NULL, *test = NULL;
    rc = pbc_llvm_input_unopenable(q.oo.base_name, sums);
    if (rc == 0) rc = pbc_read_for_compare(q.oo.base_name, 1, &target, q.lenient, &base);
    if (rc == 0) rc = pbc_llvm_input_unopenable(q.oo.test_name, sums);
    if (rc == 0) rc = pbc_read_for_compare(q.oo.test_name, 1, &target, q.lenient, &test);
    if (rc == 0) rc = write_overlap(base, test, &q);
    pb_profile_free(base);
    pb_profile_free(test);
    return rc;
}

int pbc_cmd_overlap(int argc, char **argv) {
    pbc_args args;
    pbc_args_llvm_positionals(2, 2, NULL); /* cl's count after refused words */
    if (pbc_parse_llvm_command("overlap", USAGE, pbc_llvm_overlap_options, specs, argc, argv, &args))
        return PBC_EXIT_USAGE;
    int rc = run_overlap(&args);
    pbc_args_free(&args);
    return rc;
}
