/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_order.c -- `profbridge order IN`: the function order `llvm-profdata
 * order` prints for the temporal profile traces of IN, byte for byte
 * (src/analysis/order.c computes it; docs/order.md). IN may be of any format the
 * readers know: raw (its one trace), indexed, text, json.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "llvm_input_error.h"
#include "llvm_options.h"
#include "opts.h"
#include "profbridge/order.h"
#include "read_input.h"

#define USAGE "order [options] IN"

enum { OPT_LLVM = PBC_LO_OWN, OPT_FROM, OPT_LENIENT };

/* llvm-profdata order's options, then ours (llvm_args.h: -x and --x, -x=v and -x v). */
static const pbc_arg_spec specs[] = {
    PBC_ARG_INCLUDE(pbc_llvm_order_options),
    {.name = "llvm-version", .id = OPT_LLVM, .kind = PBC_ARG_VALUE, .arg = "N",
     .help = "the output of llvm-profdata N: 17 to 24 (default 19, or PROFBRIDGE_LLVM_VERSION)"},
    {.name = "from", .id = OPT_FROM, .kind = PBC_ARG_VALUE, .arg = "FORMAT",
     .help = "read IN as FORMAT instead of detecting it"},
    {.name = "lenient", .id = OPT_LENIENT, .kind = PBC_ARG_BOOL, .help = "read IN with the readers' lenient rules"},
    PBC_ARG_END};

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " " USAGE "\n"
          "\n"
          "Prints a function order for the temporal profile traces in IN (a profile of a\n"
          "program built with -fprofile-generate -mllvm -pgo-temporal-instrumentation,\n"
          "usually several runs merged), exactly as `llvm-profdata order` prints it:\n"
          "\"# Ordered N functions\", comment lines, then one function per line, a local\n"
          "function's file on a \"# FILE\" line before it. The order comes from LLVM's\n"
          "balanced partitioning and keeps functions used at the same time together, so\n"
          "that start-up touches fewer pages (pass it to the linker, e.g. lld\n"
          "--symbol-ordering-file). Without traces: \"# Ordered 0 functions\".\n"
          "\nOptions (-x and --x alike, -x=V or -x V; docs/llvm-profdata.md):\n",
          out);
    pbc_args_print_help(out, specs, 0);
    fputs("\n--num-test-traces N must be smaller than the number of traces (LLVM 19+).\n"
          "Exit status: 0 order written, 1 IN is invalid, 2 usage or I/O error.\n",
          out);
}

/* What the command line asks for. */
typedef struct order_request {
    pb_order_options oo;
    const char *out_path, *llvm, *from;
    int lenient;
    const pbc_arg *test; /* --num-test-traces, when given */
} order_request;

/* The options in order: -1 to go on, else the exit status (a bad --from,
 * or --help shown). */
static int read_order_options(const pbc_args *args, order_request *q) {
    for (size_t i = 0; i < args->nopt; i++) {
        const pbc_arg *o = &args->opt[i];
        switch (o->id) {
        case PBC_LO_OUTPUT: q->out_path = o->value; break;
        case PBC_LO_NUM_TEST_TRACES: q->test = o; q->oo.num_test_traces = o->u; break;
        case OPT_LLVM: q->llvm = o->value; break;
        case OPT_FROM:
            if (!pbc_format_arg("order", "--from", o->value)) return PBC_EXIT_USAGE;
            q->from = o->value;
            break;
        case OPT_LENIENT: q->lenient = (int)o->u; break;
        case PBC_ARG_HELP_ID: help(stdout); return PBC_EXIT_OK;
        default: break;
        }
    }
    return -1;
}

/* One input, and a release that has `order` (and --num-test-traces when
 * given). */
static int check_order_request(const pbc_args *args, order_request *q, pbc_release *t) {
    if (pbc_args_llvm_style && args->npos == 0) {
        /* llvm-profdata order's input is a cl::opt positional with no value:
         * it opens "" (17-24 alike) */
        fputs("error: No such file or directory\n", stderr);
        return 1;
    }
    if (pbc_llvm_input_count(args->npos, 1, 1, 0)) return 1; /* as llvm-profdata-N: cl::opt's words */
    if (args->npos != 1) return pbc_usage_error("order", "expected one input file, got %zu", args->npos);
    if (pbc_release_of("order", q->llvm, t)) return PBC_EXIT_USAGE;
    if (!pb_release_has(t->release, "ORDER"))
        return pbc_usage_error("order", "llvm-profdata order exists from LLVM 17 on; --llvm-version %d has none",
                               t->release);
    if (!pb_release_has(t->release, "ORDER_TEST_TRACES") && q->test)
        return pbc_usage_error("order", "--num-test-traces exists from LLVM 19 on, not with --llvm-version %d",
                               t->release);
    q->oo.llvm_release = t->release;
    /* an order file is a report: never written over the profile it lists */
    if (pbc_check_output("order", q->out_path, (const char *const *)args->pos, 1, 1)) return PBC_EXIT_USAGE;
    return 0;
}

/* p's order into OUT; LLVM 17 printed the count as a note (WithColor::note)
 * on stderr. */
static int write_order(const pb_profile *p, const char *in, const order_request *q, const pbc_release *t) {
    pb_sink *sink = NULL;
    pb_error err;
    pb_error_clear(&err);
    size_t n = 0;
    int rc = PBC_EXIT_OK;
    if (pb_sink_open_file(&sink, q->out_path, 0, &err) || pb_profile_order_write(p, &q->oo, sink, &n, &err) ||
        pb_sink_commit(sink, &err)) {
        if (pbc_args_llvm_style && strcmp(err.path, PB_ORDER_NUM_TEST_TRACES) == 0)
            fprintf(stderr, "error: %s\n", err.message); /* exitWithError: no file named */
        else {
            if (!err.source[0]) snprintf(err.source, sizeof err.source, "%s", in);
            pbc_print_error(&err);
        }
        rc = PBC_EXIT_USAGE;
    } else if (!pb_release_has(t->release, "ORDER_COUNT_LINE")) {
        fprintf(stderr, "note: # Ordered %zu functions\n", n);
    }
    pb_sink_free(sink);
    return rc;
}

static int run_order(const pbc_args *args) {
    order_request q = {PB_ORDER_OPTIONS_INIT, "-", NULL, NULL, 0, NULL};
    int rc = read_order_options(args, &q);
    if (rc >= 0) return rc;
    pbc_release t;
    if ((rc = check_order_request(args, &q, &t))) return rc;
    pb_profile *p = NULL;
    /* as llvm-profdata-N: a missing, unreadable or empty input in LLVM's words */
    if (pbc_llvm_input_unopenable(args->pos[0], args->pos[0])) return 1;
    rc = pbc_read_input(args->pos[0], q.from, q.lenient, &p);
    if (rc == PBC_EXIT_OK) rc = write_order(p, args->pos[0], &q, &t);
    pb_profile_free(p);
    return rc;
}

int pbc_cmd_order(int argc, char **argv) {
    pbc_args args;
    pbc_args_llvm_positionals(0, 1, NULL); /* cl's count after refused words */
    if (pbc_args_parse("order", USAGE, specs, argc, argv, 0, pbc_args_llvm_style ? PBC_ARGS_ALL_ERRORS : 0, &args))
        return PBC_EXIT_USAGE;
    int rc = run_order(&args);
    pbc_args_free(&args);
    return rc;
}
