/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_dump.c -- `profbridge dump IN`: hands the input to its plugin's dump
 * operation, which explains the bytes (headers, sections, offsets).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "profbridge/coverage.h"
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

/* What the command line asks for. */
typedef struct dump_request {
    const char *from, *out_path;
    int json, help;
} dump_request;

static void read_dump_options(const pbc_args *args, dump_request *q) {
    for (size_t i = 0; i < args->nopt; i++) {
        const pbc_arg *o = &args->opt[i];
        switch (o->id) {
        case OPT_OUTPUT: q->out_path = o->value; break;
        case OPT_JSON: q->json = (int)o->u; break;
        case OPT_FROM: q->from = o->value; break;
        case PBC_ARG_HELP_ID: q->help = 1; return;
        default: break;
        }
    }
}

/* Explains src with f's dump operation into OUT. What was explained before
 * a problem in the input is still worth showing; after a failure of ours
 * (memory, I/O, a limit) OUT stays as it was. */
static int write_dump(const pb_format *f, pb_source *src, const dump_request *q, const pbc_plugin_opts *po,
                      pbc_progress *pg, pb_error *err) {
    pb_sink *sink = NULL;
    /* Whatever stdout buffered so far goes first. */
    fflush(stdout);
    int prc = pb_sink_open_file(&sink, q->out_path, 0, err);
    if (prc == 0) {
        pb_dump_options d = PB_DUMP_OPTIONS_INIT;
        d.json = q->json;
        d.diag = pbc_diag;
        d.kv = po->kv;
        d.nkv = po->n;
        prc = f->dump(src, sink, &d, err);
        pbc_progress_end(pg);
        pb_error cerr;
        pb_error_clear(&cerr);
        int ours = prc == PB_ENOMEM || prc == PB_EIO || prc == PB_ELIMIT;
        int crc = ours ? 0 : pb_sink_commit(sink, &cerr);
        if (prc == 0 && crc) {
            prc = crc;
            *err = cerr;
        }
    }
    pb_sink_free(sink);
    return prc;
}

/* An ELF object: pb_coverage_dump explains its coverage sections. */
static int dump_object(const char *path, const dump_request *q, pbc_progress *pg) {
    pb_error err;
    pb_error_clear(&err);
    pb_sink *sink = NULL;
    fflush(stdout);
    int prc = pb_sink_open_file(&sink, q->out_path, 0, &err);
    if (prc == 0) {
        prc = pb_coverage_dump(path, q->json, sink, &err);
        pbc_progress_end(pg);
        pb_error cerr;
        pb_error_clear(&cerr);
        int crc = prc == PB_ENOMEM || prc == PB_EIO ? 0 : pb_sink_commit(sink, &cerr);
        if (prc == 0 && crc) {
            prc = crc;
            err = cerr;
        }
    }
    pb_sink_free(sink);
    if (prc) pbc_print_error(&err);
    return prc ? pbc_exit_for(prc) : 0;
}

/* IN opened, its plugin found (or --from's) and explained. */
static int dump_input(const pbc_args *args, const dump_request *q, const pb_format *f, pb_source **src) {
    const pbc_plugin_opts po = args->plugin;
    pb_error err;
    pb_error_clear(&err);
    int prc = pbc_open_input(args->pos[0], src, &err);
    pbc_progress pg;
    /* named as its messages name it ("<stdin>" for "-") */
    pbc_progress_begin(&pg, pbc_progress_mode_of(args), "dump", prc == 0 ? pb_source_name(*src) : args->pos[0]);
    pbc_progress_watch(&pg, *src);
    if (prc == 0 && !f && strcmp(args->pos[0], "-") != 0) { /* an object: its coverage sections */
        const uint8_t *head;
        size_t n;
        if (pb_source_peek(*src, &head, &n, &err) == 0 && n >= 4 && memcmp(head, "\x7f" "ELF", 4) == 0)
            return dump_object(args->pos[0], q, &pg);
    }
    if (prc == 0 && !f) prc = pb_format_detect(*src, &f, &err);
    if (prc) {
        pbc_print_error(&err);
        return pbc_exit_for(prc);
    }
    if (pbc_check_plugin_options("dump", &po, f, NULL)) return PBC_EXIT_USAGE;
    if (!f->dump) {
        pb_error_set_source(&err, pb_source_name(*src));
        pb_error_set(&err, PB_EUNSUPPORTED, PB_NO_OFFSET, NULL, "the '%s' plugin has no dump operation",
                     f->name);
        pbc_print_error(&err);
        return PBC_EXIT_USAGE;
    }
    prc = write_dump(f, *src, q, &po, &pg, &err);
    if (prc) {
        pb_error_set_source(&err, pb_source_name(*src));
        pbc_print_error(&err);
        return pbc_exit_for(prc);
    }
    return PBC_EXIT_OK;
}

static int run_dump(const pbc_args *args) {
    dump_request q = {NULL, "-", 0, 0};
    read_dump_options(args, &q);
    if (q.help) {
        help(stdout);
        return PBC_EXIT_OK;
    }
    if (args->npos != 1) {
        pbc_usage_error("dump", args->npos == 0 ? "missing input file" : "exactly one input file expected");
        return PBC_EXIT_USAGE;
    }
    const pb_format *f = NULL;
    if (q.from && !(f = pbc_format_arg("dump", "--from", q.from))) return PBC_EXIT_USAGE;
    if (pbc_check_output("dump", q.out_path, (const char *const *)args->pos, 1, 1)) return PBC_EXIT_USAGE;
    pb_source *src = NULL;
    int rc = dump_input(args, &q, f, &src);
    pb_source_free(src);
    return rc;
}

int pbc_cmd_dump(int argc, char **argv) {
    pbc_args args;
    if (pbc_args_parse("dump", "dump [options] IN", specs, argc, argv, 0, PBC_ARGS_PLUGIN, &args))
        return PBC_EXIT_USAGE;
    int rc = run_dump(&args);
    pbc_args_free(&args);
    return rc;
}
