/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * report_html.c -- the self-contained HTML page of `diff --html` and
 * `overlap --html` (report_html.h), and diff's rows.
 *
 * Every name is HTML-escaped; bytes that are not UTF-8 (LLVM names are
 * bytes) and control characters are shown as \xNN, so any profile gives a
 * valid UTF-8 page. Bars are <div>s with a pixel width: a function's
 * largest counter of the two profiles is PBI_HTML_BAR_PX wide, the others
 * in proportion, A's bar above B's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_html.h"
#include "util/buf.h"
#include "util/escape.h"

/* Text from a profile in HTML: escape.h's one rule for markup. */
static void put_html(pb_buf *b, const char *s, size_t n) { pbu_esc_markup(b, s, n); }
static void put_html_s(pb_buf *b, const char *s) { put_html(b, s, s ? strlen(s) : 0); }

static uint64_t total_of(const pb_record *r) {
    uint64_t t = 0;
    for (uint32_t i = 0; r && i < r->num_counters; i++)
        t = t > UINT64_MAX - r->counters[i] ? UINT64_MAX : t + r->counters[i];
    return t;
}

static unsigned bar_px(uint64_t v, uint64_t max) {
    return max ? (unsigned)((double)v / (double)max * PBI_HTML_BAR_PX + 0.5) : 0;
}

/* The counters of both sides as pairs of bars. */
static void put_bars(pb_buf *b, const pbi_html_row *r) {
    uint32_t na = r->ra ? r->ra->num_counters : 0, nb = r->rb ? r->rb->num_counters : 0, n = na > nb ? na : nb;
    uint32_t shown = n > PBI_HTML_MAX_BARS ? PBI_HTML_MAX_BARS : n;
    uint64_t max = 0;
    for (uint32_t i = 0; i < shown; i++) {
        if (i < na && r->ra->counters[i] > max) max = r->ra->counters[i];
        if (i < nb && r->rb->counters[i] > max) max = r->rb->counters[i];
    }
    for (uint32_t i = 0; i < shown; i++) {
        pbu_buf_printf(b, "<div class=\"pair\" title=\"counter %" PRIu32 ": ", i);
        if (i < na) pbu_buf_put_u64(b, r->ra->counters[i]);
        else pbu_buf_putc(b, '-');
        pbu_buf_puts(b, " / ");
        if (i < nb) pbu_buf_put_u64(b, r->rb->counters[i]);
        else pbu_buf_putc(b, '-');
        pbu_buf_printf(b,
                       "\"><div class=\"a\" style=\"width:%upx\"></div>"
                       "<div class=\"b\" style=\"width:%upx\"></div></div>",
                       i < na ? bar_px(r->ra->counters[i], max) : 0, i < nb ? bar_px(r->rb->counters[i], max) : 0);
    }
    if (n > shown) pbu_buf_printf(b, "<div class=\"more\">%" PRIu32 " more counters</div>", n - shown);
}

static void put_total(pb_buf *b, const pb_record *r) {
    pbu_buf_puts(b, "<td class=\"num\">");
    if (r) pbu_buf_put_u64(b, total_of(r));
    else pbu_buf_putc(b, '-');
    pbu_buf_puts(b, "</td>");
}

static const char style[] =
    "<style>\n"
    "body { font: 13px/1.35 sans-serif; margin: 16px; color: #222; background: #fff; }\n"
    "h1 { font-size: 18px; margin: 0 0 8px; }\n"
    "table { border-collapse: collapse; }\n"
    "th, td { padding: 3px 8px; border-bottom: 1px solid #ddd; text-align: left; vertical-align: top; }\n"
    "th { background: #f4f4f4; }\n"
    "td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }\n"
    "td.name { font-family: monospace; word-break: break-all; max-width: 40em; }\n"
    "td.bars { width: 170px; }\n"
    ".pair { margin: 0 0 3px; } .pair div { height: 5px; }\n"
    ".a { background: #1f77b4; } .b { background: #ff7f0e; }\n"
    ".key i { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 12px; }\n"
    ".more, .note { color: #666; }\n"
    "#filter { width: 30em; padding: 3px; }\n"
    "</style>\n";

/* Filters the rows by a case-insensitive substring of the name. */
static const char script[] =
    "<script>\n"
    "(function () {\n"
    "'use strict';\n"
    "var box = document.getElementById('filter'), shown = document.getElementById('shown');\n"
    "var rows = Array.prototype.slice.call(document.querySelectorAll('#rows tr'));\n"
    "function apply() {\n"
    "  var q = box.value.toLowerCase(), n = 0;\n"
    "  rows.forEach(function (r) {\n"
    "    var hit = r.cells[1].textContent.toLowerCase().indexOf(q) >= 0;\n"
    "    r.style.display = hit ? '' : 'none';\n"
    "    if (hit) n++;\n"
    "  });\n"
    "  shown.textContent = n + ' of ' + rows.length + ' rows shown';\n"
    "}\n"
    "box.addEventListener('input', apply);\n"
    "apply();\n"
    "})();\n"
    "</script>\n";

static int flush(pb_buf *b, pb_sink *out, pb_error *err) {
    if (pbu_buf_failed(b))
        return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory while writing the HTML report");
    int rc = b->len ? pb_sink_write(out, b->data, b->len, err) : 0;
    pbu_buf_reset(b);
    return rc;
}

int pbi_html_write(const pbi_html_page *pg, pb_sink *out, pb_error *err) {
    pb_buf b = PB_BUF_INIT;
    pbu_buf_puts(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    put_html_s(&b, pg->title);
    pbu_buf_puts(&b, "</title>\n");
    pbu_buf_puts(&b, style);
    pbu_buf_puts(&b, "</head>\n<body>\n<h1>");
    put_html_s(&b, pg->title);
    pbu_buf_puts(&b, "</h1>\n<p class=\"summary\">");
    put_html_s(&b, pg->summary);
    pbu_buf_puts(&b, "</p>\n<p class=\"key\">bars per counter, a function's largest counter full width:"
                     "<i class=\"a\"></i>");
    put_html_s(&b, pg->a_label);
    pbu_buf_puts(&b, " ");
    put_html_s(&b, pg->a_name);
    pbu_buf_puts(&b, "<i class=\"b\"></i>");
    put_html_s(&b, pg->b_label);
    pbu_buf_puts(&b, " ");
    put_html_s(&b, pg->b_name);
    pbu_buf_puts(&b, "</p>\n<p><input id=\"filter\" type=\"search\" placeholder=\"filter functions by name\" "
                     "aria-label=\"filter functions by name\"> <span id=\"shown\"></span></p>\n");
    size_t n = pg->num_rows > PBI_HTML_MAX_ROWS ? PBI_HTML_MAX_ROWS : pg->num_rows;
    if (n < pg->num_rows)
        pbu_buf_printf(&b, "<p class=\"note\">The first %zu of %zu functions, largest first.</p>\n", n, pg->num_rows);
    pbu_buf_puts(&b, "<table>\n<thead><tr><th>#</th><th>function</th><th>status</th><th>");
    put_html_s(&b, pg->measure_head);
    pbu_buf_puts(&b, "</th>");
    if (pg->pct) pbu_buf_puts(&b, "<th>overlap %</th>");
    pbu_buf_puts(&b, "<th>total ");
    put_html_s(&b, pg->a_label);
    pbu_buf_puts(&b, "</th><th>total ");
    put_html_s(&b, pg->b_label);
    pbu_buf_puts(&b, "</th><th>counters</th></tr></thead>\n<tbody id=\"rows\">\n");
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        const pbi_html_row *r = &pg->rows[i];
        pbu_buf_printf(&b, "<tr><td class=\"num\">%zu</td><td class=\"name\" title=\"hash 0x%016" PRIx64 "\">", i + 1,
                       r->hash);
        put_html(&b, r->name, r->name_len);
        pbu_buf_puts(&b, "</td><td>");
        put_html_s(&b, r->status);
        if (pg->pct)
            pbu_buf_printf(&b, "</td><td class=\"num\">%.3f</td><td class=\"num\">%.3f</td>", r->measure,
                           r->contribution);
        else pbu_buf_printf(&b, "</td><td class=\"num\">%.0f</td>", r->measure);
        put_total(&b, r->ra);
        put_total(&b, r->rb);
        pbu_buf_puts(&b, "<td class=\"bars\">");
        put_bars(&b, r);
        pbu_buf_puts(&b, "</td></tr>\n");
        if (b.len > 65536) rc = flush(&b, out, err);
    }
    if (!rc) {
        pbu_buf_puts(&b, "</tbody>\n</table>\n");
        pbu_buf_puts(&b, script);
        pbu_buf_puts(&b, "</body>\n</html>\n");
        rc = flush(&b, out, err);
    }
    pbu_buf_free(&b);
    return rc;
}

int pbi_html_diff(const pb_diff *d, const pb_profile *a, const pb_profile *b, const char *a_name, const char *b_name,
                  pb_sink *out, pb_error *err) {
    size_t n = pb_diff_count(d), only_a = 0, only_b = 0;
    pbi_html_row *rows = calloc(n ? n : 1, sizeof *rows);
    if (!rows) return pb_error_set(err, PB_ENOMEM, PB_NO_OFFSET, NULL, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const pb_diff_entry *e = pb_diff_entry_at(d, i);
        pbi_html_row *r = &rows[i];
        r->name = e->name;
        r->name_len = e->name_len;
        r->hash = e->hash;
        r->ra = e->rec_a != SIZE_MAX ? pb_profile_record(a, e->rec_a) : NULL;
        r->rb = e->rec_b != SIZE_MAX ? pb_profile_record(b, e->rec_b) : NULL;
        r->status = e->status == PB_DIFF_ONLY_A ? "only in A" : e->status == PB_DIFF_ONLY_B ? "only in B" : "changed";
        r->measure = (double)e->impact;
        only_a += e->status == PB_DIFF_ONLY_A;
        only_b += e->status == PB_DIFF_ONLY_B;
    }
    char summary[256];
    snprintf(summary, sizeof summary,
             "%zu functions differ (%zu changed, %zu only in A, %zu only in B), %zu equal. Impact: the sum of "
             "|counter deltas| and |value-count deltas| (one side only: the sum of its counts).",
             n, n - only_a - only_b, only_a, only_b, pb_diff_same_count(d));
    pbi_html_page pg = {"profbridge diff", a_name, b_name, "A", "B", "impact", summary, 0, rows, n};
    int rc = pbi_html_write(&pg, out, err);
    free(rows);
    return rc;
}
