/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_show.c -- `profbridge show IN`: the Java view (show_iprof.c) for
 * profiles read from iprof, otherwise (or with --llvm) what
 * `llvm-profdata-N show` prints for the same flags (show_llvm.c), N the
 * release of --llvm-version / PROFBRIDGE_LLVM_VERSION (19 by default): the
 * flags that release lacks are refused, the files it cannot read are
 * refused as it refuses them. An indexed input is streamed from the file to
 * that printer without a model when the flags need no name table
 * (show_indexed.c, docs/show.md).
 *
 * Options are parsed by llvm_args.c (llvm-profdata's cl::opt rules).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "correlation.h"
#include "llvm_input_error.h"
#include "llvm_options.h"
#include "opts.h"
#include "progress.h"

#define USAGE "show [options] IN"

enum { OPT_LLVM = PBC_LO_OWN, OPT_LLVM_VERSION, OPT_FROM, OPT_LENIENT, OPT_JSON };

/* profbridge's own options first (its --json is its JSON view in every
 * release, where llvm-profdata's is a sample-profile option of 16+), then
 * llvm-profdata show's (llvm_args.h: -x and --x, -x=v and -x v). The
 * llvm-profdata personality parses with llvm-profdata's table alone. */
static const pbc_arg_spec specs[] = {
    {.name = "llvm", .id = OPT_LLVM, .kind = PBC_ARG_BOOL, .help = "the LLVM view even for iprof input"},
    {.name = "llvm-version", .id = OPT_LLVM_VERSION, .kind = PBC_ARG_VALUE, .arg = "N",
     .help = "print as llvm-profdata-N show (13..24; default 19)"},
    {.name = "json", .id = OPT_JSON, .kind = PBC_ARG_BOOL, .help = "the same content as JSON (profbridge's view)"},
    {.name = "from", .id = OPT_FROM, .kind = PBC_ARG_VALUE, .arg = "FORMAT",
     .help = "read IN as FORMAT instead of recognising it"},
    {.name = "lenient", .id = OPT_LENIENT, .kind = PBC_ARG_BOOL, .help = "read with the plugin's lenient rules"},
    PBC_ARG_INCLUDE(pbc_progress_specs),
    PBC_ARG_INCLUDE(pbc_llvm_show_options),
    PBC_ARG_END};

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " " USAGE "\n"
          "\n"
          "Prints a profile. For a profile read from iprof (without --llvm): a summary\n"
          "(version, types, methods, entries per section, total call count, contexts,\n"
          "deepest context) and every method's entries with resolved names: the kind,\n"
          "the context callee-first joined by '<', the counts, branch successors or\n"
          "receiver types. With --topn N only the N hottest entries (by first counter).\n"
          "\n"
          "For LLVM profiles, or with --llvm, the output is that of\n"
          "'llvm-profdata-N show' for the same flags, N the --llvm-version (19 by\n"
          "default); flags release N lacks are refused. --show-format=json and yaml\n"
          "are refused for instrumentation profiles, as llvm-profdata refuses them\n"
          "(--json is profbridge's JSON view); --hot-func-list prints the hot\n"
          "functions from LLVM 22 on (before: nothing, as those releases print).\n"
          "\nOptions (-x and --x alike, -x=V or -x V; docs/llvm-profdata.md):\n",
          out);
    pbc_args_print_help(out, specs, 0);
    fputs("\nExit status: 0 shown, 1 IN is invalid, 2 usage or I/O error.\n", out);
}

/* Flags that only the LLVM view reads (to say they are ignored otherwise). */
static int any_llvm_flag(const pb_show_options *o) {
    return o->all_functions || o->counts || o->function || o->ic_targets || o->memop_sizes ||
           o->show_vtables || o->detailed_summary || o->cutoffs || o->value_cutoff ||
           o->list_below_cutoff || o->showcs || o->covered || o->binary_ids || o->temporal_traces ||
           o->profile_version || o->text; /* --json and --topn work in the Java view too */
}

/* Sets the field of `so` that LLVM option `id` stands for; 0 if it is none. */
static int set_llvm_option(pb_show_options *so, const pbc_arg *o) {
    int v = (int)o->u;
    switch (o->id) {
    case PBC_LO_ALL_FUNCTIONS: so->all_functions = v; break;
    case PBC_LO_COUNTS: so->counts = v; break;
    case PBC_LO_IC_TARGETS: so->ic_targets = v; break;
    case PBC_LO_MEMOP_SIZES: so->memop_sizes = v; break;
    case PBC_LO_SHOW_VTABLES: so->show_vtables = v; break;
    case PBC_LO_DETAILED_SUMMARY: so->detailed_summary = v; break;
    case PBC_LO_LIST_BELOW_CUTOFF: so->list_below_cutoff = v; break;
    case PBC_LO_SHOWCS: so->showcs = v; break;
    case PBC_LO_COVERED: so->covered = v; break;
    case PBC_LO_BINARY_IDS: so->binary_ids = v; break;
    case PBC_LO_TEMPORAL_TRACES: so->temporal_traces = v; break;
    case PBC_LO_PROFILE_VERSION: so->profile_version = v; break;
    case PBC_LO_TEXT: so->text = v; break;
    case PBC_LO_HOT_FUNC_LIST: so->hot_func_list = v; break;
    case PBC_LO_FUNCTION: so->function = o->value; break;
    case PBC_LO_DETAILED_SUMMARY_CUTOFFS: so->cutoffs = o->value; break; /* take_options joins repeats */
    case PBC_LO_TOPN: so->topn = (unsigned)o->u; break;
    case PBC_LO_VALUE_CUTOFF: so->value_cutoff = o->u; break;
    default: return 0;
    }
    return 1;
}

/* What llvm-profdata show does with --json / --show-format=json|yaml on an
 * instrumentation profile: "error: JSON output is not supported for instr
 * profiles", exit 1 (before it opens the input). profbridge's own show says
 * the same as a usage error and points at its --json. */
static int refuse_format(const char *fmt) {
    const char *what = strcmp(fmt, "yaml") == 0 ? "YAML" : "JSON";
    if (pbc_args_llvm_style) {
        fprintf(stderr, "error: %s output is not supported for instr profiles\n", what);
        return 1;
    }
    return pbc_usage_error("show", "%s output is not supported for instr profiles (llvm-profdata refuses it; "
                           "--json is profbridge's JSON view)", what);
}

/* The release note of the library (profbridge/show.h: release_notes): as
 * the personality prints it too, it is not one of pbc_diag's notes. */
static void release_note(void *ctx, int severity, const pb_error *e) {
    (void)ctx;
    (void)severity;
    fprintf(stderr, PBC_PROG ": note: %s\n", e->message);
}

/*
 * Reads the input into *in (*srcp: its source, to free after *in). Returns
 * -1 when there is something to print, else the exit code of the failure
 * (reported here).
 */
static int read_input(const char *in_path, pb_read_options *ro, const pb_show_options *so,
                      pbc_progress_mode mode, pbc_progress *pgp, pb_source **srcp, pb_show_input **in) {
    pb_error err;
    pb_error_clear(&err);
    pb_source *src = NULL;
    if (pbc_llvm_input_unopenable(in_path, in_path)) return 1; /* as llvm-profdata-N: LLVM's words */
    int prc = pbc_open_input(in_path, &src, &err);
    /* named as its messages name it ("<stdin>" for "-") */
    pbc_progress_begin(pgp, mode, "show", prc == 0 ? pb_source_name(src) : in_path);
    pbc_progress_watch(pgp, src);
    pbc_progress_watch_diag(pgp, ro);
    /* the --lenient hint follows only a reader's failure, not the detection's */
    int read_failed = 0;
    const pb_format *f = NULL;
    if (prc == 0 && !ro->format) prc = pb_format_detect(src, &f, &err);
    if (prc == 0 && f) ro->format = pb_format_name(f);
    if (prc == 0) read_failed = (prc = pb_show_read(in, src, ro, so, &err)) != 0;
    pbc_progress_end(pgp);
    *srcp = src; /* an indexed file is printed from its mapping: freed after printing */
    if (prc) {
        pbc_print_input_error(&err);
        if (read_failed) pbc_lenient_hint(prc, ro->lenient);
        return pbc_exit_for(prc);
    }
    return -1;
}

/* Prints what was read: the Java view of an iprof file, else llvm-profdata's. */
static int print_input(pb_show_input *in, const char *in_path, const pb_show_options *so, const char *out_path,
                       int lenient) {
    pb_error err;
    pb_error_clear(&err);
    const char *name = strcmp(in_path, "-") == 0 ? "<stdin>" : in_path;
    if (pb_show_view(in, so) == PB_SHOW_VIEW_JAVA && any_llvm_flag(so))
        pbc_msg("note: llvm-profdata flags are ignored in the Java view; add --llvm to use them");
    pb_sink *out = NULL;
    int prc = pb_sink_open_file(&out, out_path ? out_path : "-", 0, &err);
    if (prc) {
        pbc_print_error(&err);
        return PBC_EXIT_USAGE;
    }
    prc = pb_show_write(out, in, name, so, &err);
    int rc = PBC_EXIT_OK;
    if (prc) {
        pbc_print_input_error(&err);
        /* a raw file is read as it is printed: its faults come here */
        pbc_lenient_hint(prc, lenient);
        rc = pbc_exit_for(prc);
    } else if ((prc = pb_sink_commit(out, &err)) != 0) {
        if (out_path) pb_error_set_source(&err, out_path);
        pbc_print_error(&err);
        rc = PBC_EXIT_USAGE;
    }
    pb_sink_free(out);
    return rc;
}

/* What the command line asks of show. */
typedef struct show_request {
    pb_show_options so;
    const char *from, *out_path, *llvm_version, *show_format, *debug_info;
    unsigned max_corr_warn;
    int lenient, llvm_json, help;
    char *cutoffs; /* every --detailed-summary-cutoffs list, joined (so.cutoffs points here) */
} show_request;

/* cl::list: a repeated --detailed-summary-cutoffs adds its numbers to the
 * earlier ones (llvm-profdata 13-24), it does not replace them. Out of
 * memory: the last list alone. */
static void add_cutoffs(show_request *q, const char *list) {
    size_t had = q->cutoffs ? strlen(q->cutoffs) : 0, more = strlen(list);
    char *v = malloc(had + 1 + more + 1); /* a new string: the lists are short and few */
    if (!v) {
        q->so.cutoffs = list;
        return;
    }
    if (had) memcpy(v, q->cutoffs, had), v[had++] = ',';
    memcpy(v + had, list, more + 1);
    free(q->cutoffs);
    q->cutoffs = v;
    q->so.cutoffs = v;
}

static void take_options(const pbc_args *args, show_request *q) {
    for (size_t i = 0; i < args->nopt; i++) {
        const pbc_arg *o = &args->opt[i];
        if (o->id == PBC_LO_DETAILED_SUMMARY_CUTOFFS && o->value) {
            add_cutoffs(q, o->value);
            continue;
        }
        if (set_llvm_option(&q->so, o)) continue;
        switch (o->id) {
        case OPT_LLVM: q->so.llvm = (int)o->u; break;
        case OPT_FROM: q->from = o->value; break;
        case OPT_LENIENT: q->lenient = (int)o->u; break;
        case OPT_LLVM_VERSION: q->llvm_version = o->value; break;
        case OPT_JSON: q->so.json = (int)o->u; break;
        case PBC_LO_JSON: q->llvm_json = (int)o->u; break; /* llvm-profdata's (personality) */
        case PBC_LO_SHOW_FORMAT: q->show_format = o->value; break;
        case PBC_LO_OUTPUT: q->out_path = o->value; break;
        case PBC_LO_DEBUG_INFO: q->debug_info = o->value; break;
        case PBC_LO_MAX_CORRELATION_WARNINGS:
            q->max_corr_warn = o->u > UINT32_MAX ? UINT32_MAX : (unsigned)o->u;
            break;
        case PBC_ARG_HELP_ID: q->help = 1; break;
        default: break; /* --instr, --print-options: nothing to do */
        }
    }
}

/* The checks before any input is read, in llvm-profdata's order. Returns -1
 * to go on (the input is args->pos[0]), else the exit code: a usage error,
 * a refused --show-format/--json, or --debug-info's answer. */
static int before_input(show_request *q, const pbc_args *args, pbc_release *target) {
    /* the release first: a bad value is a usage error even when the input is broken */
    int rc = pbc_release_of("show", q->llvm_version, target);
    if (rc) return rc;
    /* an option the release's llvm-profdata show does not have: it refuses
     * the command line ("Unknown command line argument") */
    if ((rc = pbc_args_check_release("show", args, target->release)) != 0) return rc;
    /* cl's own count (too many inputs) comes with the parse, before anything */
    if (args->npos > 1 && pbc_llvm_input_count(args->npos, 0, 1, 0)) return 1;
    /* as llvm-profdata-N: cl::opt's words (14+: --debug-info may stand for
     * the input); a missing input comes before the warning and refusals below */
    const pbc_arg_spec *dbg = pbc_args_find(pbc_llvm_show_options, "debug-info", 10);
    if (!q->debug_info && pbc_llvm_input_count(args->npos, 1, 1, dbg && target->release >= dbg->since)) return 1;
    /* show_main says so first, before any refusal (--show-format, --json) */
    if (pbc_args_llvm_style && q->so.all_functions && q->so.function && *q->so.function)
        fputs("warning: -function argument ignored: showing all functions\n", stderr);
    /* llvm-profdata show --debug-info: the binary's functions, no input
     * (correlation.c; it answers --show-format and --json itself) */
    if (q->debug_info)
        return pbc_show_debug_info(target, q->debug_info, q->llvm_json ? "json" : q->show_format, q->max_corr_warn,
                                   q->out_path);
    if (q->llvm_json) return refuse_format("json");
    if (q->show_format && strcmp(q->show_format, "text") != 0) return refuse_format(q->show_format);
    if (pbc_llvm_input_count(args->npos, 1, 1, dbg && target->release >= dbg->since)) return 1;
    if (args->npos != 1)
        return pbc_usage_error("show", args->npos == 0 ? "missing input file" : "exactly one input file expected");
    if (q->from && !pbc_format_arg("show", "--from", q->from)) return PBC_EXIT_USAGE;
    return -1;
}

int pbc_cmd_show(int argc, char **argv) {
    show_request q;
    memset(&q, 0, sizeof q);
    (void)pb_show_options_init(&q.so, PB_SHOW_OPTIONS_VERSION);
    q.max_corr_warn = 5;
    pbc_args args;
    pbc_args_llvm_positionals(1, 1, "debug-info"); /* cl's count after refused words */
    if (pbc_parse_llvm_command("show", USAGE, pbc_llvm_show_options, specs, argc, argv, &args))
        return PBC_EXIT_USAGE;
    take_options(&args, &q);
    pbc_release target;
    int rc = PBC_EXIT_OK;
    if (q.help) help(stdout);
    else rc = before_input(&q, &args, &target);
    const char *in_path = rc < 0 ? args.pos[0] : NULL;
    if (in_path && pbc_args_llvm_style && q.out_path && strcmp(in_path, q.out_path) == 0) {
        /* llvm-profdata's own check compares the names (13-24); another name
         * of the same file is refused below, where LLVM truncates it */
        fprintf(stderr, "%s%s show: Input file name cannot be the same as the output file name!\n",
                pb_release_has(target.release, "SHOW_SAME_NAME_ERROR") ? "error: " : "", pbc_args_tool);
        rc = PBC_EXIT_USAGE;
    } else if (in_path && pbc_check_output("show", q.out_path, &in_path, 1, 1)) {
        rc = PBC_EXIT_USAGE;
    }
    if (rc < 0) {
        q.so.llvm_release = target.release;
        q.so.release_notes = target.chosen;
        q.so.diag = release_note;
        pbc_diag_ctx dc = {0, 0, 0};
        pb_read_options ro = PB_READ_OPTIONS_INIT;
        ro.format = q.from;
        ro.lenient = q.lenient;
        ro.diag = pbc_diag;
        ro.diag_ctx = &dc;
        /* the readers read as the chosen release does (a clang-17 temporal
         * raw file to 14-16: formats/raw, RAW_TEMPORAL) */
        if (target.chosen) ro.llvm_release = target.release;
        pbc_apply_limits(&ro);
        pb_show_input *in = NULL;
        pb_source *src = NULL;
        /* lives as long as the input: a raw or indexed file is read again
         * while printed, and its warnings go through the progress line's
         * diag hook (pbc_progress_watch_diag), which points here */
        pbc_progress pg;
        rc = read_input(in_path, &ro, &q.so, pbc_progress_mode_of(&args), &pg, &src, &in);
        if (rc < 0) rc = print_input(in, in_path, &q.so, q.out_path, q.lenient);
        pb_show_input_free(in);
        pb_source_free(src);
    }
    pbc_args_free(&args);
    free(q.cutoffs);
    return rc;
}
