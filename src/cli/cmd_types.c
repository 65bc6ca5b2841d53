/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_types.c -- `profbridge types IN`: type-profile analysis of receiver,
 * instanceof and monitor profiles (iprof) and of LLVM indirect-call and
 * vtable value sites. The report is the library's (profbridge/types.h); this
 * file parses the options and writes it out. Definitions: docs/types-flame.md.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "llvm_args.h"
#include "opts.h"
#include "read_input.h"

static void help(FILE *out) {
    fputs("Usage: " PBC_PROG " types IN [--width N] [--json] [-o OUT]\n"
          "\n"
          "Analyses the type profiles of IN: iprof virtual-invoke (receiver types),\n"
          "instanceof and monitor entries, and the indirect-call (value kind 0) and\n"
          "vtable (kind 2) value sites of LLVM profiles. Per site: the total, the\n"
          "number of types, the hottest types and their shares, the class\n"
          "(monomorphic: 1 type with a nonzero count, bimorphic: 2, megamorphic: 3 or\n"
          "more), and what a profile keeping only the N hottest types would keep and\n"
          "lose (HotSpot's TypeProfileWidth; GraalVM records up to 8). Sites are sorted\n"
          "by lost count, largest first; a summary over the profile comes first.\n"
          "A site is marked polluted when its recorded types cover less than 90% of\n"
          "its total, or when it holds as many types as the recorder keeps (8 for\n"
          "iprof, 255 for LLVM), so more types may have been dropped.\n"
          "\nOptions:\n"
          "      --width N        types a fixed-width profile keeps (default 2)\n"
          "      --json           print JSON instead of text\n"
          "      --from FORMAT    read IN as FORMAT instead of recognising it\n"
          "      --lenient        read with the plugin's lenient rules\n"
          "  -o, --output OUT     write to OUT instead of standard output\n"
          "  -h, --help           show this help\n"
          "\nExit status: 0 done, 1 IN is invalid, 2 usage or I/O error.\n",
          out);
}

enum { OPT_WIDTH = 1, OPT_JSON, OPT_FROM, OPT_LENIENT, OPT_OUTPUT };

/* Parsed with LLVM's rules (llvm_args.h): -x and --x, -x=v and -x v. */
static const pbc_arg_spec specs[] = {
    {.name = "width", .id = OPT_WIDTH, .kind = PBC_ARG_VALUE, .arg = "N"},
    {.name = "json", .id = OPT_JSON, .kind = PBC_ARG_BOOL},
    {.name = "from", .id = OPT_FROM, .kind = PBC_ARG_VALUE, .arg = "FORMAT"},
    {.name = "lenient", .id = OPT_LENIENT, .kind = PBC_ARG_BOOL},
    {.name = "output", .alias = "o", .id = OPT_OUTPUT, .kind = PBC_ARG_VALUE, .arg = "OUT"},
    PBC_ARG_END};

static int types_main(const pbc_args *a) {
    const char *from = NULL, *out_path = "-";
    int json = 0, lenient = 0;
    uint64_t width = 2;
    for (size_t i = 0; i < a->nopt; i++) {
        const pbc_arg *o = &a->opt[i];
        switch (o->id) {
        case OPT_WIDTH:
            if (pbc_parse_u64(o->value, &width) || width == 0 || width > PB_TYPES_MAX_WIDTH)
                return pbc_usage_error("types", "--width needs a number from 1 to 1000000, found '%s'", o->value);
            break;
        case OPT_JSON: json = (int)o->u; break;
        case OPT_FROM: from = o->value; break;
        case OPT_LENIENT: lenient = (int)o->u; break;
        case OPT_OUTPUT: out_path = o->value; break;
        case PBC_ARG_HELP_ID: help(stdout); return PBC_EXIT_OK;
        default: break;
        }
    }
    if (a->npos != 1)
        return pbc_usage_error("types", a->npos == 0 ? "missing input file" : "exactly one input file expected");
    if (from && !pbc_format_arg("types", "--from", from)) return PBC_EXIT_USAGE;
    const char *in_path = a->pos[0];
    pb_profile *p = NULL;
    int rc = pbc_check_output("types", out_path, &in_path, 1, 1);
    if (rc == 0) rc = pbc_read_input(in_path, from, lenient, &p);
    if (rc) return rc;

    pb_error err;
    pb_error_clear(&err);
    pb_sink *mem = NULL;
    pb_types_options o = PB_TYPES_OPTIONS_INIT;
    o.style = json ? PB_TYPES_JSON : PB_TYPES_TEXT;
    o.width = (unsigned)width;
    o.name = strcmp(in_path, "-") == 0 ? "<stdin>" : in_path;
    int prc = pb_sink_open_memory(&mem, &err);
    if (prc == 0) prc = pb_types_write(p, &o, mem, &err);
    if (prc) {
        pbc_print_error(&err);
        rc = pbc_exit_for(prc);
    } else {
        size_t len = 0;
        const uint8_t *bytes = pb_sink_memory(mem, &len);
        rc = pbc_write_output(out_path, len ? (const char *)bytes : "", len);
    }
    pb_sink_free(mem);
    pb_profile_free(p);
    return rc;
}

int pbc_cmd_types(int argc, char **argv) {
    pbc_args a;
    if (pbc_args_parse("types", "types [options] IN", specs, argc, argv, 0, 0, &a)) return PBC_EXIT_USAGE;
    int rc = types_main(&a);
    pbc_args_free(&a);
    return rc;
}
