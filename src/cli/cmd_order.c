/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_order.c -- `profbridge order IN`: the function order `llvm-profdata
 * order` prints for the temporal profile traces of IN, byte for byte
 * (src/order.c computes it; docs/order.md). IN may be of any format the
 * readers know: raw (its one trace), indexed, text, json.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "llvm/target.h"
#include "opts.h"
#include "profbridge/order.h"
#include "read_input.h"

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " order IN [-o OUT] [--num-test-traces N] [--llvm-version N]\n"
          "\n"
          "Prints a function order for the temporal profile traces in IN (a profile of a\n"
          "program built with -fprofile-generate -mllvm -pgo-temporal-instrumentation,\n"
          "usually several runs merged), exactly as `llvm-profdata order` prints it:\n"
          "\"# Ordered N functions\", comment lines, then one function per line, a local\n"
          "function's file on a \"# FILE\" line before it. The order comes from LLVM's\n"
          "balanced partitioning and keeps functions used at the same time together, so\n"
          "that start-up touches fewer pages (pass it to the linker, e.g. lld\n"
          "--symbol-ordering-file). Without traces: \"# Ordered 0 functions\".\n"
          "\nOptions:\n"
          "  -o, --output OUT          write the order to OUT instead of standard output\n"
          "      --num-test-traces N   keep the last N traces aside and print the area under\n"
          "                            the page fault curve of the order for them (N must be\n"
          "                            smaller than the number of traces; LLVM 19+)\n"
          "      --llvm-version N      the output of llvm-profdata N: 17 to 24 (default 19, or\n"
          "                            PROFBRIDGE_LLVM_VERSION)\n"
          "      --from FORMAT         read IN as FORMAT instead of detecting it\n"
          "      --lenient             read IN with the readers' lenient rules\n"
          "  -h, --help                show this help\n"
          "\nExit status: 0 order written, 1 IN is invalid, 2 usage or I/O error.\n",
          out);
}

enum { OPT_TEST = 256, OPT_LLVM, OPT_FROM, OPT_LENIENT };

static const struct option longopts[] = {{"output", required_argument, NULL, 'o'},
                                         {"num-test-traces", required_argument, NULL, OPT_TEST},
                                         {"llvm-version", required_argument, NULL, OPT_LLVM},
                                         {"from", required_argument, NULL, OPT_FROM},
                                         {"lenient", no_argument, NULL, OPT_LENIENT},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

int pbc_cmd_order(int argc, char **argv) {
    pb_order_options oo = PB_ORDER_OPTIONS_INIT;
    const char *out_path = "-", *llvm = NULL, *from = NULL;
    int c, lenient = 0, rc = PBC_EXIT_USAGE;
    pb_profile *p = NULL;
    pb_sink *sink = NULL;
    pb_error err;
    pb_error_clear(&err);

    /* _only: llvm-profdata also takes -num-test-traces=N, -output=F. */
    while ((c = getopt_long_only(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out_path = optarg; break;
        case OPT_TEST:
            if (pbc_parse_u64(optarg, &oo.num_test_traces)) {
                pbc_usage_error("order", "--num-test-traces wants a number, got '%s'", optarg);
                goto out;
            }
            break;
        case OPT_LLVM: llvm = optarg; break;
        case OPT_FROM:
            if (!pbc_format_arg("order", "--from", optarg)) goto out;
            from = optarg;
            break;
        case OPT_LENIENT: lenient = 1; break;
        case 'h': help(stdout); rc = PBC_EXIT_OK; goto out;
        default: pbc_try_help("order"); goto out;
        }
    }
    if (argc - optind != 1) {
        pbc_usage_error("order", "expected one input file, got %d", argc - optind);
        goto out;
    }
    pbi_llvm_target t;
    if (pbc_llvm_target("order", llvm, &t)) goto out;
    if (t.release < 17) {
        pbc_usage_error("order", "llvm-profdata order exists from LLVM 17 on; --llvm-version %d has none",
                        t.release);
        goto out;
    }
    if (t.release < 19 && oo.num_test_traces) {
        pbc_usage_error("order", "--num-test-traces exists from LLVM 19 on, not with --llvm-version %d", t.release);
        goto out;
    }
    oo.llvm_version = t.release;
    if ((rc = pbc_read_input(argv[optind], from, lenient, &p)) != PBC_EXIT_OK) goto out;
    rc = PBC_EXIT_USAGE;
    size_t n = 0;
    if (pb_sink_open_file(&sink, out_path, 0, &err) || pb_profile_order_write(p, &oo, sink, &n, &err) ||
        pb_sink_commit(sink, &err)) {
        if (!err.source[0]) snprintf(err.source, sizeof err.source, "%s", argv[optind]);
        pbc_print_error(&err);
        goto out;
    }
    /* LLVM 17 printed the count as a note (WithColor::note) on stderr */
    if (t.release == 17) fprintf(stderr, "note: # Ordered %zu functions\n", n);
    rc = PBC_EXIT_OK;
out:
    pb_sink_free(sink);
    pb_profile_free(p);
    return rc;
}
