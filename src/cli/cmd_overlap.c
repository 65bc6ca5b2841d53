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
#include "opts.h"

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " overlap BASE TEST [options]\n"
          "\n"
          "Prints how much two profiles overlap, exactly as `llvm-profdata overlap`\n"
          "does: the program-level edge and value-profile overlap, the number of\n"
          "functions that mismatch (same name, other hash or shape) or are only in\n"
          "TEST, and optionally a function-level report. Inputs may be of any format;\n"
          "iprof records are compared under their LLVM names.\n"
          "\nOptions:\n"
          "  -o, --output OUT        write the report to OUT instead of standard output\n"
          "      --function STR      function-level report for the TEST functions whose name\n"
          "                          contains STR (a substring, as llvm-profdata: not a regex)\n"
          "      --value-cutoff N    function-level report for the TEST functions whose largest\n"
          "                          counter is >= N\n"
          "      --cs                count sums over context-sensitive records only\n"
          "      --llvm-version N    report as llvm-profdata-N overlap (13..24; default\n"
          "                          PROFBRIDGE_LLVM_VERSION, else 19)\n"
          "      --lenient           read the inputs with the readers' lenient rules\n"
          "      --instr             accepted for compatibility (the default and only kind)\n"
          "  -h, --help              show this help\n"
          "\nExit status: 0 report written, 1 an input is invalid, 2 usage or I/O error.\n",
          out);
}

enum { OPT_FUNCTION = 256, OPT_CUTOFF, OPT_CS, OPT_INSTR, OPT_LENIENT, OPT_LLVM_VERSION };

static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                         {"function", required_argument, NULL, OPT_FUNCTION},
                                         {"value-cutoff", required_argument, NULL, OPT_CUTOFF},
                                         {"cs", no_argument, NULL, OPT_CS},
                                         {"instr", no_argument, NULL, OPT_INSTR},
                                         {"lenient", no_argument, NULL, OPT_LENIENT},
                                         {"llvm-version", required_argument, NULL, OPT_LLVM_VERSION},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

int pbc_cmd_overlap(int argc, char **argv) {
    pb_overlap_options oo = PB_OVERLAP_OPTIONS_INIT;
    const char *out_path = "-", *llvm_version = NULL;
    int c, lenient = 0, rc = PBC_EXIT_USAGE;
    pb_profile *base = NULL, *test = NULL;
    pb_sink *sink = NULL;
    pb_error err;
    pb_error_clear(&err);

    /* _only: llvm-profdata also takes -cs, -value-cutoff=N, -function=S. */
    while ((c = getopt_long_only(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out_path = optarg; break;
        case OPT_FUNCTION: oo.function = optarg; break;
        case OPT_CUTOFF:
            if (pbc_parse_u64(optarg, &oo.value_cutoff)) {
                pbc_usage_error("overlap", "--value-cutoff wants a number, got '%s'", optarg);
                goto out;
            }
            break;
        case OPT_CS: oo.cs = 1; break;
        case OPT_INSTR: break;
        case OPT_LENIENT: lenient = 1; break;
        case OPT_LLVM_VERSION: llvm_version = optarg; break;
        case 'h': help(stdout); rc = PBC_EXIT_OK; goto out;
        default: pbc_try_help("overlap"); goto out;
        }
    }
    /* the release, before any input is read (a bad value is a usage error
     * whatever the inputs) */
    pbi_llvm_target target;
    if ((rc = pbc_llvm_target("overlap", llvm_version, &target)) != 0) goto out;
    rc = PBC_EXIT_USAGE;
    oo.llvm_release = target.release;
    if (argc - optind != 2) {
        pbc_usage_error("overlap", "expected two input files (BASE TEST), got %d", argc - optind);
        goto out;
    }
    oo.base_name = argv[optind];
    oo.test_name = argv[optind + 1];
    if ((rc = pbc_check_output("overlap", out_path, (const char *const *)argv + optind, 2)) != 0) goto out;
    if ((rc = pbc_read_for_compare(oo.base_name, 1, &target, lenient, &base)) != 0) goto out;
    if ((rc = pbc_read_for_compare(oo.test_name, 1, &target, lenient, &test)) != 0) goto out;
    rc = PBC_EXIT_USAGE;
    if (pb_sink_open_file(&sink, out_path, 0, &err) || pb_profile_overlap(base, test, &oo, sink, &err) ||
        pb_sink_commit(sink, &err)) {
        pbc_print_error(&err);
        goto out;
    }
    rc = PBC_EXIT_OK;
out:
    pb_sink_free(sink);
    pb_profile_free(base);
    pb_profile_free(test);
    return rc;
}
