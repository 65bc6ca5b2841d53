/*
 * cmd_dump.c -- `profbridge dump IN`: hands the input to its plugin's dump
 * operation, which explains the bytes (headers, sections, offsets).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "opts.h"

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " dump IN [--json] [--from FORMAT] [-o OUT] [plugin options]\n"
          "\n"
          "Explains the bytes of IN field by field (header fields with their offsets,\n"
          "sections, records), as the format's plugin sees them. '-' reads standard input.\n"
          "\nOptions:\n"
          "      --json           print JSON instead of text\n"
          "      --from FORMAT    treat IN as FORMAT instead of recognising it by content\n"
          "  -o, --output OUT     write to OUT instead of standard output\n"
          "  -h, --help           show this help\n"
          "\nPlugin options (reader options of the plugin in use):\n",
          out);
    pbc_print_plugin_options(out);
    fputs("\nFormats:\n", out);
    pbc_print_formats(out);
    fputs("\nExit status: 0 dumped, 1 IN is invalid, 2 usage or I/O error, or the plugin\n"
          "has no dump operation.\n",
          out);
}

enum { OPT_FROM = 256, OPT_JSON };

static const struct option longopts[] = {{"json", no_argument, NULL, OPT_JSON},
                                         {"output", required_argument, NULL, 'o'},
                                         {"from", required_argument, NULL, OPT_FROM},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

int pbc_cmd_dump(int argc, char **argv) {
    const char *from = NULL, *out_path = "-";
    int json = 0, c, rc = PBC_EXIT_USAGE;
    pbc_plugin_opts po = {NULL, 0};
    pb_source *src = NULL;
    pb_sink *sink = NULL;
    pb_error err;
    pb_error_clear(&err);

    if (pbc_split_plugin_options("dump", &argc, argv, longopts, &po)) goto out;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out_path = optarg; break;
        case OPT_JSON: json = 1; break;
        case OPT_FROM: from = optarg; break;
        case 'h': help(stdout); rc = PBC_EXIT_OK; goto out;
        default: pbc_try_help("dump"); goto out;
        }
    }
    if (optind != argc - 1) {
        pbc_usage_error("dump", optind >= argc ? "missing input file" : "exactly one input file expected");
        goto out;
    }
    const pb_format *f = NULL;
    if (from && !(f = pbc_format_arg("dump", "--from", from))) goto out;
    if (pbc_check_output("dump", out_path, (const char *const *)argv + optind, 1)) goto out;
    int prc = pbc_open_input(argv[optind], &src, &err);
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
    pbc_plugin_opts_free(&po);
    return rc;
}
