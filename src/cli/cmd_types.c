/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * cmd_types.c -- `profbridge types IN`: type-profile analysis of receiver,
 * instanceof and monitor profiles (iprof) and of LLVM indirect-call and
 * vtable value sites. The numbers come from src/analysis/type_profile.c; this file
 * only prints them (text or JSON). Definitions: docs/types-flame.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/buf.h"
#include "cli.h"
#include "util/json_text.h"
#include "util/report_version.h"
#include "llvm_args.h"
#include "opts.h"
#include "read_input.h"
#include "analysis/type_profile.h"

/* Types listed per site in the text view (the JSON lists all). */
#define TEXT_TYPES_PER_SITE 8

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

/* Label of a site's kind. */
static const char *site_kind(const pbi_tp_site *s) {
    switch (s->kind) {
    case PB_REC_JAVA_VIRTUAL_INVOKE: return "virtual-invoke";
    case PB_REC_JAVA_INSTANCEOF: return "instanceof";
    case PB_REC_JAVA_MONITOR: return "monitor";
    default: return s->value_kind == PB_VK_INDIRECT_CALL ? "indirect-call" : "vtable";
    }
}

static const char *pct(uint64_t a, uint64_t b, char *buf, size_t n) {
    pbi_tp_percent(a, b, buf, n);
    return buf;
}

static void put_pollution(pb_buf *b, int bits) {
    const char *sep = "";
    if (bits & PBI_TP_UNCOVERED) {
        pbu_buf_puts(b, "recorded types cover < 90% of the total");
        sep = "; ";
    }
    if (bits & PBI_TP_FULL) pbu_buf_printf(b, "%stype table full, more types may have been dropped", sep);
}

static void text_site_name(pb_buf *b, const pbi_tp_site *s) {
    if (s->kind == PB_REC_JAVA_MONITOR) pbu_buf_puts(b, "(all monitors: one global entry)");
    else if (s->kind == PB_REC_FUNCTION) pbu_buf_printf(b, "%s (site %" PRIu32 ")", s->name, s->site);
    else pbu_buf_puts(b, s->name);
}

static void print_text(pb_buf *b, const char *input, const pbi_tp_report *r) {
    char p1[32], p2[32];
    pbu_buf_printf(b, "Type profiles of %s (width %u)\n", input, r->width);
    pbu_buf_printf(b, "  sites:            %zu", r->num_sites);
    const char *sep = " (";
    static const int kinds[] = {PB_REC_JAVA_VIRTUAL_INVOKE, PB_REC_JAVA_INSTANCEOF, PB_REC_JAVA_MONITOR,
                                PB_REC_FUNCTION};
    static const char *const kind_names[] = {"virtual-invoke", "instanceof", "monitor", "LLVM"};
    for (size_t i = 0; i < 4; i++) {
        if (!r->per_kind[kinds[i]]) continue;
        pbu_buf_printf(b, "%s%s %zu", sep, kind_names[i], r->per_kind[kinds[i]]);
        sep = ", ";
    }
    pbu_buf_puts(b, *sep == ',' ? ")\n" : "\n");
    pbu_buf_printf(b, "  monomorphic:      %zu\n", r->per_class[PBI_TP_MONOMORPHIC]);
    pbu_buf_printf(b, "  bimorphic:        %zu\n", r->per_class[PBI_TP_BIMORPHIC]);
    pbu_buf_printf(b, "  megamorphic:      %zu\n", r->per_class[PBI_TP_MEGAMORPHIC]);
    pbu_buf_printf(b, "  no types:         %zu\n", r->per_class[PBI_TP_EMPTY]);
    pbu_buf_printf(b, "  polluted:         %zu\n", r->polluted);
    pbu_buf_printf(b, "  total count:      %" PRIu64 "\n", r->total);
    pbu_buf_printf(b, "  kept at width %u: %" PRIu64 " (%s%%)\n", r->width, r->kept, pct(r->kept, r->total, p1, sizeof p1));
    pbu_buf_printf(b, "  lost:             %" PRIu64 " (%s%%)\n", r->lost, pct(r->lost, r->total, p2, sizeof p2));
    for (size_t i = 0; i < r->num_sites; i++) {
        const pbi_tp_site *s = &r->sites[i];
        pbu_buf_printf(b, "\n[%s] ", site_kind(s));
        text_site_name(b, s);
        pbu_buf_printf(b, "\n  total %" PRIu64 ", %" PRIu32 " type%s (%s), kept %" PRIu64 ", lost %" PRIu64 " (%s%%)\n",
                       s->total, s->num_types, s->num_types == 1 ? "" : "s", pbi_tp_class_name(s->cls), s->kept,
                       s->lost, pct(s->lost, s->total, p1, sizeof p1));
        if (s->recorded != s->total)
            pbu_buf_printf(b, "  recorded %" PRIu64 " (%s%% of the total)\n", s->recorded,
                           pct(s->recorded, s->total, p2, sizeof p2));
        if (s->polluted) {
            pbu_buf_puts(b, "  polluted: ");
            put_pollution(b, s->polluted);
            pbu_buf_putc(b, '\n');
        }
        uint32_t shown = s->num_values < TEXT_TYPES_PER_SITE ? s->num_values : TEXT_TYPES_PER_SITE;
        for (uint32_t t = 0; t < shown; t++)
            pbu_buf_printf(b, "  %7s%%  %" PRIu64 "  %s\n", pct(s->types[t].count, s->total, p1, sizeof p1),
                           s->types[t].count, s->types[t].name);
        if (shown < s->num_values) {
            uint64_t rest = 0;
            for (uint32_t t = shown; t < s->num_values; t++) rest += s->types[t].count;
            pbu_buf_printf(b, "  %7s%%  %" PRIu64 "  (%" PRIu32 " more types)\n", pct(rest, s->total, p1, sizeof p1),
                           rest, s->num_values - shown);
        }
    }
}

/* `"KEY": "TEXT"`, plus `"KEY_hex"` when the bytes are not UTF-8 (LLVM
 * names may be any bytes; json_text.h has the rule). */
static void json_member(pb_buf *b, const char *key, const char *s) {
    pbu_json_put_text_member(b, key, s, strlen(s), PBU_JSON_HEX_SUFFIX);
}

static void print_json(pb_buf *b, const char *input, const pbi_tp_report *r) {
    char p1[32];
    pbu_buf_puts(b, "{\"format_version\":\"" PBU_REPORT_TYPES "\",");
    json_member(b, "input", input);
    pbu_buf_printf(b, ",\"width\":%u,\"summary\":{\"sites\":%zu,\"monomorphic\":%zu,\"bimorphic\":%zu,"
                      "\"megamorphic\":%zu,\"no_types\":%zu,\"polluted\":%zu,\"total\":%" PRIu64
                      ",\"kept\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"lost_percent\":%s},\"sites\":[",
                   r->width, r->num_sites, r->per_class[PBI_TP_MONOMORPHIC], r->per_class[PBI_TP_BIMORPHIC],
                   r->per_class[PBI_TP_MEGAMORPHIC], r->per_class[PBI_TP_EMPTY], r->polluted, r->total, r->kept,
                   r->lost, pct(r->lost, r->total, p1, sizeof p1));
    for (size_t i = 0; i < r->num_sites; i++) {
        const pbi_tp_site *s = &r->sites[i];
        pbu_buf_printf(b, "%s\n{\"kind\":\"%s\",", i ? "," : "", site_kind(s));
        json_member(b, "name", s->kind == PB_REC_JAVA_MONITOR ? "" : s->name);
        if (s->kind == PB_REC_FUNCTION) pbu_buf_printf(b, ",\"site\":%" PRIu32, s->site);
        pbu_buf_printf(b, ",\"total\":%" PRIu64 ",\"recorded\":%" PRIu64 ",\"types\":%" PRIu32
                          ",\"class\":\"%s\",\"kept\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"lost_percent\":%s",
                       s->total, s->recorded, s->num_types, pbi_tp_class_name(s->cls), s->kept, s->lost,
                       pct(s->lost, s->total, p1, sizeof p1));
        pbu_buf_printf(b, ",\"polluted\":%s", s->polluted ? "true" : "false");
        if (s->polluted) {
            pb_buf why = PB_BUF_INIT;
            put_pollution(&why, s->polluted);
            pbu_buf_putc(b, ',');
            json_member(b, "polluted_why", why.data ? why.data : "");
            pbu_buf_free(&why);
        }
        pbu_buf_puts(b, ",\"values\":[");
        for (uint32_t t = 0; t < s->num_values; t++) {
            pbu_buf_puts(b, t ? ",{" : "{");
            json_member(b, "name", s->types[t].name);
            pbu_buf_printf(b, ",\"count\":%" PRIu64 ",\"percent\":%s}", s->types[t].count,
                           pct(s->types[t].count, s->total, p1, sizeof p1));
        }
        pbu_buf_puts(b, "]}");
    }
    pbu_buf_puts(b, "]}\n");
}

static int types_main(const pbc_args *a) {
    const char *from = NULL, *out_path = "-";
    int json = 0, lenient = 0;
    uint64_t width = 2;
    for (size_t i = 0; i < a->nopt; i++) {
        const pbc_arg *o = &a->opt[i];
        switch (o->id) {
        case OPT_WIDTH:
            if (pbc_parse_u64(o->value, &width) || width == 0 || width > 1000000)
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

    pbi_tp_report r;
    pb_error err;
    pb_error_clear(&err);
    pb_buf b = PB_BUF_INIT;
    int prc = pbi_type_profile_build(p, (unsigned)width, &r, &err);
    if (prc == 0) {
        const char *name = strcmp(in_path, "-") == 0 ? "<stdin>" : in_path;
        if (json) print_json(&b, name, &r);
        else print_text(&b, name, &r);
        if (pbu_buf_failed(&b)) prc = pb_error_set(&err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory while printing");
    }
    if (prc) {
        pbc_print_error(&err);
        rc = pbc_exit_for(prc);
    } else {
        rc = pbc_write_output(out_path, b.data ? b.data : "", b.len);
    }
    pbu_buf_free(&b);
    pbi_type_profile_free(&r);
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
