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
#include "llvm/target.h"
#include "opts.h"

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " convert IN -o OUT [--to FORMAT] [--from FORMAT] [--lenient]\n"
          "                          [--llvm-version N] [plugin options]\n"
          "\n"
          "Reads the profile IN and writes it to OUT in another (or the same) format.\n"
          "IN's format is recognised by content; OUT's follows its extension\n"
          "(.iprof, .iprof.gz, .profraw, .profdata, .proftext, .json) unless --to names it.\n"
          "'-' reads standard input / writes standard output (then --to is required).\n"
          "OUT is replaced only after the whole profile was written.\n"
          "\nOptions:\n"
          "  -o, --output OUT     where to write (required)\n"
          "      --to FORMAT      output format: iprof, raw, indexed, text or json\n"
          "      --from FORMAT    read IN as FORMAT instead of recognising it by content\n"
          "      --lenient        keep data that breaks the format's rules where the reader\n"
          "                       can (dangling iprof ids become placeholders, ...);\n"
          "                       the default is strict\n"
          "      --llvm-version N write what LLVM release N (13..24) writes: its indexed and\n"
          "                       raw versions and text (default: $PROFBRIDGE_LLVM_VERSION,\n"
          "                       else 19, whose indexed v12 LLVM 18 and older refuse:\n"
          "                       --llvm-version 14 for clang 14-17's -fprofile-use)\n"
          "  -h, --help           show this help\n"
          "\nPlugin options (--NAME VALUE; accepted when the plugin is the reader or writer):\n",
          out);
    pbc_print_plugin_options(out);
    fputs("\nFormats:\n", out);
    pbc_print_formats(out);
    fputs("\nExit status: 0 converted, 1 IN is invalid, 2 usage or I/O error.\n", out);
}

enum { OPT_TO = 256, OPT_FROM, OPT_LENIENT, OPT_LLVM };

static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'}, {"to", required_argument, NULL, OPT_TO},
    {"from", required_argument, NULL, OPT_FROM}, {"lenient", no_argument, NULL, OPT_LENIENT},
    {"llvm-version", required_argument, NULL, OPT_LLVM}, {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

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

int pbc_cmd_convert(int argc, char **argv) {
    const char *out_path = NULL, *to = NULL, *from = NULL, *llvm = NULL;
    int lenient = 0, c, rc = PBC_EXIT_USAGE;
    pbc_plugin_opts po = {NULL, 0};
    pb_kv *kv = NULL;
    pb_source *src = NULL;
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);

    if (pbc_split_plugin_options("convert", &argc, argv, longopts, &po)) goto out;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out_path = optarg; break;
        case OPT_TO: to = optarg; break;
        case OPT_FROM: from = optarg; break;
        case OPT_LENIENT: lenient = 1; break;
        case OPT_LLVM: llvm = optarg; break;
        case 'h': help(stdout); rc = PBC_EXIT_OK; goto out;
        default: pbc_try_help("convert"); goto out;
        }
    }
    if (optind != argc - 1) {
        pbc_usage_error("convert", optind >= argc ? "missing input file" : "exactly one input file expected");
        goto out;
    }
    const char *in_path = argv[optind];
    if (!out_path) {
        pbc_usage_error("convert", "missing -o OUT");
        goto out;
    }
    const pb_format *out_f = output_format(to, out_path), *in_f = NULL;
    if (!out_f) goto out;
    if (!out_f->write) {
        pbc_msg("the '%s' plugin cannot write profiles", out_f->name);
        goto out;
    }
    if (from && !(in_f = pbc_format_arg("convert", "--from", from))) goto out;
    /* The release is resolved once, before IN is opened; the plugins get it
     * as "llvm-version" when the user chose one (option or environment), so
     * that "indexed-version" alone keeps the rules of the release writing it. */
    pbi_llvm_target target;
    if (pbc_llvm_target("convert", llvm, &target)) goto out;
    char release[8];
    snprintf(release, sizeof release, "%d", target.release);
    if (!(kv = calloc(po.n + 1, sizeof *kv))) {
        pbc_msg("out of memory");
        goto out;
    }
    size_t nkv = 0;
    if (llvm || (getenv("PROFBRIDGE_LLVM_VERSION") && *getenv("PROFBRIDGE_LLVM_VERSION")))
        kv[nkv++] = (pb_kv){"llvm-version", release};
    for (size_t i = 0; i < po.n; i++) kv[nkv++] = po.kv[i];

    if ((rc = pbc_check_output("convert", out_path, &in_path, 1)) != 0) goto out;
    rc = PBC_EXIT_USAGE;
    int prc = pbc_open_input(in_path, &src, &err);
    if (prc == 0 && !in_f) prc = pb_format_detect(src, &in_f, &err);
    if (prc) {
        pbc_print_error(&err);
        rc = pbc_exit_for(prc);
        goto out;
    }
    if (pbc_check_plugin_options("convert", &po, in_f, out_f)) goto out;

    pbc_diag_ctx dc = {0, 0, 0};
    pb_read_options ro = PB_READ_OPTIONS_INIT;
    ro.format = in_f->name;
    ro.lenient = lenient;
    ro.diag = pbc_diag;
    ro.diag_ctx = &dc;
    ro.kv = kv;
    ro.nkv = nkv;
    pbc_apply_limits(&ro);
    prc = pb_read(&p, src, &ro, &err);
    if (prc == 0) {
        pb_write_options wo = PB_WRITE_OPTIONS_INIT;
        wo.diag = pbc_diag;
        wo.diag_ctx = &dc;
        wo.kv = kv;
        wo.nkv = nkv;
        /* A write that fails is never the input's fault: its error names OUT. */
        pb_error werr;
        pb_error_clear(&werr);
        prc = pb_write_file(p, out_path, out_f, &wo, &werr);
        if (prc) {
            pbc_print_error(&werr);
            rc = PBC_EXIT_USAGE;
            goto out;
        }
    }
    if (prc) {
        pbc_print_error(&err);
        pbc_lenient_hint(prc, lenient);
        rc = pbc_exit_for(prc);
        goto out;
    }
    rc = PBC_EXIT_OK;
out:
    free(kv);
    pb_profile_free(p);
    pb_source_free(src);
    pbc_plugin_opts_free(&po);
    return rc;
}
