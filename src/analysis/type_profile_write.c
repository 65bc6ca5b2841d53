/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * type_profile_write.c -- pb_types_write (profbridge/types.h): the numbers
 * of type_profile.c printed as text or JSON (docs/types-flame.md), built in
 * memory and written in one piece.
 */
#include "profbridge/types.h"

#include <inttypes.h>
#include <string.h>

#include "analysis/type_profile.h"
#include "model/options.h"
#include "util/api.h"
#include "util/buf.h"
#include "util/json_text.h"
#include "util/report_version.h"

PBI_OPTIONS_INIT_FN(types, TYPES)

/* Types listed per site in the text view (the JSON lists all). */
#define TEXT_TYPES_PER_SITE 8

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

static void text_summary(pb_buf *b, const char *input, const pbi_tp_report *r) {
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
}

static void text_site(pb_buf *b, const pbi_tp_site *s) {
    char p1[32], p2[32];
    pbu_buf_printf(b, "\n[%s] ", site_kind(s));
    text_site_name(b, s);
    pbu_buf_printf(b, "\n  total %" PRIu64 ", %" PRIu32 " type%s (%s), kept %" PRIu64 ", lost %" PRIu64 " (%s%%)\n",
                   s->total, s->num_types, s->num_types == 1 ? "" : "s", pbi_tp_class_name(s->cls), s->kept, s->lost,
                   pct(s->lost, s->total, p1, sizeof p1));
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
        pbu_buf_printf(b, "  %7s%%  %" PRIu64 "  (%" PRIu32 " more types)\n", pct(rest, s->total, p1, sizeof p1), rest,
                       s->num_values - shown);
    }
}

static void print_text(pb_buf *b, const char *input, const pbi_tp_report *r) {
    text_summary(b, input, r);
    for (size_t i = 0; i < r->num_sites; i++) text_site(b, &r->sites[i]);
}

/* `"KEY": "TEXT"`, plus `"KEY_hex"` when the bytes are not UTF-8 (LLVM
 * names may be any bytes; json_text.h has the rule). */
static void json_member(pb_buf *b, const char *key, const char *s) {
    pbu_json_put_text_member(b, key, s, strlen(s), PBU_JSON_HEX_SUFFIX);
}

static void json_site(pb_buf *b, const pbi_tp_site *s) {
    char p1[32];
    pbu_buf_printf(b, "{\"kind\":\"%s\",", site_kind(s));
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
        if (pbu_buf_failed(&why)) b->failed = 1; /* a cut reason: the report fails as out of memory */
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
        pbu_buf_puts(b, i ? ",\n" : "\n");
        json_site(b, &r->sites[i]);
    }
    pbu_buf_puts(b, "]}\n");
}

int pb_types_write(const pb_profile *p, const pb_types_options *opts, pb_sink *out, pb_error *err) {
    pbu_api_enter(err);
    if (!p) return pbu_null_arg(err, __func__, "p");
    if (!out) return pbu_null_arg(err, __func__, "out");
    pb_types_options o = PB_TYPES_OPTIONS_INIT;
    if (opts) {
        if (opts->version != PB_TYPES_OPTIONS_VERSION)
            return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, NULL, "%s: unknown pb_types_options version %u",
                                __func__, opts->version);
        o = *opts;
    }
    if (o.style != PB_TYPES_TEXT && o.style != PB_TYPES_JSON)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "style", "%s: unknown types style %d", __func__, o.style);
    if (o.width < 1 || o.width > PB_TYPES_MAX_WIDTH)
        return pb_error_set(err, PB_EINVAL, PB_NO_OFFSET, "width", "%s: width %u outside 1 .. %u", __func__, o.width,
                            PB_TYPES_MAX_WIDTH);
    const char *name = o.name ? o.name : "profile";
    pbi_tp_report r;
    pb_buf b = PB_BUF_INIT;
    int rc = pbi_type_profile_build(p, o.width, &r, err);
    if (rc == 0) {
        if (o.style == PB_TYPES_JSON) print_json(&b, name, &r);
        else print_text(&b, name, &r);
        if (pbu_buf_failed(&b)) rc = pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory while printing");
    }
    if (rc == 0 && b.len) rc = pb_sink_write(out, b.data, b.len, err);
    pbu_buf_free(&b);
    pbi_type_profile_free(&r);
    return rc;
}
