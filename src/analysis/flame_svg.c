/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * flame_svg.c -- a self-contained interactive flame graph (SVG), in the
 * manner of Brendan Gregg's flamegraph.pl: the root ("all") at the bottom,
 * each frame as wide as its share of the samples, callers below callees,
 * siblings sorted by name, a <title> per frame for hover, and an inline
 * script that zooms into a frame on click. Nothing is loaded from outside
 * (no scripts, fonts or URLs; only the SVG namespace name).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/flame.h"

#define ROW 16     /* frame height in pixels */
#define PAD 10     /* left and right margin */
#define TOP 40     /* title and the "Reset Zoom" line */
#define BOTTOM 24  /* the details line */
#define CHAR_W 7.5 /* advance of a 12px monospace glyph (7.2 in DejaVu Sans Mono) plus a margin */
/* The script below uses the same numbers, spelt from these macros. */
#define STR_(x) #x
#define STR(x) STR_(x)

/* One box of the graph: a frame under one particular path from the root. */
typedef struct node {
    const char *name;
    uint32_t depth;     /* 0 = "all" */
    uint64_t start;     /* samples left of it */
    uint64_t count;     /* samples in it */
    uint64_t child_sum; /* samples given to its children so far */
} node;

static void put_xml(pb_buf *b, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '&': pbi_buf_puts(b, "&amp;"); break;
        case '<': pbi_buf_puts(b, "&lt;"); break;
        case '>': pbi_buf_puts(b, "&gt;"); break;
        case '"': pbi_buf_puts(b, "&quot;"); break;
        case '\'': pbi_buf_puts(b, "&#39;"); break;
        default: pbi_buf_putc(b, *s);
        }
    }
}

/* The visible label: the whole name, or its start and ".." when it does
 * not fit (the script applies the same rule after a zoom). UTF-8 sequences
 * are not cut: only bytes below 0x80 or lead bytes start a glyph. */
static void put_label(pb_buf *b, const char *name, double w) {
    long fit = (long)((w - 6) / CHAR_W);
    if (fit < 3) return;
    size_t glyphs = 0, i;
    for (i = 0; name[i]; i++)
        if (((unsigned char)name[i] & 0xC0) != 0x80) glyphs++;
    if ((long)glyphs <= fit) {
        put_xml(b, name);
        return;
    }
    pb_buf t = PB_BUF_INIT;
    glyphs = 0;
    for (i = 0; name[i]; i++) {
        if (((unsigned char)name[i] & 0xC0) != 0x80 && (long)++glyphs > fit - 2) break;
        pbi_buf_putc(&t, name[i]);
    }
    if (t.data) put_xml(b, t.data);
    /* the label's own buffer failing must fail the output (alloc-sweep: the
     * label came out as ".." and flame exited 0) */
    if (pbi_buf_failed(&t)) b->failed = 1;
    pbi_buf_free(&t);
    pbi_buf_puts(b, "..");
}

/* flamegraph.pl's "hot" palette, from a hash of the name so that a frame
 * keeps its colour across graphs. */
static void hot_color(const char *name, char *buf, size_t n) {
    uint32_t h = 2166136261u;
    for (const char *s = name; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    unsigned r = 205 + (h & 0xff) * 50 / 255, g = ((h >> 8) & 0xff) * 230 / 255, bl = ((h >> 16) & 0xff) * 55 / 255;
    snprintf(buf, n, "rgb(%u,%u,%u)", r, g, bl);
}

/* Test mode: colour i is unique (an odd multiplier is a bijection mod 2^24)
 * and never the white background. */
static void distinct_color(size_t i, char *buf, size_t n) {
    uint32_t c = (uint32_t)((i + 1) * 2654435761u) & 0xFFFFFFu;
    if (c == 0xFFFFFFu) c = 0xFEFEFEu;
    snprintf(buf, n, "#%06" PRIx32, c);
}

static const char script[] =
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "'use strict';\n"
    "var W = +document.documentElement.getAttribute('data-usable'), P = " STR(PAD) ";\n"
    "var frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
    "function nameOf(g) { var t = g.querySelector('title').textContent; return t.substring(0, t.lastIndexOf(' (')); }\n"
    "function label(g, w) {\n"
    "  var n = nameOf(g), fit = Math.floor((w - 6) / " STR(CHAR_W) ");\n"
    "  var t = g.querySelector('text'); if (!t) return;\n"
    "  t.textContent = fit < 3 ? '' : (n.length <= fit ? n : n.substring(0, fit - 2) + '..');\n"
    "}\n"
    "function zoom(s, n, d) {\n"
    "  frames.forEach(function (g) {\n"
    "    var gs = +g.dataset.s, gn = +g.dataset.n, gd = +g.dataset.d, r = g.querySelector('rect');\n"
    "    var x, w;\n"
    "    if (gd >= d && gs >= s && gs + gn <= s + n) { x = P + (gs - s) / n * W; w = gn / n * W; g.style.opacity = ''; }\n"
    "    else if (gd < d && gs <= s && gs + gn >= s + n) { x = P; w = W; g.style.opacity = '0.5'; }\n"
    "    else { g.style.display = 'none'; return; }\n"
    "    g.style.display = '';\n"
    "    r.setAttribute('x', x.toFixed(2)); r.setAttribute('width', Math.max(w - 1, 0).toFixed(2));\n"
    "    var t = g.querySelector('text'); if (t) t.setAttribute('x', (x + 3).toFixed(2));\n"
    "    label(g, w);\n"
    "  });\n"
    "  document.getElementById('unzoom').style.display = d > 0 || n < +frames[0].dataset.n ? '' : 'none';\n"
    "}\n"
    "frames.forEach(function (g) {\n"
    "  g.addEventListener('click', function () { zoom(+g.dataset.s, +g.dataset.n, +g.dataset.d); });\n"
    "  g.addEventListener('mouseover', function () { document.getElementById('details').textContent = g.querySelector('title').textContent; });\n"
    "  g.addEventListener('mouseout', function () { document.getElementById('details').textContent = ' '; });\n"
    "});\n"
    "document.getElementById('unzoom').addEventListener('click', function () { zoom(0, +frames[0].dataset.n, 0); });\n"
    "]]></script>\n";

static void put_frame(pb_buf *b, const node *nd, const pbi_flame *f, const pbi_flame_svg_opts *o, size_t index,
                      double usable, uint32_t height) {
    double x = PAD + (double)nd->start / (double)f->total * usable;
    double w = (double)nd->count / (double)f->total * usable;
    if (w < 0.1) return; /* below a tenth of a pixel: invisible, and would only bloat the file */
    double y = height - BOTTOM - (double)(nd->depth + 1) * ROW;
    char color[32];
    if (o->distinct_colors) distinct_color(index, color, sizeof color);
    else hot_color(nd->name, color, sizeof color);
    char pct[32];
    snprintf(pct, sizeof pct, "%.2f", (double)nd->count * 100.0 / (double)f->total);
    pbi_buf_printf(b, "<g class=\"f\" data-s=\"%" PRIu64 "\" data-n=\"%" PRIu64 "\" data-d=\"%" PRIu32 "\"><title>",
                   nd->start, nd->count, nd->depth);
    put_xml(b, nd->name);
    pbi_buf_printf(b, " (%" PRIu64 " sample%s, %s%%)</title>", nd->count, nd->count == 1 ? "" : "s", pct);
    /* One pixel of gap on the right separates neighbours of similar colour. */
    pbi_buf_printf(b, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>", x, y,
                   w > 1 ? w - 1 : w, ROW - 1, color);
    if (!o->distinct_colors) {
        pbi_buf_printf(b, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + 11.5);
        put_label(b, nd->name, w);
        pbi_buf_puts(b, "</text>");
    }
    pbi_buf_puts(b, "</g>\n");
}

void pbi_flame_svg(const pbi_flame *f, const pbi_flame_svg_opts *o, pb_buf *b) {
    unsigned width = o->width < 100 ? 100 : o->width;
    double usable = (double)width - 2 * PAD;
    uint32_t maxdepth = 0;
    for (size_t i = 0; i < f->num_stacks; i++)
        if (f->stacks[i].depth > maxdepth) maxdepth = f->stacks[i].depth;
    uint32_t height = TOP + (maxdepth + 1) * ROW + BOTTOM;

    pbi_buf_printf(b,
                   "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%u\" height=\"%" PRIu32
                   "\" viewBox=\"0 0 %u %" PRIu32 "\" data-usable=\"%.0f\">\n",
                   width, height, width, height, usable);
    pbi_buf_puts(b, "<style>text { font-family: monospace; font-size: 12px; fill: #000; }\n"
                    "g.f { cursor: pointer; } g.f text { pointer-events: none; }\n"
                    "g.f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
                    "rect { shape-rendering: crispEdges; }\n"
                    "#unzoom { cursor: pointer; }</style>\n");
    pbi_buf_printf(b, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%" PRIu32 "\" fill=\"#ffffff\"/>\n", width, height);
    pbi_buf_printf(b, "<text x=\"%.1f\" y=\"20\" text-anchor=\"middle\" style=\"font-size:16px\">", width / 2.0);
    put_xml(b, o->title ? o->title : "Flame graph");
    pbi_buf_puts(b, "</text>\n");
    pbi_buf_printf(b, "<text id=\"unzoom\" x=\"%d\" y=\"34\" style=\"display:none\">Reset Zoom</text>\n", PAD);
    pbi_buf_printf(b, "<text id=\"details\" x=\"%d\" y=\"%" PRIu32 "\"> </text>\n", PAD, height - 8);

    if (f->total > 0) {
        /* The stacks are sorted frame by frame with prefixes first, so the
         * children of a box are contiguous and in name order: one pass with
         * the current path lays out the tree. path[0] is "all". */
        node *path = calloc((size_t)maxdepth + 1, sizeof *path);
        if (!path) {
            b->failed = 1;
            return;
        }
        size_t index = 0;
        path[0] = (node){"all", 0, 0, f->total, 0};
        put_frame(b, &path[0], f, o, index++, usable, height);
        /* Boxes are printed once complete (when the path moves away), so each
         * knows its whole count: keep them until then. */
        uint32_t live = 0; /* path[1..live] are open */
        for (size_t i = 0; i <= f->num_stacks; i++) {
            const pbi_flame_stack *s = i < f->num_stacks ? &f->stacks[i] : NULL;
            uint32_t same = 0;
            if (s)
                while (same < live && same < s->depth && strcmp(path[same + 1].name, f->names[s->frames[same]]) == 0)
                    same++;
            /* Print the boxes this stack does not continue (their counts are
             * complete now), shallowest first. */
            for (uint32_t d = same + 1; d <= live; d++) put_frame(b, &path[d], f, o, index++, usable, height);
            live = same;
            if (!s) break;
            for (uint32_t d = 0; d < s->depth; d++) {
                node *parent = &path[d];
                node *nd = &path[d + 1];
                if (d >= live) {
                    *nd = (node){f->names[s->frames[d]], d + 1, parent->start + parent->child_sum, 0, 0};
                }
                nd->count = nd->count > UINT64_MAX - s->count ? UINT64_MAX : nd->count + s->count;
                parent->child_sum += s->count;
            }
            live = s->depth;
        }
        free(path);
    }
    pbi_buf_puts(b, script);
    pbi_buf_puts(b, "</svg>\n");
}
