/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * flame_svg_script.h -- the inline script of the flame-graph SVG and the
 * numbers it shares with flame_svg.c (the label rule and the layout must
 * agree between the first drawing in C and every redrawing in the browser).
 */
#ifndef PB_FLAME_SVG_SCRIPT_H
#define PB_FLAME_SVG_SCRIPT_H

#define PBI_FLAME_ROW 16     /* frame height in pixels */
#define PBI_FLAME_PAD 10     /* left and right margin */
#define PBI_FLAME_CHAR_W 7.5 /* advance of a 12px monospace glyph (7.2 in DejaVu Sans Mono) plus a margin */
/* The fill of frames a search matches (never a frame's own colour). */
#define PBI_FLAME_MATCH_R 230
#define PBI_FLAME_MATCH_G 0
#define PBI_FLAME_MATCH_B 230


/* "<script>...</script>\n" in parts, NULL last: zoom, search, details
 * line, labels. */
extern const char *const pbi_flame_svg_script[];

#endif
