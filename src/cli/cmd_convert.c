/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_convert.c -- `profbridge convert IN -o OUT`: read with the plugin the
 * content (or --from) picks, write with the one --to or OUT's extension
 * picks. The output goes through a temporary file that replaces OUT only
 * when everything was written, so a failed run leaves OUT as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "llvm_args.h"
#include "opts.h"
#include "progress.h"

#define USAGE "convert IN -o OUT [options]"

enum { OPT_OUTPUT = 1, OPT_TO, OPT_FROM, OPT_LENIENT, OPT_LLVM };

/* Parsed with LLVM's rules (llvm_args.h: -x and --x, -x=v and -x v), the
 * plugins' options with them (--sparse, --indexed-version, ...). */
static const pbc_arg_spec specs[] = {
    {.name = "output", .alias = "o", .id = OPT_OUTPUT, .kind = PBC_ARG_VALUE, .arg = "OUT",
     .help = "where to write (required)"},
    {.name = "to", .id = OPT_TO, .kind = PBC_ARG_VALUE, .arg = "FORMAT",
     .help = "output format: iprof, raw, indexed, text or json"},
    {.name = "from", .id = OPT_FROM, .kind = PBC_ARG_VALUE, .arg = "FORMAT",
     .help = "read IN as FORMAT instead of recognising it by content"},
    {.name = "lenient", .id = OPT_LENIENT, .kind = PBC_ARG_BOOL,
     .help = "keep what breaks the format's rules where the reader can (default: strict)"},
    {.name = "llvm-version", .id = OPT_LLVM, .kind = PBC_ARG_VALUE, .arg = "N",
     .help = "write what LLVM release N (13..24) writes (default: $PROFBRIDGE_LLVM_VERSION, else 19)"},
    PBC_ARG_INCLUDE(pbc_progress_specs),
    PBC_ARG_END};

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " " USAGE "\n"
          "\n"
          "Reads the profile IN and writes it to OUT in another (or the same) format.\n"
          "IN's format is recognised by content; OUT's follows its extension\n"
          "(.iprof, .iprof.gz, .profraw, .profdata, .proftext, .json) unless --to names it.\n"
          "'-' reads standard input / writes standard output (then --to is required).\n"
          "OUT is replaced only after the whole profile was written.\n"
          "\nOptions (-x and --x alike, -x=V or -x V; docs/llvm-profdata.md):\n",
          out);
    pbc_args_print_help(out, specs, 0);
    fputs("\n--llvm-version: its indexed and raw versions and text. 19's indexed v12 is\n"
          "refused by LLVM 18 and older: --llvm-version 14 for clang 14-17's -fprofile-use.\n"
          "--lenient: dangling iprof ids become placeholders, ...\n"
          "\nPlugin options (--NAME VALUE; accepted when the plugin is the reader or writer):\n",
          out);
    pbc_args_print_plugin_options(out, specs);
    fputs("\nFormats:\n", out);
    pbc_print_formats(out);
    fputs("\nExit status: 0 converted, 1 IN is invalid, 2 usage or I/O error.\n", out);
}

/* The output plugin: --to, else the output file's extension. */
static const pb_format *output_format(const char *to, const char *out_path) {
    if (to) return pbc_format_arg("convert", "--to", to);
    if (strcmp(out_path, "-") == 0) {
        pbc_usage_error("convert", "writing to standard output needs --to FORMAT");
        return NULL;
    }
    const pb_format *f = pb_format_for_path(out_path);
    if (f) return f;
    fprintf(stderr, PBC_PROG " convert: cannot tell the output format from the name '%s'; known extensions:",
            out_path);
    int any = 0;
    for (size_t i = 0; i < pb_format_count(); i++)
        for (const char *const *e = pb_format_at(i)->extensions; e && *e; e++, any = 1)
            fprintf(stderr, " %s", *e);
    if (!any) fputs(" (none: no format plugin is built in)", stderr);
    fputs("\nUse --to FORMAT to name it.\n", stderr);
    return NULL;
}

/* What the command line asks for. */
typedef struct convert_req {
    const char *in_path, *out_path, *to, *from, *llvm;
    int lenient;
} convert_req;

/* Parses the command line into *q; returns -1 to go on, else the exit status. */
static int parse_request(int argc, char **argv, pbc_args *args, convert_req *q) {
    if (pbc_args_parse("convert", USAGE, specs, argc, argv, 0, PBC_ARGS_PLUGIN, args)) return PBC_EXIT_USAGE;
    for (size_t i = 0; i < args->nopt; i++) {
        const pbc_arg *o = &args->opt[i];
        switch (o->id) {
        case OPT_OUTPUT: q->out_path = o->value; break;
        case OPT_TO: q->to = o->value; break;
        case OPT_FROM: q->from = o->value; break;
        case OPT_LENIENT: q->lenient = (int)o->u; break;
        case OPT_LLVM: q->llvm = o->value; break;
        case PBC_ARG_HELP_ID: help(stdout); return PBC_EXIT_OK;
        default: break;
        }
    }
    if (args->npos != 1) {
        pbc_usage_error("convert", args->npos == 0 ? "missing input file" : "exactly one input file expected");
        return PBC_EXIT_USAGE;
    }
    q->in_path = args->pos[0];
    if (!q->out_path) {
        pbc_usage_error("convert", "missing -o OUT");
        return PBC_EXIT_USAGE;
    }
    return -1;
}

/* The plugin options of the command line. */
static int plugin_kv(const pbc_args *args, pb_kv **kv, size_t *nkv) {
    if (!(*kv = calloc(args->plugin.n + 1, sizeof **kv))) {
        pbc_msg("out of memory");
        return -1;
    }
    *nkv = 0;
    for (size_t i = 0; i < args->plugin.n; i++) (*kv)[(*nkv)++] = args->plugin.kv[i];
    return 0;
}

/* Reads *srcp with in_f (progress on pg), frees it (*srcp = NULL) and writes
 * OUT with out_f; returns the exit status. */
static int convert(const convert_req *q, pb_source **srcp, const pb_format *in_f, const pb_format *out_f,
                   int release, const pb_kv *kv, size_t nkv, pbc_progress *pg) {
    pb_source *src = *srcp;
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    pbc_diag_ctx dc = {0, 0, 0};
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = in_f->name;
    ro.lenient = q->lenient;
    ro.diag = pbc_diag;
    ro.diag_ctx = &dc;
    ro.kv = kv;
    ro.nkv = nkv;
    ro.llvm_release = release;
    pbc_apply_limits(&ro);
    pbc_progress_watch_diag(pg, &ro);
    int prc = pb_read(&p, src, &ro, &err);
    pbc_progress_end(pg);
    /* The profile needs no byte of the input (pb_read_file frees it too):
     * a mapped or copied input released now is not alive while the output
     * is built (indexed -> iprof: 300 MB of 813 MB peak). */
    pb_source_free(src);
    *srcp = NULL;
    if (prc) {
        pb_profile_free(p);
        pbc_print_error(&err);
        pbc_lenient_hint(prc, q->lenient);
        return pbc_exit_for(prc);
    }
    pb_write_options wo = PB_WRITE_OPTIONS_INIT;
    wo.diag = pbc_diag;
    wo.diag_ctx = &dc;
    wo.kv = kv;
    wo.nkv = nkv;
    wo.llvm_release = release;
    /* A write that fails is never the input's fault: its error names OUT. */
    pb_error werr;
    pb_error_clear(&werr);
    /* p is given up: an indexed input's model is freed once its iprof
     * form is built, before the output's tables are put in order */
    prc = pb_write_file_take(p, q->out_path, out_f, &wo, &werr);
    if (prc) {
        pbc_print_error(&werr);
        return PBC_EXIT_USAGE;
    }
    return PBC_EXIT_OK;
}

int pbc_cmd_convert(int argc, char **argv) {
    convert_req q = {NULL, NULL, NULL, NULL, NULL, 0};
    pbc_args args = {0};
    pb_kv *kv = NULL;
    size_t nkv = 0;
    pb_source *src = NULL;
    pb_error err;
    pb_error_clear(&err);
    int rc = parse_request(argc, argv, &args, &q);
    if (rc >= 0) goto out;
    rc = PBC_EXIT_USAGE;
    const pb_format *out_f = output_format(q.to, q.out_path), *in_f = NULL;
    if (!out_f) goto out;
    if (!out_f->write) {
        pbc_msg("the '%s' plugin cannot write profiles", out_f->name);
        goto out;
    }
    if (q.from && !(in_f = pbc_format_arg("convert", "--from", q.from))) goto out;
    /* The release is resolved once, before IN is opened; reader and writer
     * get it (llvm_release) when the user chose one (option or environment),
     * so that "indexed-version" alone keeps the rules of the release writing it. */
    pbc_release target;
    if (pbc_release_of("convert", q.llvm, &target)) goto out;
    if (pbc_args_check_release("convert", &args, target.release)) goto out;
    if (plugin_kv(&args, &kv, &nkv)) goto out;
    if ((rc = pbc_check_output("convert", q.out_path, &q.in_path, 1, 0)) != 0) goto out;
    rc = PBC_EXIT_USAGE;
    int prc = pbc_open_input(q.in_path, &src, &err);
    pbc_progress pg;
    /* named as its messages name it ("<stdin>" for "-") */
    pbc_progress_begin(&pg, pbc_progress_mode_of(&args), "convert", prc == 0 ? pb_source_name(src) : q.in_path);
    pbc_progress_watch(&pg, src);
    if (prc == 0 && !in_f) prc = pb_format_detect(src, &in_f, &err);
    if (prc) {
        pbc_print_error(&err);
        rc = pbc_exit_for(prc);
        goto out;
    }
    if (pbc_check_plugin_options("convert", &args.plugin, in_f, out_f)) goto out;
    rc = convert(&q, &src, in_f, out_f, target.chosen ? target.release : 0, kv, nkv, &pg);
out:
    free(kv);
    pb_source_free(src);
    pbc_args_free(&args);
    return rc;
}
