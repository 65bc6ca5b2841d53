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

#include "analysis/report_html.h"
#include "cli.h"
#include "compare_read.h"
#include "llvm_input_error.h"
#include "llvm_options.h"
#include "opts.h"
#include "analysis/overlap_report.h"

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

int pbc_cmd_overlap(int argc, char **argv) {
    pb_overlap_options oo = PB_OVERLAP_OPTIONS_INIT;
    const char *out_path = "-", *llvm_version = NULL, *html = NULL;
    int lenient = 0, json = 0, rc = PBC_EXIT_USAGE;
    pb_profile *base = NULL, *test = NULL;
    pb_sink *sink = NULL;
    pbc_args args;
    pb_error err;
    pb_error_clear(&err);

    if (pbc_parse_llvm_command("overlap", USAGE, pbc_llvm_overlap_options, specs, argc, argv, &args))
        return PBC_EXIT_USAGE;
    for (size_t i = 0; i < args.nopt; i++) {
        const pbc_arg *o = &args.opt[i];
        switch (o->id) {
        case PBC_LO_OUTPUT: out_path = o->value; break;
        case PBC_LO_FUNCTION: oo.function = o->value; break;
        case PBC_LO_VALUE_CUTOFF: oo.value_cutoff = o->u; break;
        case PBC_LO_CS: oo.cs = (int)o->u; break;
        case OPT_LENIENT: lenient = (int)o->u; break;
        case OPT_HTML: html = o->value; break;
        case OPT_JSON: json = (int)o->u; break;
        case OPT_LLVM_VERSION: llvm_version = o->value; break;
        case PBC_ARG_HELP_ID: help(stdout); rc = PBC_EXIT_OK; goto out;
        default: break; /* --instr, --print-options */
        }
    }
    /* the release, before any input is read (a bad value is a usage error
     * whatever the inputs) */
    pbi_llvm_target target;
    if ((rc = pbc_llvm_target("overlap", llvm_version, &target)) != 0) goto out;
    if ((rc = pbc_args_check_release("overlap", &args, target.release)) != 0) goto out;
    rc = PBC_EXIT_USAGE;
    oo.llvm_release = target.release;
    if (pbc_llvm_input_count(args.npos, 2, 2, 0)) { /* as llvm-profdata-N: cl::opt's words */
        rc = 1;
        goto out;
    }
    if (args.npos != 2) {
        pbc_usage_error("overlap", "expected two input files (BASE TEST), got %zu", args.npos);
        goto out;
    }
    oo.base_name = args.pos[0];
    oo.test_name = args.pos[1];
    if (html) out_path = html; /* the HTML report replaces the text one */
    if ((rc = pbc_check_output("overlap", out_path, (const char *const *)args.pos, 2)) != 0) goto out;
    /* llvm-profdata overlap sums both inputs' counts first; a file it
     * cannot open fails there, without its name */
    if (pbc_llvm_input_unopenable(oo.base_name, "error in getting profile count sums") ||
        pbc_llvm_input_unopenable(oo.test_name, "error in getting profile count sums")) {
        rc = 1;
        goto out;
    }
    if ((rc = pbc_read_for_compare(oo.base_name, 1, &target, lenient, &base)) != 0) goto out;
    if ((rc = pbc_read_for_compare(oo.test_name, 1, &target, lenient, &test)) != 0) goto out;
    rc = PBC_EXIT_USAGE;
    if (pb_sink_open_file(&sink, out_path, 0, &err) ||
        (html ? pbi_html_overlap(base, test, oo.base_name, oo.test_name, sink, &err)
              : pbi_profile_overlap_report(base, test, &oo, json, sink, &err)) ||
        pb_sink_commit(sink, &err)) {
        pbc_print_error(&err);
        goto out;
    }
    rc = PBC_EXIT_OK;
out:
    pb_sink_free(sink);
    pb_profile_free(base);
    pb_profile_free(test);
    pbc_args_free(&args);
    return rc;
}
