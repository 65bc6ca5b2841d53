/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_merge.c -- `profbridge merge IN... -o OUT`: llvm-profdata merge for
 * instrumentation profiles. The merge is the library's pb_merger
 * (profbridge/merge.h: weights, threads, failure mode, filters, the
 * release's rules); this command reads llvm-profdata's options, collects the
 * inputs as it does (merge_inputs.c), runs the merger, writes OUT once and
 * prints what llvm-profdata prints (merge_report.c). With the same inputs
 * the indexed and text outputs are the bytes llvm-profdata merge writes
 * (docs/indexed.md), for every --num-threads.
 */
#include <inttypes.h>
#include <stdio.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli.h"
#include "correlation.h"
#include "llvm_options.h"
#include "merge_inputs.h"
#include "merge_partial.h"
#include "merge_report.h"
#include "merge_summary.h"
#include "opts.h"
#include "profbridge/merge.h"
#include "progress.h"

#define USAGE "merge [options] IN... -o OUT"

/* llvm::Regex's error strings (the regerror table LLVM carries, from Henry
 * Spencer's regex library), by POSIX code: glibc's regerror words differ. */
static const char *llvm_regex_words(int code, const char *pattern) {
    /* glibc calls a '[' left open at the end a bad pattern, LLVM unbalanced brackets */
    if (code == REG_BADPAT && strchr(pattern, '[')) code = REG_EBRACK;
    switch (code) {
    case REG_NOMATCH: return "regexec() failed to match";
    case REG_ECOLLATE: return "invalid collating element";
    case REG_ECTYPE: return "invalid character class";
    case REG_EESCAPE: return "trailing backslash (\\)";
    case REG_ESUBREG: return "invalid backreference number";
    case REG_EBRACK: return "brackets ([ ]) not balanced";
    case REG_EPAREN: return "parentheses not balanced";
    case REG_EBRACE: return "braces not balanced";
    case REG_BADBR: return "invalid repetition count(s)";
    case REG_ERANGE: return "invalid character range";
    case REG_ESPACE: return "out of memory";
    case REG_BADRPT: return "repetition-operator operand invalid";
    default: return "invalid regular expression";
    }
}

enum { OPT_NO_KEEP_VT = PBC_LO_OWN, OPT_TO, OPT_LLVM, OPT_INDEXED, OPT_JSON_SUMMARY, OPT_PARTIAL, OPT_PARTIAL_FOR };

/* llvm-profdata merge's options (llvm_options.c), then ours; the plugins'
 * options are parsed with them (llvm_args.h: -x and --x, -x=v and -x v). */
static const pbc_arg_spec specs[] = {
    PBC_ARG_INCLUDE(pbc_llvm_merge_options),
    {.name = "no-keep-vtable-symbols", .id = OPT_NO_KEEP_VT, .kind = PBC_ARG_FLAG,
     .help = "an empty vtable-names section, llvm-profdata's default (profbridge's default keeps them)"},
    {.name = "to", .id = OPT_TO, .kind = PBC_ARG_VALUE, .arg = "FORMAT",
     .help = "write FORMAT (iprof, raw, indexed, text, json)"},
    {.name = "llvm-version", .id = OPT_LLVM, .kind = PBC_ARG_VALUE, .arg = "N",
     .help = "act as llvm-profdata-N merge, N = 13..24 (default: $PROFBRIDGE_LLVM_VERSION, else 19)"},
    {.name = "indexed-version", .id = OPT_INDEXED, .kind = PBC_ARG_VALUE, .arg = "N",
     .help = "indexed version to write (4-14) instead of N's"},
    PBC_ARG_INCLUDE(pbc_progress_specs),
    {.name = "json-summary", .id = OPT_JSON_SUMMARY, .kind = PBC_ARG_VALUE, .arg = "FILE",
     .help = "write what the merge did as JSON to FILE ('-': stdout, when the profile goes to -o FILE)"},
    {.name = "partial", .id = OPT_PARTIAL, .kind = PBC_ARG_FLAG,
     .help = "write OUT as a partial merge (.pbpart) that later merges take as an input"},
    {.name = "partial-for", .id = OPT_PARTIAL_FOR, .kind = PBC_ARG_VALUE, .arg = "FORMAT",
     .help = "with --partial: the final output's format, whose merge rules apply (default indexed)"},
    PBC_ARG_END};

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " " USAGE "\n"
          "\n"
          "Merges profiles as `llvm-profdata merge` does: records with the same name and\n"
          "hash add up (x weight, saturating), value sites are merged, binary ids and\n"
          "temporal traces collected. Inputs may be of any readable format; a directory\n"
          "stands for every regular file under it, as in llvm-profdata.\n"
          "\nOptions (-x and --x alike, -x=V or -x V; docs/llvm-profdata.md):\n",
          out);
    pbc_args_print_help(out, specs, 0);
    fputs("\nOutput format: --to, --text or --binary, else by OUT's extension (.proftext\n"
          "text, .json, .iprof, .profraw; anything else indexed), as convert chooses.\n"
          "Vtable names are kept (--no-keep-vtable-symbols drops them). As llvm-profdata-N\n"
          "(the link) OUT is indexed unless --text, and vtable names are dropped unless\n"
          "--keep-vtable-symbols, as LLVM (docs/llvm-profdata.md \"Deliberate differences\").\n",
          out);
    fputs("\n--input-files LIST: one input a line, 'W,FILE' or 'FILE' (spaces around it are\n"
          "trimmed; lines starting with '#' are comments), as llvm-profdata reads it.\n"
          "--num-threads: the default (0) is llvm-profdata's, min(hardware threads,\n"
          "(inputs + 1) / 2); inputs are merged in input order, so the output is the same\n"
          "for every N (= llvm-profdata --num-threads 1).\n"
          "--llvm-version N: its indexed version (13-14 v7, 15 v8, 16 v9, 17 v10, 18 v11,\n"
          "19-21 v12, 22 v13, 23-24 v14), its text, order and saturation rules. Clang N\n"
          "reads indexed files of N and older only: 19's v12 is refused by 18 and older,\n"
          "whose clang reads --llvm-version 14's v7 (so do all 13-24).\n"
          "\nPlugin options (--NAME VALUE; accepted when the plugin is the writer):\n",
          out);
    pbc_args_print_plugin_options(out, specs);
    fputs("\nPartial merges (docs/distributed-merge.md): --partial -o shard.pbpart IN... writes\n"
          "the merge of IN... with what combining it needs (each value's counts apart from\n"
          "its weights, every input's name, size, SHA-256 and fate). A .pbpart input stands\n"
          "for its inputs, in order: `merge a.pbpart b.pbpart -o final.profdata` writes the\n"
          "bytes of one flat merge of all of them. The rules (release, failure mode, the\n"
          "final format's limits: --partial-for iprof for an iprof final) must agree; a\n"
          "partial takes no weight. A shard is written whatever its inputs' fate; the\n"
          "failure mode decides at the final merge, over all inputs.\n",
          out);
    fputs("\nExit status: 0 merged, 1 an input is invalid, 2 usage or I/O error (a missing input too).\n", out);
}

/* The command line, once parsed. */
typedef struct merge_cli {
    const char *out_path, *to, *failure, *fn_re, *nofn_re, *llvm, *indexed, *list, *remap_path;
    const char *debug_info, *binary_file, *debuginfod;
    const char *summary_path; /* --json-summary (merge_summary.h) */
    const char *partial_for;  /* --partial-for FORMAT */
    int partial;              /* --partial: OUT is a partial merge */
    int sparse, keep_vt, text, binary, dump_list, explicit_llvm;
    unsigned max_warn, threads;
    uint64_t reservoir, trace_len;
    pbc_release target;
    const pb_format *out_f;
    char release[8];
} merge_cli;

/* Reads the options into c. Returns 1 when --help was printed, else 0. */
static int read_options(merge_cli *c, const pbc_args *args) {
    c->failure = "any";
    /* vtable names: llvm-profdata drops them unless --keep-vtable-symbols;
     * profbridge's own merge keeps them (nothing is lost), as Python does
     * (docs/llvm-profdata.md "Deliberate differences") */
    c->keep_vt = !pbc_args_llvm_style;
    c->max_warn = 5; /* --max-debug-info-correlation-warnings's default */
    c->reservoir = 100, c->trace_len = 10000; /* llvm-profdata's defaults */
    for (size_t i = 0; i < args->nopt; i++) {
        const pbc_arg *o = &args->opt[i];
        switch (o->id) {
        case PBC_LO_OUTPUT: c->out_path = o->value; break;
        case PBC_LO_WEIGHTED_INPUT: break; /* read with the inputs, once the release is known */
        case PBC_LO_INPUT_FILES: c->list = o->value; break; /* a cl::opt: the last one counts */
        case PBC_LO_SPARSE: c->sparse = (int)o->u; break;
        case PBC_LO_FAILURE_MODE: c->failure = o->value; break;
        /* an empty expression is no filter in llvm-profdata (filterFunctions) */
        case PBC_LO_FUNCTION: c->fn_re = pbc_args_llvm_style && !*o->value ? NULL : o->value; break;
        case PBC_LO_NO_FUNCTION: c->nofn_re = pbc_args_llvm_style && !*o->value ? NULL : o->value; break;
        case PBC_LO_KEEP_VTABLE_SYMBOLS: c->keep_vt = (int)o->u; break;
        case OPT_NO_KEEP_VT: c->keep_vt = 0; break;
        /* 0 is llvm-profdata's default: min(hardware threads, (inputs + 1) / 2) */
        case PBC_LO_NUM_THREADS: c->threads = o->u > 1024 ? 1024 : (unsigned)o->u; break;
        case PBC_LO_TRACE_RESERVOIR: c->reservoir = o->u; break;
        case PBC_LO_TRACE_MAX_LENGTH: c->trace_len = o->u; break;
        case PBC_LO_DUMP_INPUT_FILE_LIST: c->dump_list = (int)o->u; break;
        /* one cl::opt in LLVM (ProfileFormat): the last of them counts
         * under the personality (13-14 refuse the second in the parser) */
        case PBC_LO_TEXT: c->text = 1; if (pbc_args_llvm_style) c->binary = 0; break;
        case PBC_LO_BINARY: c->binary = 1; if (pbc_args_llvm_style) c->text = 0; break;
        case PBC_LO_INSTR: break; /* the only kind profbridge merges */
        case PBC_LO_MAX_CORRELATION_WARNINGS: c->max_warn = o->u > UINT32_MAX ? UINT32_MAX : (unsigned)o->u; break;
        case PBC_LO_DEBUG_INFO: c->debug_info = o->value; break;
        case PBC_LO_BINARY_FILE: c->binary_file = o->value; break;
        case PBC_LO_DEBUGINFOD: if (o->u) c->debuginfod = o->spelled; break; /* refused later */
        case PBC_LO_REMAPPING_FILE: c->remap_path = o->value; break; /* a cl::opt: the last one counts */
        /* LLVM 17+ trims only sample profiles to it (SampleProfileWriter::
         * writeWithSizeLimit); an instrumentation profile is written whole
         * (llvm-profdata-17..24 write the same bytes with and without it) */
        case PBC_LO_OUTPUT_SIZE_LIMIT: break;
        case OPT_TO: c->to = o->value; break;
        case OPT_LLVM: c->llvm = o->value; break;
        case OPT_INDEXED: c->indexed = o->value; break;
        case OPT_JSON_SUMMARY: c->summary_path = o->value; break;
        case OPT_PARTIAL: c->partial = 1; break;
        case OPT_PARTIAL_FOR: c->partial_for = o->value; break;
        case PBC_ARG_HELP_ID: help(stdout); return 1;
        default: break;
        }
    }
    return 0;
}

/* The release, resolved before any input is read: a bad value is a usage
 * error whatever the inputs hold; it says how W,FILE reads. Returns 0 or
 * the exit status after the message. */
static int resolve_release(merge_cli *c, const pbc_args *args) {
    if (pbc_release_of("merge", c->llvm, &c->target)) return PBC_EXIT_USAGE;
    if (pbc_args_check_release("merge", args, c->target.release)) return PBC_EXIT_USAGE;
    if (c->debuginfod) {
        /* debuginfod fetches the binary by build id from a network service:
         * profbridge reads local files only */
        pbc_usage_error("merge", "%s needs a debuginfod network service, which profbridge does not use; "
                                 "give the binary with --binary-file or --debug-info instead",
                        c->debuginfod);
        return PBC_EXIT_USAGE;
    }
    return 0;
}

/* --dump-input-file-list: "W,FILE" lines, then exit (a name that does not
 * exist failed already; what is not a regular file is left out). */
static int dump_input_list(const pbc_merge_inputs *in) {
    struct stat st;
    for (size_t i = 0; i < in->n; i++)
        if (strcmp(in->v[i].path, "-") == 0 || (stat(in->v[i].path, &st) == 0 && S_ISREG(st.st_mode)))
            printf("%" PRIu64 ",%s\n", in->v[i].weight, in->v[i].path);
    return fflush(stdout) ? PBC_EXIT_USAGE : PBC_EXIT_OK;
}

/* llvm-profdata's SymbolRemapper, read once the inputs are known. Returns
 * 0 or the exit status after the message. */
static int read_remap(const char *path, pb_remap **remap) {
    pb_source *rsrc = NULL;
    const uint8_t *rd;
    size_t rlen;
    pb_error err;
    pb_error_clear(&err);
    int bad = pbc_merge_read_named_file(path, &rsrc, &rd, &rlen); /* an exit status */
    if (!bad && pb_remap_parse(remap, rd, rlen, &err)) {
        bad = PBC_EXIT_INVALID;
        if (err.code == PB_ENOMEM) {
            pbc_msg("out of memory");
            bad = PBC_EXIT_USAGE;
        } else {
            pbc_error_line("%s:%d: %s", path, err.line, err.message);
            fprintf(stderr, "%s%s\n", pbc_args_llvm_style ? "note: " : PBC_PROG ": note: ",
                    "expected 'old_symbol new_symbol'");
        }
    }
    pb_source_free(rsrc);
    return bad;
}

/* --failure-mode, the output format, the indexed version's release.
 * Returns 0 or the exit status after the message. */
static int check_modes(merge_cli *c) {
    if (strcmp(c->failure, "any") && strcmp(c->failure, "all") && strcmp(c->failure, "warn"))
        return pbc_usage_error("merge", "--failure-mode wants any, all or warn, got '%s'", c->failure);
    if (strcmp(c->failure, "warn") == 0 && !pb_release_has(c->target.release, "MERGE_FAILURE_MODE_WARN")) {
        /* llvm-profdata 13-17's cl::opt knows any and all only (pbc_args_prog
         * is "llvm-profdata-N merge" there, as 13-17 name the subcommand) */
        if (!pbc_args_llvm_style)
            return pbc_usage_error("merge", "--failure-mode warn is LLVM 18's and later's (this is LLVM %d)",
                                   c->target.release);
        fprintf(stderr, "%s: for the --failure-mode option: Cannot find option named 'warn'!\n", pbc_args_prog);
        return PBC_EXIT_USAGE;
    }
    c->explicit_llvm = c->llvm || (pbc_release_env && *pbc_release_env);
    if (c->indexed && !c->explicit_llvm) {
        /* --indexed-version N alone: the rules of the first release writing N
         * (the indexed writer's own rule, formats/indexed/indexed_write.c) */
        uint64_t v;
        if (pbc_parse_u64(c->indexed, &v) == 0 && v <= UINT32_MAX && v != pb_release_indexed_version(c->target.release)) {
            int r = pb_release_first_reading_indexed((uint32_t)v);
            if (r) c->target = (pbc_release){r, 0};
        }
        c->explicit_llvm = 1;
    }
    snprintf(c->release, sizeof c->release, "%d", c->target.release);
    if (c->text + c->binary + (c->to != NULL) > 1)
        return pbc_usage_error("merge", "--text, --binary and --to exclude each other");
    if (c->to) c->out_f = pbc_format_arg("merge", "--to", c->to);
    else if (c->text) c->out_f = pb_format_lookup("text");
    else if (c->binary) c->out_f = pb_format_lookup("indexed");
    else {
        /* llvm-profdata writes indexed whatever OUT is named; profbridge's
         * own merge chooses by OUT's extension, as convert does */
        c->out_f = pbc_args_llvm_style ? NULL : pb_format_for_path(c->out_path);
        if (!c->out_f || strcmp(c->out_path, "-") == 0) c->out_f = pb_format_lookup("indexed");
    }
    if (c->partial_for && !c->partial) return pbc_usage_error("merge", "--partial-for goes with --partial");
    if (c->partial && pbc_args_llvm_style) return pbc_usage_error("merge", "--partial is profbridge merge's");
    if (c->partial_for) c->out_f = pbc_format_arg("merge", "--partial-for", c->partial_for);
    else if (c->partial) c->out_f = pb_format_lookup("indexed");
    if (!c->out_f) return PBC_EXIT_USAGE;
    if (c->summary_path && strcmp(c->summary_path, c->out_path) == 0)
        return pbc_usage_error("merge", "--json-summary %s: the merged profile goes there (give -o FILE)",
                               c->summary_path);
    return 0;
}

/* --json-summary: what became of each input, taken from the merger's
 * callbacks on their way to merge_report.c's printing and progress line.
 * Inputs are merged in input order: progress after input i means it was
 * read (merged, unless a failure or the empty-input notice says otherwise;
 * failures are reported after the last input). */
typedef struct summary_ctx {
    pbc_merge_summary *s; /* NULL: no summary asked for */
    const pbc_merge_inputs *in;
    signed char *status;  /* per input: -1 not read yet, else PBC_MERGE_* */
    pbc_merge_diag_ctx *rn;
    pbc_merge_progress *pg;
} summary_ctx;

static void summary_mark(summary_ctx *sc, size_t i, int status, const pb_error *e) {
    if (!sc->s || i >= sc->in->n) return;
    sc->status[i] = (signed char)status;
    pbc_merge_summary_input(sc->s, i, sc->in->v[i].path, sc->in->v[i].weight, status, e);
}

static void summary_failed(void *ctx, size_t input, const char *name, const pb_error *e) {
    summary_ctx *sc = ctx;
    summary_mark(sc, input, PBC_MERGE_FAILED, e);
    pbc_merge_print_failure(sc->rn, input, name, e);
}

static void summary_diag(void *ctx, int severity, const pb_error *e) {
    summary_ctx *sc = ctx;
    if (sc->s && strcmp(e->path, PB_MERGER_EMPTY_INPUT) == 0)
        for (size_t i = 0; i < sc->in->n; i++)
            if (sc->status[i] < 0 && strcmp(sc->in->v[i].path, e->source) == 0) {
                summary_mark(sc, i, PBC_MERGE_SKIPPED, NULL);
                break;
            }
    pbc_merge_diag(sc->rn, severity, e);
}

static void summary_progress(void *ctx, size_t done, size_t total) {
    summary_ctx *sc = ctx;
    if (sc->s && done >= 1 && done <= sc->in->n && sc->status[done - 1] < 0)
        summary_mark(sc, done - 1, PBC_MERGE_MERGED, NULL);
    pbc_merge_progress_update(sc->pg, done, total);
}

/* How OUT is written (the library's rules, profbridge/merge.h). */
static pb_merge_output merge_output(const merge_cli *c, const pbc_args *args /* NULL: no plugin options */) {
    pb_merge_output o = PB_MERGE_OUTPUT_INIT;
    o.format = c->out_f;
    o.llvm_release = c->target.release;
    o.release_explicit = c->explicit_llvm;
    o.indexed_version = c->indexed;
    o.sparse = c->sparse;
    o.keep_vtable_symbols = c->keep_vt;
    if (args) {
        o.kv = args->plugin.kv;
        o.nkv = args->plugin.n;
    }
    return o;
}

/* The merger of c's options; the read options ro are filled later (the
 * merger reads them when it runs). Returns 0 or the exit status. */
static int new_merger(pb_merger **m, const merge_cli *c, const pb_remap *remap, const pb_read_options *ro,
                      summary_ctx *sc, pb_merger_options *mo_out, const char **late_error) {
    pb_merger_options mo = PB_MERGER_OPTIONS_INIT;
    mo.threads = c->threads;
    mo.failure_mode = strcmp(c->failure, "warn") == 0  ? PB_MERGE_FAIL_WARN
                      : strcmp(c->failure, "all") == 0 ? PB_MERGE_FAIL_ALL
                                                       : PB_MERGE_FAIL_ANY;
    pb_merge_output out = merge_output(c, NULL);
    if (pb_merge_output_rules(&out, &mo)) return PBC_EXIT_USAGE; /* cannot fail: out is ours */
    mo.trace_reservoir = c->reservoir;
    mo.trace_max_length = c->trace_len;
    mo.remap = remap;
    mo.keep_functions = c->fn_re;
    mo.drop_functions = c->nofn_re;
    mo.read = ro;
    mo.diag = summary_diag;
    mo.diag_ctx = sc;
    mo.failed = summary_failed;
    mo.failed_ctx = sc;
    mo.progress = summary_progress;
    mo.progress_ctx = sc;
    /* llvm-profdata-N merges on per-thread writers, and its bytes depend on
     * the thread count; profbridge's own merge never does */
    mo.writer_contexts = pbc_args_llvm_style;
    *mo_out = mo;
    pb_error err;
    if (pb_merger_new(m, &mo, &err) == 0) return 0;
    int keep = strcmp(err.path, PB_MERGER_KEEP_FUNCTIONS) == 0;
    if (pbc_args_llvm_style && (keep || strcmp(err.path, PB_MERGER_DROP_FUNCTIONS) == 0)) {
        /* llvm::Regex's words (LLVM's own regerror table), exitWithError's form */
        regex_t re;
        const char *pattern = keep ? c->fn_re : c->nofn_re;
        int code = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
        if (code == 0) regfree(&re);
        /* llvm-profdata compiles the filters after the merge: the inputs'
         * errors and warnings come first, this one only when the merge
         * succeeded (merge_and_write prints it before OUT is written) */
        *late_error = llvm_regex_words(code, pattern);
        mo.keep_functions = mo.drop_functions = NULL;
        *mo_out = mo;
        if (pb_merger_new(m, &mo, &err) == 0) return 0;
        pbc_print_error(&err);
        return PBC_EXIT_USAGE;
    }
    if (keep)
        return pbc_usage_error("merge", "--function: bad regular expression '%s'", c->fn_re);
    if (strcmp(err.path, PB_MERGER_DROP_FUNCTIONS) == 0)
        return pbc_usage_error("merge", "--no-function: bad regular expression '%s'", c->nofn_re);
    pbc_print_error(&err);
    return PBC_EXIT_USAGE;
}

/* Plugin options for the readers (kv: room for the plugin's + 2). */
static size_t reader_options(const merge_cli *c, const pbc_args *args, pb_kv *kv) {
    size_t n = 0;
    if (c->debug_info) kv[n++] = (pb_kv){"debug-info", c->debug_info};
    else if (c->binary_file) kv[n++] = (pb_kv){"binary-file", c->binary_file};
    for (size_t i = 0; i < args->plugin.n; i++) kv[n++] = args->plugin.kv[i];
    return n;
}

/* Writes acc to OUT. Returns 0 or the exit status after the message. */
static int write_output(const merge_cli *c, const pbc_args *args, const pb_profile *acc, const char **paths,
                        size_t n, pbc_diag_ctx *dc) {
    pb_format_form form = pb_format_form_of(c->out_f);
    int is_text = form == PB_FORM_TEXT;
    /* the personality checks OUT where llvm-profdata opens it: after the merge */
    if (pbc_args_llvm_style &&
        (pbc_merge_output_check(c->out_path, is_text) || pbc_check_output("merge", c->out_path, paths, n, 0)))
        return PBC_EXIT_INVALID;
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    pbc_merge_diag_ctx wn = {dc, c->out_path, 0, 0}; /* the writer's notices name OUT */
    wo.diag = pbc_merge_diag;
    wo.diag_ctx = &wn;
    pb_merge_output mo = merge_output(c, args);
    pb_error err;
    if (pb_merge_write_file(acc, c->out_path, &mo, &wo, &err)) {
        pbc_print_error(&err); /* it names OUT (pb_write_file sets it as the source) */
        return PBC_EXIT_USAGE;
    }
    return PBC_EXIT_OK;
}

/* Reads the command line and the inputs. Returns -1 to go on, else the
 * exit status (after the message, or after --help/--dump-input-file-list). */
static int prepare(merge_cli *c, pbc_args *args, int argc, char **argv, pbc_merge_inputs *in, pb_remap **remap) {
    /* as cl::ParseCommandLineOptions, llvm-profdata-N reports every bad word */
    if (pbc_args_parse("merge", USAGE, specs, argc, argv, 0,
                       PBC_ARGS_PLUGIN | (pbc_args_llvm_style ? PBC_ARGS_ALL_ERRORS : 0), args))
        return PBC_EXIT_USAGE;
    if (read_options(c, args)) return PBC_EXIT_OK;
    int rc = resolve_release(c, args);
    if (!rc) rc = pbc_merge_collect_inputs(in, args, c->list, pb_release_has(c->target.release, "MERGE_INPUT_TILDE"));
    if (rc) return rc;
    if (c->dump_list && in->n) return dump_input_list(in);
    if (in->n == 0) {
        /* the personality: llvm-profdata's words (13-24 alike), exit 1 */
        if (pbc_args_llvm_style) pbc_error_line("no input files specified. See %s merge -help", pbc_args_tool);
        else pbc_usage_error("merge", "no input files");
        return PBC_EXIT_USAGE;
    }
    if (c->remap_path && (rc = read_remap(c->remap_path, remap))) return rc;
    /* llvm-profdata's --output defaults to "-" (cl::init): without -o the
     * merged profile goes to standard output, as a Makefile's
     * "llvm-profdata merge *.profraw > m.profdata" expects */
    if (!c->out_path) c->out_path = "-";
    return check_modes(c) ? PBC_EXIT_USAGE : -1;
}

/* One merge command's state, from parsing to cleanup. */
typedef struct merge_run {
    merge_cli c;
    pbc_args args;
    pbc_merge_inputs in;
    pb_remap *remap;
    pb_merger *m;
    pb_profile *acc;
    pb_kv *rkv;
    const char **paths;
    pbc_diag_ctx dc;
    pbc_merge_diag_ctx rn; /* the reads' diagnostics name the input */
    pb_read_options ro;
    pbc_merge_progress pg;
    summary_ctx sc;
    pb_merger_options mo; /* the merger's options (the partial path's rules) */
    pb_partial *part;     /* the partial path: --partial or a .pbpart input */
    const char *late_error; /* the personality's bad --function words, after the merge */
} merge_run;

/* Everything before the inputs are read: the summary, the merger, the
 * checks of OUT and of a binary to correlate with, the read options, the
 * inputs. Returns -1 to go on, else the exit code. */
static int set_up(merge_run *r) {
    merge_cli *c = &r->c;
    pbc_merge_progress_start(&r->pg, r->in.n, pbc_progress_mode_of(&r->args));
    if (c->summary_path) {
        if (!(r->sc.s = pbc_merge_summary_new(r->in.n)) || !(r->sc.status = malloc(r->in.n))) {
            pbc_msg("out of memory");
            return PBC_EXIT_USAGE;
        }
        memset(r->sc.status, -1, r->in.n);
    }
    if (new_merger(&r->m, c, r->remap, &r->ro, &r->sc, &r->mo, &r->late_error)) return PBC_EXIT_USAGE;
    if (pbc_check_plugin_options("merge", &r->args.plugin, NULL, c->out_f)) return PBC_EXIT_USAGE;
    if (!(r->paths = malloc(r->in.n * sizeof *r->paths)) || !(r->rkv = calloc(r->args.plugin.n + 2, sizeof *r->rkv))) {
        pbc_msg("out of memory");
        return PBC_EXIT_USAGE;
    }
    for (size_t i = 0; i < r->in.n; i++) r->paths[i] = r->in.v[i].path;
    int rc;
    /* the personality checks OUT where llvm-profdata opens it: after the merge */
    if (!pbc_args_llvm_style && (rc = pbc_check_output("merge", c->out_path, r->paths, r->in.n, 0)) != 0) return rc;
    if (c->summary_path && (rc = pbc_check_output("merge", c->summary_path, r->paths, r->in.n, 1)) != 0) {
        /* a summary refused there is not written at all, not even the
         * failure record that finish() writes for other usage errors */
        pbc_merge_summary_free(r->sc.s);
        r->sc.s = NULL;
        return rc;
    }
    /* llvm-profdata correlates once, before reading any input: a binary it
     * cannot use is "error: FILE: ..." and exit 1 whatever the inputs (each
     * raw input is then correlated by its reader: formats/raw/raw_correlate.c) */
    static char stream_name[64]; /* c keeps pointing at it for the whole run */
    if ((c->debug_info || c->binary_file) &&
        (rc = pbc_correlation_stream(c->debug_info ? &c->debug_info : &c->binary_file, stream_name,
                                     sizeof stream_name)) != 0)
        return rc;
    if ((c->debug_info || c->binary_file) &&
        (rc = pbc_merge_correlation_check(c->target.release, c->debug_info, c->binary_file, c->max_warn, &r->dc)) != 0)
        return rc;
    pbc_apply_limits(&r->ro);
    /* some readers' rules are a release's (RAW_TEMPORAL: 14-16 and a newer
     * clang's raw), also when the personality chose it */
    r->ro.llvm_release = c->explicit_llvm || c->target.chosen ? c->target.release : 0;
    r->ro.kv = r->rkv;
    r->ro.nkv = reader_options(c, &r->args, r->rkv);
    pb_error err;
    for (size_t i = 0; i < r->in.n; i++)
        if (pb_merger_add_file(r->m, r->in.v[i].path, r->in.v[i].weight, &err)) {
            pbc_print_error(&err);
            return PBC_EXIT_USAGE;
        }
    return -1;
}

/* The merge through a partial (merge_partial.h): its inputs' fate from
 * the provenance, then OUT: the partial itself, or the finished profile. */
static int partial_merge_and_write(merge_run *r) {
    merge_cli *c = &r->c;
    pb_merger_options mo = r->mo;
    mo.diag = pbc_merge_diag; /* the failures are printed from the provenance, after the last input */
    mo.diag_ctx = &r->rn;
    mo.failed = NULL;
    mo.progress = NULL;
    int rc = pbc_merge_partial(&mo, &r->in, &r->rn, &r->pg, &r->part);
    pbc_merge_progress_end(&r->pg);
    if (rc) return rc;
    if (r->sc.s) {
        pbc_merge_summary_free(r->sc.s);
        if (!(r->sc.s = pbc_merge_partial_summary(r->part))) {
            pbc_msg("out of memory");
            return PBC_EXIT_USAGE;
        }
    }
    if (c->partial) {
        if (r->sc.s && pbc_merge_summary_stage(r->sc.s, c->summary_path, c->out_path, "pbpart", NULL,
                                               c->target.release, c->failure))
            return PBC_EXIT_USAGE;
        return pbc_merge_partial_save(r->part, c->out_path);
    }
    pb_error err;
    int mrc = pb_partial_finish(r->part, &r->acc, &err);
    if (mrc && strcmp(err.path, PB_MERGER_NOTHING_MERGED) == 0) {
        pbc_error_line("%s", err.message);
        return pbc_exit_for(mrc);
    }
    if (mrc) {
        pbc_print_error(&err);
        return PBC_EXIT_USAGE;
    }
    if (r->sc.s && pbc_merge_summary_stage(r->sc.s, c->summary_path, c->out_path, c->out_f->name, r->acc,
                                           c->target.release, c->failure))
        return PBC_EXIT_USAGE;
    return write_output(c, &r->args, r->acc, r->paths, r->in.n, &r->dc);
}

/* The merge, then OUT (or the summary's verdict first). Returns the exit code. */
static int merge_and_write(merge_run *r) {
    /* the personality reads what llvm-profdata reads: no partial */
    if (r->c.partial || (!pbc_args_llvm_style && pbc_merge_has_partial_input(&r->in)))
        return partial_merge_and_write(r);
    merge_cli *c = &r->c;
#if defined(__GLIBC__)
    /* glibc gives every thread its own malloc arena. A prepared input's
     * buffers are allocated by a worker and freed by the merging thread, so
     * with two arenas each can end up holding a freed input's worth of
     * memory it cannot lend to the other (bench/indexed.sh's 2-thread merge
     * peaked at 60 or 92 MB from run to run, with one arena at 58-69 MB).
     * The workers allocate a few big blocks per input: no measurable time. */
    mallopt(M_ARENA_MAX, 1);
#endif
    pb_error err;
    int rc = PBC_EXIT_USAGE, mrc = pb_merger_run(r->m, &r->acc, &err);
    pbc_merge_progress_end(&r->pg);
    /* llvm-profdata's exitWithError: "error: WORDS", exit 1 */
    if (mrc && (strcmp(err.path, PB_MERGER_NOTHING_MERGED) == 0 || strcmp(err.path, PB_MERGER_CONTEXT_KINDS) == 0)) {
        pbc_error_line("%s", err.message);
        rc = pbc_exit_for(mrc);
    } else if (mrc) {
        pbc_print_error(&err);
    } else if (r->late_error) {
        pbc_error_line("%s", r->late_error);
    } else if (r->sc.s && pbc_merge_summary_stage(r->sc.s, c->summary_path, c->out_path, c->out_f->name, r->acc,
                                                  c->target.release, c->failure)) {
        rc = PBC_EXIT_USAGE; /* before OUT is replaced (merge_summary.h) */
    } else if ((rc = write_output(c, &r->args, r->acc, r->paths, r->in.n, &r->dc)) == 0 &&
               pb_format_form_of(c->out_f) == PB_FORM_INDEXED && !c->explicit_llvm && !r->rn.failed) {
        pbc_merge_old_raw_hint(&r->in, c->target.release, c->out_path, &r->dc);
    }
    return rc;
}

/* What became of the inputs (the summary, written or not), then the rest. */
static int finish(merge_run *r, int rc) {
    merge_cli *c = &r->c;
    if (r->sc.s) {
        const char *fmt = c->partial ? "pbpart" : c->out_f ? c->out_f->name : NULL;
        int src = pbc_merge_summary_write(r->sc.s, c->summary_path, c->out_path, fmt,
                                          rc ? NULL : r->acc, c->target.release, c->failure, rc);
        if (src && !rc) rc = src;
        pbc_merge_summary_free(r->sc.s);
    }
    free(r->sc.status);
    pb_merger_free(r->m);
    pb_partial_free(r->part);
    pb_profile_free(r->acc);
    pbc_merge_inputs_free(&r->in);
    free(r->paths);
    free(r->rkv);
    pb_remap_free(r->remap);
    pbc_args_free(&r->args);
    return rc;
}

int pbc_cmd_merge(int argc, char **argv) {
    merge_run *r = calloc(1, sizeof *r);
    if (!r) {
        pbc_msg("out of memory");
        return PBC_EXIT_USAGE;
    }
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    r->ro = ro;
    r->rn.dc = &r->dc;
    r->sc = (summary_ctx){NULL, &r->in, NULL, &r->rn, &r->pg};
    int rc = prepare(&r->c, &r->args, argc, argv, &r->in, &r->remap);
    if (rc < 0) rc = set_up(r);
    if (rc < 0) rc = merge_and_write(r);
    rc = finish(r, rc);
    free(r);
    return rc;
}
