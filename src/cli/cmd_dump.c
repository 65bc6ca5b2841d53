/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_dump.c -- `profbridge dump IN`: hands the input to its plugin's dump
 * operation, which explains the bytes (headers, sections, offsets).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "llvm_args.h"
#include "opts.h"
#include "progress.h"

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " dump IN [--json] [--from FORMAT] [-o OUT] [plugin options]\n"
          "\n"
          "Explains the bytes of IN field by field (header fields with their offsets,\n"
          "sections, records), as the format's plugin sees them. '-' reads standard input.\n"
          "\nOptions:\n"
          "      --json           print JSON instead of text\n"
          "      --from FORMAT    treat IN as FORMAT instead of recognising it by content\n"
          "  -o, --output OUT     write to OUT instead of standard output\n"
          "      --progress       show reading progress on stderr, even when it is not a terminal\n"
          "  -q, --quiet          no progress line (default: one on a terminal for big or slow inputs)\n"
          "  -h, --help           show this help\n"
          "\nPlugin options (reader options of the plugin in use):\n",
          out);
    pbc_print_plugin_reader_options(out); /* dump writes no profile: no writer's option applies */
    fputs("\nFormats:\n", out);
    pbc_print_formats(out);
    fputs("\nExit status: 0 dumped, 1 IN is invalid, 2 usage or I/O error, or the plugin\n"
          "has no dump operation.\n",
          out);
}

enum { OPT_FROM = 1, OPT_JSON, OPT_OUTPUT };

/* Parsed with LLVM's rules (llvm_args.h), the plugins' options with them. */
static const pbc_arg_spec specs[] = {
    {.name = "json", .id = OPT_JSON, .kind = PBC_ARG_BOOL},
    {.name = "output", .alias = "o", .id = OPT_OUTPUT, .kind = PBC_ARG_VALUE, .arg = "OUT"},
    {.name = "from", .id = OPT_FROM, .kind = PBC_ARG_VALUE, .arg = "FORMAT"},
    PBC_ARG_INCLUDE(pbc_progress_specs),
    PBC_ARG_END};

int pbc_cmd_dump(int argc, char **argv) {
    const char *from = NULL, *out_path = "-";
    int json = 0, rc = PBC_EXIT_USAGE;
    pbc_args args;
    pb_source *src = NULL;
    pb_sink *sink = NULL;
    pb_error err;
    pb_error_clear(&err);

    if (pbc_args_parse("dump", "dump [options] IN", specs, argc, argv, 0, PBC_ARGS_PLUGIN, &args))
        return PBC_EXIT_USAGE;
    const pbc_plugin_opts po = args.plugin;
    for (size_t i = 0; i < args.nopt; i++) {
        const pbc_arg *o = &args.opt[i];
        switch (o->id) {
        case OPT_OUTPUT: out_path = o->value; break;
        case OPT_JSON: json = (int)o->u; break;
        case OPT_FROM: from = o->value; break;
        case PBC_ARG_HELP_ID: help(stdout); rc = PBC_EXIT_OK; goto out;
        default: break;
        }
    }
    if (args.npos != 1) {
        pbc_usage_error("dump", args.npos == 0 ? "missing input file" : "exactly one input file expected");
        goto out;
    }
    char **in = args.pos;
    const pb_format *f = NULL;
    if (from && !(f = pbc_format_arg("dump", "--from", from))) goto out;
    if (pbc_check_output("dump", out_path, (const char *const *)in, 1)) goto out;
    int prc = pbc_open_input(in[0], &src, &err);
    pbc_progress pg;
    /* named as its messages name it ("<stdin>" for "-") */
    pbc_progress_begin(&pg, pbc_progress_mode_of(&args), "dump", prc == 0 ? pb_source_name(src) : in[0]);
    pbc_progress_watch(&pg, src);
    if (prc == 0 && !f) prc = pb_format_detect(src, &f, &err);
    if (prc) {
        pbc_print_error(&err);
        rc = pbc_exit_for(prc);
        goto out;
    }
    if (pbc_check_plugin_options("dump", &po, f, NULL)) goto out;
    if (!f->dump) {
        pb_error_set_source(&err, pb_source_name(src));
        pb_error_set(&err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL, "the '%s' plugin has no dump operation",
                     f->name);
        pbc_print_error(&err);
        goto out;
    }
    /* Whatever stdout buffered so far goes first. */
    fflush(stdout);
    prc = pb_sink_open_file(&sink, out_path, 0, &err);
    if (prc == 0) {
        pb_dump_options d = PB_DUMP_OPTIONS_INIT;
        d.json = json;
        d.diag = pbc_diag;
        d.kv = po.kv;
        d.nkv = po.n;
        prc = f->dump(src, sink, &d, &err);
        pbc_progress_end(&pg);
        /* What was explained before a problem in the input is still worth
         * showing; after a failure of ours (memory, I/O, a limit) OUT stays
         * as it was. */
        pb_error cerr;
        pb_error_clear(&cerr);
        int ours = prc == PB_ENOMEM || prc == PB_EIO || prc == PB_ELIMIT;
        int crc = ours ? 0 : pb_sink_commit(sink, &cerr);
        if (prc == 0 && crc) {
            prc = crc;
            err = cerr;
        }
    }
    if (prc) {
        pb_error_set_source(&err, pb_source_name(src));
        pbc_print_error(&err);
        rc = pbc_exit_for(prc);
        goto out;
    }
    rc = PBC_EXIT_OK;
out:
    pb_sink_free(sink);
    pb_source_free(src);
    pbc_args_free(&args);
    return rc;
}
