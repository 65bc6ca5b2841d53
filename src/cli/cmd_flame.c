/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_flame.c -- `profbridge flame IN --format folded|speedscope|svg -o OUT`:
 * flame graphs from the sampling profiles (samplingProfiles) of an iprof
 * profile. Stacks are collected by src/analysis/flame.c; this file picks the writer.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "llvm_args.h"
#include "opts.h"
#include "read_input.h"

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " flame IN --format folded|speedscope|svg -o OUT [--no-bci]\n"
          "                [--title TEXT] [--width PIXELS] [--min-width PIXELS]\n"
          "                [--colors hot|distinct]\n"
          "\n"
          "Turns the sampling profiles of IN (iprof samplingProfiles: whole stacks and\n"
          "how often each was seen) into a flame graph. Frames are named\n"
          "Class.method(params)ret:bci, the root (thread entry) first; identical stacks\n"
          "are summed and stacks sorted frame by frame.\n"
          "  folded      one 'frame;frame;frame count' line per stack (flamegraph.pl,\n"
          "              inferno, speedscope and others read it)\n"
          "  speedscope  speedscope's JSON file format (open at speedscope.app)\n"
          "  svg         a self-contained interactive flame graph: hover for counts,\n"
          "              click a frame to zoom, 'Reset Zoom' to go back, 'Search'\n"
          "              (or #search=REGEX in the URL) to highlight frames and\n"
          "              show their share of the samples; works inlined in HTML\n"
          "\nOptions:\n"
          "      --format F       folded, speedscope or svg (default: from OUT's extension\n"
          "                       .folded/.txt, .json/.speedscope.json, .svg)\n"
          "  -o, --output OUT     output file ('-' = standard output)\n"
          "      --no-bci         leave out ':bci' (frames of one method merge)\n"
          "      --title TEXT     SVG heading (default 'Flame graph of IN')\n"
          "      --width PIXELS   SVG width (default 1200, at least 100)\n"
          "      --min-width PIXELS  SVG frames narrower than this merge into one '...'\n"
          "                       frame per parent (default 1; 0 keeps every frame)\n"
          "      --colors C       SVG colours: hot (default) or distinct (one colour per\n"
          "                       frame and no labels, for measuring the picture)\n"
          "      --from FORMAT    read IN as FORMAT instead of recognising it\n"
          "      --lenient        read with the plugin's lenient rules\n"
          "  -h, --help           show this help\n"
          "\nExit status: 0 written, 1 IN is invalid or has no sampling profiles,\n"
          "2 usage or I/O error.\n",
          out);
}

enum { OPT_FORMAT = 1, OPT_NO_BCI, OPT_TITLE, OPT_WIDTH, OPT_COLORS, OPT_FROM, OPT_LENIENT, OPT_OUTPUT, OPT_MIN_WIDTH };
enum { FMT_NONE, FMT_FOLDED, FMT_SPEEDSCOPE, FMT_SVG };

/* Parsed with LLVM's rules (llvm_args.h): -x and --x, -x=v and -x v. */
static const pbc_arg_spec specs[] = {
    {.name = "format", .id = OPT_FORMAT, .kind = PBC_ARG_VALUE, .arg = "F"},
    {.name = "output", .alias = "o", .id = OPT_OUTPUT, .kind = PBC_ARG_VALUE, .arg = "OUT"},
    {.name = "no-bci", .id = OPT_NO_BCI, .kind = PBC_ARG_BOOL},
    {.name = "title", .id = OPT_TITLE, .kind = PBC_ARG_VALUE, .arg = "TEXT"},
    {.name = "width", .id = OPT_WIDTH, .kind = PBC_ARG_VALUE, .arg = "PIXELS"},
    {.name = "min-width", .id = OPT_MIN_WIDTH, .kind = PBC_ARG_VALUE, .arg = "PIXELS"},
    {.name = "colors", .id = OPT_COLORS, .kind = PBC_ARG_VALUE, .arg = "C"},
    {.name = "from", .id = OPT_FROM, .kind = PBC_ARG_VALUE, .arg = "FORMAT"},
    {.name = "lenient", .id = OPT_LENIENT, .kind = PBC_ARG_BOOL},
    PBC_ARG_END};

static int ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int format_named(const char *s) {
    if (strcmp(s, "folded") == 0) return FMT_FOLDED;
    if (strcmp(s, "speedscope") == 0) return FMT_SPEEDSCOPE;
    if (strcmp(s, "svg") == 0) return FMT_SVG;
    return FMT_NONE;
}

static int format_for_path(const char *path) {
    if (ends_with(path, ".svg")) return FMT_SVG;
    if (ends_with(path, ".json")) return FMT_SPEEDSCOPE;
    if (ends_with(path, ".folded") || ends_with(path, ".txt")) return FMT_FOLDED;
    return FMT_NONE;
}

/* What the command line asks for. */
typedef struct flame_request {
    const char *from, *out_path, *title;
    int fmt, no_bci, lenient, distinct;
    uint64_t width, min_width;
} flame_request;

/* Reads one value option into q: 0, or the exit status after the message. */
static int read_flame_value(int id, const char *v, flame_request *q) {
    switch (id) {
    case OPT_FORMAT:
        if ((q->fmt = format_named(v)) == FMT_NONE)
            return pbc_usage_error("flame", "--format must be folded, speedscope or svg, found '%s'", v);
        break;
    case OPT_WIDTH:
        if (pbc_parse_u64(v, &q->width) || q->width < 100 || q->width > 100000)
            return pbc_usage_error("flame", "--width needs a number of pixels from 100 to 100000, found '%s'", v);
        break;
    case OPT_MIN_WIDTH:
        if (pbc_parse_u64(v, &q->min_width) || q->min_width > 100000)
            return pbc_usage_error("flame", "--min-width needs a number of pixels from 0 to 100000, found '%s'", v);
        break;
    case OPT_COLORS:
        if (strcmp(v, "hot") == 0) q->distinct = 0;
        else if (strcmp(v, "distinct") == 0) q->distinct = 1;
        else return pbc_usage_error("flame", "--colors must be hot or distinct, found '%s'", v);
        break;
    default: break;
    }
    return 0;
}

/* The options in order: -1 to go on, else the exit status (a bad value,
 * or --help shown). */
static int read_flame_options(const pbc_args *a, flame_request *q) {
    for (size_t i = 0; i < a->nopt; i++) {
        const char *v = a->opt[i].value;
        switch (a->opt[i].id) {
        case OPT_OUTPUT: q->out_path = v; break;
        case OPT_NO_BCI: q->no_bci = (int)a->opt[i].u; break;
        case OPT_TITLE: q->title = v; break;
        case OPT_FROM: q->from = v; break;
        case OPT_LENIENT: q->lenient = (int)a->opt[i].u; break;
        case PBC_ARG_HELP_ID: help(stdout); return PBC_EXIT_OK;
        default:
            if (read_flame_value(a->opt[i].id, v, q)) return PBC_EXIT_USAGE;
            break;
        }
    }
    return -1;
}

/* One input, an output and a format (named, or OUT's extension). */
static int check_flame_request(const pbc_args *a, flame_request *q) {
    if (a->npos != 1)
        return pbc_usage_error("flame", a->npos == 0 ? "missing input file" : "exactly one input file expected");
    if (!q->out_path) return pbc_usage_error("flame", "missing -o OUT (use '-o -' for standard output)");
    if (q->fmt == FMT_NONE && (q->fmt = format_for_path(q->out_path)) == FMT_NONE)
        return pbc_usage_error("flame", "missing --format (folded, speedscope or svg): '%s' has no extension that names one",
                               q->out_path);
    if (q->from && !pbc_format_arg("flame", "--from", q->from)) return PBC_EXIT_USAGE;
    return 0;
}

/* p's stacks drawn into `out` (the library's pb_flame_write); a profile
 * without sampling profiles has none, an error. */
static int render(pb_profile *p, const flame_request *q, const char *in_name, pb_sink *out, pb_error *err) {
    pb_flame_options o = PB_FLAME_OPTIONS_INIT;
    o.style = q->fmt == FMT_FOLDED ? PB_FLAME_FOLDED : q->fmt == FMT_SPEEDSCOPE ? PB_FLAME_SPEEDSCOPE : PB_FLAME_SVG;
    o.no_bci = q->no_bci;
    o.name = in_name;
    o.title = q->title;
    o.width = (unsigned)q->width;
    o.min_width = (double)q->min_width;
    o.distinct_colors = q->distinct;
    return pb_flame_write(p, &o, out, err);
}

static int flame_main(const pbc_args *a) {
    flame_request q = {NULL, NULL, NULL, FMT_NONE, 0, 0, 0, 1200, 1};
    int rc = read_flame_options(a, &q);
    if (rc >= 0) return rc;
    if ((rc = check_flame_request(a, &q))) return rc;
    const char *in_path = a->pos[0];
    const char *in_name = strcmp(in_path, "-") == 0 ? "<stdin>" : in_path;
    pb_profile *p = NULL;
    rc = pbc_check_output("flame", q.out_path, &in_path, 1, 1);
    if (rc == 0) rc = pbc_read_input(in_path, q.from, q.lenient, &p);
    if (rc) return rc;
    pb_error err;
    pb_error_clear(&err);
    pb_sink *mem = NULL;
    int prc = pb_sink_open_memory(&mem, &err);
    if (!prc) prc = render(p, &q, in_name, mem, &err);
    if (prc) {
        pbc_print_error(&err);
        rc = pbc_exit_for(prc);
    } else {
        size_t len = 0;
        const uint8_t *bytes = pb_sink_memory(mem, &len);
        rc = pbc_write_output(q.out_path, len ? (const char *)bytes : "", len);
    }
    pb_sink_free(mem);
    pb_profile_free(p);
    return rc;
}

int pbc_cmd_flame(int argc, char **argv) {
    pbc_args a;
    if (pbc_args_parse("flame", "flame [options] IN -o OUT", specs, argc, argv, 0, 0, &a)) return PBC_EXIT_USAGE;
    int rc = flame_main(&a);
    pbc_args_free(&a);
    return rc;
}
