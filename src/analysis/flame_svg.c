/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * flame_svg.c -- a self-contained interactive flame graph (SVG), in the
 * manner of Brendan Gregg's flamegraph.pl: the root ("all") at the bottom,
 * each frame as wide as its share of the samples, callers below callees,
 * siblings sorted by name, a <title> per frame for hover, and an inline
 * script (flame_svg_script.c) that zooms into a frame on click and searches.
 * Frames narrower than opts->min_width pixels are merged into one U+2026
 * frame per parent, drawn right of its wide siblings: a big profile's
 * thousands of invisible slivers would only bloat the file. Nothing is
 * loaded from outside (no scripts, fonts or URLs; only the SVG namespace).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/flame.h"
#include "analysis/flame_svg_script.h"
#include "util/escape.h"

#define ROW PBI_FLAME_ROW
#define PAD PBI_FLAME_PAD
#define CHAR_W PBI_FLAME_CHAR_W
#define TOP 40    /* title and the "Reset Zoom" / "Search" line */
#define BOTTOM 24 /* the details and "matched" line */
#define ELLIPSIS "\xE2\x80\xA6" /* U+2026 in UTF-8 */

/* One box of the graph: a frame under one particular path from the root. */
typedef struct node {
    const char *name;
    uint32_t depth;        /* 0 = "all" */
    uint64_t start;        /* samples left of it */
    uint64_t count;        /* samples in it */
    uint64_t placed;       /* samples of its complete children drawn so far */
    uint64_t narrow;       /* samples of its children too narrow to draw */
    uint64_t narrow_count; /* how many children those are */
} node;

/* Names, the title and the file name in the SVG: escape.h's one rule for
 * markup (a control byte would make the document ill-formed XML). */
static void put_xml_n(pb_buf *b, const char *s, size_t n) { pbu_esc_markup(b, s, n); }
static void put_xml(pb_buf *b, const char *s) { put_xml_n(b, s, strlen(s)); }

/* Code points in s[0..n) (names are UTF-8: only bytes below 0x80 and lead
 * bytes start one). */
static size_t glyphs(const char *s, size_t n) {
    size_t g = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) g++;
    return g;
}

/* The start of s[0..n) that fits in `fit` glyphs with "..": never cuts a
 * UTF-8 sequence. */
static void put_cut(pb_buf *b, const char *s, size_t n, long fit) {
    if ((long)glyphs(s, n) <= fit) {
        put_xml_n(b, s, n);
        return;
    }
    size_t i, g = 0;
    for (i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80 && (long)++g > fit - 2) break;
    put_xml_n(b, s, i);
    pbu_buf_puts(b, "..");
}

/* The visible label of a frame `w` pixels wide (the script's labelFor, the
 * same rule after a zoom): the whole name when it fits. A Java frame
 * "pkg.Class.method(params)ret:bci" is shortened from the left, where the
 * package is least telling: "…Class.method", then "…method", then the
 * method's start and "..". Any other name: its start and "..". */
static void put_label(pb_buf *b, const char *name, double w) {
    long fit = (long)((w - 6) / CHAR_W);
    size_t len = strlen(name);
    if (fit < 3) return;
    if ((long)glyphs(name, len) <= fit) {
        put_xml_n(b, name, len);
        return;
    }
    const char *paren = strchr(name, '(');
    size_t head = paren ? (size_t)(paren - name) : 0, m = head;
    while (m > 0 && name[m - 1] != '.') m--; /* m: the method's first byte */
    if (m <= 1 || m == head) {                /* no "Class." before a method */
        put_cut(b, name, len, fit);
        return;
    }
    size_t c = m - 1; /* the class's first byte */
    while (c > 0 && name[c - 1] != '.') c--;
    size_t klass = glyphs(name + c, head - c) + (c > 0);
    if ((long)klass <= fit) {
        if (c > 0) pbu_buf_puts(b, ELLIPSIS);
        put_xml_n(b, name + c, head - c);
    } else if ((long)glyphs(name + m, head - m) + 1 <= fit) {
        pbu_buf_puts(b, ELLIPSIS);
        put_xml_n(b, name + m, head - m);
    } else {
        put_cut(b, name + m, head - m, fit);
    }
}

/* flamegraph.pl's "hot" palette, from a hash of the name so that a frame
 * keeps its colour across graphs. Never the search colour (its blue is 0). */
static void hot_color(const char *name, char *buf, size_t n) {
    uint32_t h = 2166136261u;
    for (const char *s = name; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    unsigned r = 205 + (h & 0xff) * 50 / 255, g = ((h >> 8) & 0xff) * 230 / 255, bl = ((h >> 16) & 0xff) * 55 / 255;
    snprintf(buf, n, "rgb(%u,%u,%u)", r, g, bl);
}

/* Test mode: colour i is unique (an odd multiplier is a bijection mod 2^24)
 * and never the white background or the search colour. */
static void distinct_color(size_t i, char *buf, size_t n) {
    uint32_t c = (uint32_t)((i + 1) * 2654435761u) & 0xFFFFFFu;
    if (c == 0xFFFFFFu) c = 0xFEFEFEu;
    if (c == ((PBI_FLAME_MATCH_R << 16) | (PBI_FLAME_MATCH_G << 8) | PBI_FLAME_MATCH_B)) c ^= 1;
    snprintf(buf, n, "#%06" PRIx32, c);
}

typedef struct layout {
    const pbi_flame *f;
    const pbi_flame_svg_opts *o;
    double usable;
    uint32_t height;
    size_t index; /* frames drawn so far (distinct colours) */
} layout;

static double width_of(const layout *l, uint64_t count) { return (double)count / (double)l->f->total * l->usable; }

/* Draws one box. `merged` > 0: the U+2026 box of that many narrow frames. */
static void put_frame(pb_buf *b, layout *l, const char *name, uint32_t depth, uint64_t start, uint64_t count,
                      uint64_t merged) {
    double x = PAD + width_of(l, start), w = width_of(l, count);
    if (w < 0.1) return; /* below a tenth of a pixel: invisible, and would only bloat the file */
    double y = l->height - BOTTOM - (double)(depth + 1) * ROW;
    char color[32];
    if (l->o->distinct_colors) distinct_color(l->index, color, sizeof color);
    else if (merged) snprintf(color, sizeof color, "rgb(200,200,200)");
    else hot_color(name, color, sizeof color);
    l->index++;
    char pct[32];
    snprintf(pct, sizeof pct, "%.2f", (double)count * 100.0 / (double)l->f->total);
    pbu_buf_printf(b, "<g class=\"f%s\" data-s=\"%" PRIu64 "\" data-n=\"%" PRIu64 "\" data-d=\"%" PRIu32 "\"><title>",
                   merged ? " m" : "", start, count, depth);
    put_xml(b, name);
    pbu_buf_printf(b, " (%" PRIu64 " sample%s, %s%%", count, count == 1 ? "" : "s", pct);
    if (merged)
        pbu_buf_printf(b, "; %" PRIu64 " frame%s narrower than %g px merged", merged, merged == 1 ? "" : "s",
                       l->o->min_width);
    pbu_buf_puts(b, ")</title>");
    /* One pixel of gap on the right separates neighbours of similar colour. */
    pbu_buf_printf(b, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>", x, y,
                   w > 1 ? w - 1 : w, ROW - 1, color);
    if (!l->o->distinct_colors) {
        pbu_buf_printf(b, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + 11.5);
        put_label(b, name, w);
        pbu_buf_puts(b, "</text>");
    }
    pbu_buf_puts(b, "</g>\n");
}

/* A box whose count is complete: drawn with its children's U+2026 box, or
 * (too narrow) left to its parent's. Children complete before parents. */
static void complete(pb_buf *b, layout *l, node *nd, node *parent) {
    if (parent && width_of(l, nd->count) < l->o->min_width) {
        parent->narrow += nd->count;
        parent->narrow_count++;
        return;
    }
    if (parent) put_frame(b, l, nd->name, nd->depth, nd->start, nd->count, 0);
    if (nd->narrow)
        put_frame(b, l, ELLIPSIS, nd->depth + 1, nd->start + nd->placed, nd->narrow, nd->narrow_count);
    if (parent) parent->placed += nd->count;
}

static void put_header(pb_buf *b, const pbi_flame_svg_opts *o, unsigned width, uint32_t height, double usable) {
    pbu_buf_printf(b,
                   "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" class=\"pb-flame\" width=\"%u\" "
                   "height=\"%" PRIu32 "\" viewBox=\"0 0 %u %" PRIu32 "\" data-usable=\"%.0f\">\n",
                   width, height, width, height, usable);
    /* Every rule names svg.pb-flame: inlined in HTML, the style would
     * otherwise apply to the whole page. */
    pbu_buf_puts(b, "<style>svg.pb-flame text { font-family: monospace; font-size: 12px; fill: #000; }\n"
                    "svg.pb-flame g.f { cursor: pointer; } svg.pb-flame g.f text { pointer-events: none; }\n"
                    "svg.pb-flame g.f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
                    "svg.pb-flame rect { shape-rendering: crispEdges; }\n"
                    "svg.pb-flame .unzoom, svg.pb-flame .search { cursor: pointer; }</style>\n");
    pbu_buf_printf(b, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%" PRIu32 "\" fill=\"#ffffff\"/>\n", width, height);
    pbu_buf_printf(b, "<text x=\"%.1f\" y=\"20\" text-anchor=\"middle\" style=\"font-size:16px\">", width / 2.0);
    put_xml(b, o->title ? o->title : "Flame graph");
    pbu_buf_puts(b, "</text>\n");
    pbu_buf_printf(b, "<text class=\"unzoom\" x=\"%d\" y=\"34\" style=\"display:none\">Reset Zoom</text>\n", PAD);
    pbu_buf_printf(b, "<text class=\"search\" x=\"%u\" y=\"34\" text-anchor=\"end\">Search</text>\n", width - PAD);
    pbu_buf_printf(b, "<text class=\"details\" x=\"%d\" y=\"%" PRIu32 "\"> </text>\n", PAD, height - 8);
    pbu_buf_printf(b, "<text class=\"matched\" x=\"%u\" y=\"%" PRIu32 "\" text-anchor=\"end\"> </text>\n", width - PAD,
                   height - 8);
}

void pbi_flame_svg(const pbi_flame *f, const pbi_flame_svg_opts *o, pb_buf *b) {
    unsigned width = o->width < 100 ? 100 : o->width;
    double usable = (double)width - 2 * PAD;
    uint32_t maxdepth = 0;
    for (size_t i = 0; i < f->num_stacks; i++)
        if (f->stacks[i].depth > maxdepth) maxdepth = f->stacks[i].depth;
    uint32_t height = TOP + (maxdepth + 1) * ROW + BOTTOM;
    put_header(b, o, width, height, usable);

    if (f->total > 0) {
        /* The stacks are sorted frame by frame with prefixes first, so the
         * children of a box are contiguous and in name order: one pass with
         * the current path lays out the tree. path[0] is "all". */
        node *path = calloc((size_t)maxdepth + 1, sizeof *path);
        if (!path) {
            b->failed = 1;
            return;
        }
        layout l = {f, o, usable, height, 0};
        path[0] = (node){"all", 0, 0, f->total, 0, 0, 0};
        put_frame(b, &l, "all", 0, 0, f->total, 0);
        /* A box is complete (and drawn) when the path moves away from it;
         * its start is fixed when it opens, right of its wide elder
         * siblings, so narrow ones leave no gap. */
        uint32_t live = 0; /* path[1..live] are open */
        for (size_t i = 0; i <= f->num_stacks; i++) {
            const pbi_flame_stack *s = i < f->num_stacks ? &f->stacks[i] : NULL;
            uint32_t same = 0;
            if (s)
                while (same < live && same < s->depth && strcmp(path[same + 1].name, f->names[s->frames[same]]) == 0)
                    same++;
            /* the boxes this stack does not continue, deepest first */
            for (uint32_t d = live; d > same; d--) complete(b, &l, &path[d], &path[d - 1]);
            live = same;
            if (!s) break;
            for (uint32_t d = 0; d < s->depth; d++) {
                node *nd = &path[d + 1];
                if (d >= live) {
                    *nd = (node){f->names[s->frames[d]], d + 1, path[d].start + path[d].placed, 0, 0, 0, 0};
                }
                nd->count = nd->count > UINT64_MAX - s->count ? UINT64_MAX : nd->count + s->count;
            }
            live = s->depth;
        }
        complete(b, &l, &path[0], NULL);
        free(path);
    }
    for (const char *const *part = pbi_flame_svg_script; *part; part++) pbu_buf_puts(b, *part);
    pbu_buf_puts(b, "</svg>\n");
}
