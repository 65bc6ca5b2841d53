/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/*
 * flame_svg_script.c -- the script inside every flame-graph SVG.
 *
 * It finds its <svg class="pb-flame"> elements itself instead of using
 * document.documentElement or ids: inlined into an HTML page (even twice)
 * each graph zooms and searches on its own, and its names cannot collide
 * with the page's. Each run sets up the graphs not set up yet (the script
 * of the first graph runs before the second one is parsed).
 *
 * Search: "#search=REGEX" in the page's URL, or the "Search" control (and
 * Ctrl-F when the SVG is the whole document). Matching frames take the
 * PBI_FLAME_MATCH colour; "matched: X% of samples" counts every sample
 * once: the union of the matching frames' sample ranges [s, s+n), so a
 * match nested in another match adds nothing. Frames merged into a U+2026
 * frame (narrower than --min-width) are not drawn and cannot match.
 *
 * Labels, as flame_svg.c's put_label: the whole name when it fits; for a
 * Java frame (Pkg.Class.method(params)ret:bci) then "\u2026Class.method"
 * (package, signature and bci dropped), "\u2026method", and the method's start
 * and ".."; any other name its start and "..". Lengths count code points.
 */
#include <stddef.h>

#include "analysis/flame_svg_script.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* Parts, as one literal would pass the 4095 bytes C11 promises. */
const char *const pbi_flame_svg_script[] = {
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "(function () {\n"
    "'use strict';\n"
    "var P = " STR(PBI_FLAME_PAD) ", CW = " STR(PBI_FLAME_CHAR_W) ";\n"
    "var MATCH = 'rgb(" STR(PBI_FLAME_MATCH_R) "," STR(PBI_FLAME_MATCH_G) "," STR(PBI_FLAME_MATCH_B) ")';\n"
    "function glyphs(s) { return Array.from(s); }\n"
    "function cut(s, fit) { var g = glyphs(s); return g.length <= fit ? s : g.slice(0, fit - 2).join('') + '..'; }\n"
    "function labelFor(n, fit) {\n"
    "  if (fit < 3) return '';\n"
    "  if (glyphs(n).length <= fit) return n;\n"
    "  var paren = n.indexOf('('), head = paren < 0 ? '' : n.substring(0, paren), m = head.lastIndexOf('.');\n"
    "  if (m <= 0 || m === head.length - 1) return cut(n, fit);\n"
    "  var method = head.substring(m + 1), c = head.lastIndexOf('.', m - 1);\n"
    "  var tries = [(c < 0 ? '' : '\\u2026') + head.substring(c + 1), '\\u2026' + method];\n"
    "  for (var i = 0; i < tries.length; i++) if (glyphs(tries[i]).length <= fit) return tries[i];\n"
    "  return cut(method, fit);\n"
    "}\n"
    ,
    "function init(svg) {\n"
    "  svg.setAttribute('data-ready', '1');\n"
    "  var W = +svg.getAttribute('data-usable');\n"
    "  var frames = Array.prototype.slice.call(svg.querySelectorAll('g.f'));\n"
    "  if (!frames.length) return;\n"
    "  var total = +frames[0].getAttribute('data-n');\n"
    "  var unzoom = svg.querySelector('.unzoom'), details = svg.querySelector('.details');\n"
    "  var matched = svg.querySelector('.matched'), ask = svg.querySelector('.search');\n"
    "  function num(g, k) { return +g.getAttribute('data-' + k); }\n"
    "  function titleOf(g) { return g.querySelector('title').textContent; }\n"
    "  function nameOf(g) { var t = titleOf(g); return t.substring(0, t.lastIndexOf(' (')); }\n"
    "  function label(g, w) { var t = g.querySelector('text'); if (t) t.textContent = labelFor(nameOf(g), Math.floor((w - 6) / CW)); }\n"
    "  function zoom(s, n, d) {\n"
    "    frames.forEach(function (g) {\n"
    "      var gs = num(g, 's'), gn = num(g, 'n'), gd = num(g, 'd'), r = g.querySelector('rect'), x, w;\n"
    "      if (gd >= d && gs >= s && gs + gn <= s + n) { x = P + (gs - s) / n * W; w = gn / n * W; g.style.opacity = ''; }\n"
    "      else if (gd < d && gs <= s && gs + gn >= s + n) { x = P; w = W; g.style.opacity = '0.5'; }\n"
    "      else { g.style.display = 'none'; return; }\n"
    "      g.style.display = '';\n"
    "      r.setAttribute('x', x.toFixed(2)); r.setAttribute('width', (w > 1 ? w - 1 : w).toFixed(2));\n"
    "      var t = g.querySelector('text'); if (t) t.setAttribute('x', (x + 3).toFixed(2));\n"
    "      label(g, w);\n"
    "    });\n"
    "    unzoom.style.display = d > 0 || n < total ? '' : 'none';\n"
    "  }\n"
    ,
    "  function search(re) {\n"
    "    var ranges = [];\n"
    "    frames.forEach(function (g) {\n"
    "      var r = g.querySelector('rect');\n"
    "      if (!r.hasAttribute('data-fill')) r.setAttribute('data-fill', r.getAttribute('fill'));\n"
    "      var hit = re !== null && !g.classList.contains('m') && re.test(nameOf(g));\n"
    "      r.setAttribute('fill', hit ? MATCH : r.getAttribute('data-fill'));\n"
    "      if (hit) ranges.push([num(g, 's'), num(g, 's') + num(g, 'n')]);\n"
    "    });\n"
    "    ranges.sort(function (a, b) { return a[0] - b[0]; });\n"
    "    var sum = 0, end = -1;\n"
    "    ranges.forEach(function (v) { var from = Math.max(v[0], end); if (v[1] > from) { sum += v[1] - from; end = v[1]; } });\n"
    "    matched.textContent = re === null ? ' ' : 'matched: ' + (total > 0 ? sum * 100 / total : 0).toFixed(2) + '% of samples';\n"
    "    ask.textContent = re === null ? 'Search' : 'Reset Search';\n"
    "  }\n"
    "  function compile(q) { try { return q ? new RegExp(q) : null; } catch (e) { return null; } }\n"
    "  function prompted() {\n"
    "    if (ask.textContent !== 'Search') { search(null); return; }\n"
    "    var q = window.prompt('Search frames (regular expression)', '');\n"
    "    if (q) search(compile(q));\n"
    "  }\n"
    "  frames.forEach(function (g) {\n"
    "    g.addEventListener('click', function () { zoom(num(g, 's'), num(g, 'n'), num(g, 'd')); });\n"
    "    g.addEventListener('mouseover', function () { details.textContent = titleOf(g); });\n"
    "    g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
    "  });\n"
    "  unzoom.addEventListener('click', function () { zoom(0, total, 0); });\n"
    "  ask.addEventListener('click', prompted);\n"
    "  if (svg === document.documentElement)\n"
    "    document.addEventListener('keydown', function (e) {\n"
    "      if ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.key === 'F')) { e.preventDefault(); prompted(); }\n"
    "    });\n"
    "  var h = /(?:^#|&)search=([^&]*)/.exec(window.location.hash);\n"
    "  if (h) { var q; try { q = decodeURIComponent(h[1]); } catch (e) { q = h[1]; } var re = compile(q); if (re) search(re); }\n"
    "}\n"
    "var svgs = document.querySelectorAll('svg.pb-flame');\n"
    "for (var i = 0; i < svgs.length; i++) if (!svgs[i].hasAttribute('data-ready')) init(svgs[i]);\n"
    "})();\n"
    "]]></script>\n",
    NULL};
