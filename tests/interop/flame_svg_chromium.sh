#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# flame_svg_chromium.sh -- the flame-graph SVG as a browser draws it.
# Headless Chromium renders `profbridge flame --format svg --colors distinct`
# of the hand-written testdata/types/samples.iprof (23 samples); python3+PIL
# measures each frame's solid colour in the screenshot and checks its width
# and position against the counts written by hand below (1180 usable pixels,
# 1 px gap right of each frame), then clicks a frame (an injected script
# dispatches the click) and checks the zoomed widths.
# Search: "#search=work|hash" in the URL paints exactly the matching frames in
# the search colour and says "matched: 86.96% of samples" (20 of 23: the
# matches nested in Main.work add nothing). A generated profile with Java
# package names, its SVG inlined twice in one HTML page: labels shortened
# from the left, a click zooms only its own copy (widths measured in the
# screenshot and read from the DOM), and --min-width merges narrow frames
# into one U+2026 frame.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
require_iprof
S="$PB_SOURCE_DIR/testdata/types/samples.iprof"

CHROMIUM="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$CHROMIUM" ]; then echo "SKIP: chromium is not installed (scripts/install-deps.sh installs it)"; exit 77; fi
# Debian's python3-pil is in the system python, which a pyenv python3 on PATH hides.
PY=""
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import PIL' 2>/dev/null; then PY="$p"; break; fi
done
[ -n "$PY" ] || { echo "FAIL: no python3 with PIL (python3-pil; scripts/install-deps.sh installs it)"; exit 1; }

shot() { # URL PNG [WIDTH,HEIGHT]
  local prof; prof="$(mktemp -d)"
  set +e
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$prof" \
    --hide-scrollbars --force-device-scale-factor=1 --screenshot="$2" --window-size="${3:-1200,400}" "$1" \
    >"$T/chromium.log" 2>&1
  local rc=$?
  set -e
  rm -rf "$prof"
  if [ $rc -ne 0 ] || [ ! -s "$2" ]; then
    echo "SKIP: chromium could not be started or took no screenshot (status $rc): $(tail -n 3 "$T/chromium.log")"
    exit 77
  fi
}

run "$PB" flame "$S" --format svg --colors distinct --width 1200 -o "$T/f.svg"; expect_rc 0 "flame --format svg"
shot "$T/f.svg" "$T/f.png"

# The same picture, clicked on Main.main(...):10 by an injected script.
python3 - "$T/f.svg" "$T/z.svg" <<'PY'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
click = """<script type="text/ecmascript"><![CDATA[
document.querySelectorAll('g.f').forEach(function (g) {
  if (g.querySelector('title').textContent.indexOf('Main.main(java.lang.String[])void:10 (') === 0)
    g.dispatchEvent(new MouseEvent('click', {bubbles: true}));
});
]]></script>
</svg>"""
open(sys.argv[2], "w", encoding="utf-8").write(s.replace("</svg>", click))
PY
shot "$T/z.svg" "$T/z.png"

if "$PY" - "$T/f.svg" "$T/f.png" "$T/z.png" <<'PY'
import sys, xml.etree.ElementTree as ET
from PIL import Image
NS = "{http://www.w3.org/2000/svg}"
M, W, H, I = "Main.main(java.lang.String[])void", "Main.work(int)long", "Util.hash(java.lang.String)int", "Util.<init>()void"
# (name, samples) -> (depth, samples left of it), by hand from samples.iprof; siblings in name order.
frames = {("all", 23): (0, 0),
          (M + ":10", 14): (1, 0), (M + ":12", 1): (1, 14), (M + ":14", 8): (1, 15),
          (W + ":4", 10): (2, 0), (W + ":6", 4): (2, 10), (I + ":2", 2): (2, 15), (H + ":7", 6): (2, 17),
          (H + ":7", 5): (3, 0), (H + ":9", 3): (3, 5)}
# Colours from the SVG: <g class="f"><title>NAME (N samples, P%)</title><rect fill=.../>
color = {}
for g in ET.parse(sys.argv[1]).getroot().iter(NS + "g"):
    if g.get("class") != "f": continue
    t = g.find(NS + "title").text
    name, rest = t[: t.rindex(" (")], t[t.rindex(" (") + 2:]
    key = (name, int(rest.split(" ")[0]))
    fill = g.find(NS + "rect").get("fill")
    color[key] = tuple(int(fill[i:i + 2], 16) for i in (1, 3, 5))
assert set(color) == set(frames), (sorted(color), sorted(frames))
assert len(set(color.values())) == len(color), "colours not distinct"

def boxes(png):
    img = Image.open(png).convert("RGB")
    px, (w, h) = img.load(), img.size
    want = {c: k for k, c in color.items()}
    box = {}
    for y in range(h):
        for x in range(w):
            k = want.get(px[x, y])
            if k is None: continue
            x0, y0, x1, y1 = box.get(k, (x, y, x, y))
            box[k] = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
    return box

errors = []
def check(box, key, x, width, what):
    if key not in box:
        errors.append(f"{what}: {key[0]} ({key[1]}) not drawn"); return
    x0, y0, x1, y1 = box[key]
    if abs((x1 - x0 + 1) - width) > 2 or abs(x0 - x) > 2:
        errors.append(f"{what}: {key[0]} ({key[1]}): x {x0} width {x1 - x0 + 1}, expected x {x:.1f} width {width:.1f}")

unit = 1180 / 23
box = boxes(sys.argv[2])
for key, (depth, start) in frames.items():
    check(box, key, 10 + start * unit, key[1] * unit - 1, "initial")
# Root at the bottom: each depth one 16 px row above the previous.
for key, (depth, _) in frames.items():
    if key in box:
        want_top = box[("all", 23)][1] - 16 * depth
        if abs(box[key][1] - want_top) > 1: errors.append(f"{key[0]}: row top {box[key][1]}, expected {want_top}")
# Zoomed on main:10 (14 samples): its subtree spans the 1180 pixels, the rest is hidden.
zunit = 1180 / 14
zbox = boxes(sys.argv[3])
for key in [(M + ":10", 14), (W + ":4", 10), (W + ":6", 4), (H + ":7", 5), (H + ":9", 3)]:
    check(zbox, key, 10 + frames[key][1] * zunit, key[1] * zunit - 1, "zoomed")
for key in [(M + ":12", 1), (M + ":14", 8), (I + ":2", 2), (H + ":7", 6)]:
    if key in zbox: errors.append(f"zoomed: {key[0]} ({key[1]}) still drawn at {zbox[key]}")
for e in errors: print(e)
sys.exit(1 if errors else 0)
PY
then ok; else fail "frame widths in the rendered SVG do not match the counts"; fi

# Default colours: labels, titles and the script are there, nothing external.
run "$PB" flame "$S" -o "$T/hot.svg"; expect_rc 0 "flame -o x.svg"
expect_grep "$T/hot.svg" "<title>Util\.&lt;init&gt;\(\)void:2 \(2 samples, 8\.70%\)</title>" "escaped title"
expect_grep "$T/hot.svg" ">Main\.main\(java\.lang\.String\[\]\)void:10</text>" "label of a wide frame"
if grep -oE "(https?:|href|url\()[^\"' ]*" "$T/hot.svg" | grep -v '^http://www.w3.org/2000/svg$' >"$T/urls"; then
  fail "the SVG references outside resources: $(head -3 "$T/urls")"
else ok; fi

dom() { # URL OUT: the document after its scripts ran
  local prof; prof="$(mktemp -d)"
  set +e
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$prof" \
    --dump-dom "$1" >"$2" 2>"$T/chromium.log"
  local rc=$?
  set -e
  rm -rf "$prof"
  if [ $rc -ne 0 ] || [ ! -s "$2" ]; then
    echo "SKIP: chromium could not dump the DOM (status $rc): $(tail -n 3 "$T/chromium.log")"
    exit 77
  fi
}

# ---- search: the URL's #search=REGEX ---------------------------------------
shot "file://$T/f.svg#search=work%7Chash" "$T/s.png"
dom "file://$T/f.svg#search=work%7Chash" "$T/s.dom"
# By hand: work:4 [0,10) and work:6 [10,14) hold hash:7 [0,5) and hash:9
# [5,8); hash:7 [17,23) under main:14: the union is 14 + 6 = 20 of 23.
if grep -q '>matched: 86\.96% of samples<' "$T/s.dom"; then ok
else fail "search share: $(grep -o '<text class="matched"[^<]*' "$T/s.dom" || echo 'no matched line')"; fi
if "$PY" - "$T/f.svg" "$T/f.png" "$T/s.png" <<'PY'
import re, sys
from PIL import Image
svg = open(sys.argv[1], encoding="utf-8").read()
color = {}
for m in re.finditer(r'<g class="f"[^>]*><title>([^<]*)</title><rect [^>]*fill="#([0-9a-f]{6})"', svg):
    color[m.group(1)] = tuple(int(m.group(2)[i:i + 2], 16) for i in (0, 2, 4))
plain, found = Image.open(sys.argv[2]).convert("RGB"), Image.open(sys.argv[3]).convert("RGB")
pp, fp = plain.load(), found.load()
MATCH = (230, 0, 230)
errors, want_px = [], 0
for title, c in color.items():
    pts = [(x, y) for y in range(plain.size[1]) for x in range(plain.size[0]) if pp[x, y] == c]
    if not pts: errors.append(f"{title}: not drawn"); continue
    hit = re.search("work|hash", title[: title.rindex(" (")]) is not None
    want_px += len(pts) if hit else 0
    painted = sum(1 for p in pts if fp[p] == MATCH)
    if hit and painted != len(pts): errors.append(f"{title}: {painted} of {len(pts)} pixels in the search colour")
    if not hit and painted: errors.append(f"{title}: {painted} pixels in the search colour, it does not match")
total = sum(1 for y in range(found.size[1]) for x in range(found.size[0]) if fp[x, y] == MATCH)
if total != want_px: errors.append(f"{total} pixels in the search colour, the matching frames have {want_px}")
for e in errors: print(e)
sys.exit(1 if errors else 0)
PY
then ok; else fail "search highlight is not exactly the matching frames"; fi

# ---- Java labels, inline zoom, narrow frames --------------------------------
# 100 samples, 1180 px: 11.8 px a sample. Main.idle [0,70) holds
# String.indexOf [0,10) and A.a, B.b (1 each); Main.run [70,100) holds
# String.indexOf [70,90) and HashMap.get [90,100).
cat >"$T/j.iprof" <<'IPROF'
{"version":"1.1.0",
 "types":[{"id":4,"name":"int"},{"id":8,"name":"void"},{"id":10,"name":"Main"},{"id":31,"name":"java.lang.String"},
  {"id":32,"name":"java.util.HashMap"},{"id":33,"name":"java.lang.Object"},{"id":34,"name":"java.util.A"},
  {"id":35,"name":"java.util.B"}],
 "methods":[{"id":1,"name":"run","signature":[10,8]},{"id":2,"name":"idle","signature":[10,8]},
  {"id":3,"name":"indexOf","signature":[31,4,4]},{"id":4,"name":"get","signature":[32,33,33]},
  {"id":5,"name":"a","signature":[34,8]},{"id":6,"name":"b","signature":[35,8]}],
 "callCountProfiles":[],"conditionalProfiles":[],"virtualInvokeProfiles":[],"monitorProfiles":[],
 "samplingProfiles":[
  {"ctx":"3:3<1:1","records":[20]}, {"ctx":"4:7<1:1","records":[10]}, {"ctx":"3:3<2:2","records":[10]},
  {"ctx":"2:2","records":[58]}, {"ctx":"5:1<2:2","records":[1]}, {"ctx":"6:1<2:2","records":[1]}],
 "instanceOfProfiles":[]}
IPROF
run "$PB" flame "$T/j.iprof" -o "$T/j.svg"; expect_rc 0 "flame of the Java-named profile"
run "$PB" flame "$T/j.iprof" --colors distinct -o "$T/jd.svg"; expect_rc 0 "flame --colors distinct"
# Two copies of the SVG in one page (no XML prolog in HTML); a script at
# the end clicks Main.run in the second copy only.
inline() { # SVG HTML
  python3 - "$1" "$2" <<'PY'
import sys
svg = open(sys.argv[1], encoding="utf-8").read()
svg = svg[svg.index("<svg"):]
page = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0} div{height:120px}</style></head><body>
<div id="one">%s</div><div id="two">%s</div>
<script>
document.querySelectorAll('#two g.f').forEach(function (g) {
  if (g.querySelector('title').textContent.indexOf('Main.run()void:1 (') === 0)
    g.dispatchEvent(new MouseEvent('click', {bubbles: true}));
});
</script></body></html>""" % (svg, svg)
open(sys.argv[2], "w", encoding="utf-8").write(page)
PY
}
inline "$T/j.svg" "$T/j.html"
inline "$T/jd.svg" "$T/jd.html"
dom "file://$T/j.html" "$T/j.dom"
shot "file://$T/jd.html" "$T/jd.png" 1200,260
if "$PY" - "$T/j.dom" "$T/jd.svg" "$T/jd.png" <<'PY'
import re, sys
from PIL import Image
dom = open(sys.argv[1], encoding="utf-8").read()
errors = []
copies = dom.split('<div id="two">')
if len(copies) != 2: sys.exit("the page does not have its two copies")
def frames(html):
    out = {}
    for m in re.finditer(r'<g class="f[^"]*"([^>]*)><title>([^<]*)</title><rect ([^>]*)>(?:</rect>)?(?:<text[^>]*>([^<]*)</text>)?', html):
        rect = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(3)))
        out[m.group(2)] = (m.group(1), rect, m.group(4))
    return out
one, two = frames(copies[0]), frames(copies[1])
IDX, GET = "java.lang.String.indexOf(int)int:3", "java.util.HashMap.get(java.lang.Object)java.lang.Object:7"
RUN, IDLE = "Main.run()void:1", "Main.idle()void:2"
# Labels by hand: fit = floor((w - 6) / 7.5) glyphs; 20 samples = 236 px -> 30
# (the name has 34: "…String.indexOf"), 10 samples = 118 px -> 14 ("…indexOf",
# "…HashMap.get"), Main.run 354 px -> 46 (whole).
want1 = {IDX + " (20 samples, 20.00%)": "\u2026String.indexOf", IDX + " (10 samples, 10.00%)": "\u2026indexOf",
         GET + " (10 samples, 10.00%)": "\u2026HashMap.get", RUN + " (30 samples, 30.00%)": RUN}
for t, lab in want1.items():
    got = one.get(t, (None, None, None))[2]
    if got != lab: errors.append(f"copy 1 label of {t}: {got!r}, expected {lab!r}")
# Zoomed on Main.run [70,100): indexOf 20/30 of 1180 px = 786.67 -> 104 glyphs
# (whole); HashMap.get 393.33 px -> 51 < 53 ("…HashMap.get").
want2 = {IDX + " (20 samples, 20.00%)": (10.0, 786.67 - 1, IDX),
         GET + " (10 samples, 10.00%)": (796.67, 393.33 - 1, "\u2026HashMap.get"),
         RUN + " (30 samples, 30.00%)": (10.0, 1179.0, RUN)}
for t, (x, w, lab) in want2.items():
    if t not in two: errors.append(f"copy 2: {t} missing"); continue
    attrs, rect, got = two[t]
    if abs(float(rect["x"]) - x) > 0.02 or abs(float(rect["width"]) - w) > 0.02:
        errors.append(f"copy 2 {t}: x {rect['x']} width {rect['width']}, expected {x:.2f} {w:.2f}")
    if got != lab: errors.append(f"copy 2 label of {t}: {got!r}, expected {lab!r}")
if "display: none" not in two[IDLE + " (70 samples, 70.00%)"][0]: errors.append("copy 2: Main.idle not hidden by the zoom")
if "display" in one[IDLE + " (70 samples, 70.00%)"][0]: errors.append("copy 1 changed by a click in copy 2")
u1 = re.search(r'<text class="unzoom"[^>]*>', copies[0]).group(0)
u2 = re.search(r'<text class="unzoom"[^>]*>', copies[1]).group(0)
if "display:none" not in u1.replace(" ", "") or "display:none" in u2.replace(" ", ""):
    errors.append(f"Reset Zoom should show in copy 2 only: {u1} {u2}")
# Pixels: the indexOf frame of Main.run, 235 px at x 836 in copy 1 (top),
# 785.67 at x 10 in copy 2 (below y 120).
svg = open(sys.argv[2], encoding="utf-8").read()
fill = re.search(r"<title>" + re.escape(IDX) + r' \(20 samples[^<]*</title><rect [^>]*fill="#([0-9a-f]{6})"', svg).group(1)
c = tuple(int(fill[i:i + 2], 16) for i in (0, 2, 4))
img = Image.open(sys.argv[3]).convert("RGB"); px = img.load()
for (y0, y1), (x, w) in {(0, 120): (836, 235), (120, 240): (10, 785.67)}.items():
    xs = [xx for yy in range(y0, y1) for xx in range(img.size[0]) if px[xx, yy] == c]
    if not xs: errors.append(f"rows {y0}-{y1}: indexOf frame not drawn"); continue
    if abs(min(xs) - x) > 2 or abs(max(xs) - min(xs) + 1 - w) > 2:
        errors.append(f"rows {y0}-{y1}: indexOf frame at x {min(xs)} width {max(xs) - min(xs) + 1}, expected {x} {w}")
for e in errors: print(e)
sys.exit(1 if errors else 0)
PY
then ok; else fail "labels or zoom of the inlined SVG"; fi

# --min-width 15: A.a and B.b (11.8 px each) become one "…" frame of 2
# samples right of String.indexOf under Main.idle: x = 10 + 10 * 11.8 = 128.
run "$PB" flame "$T/j.iprof" --min-width 15 -o "$T/j15.svg"; expect_rc 0 "flame --min-width 15"
expect_grep "$T/j15.svg" '<g class="f m" data-s="10" data-n="2" data-d="2"><title>… \(2 samples, 2\.00%; 2 frames narrower than 15 px merged\)</title><rect x="128\.00" y="40\.0" width="22\.60"' "merged frame"
if grep -q 'java\.util\.A\.a' "$T/j15.svg"; then fail "a frame narrower than --min-width is still drawn"; else ok; fi
expect_grep "$T/j.svg" '<title>java\.util\.A\.a\(\)void:1 \(1 sample, 1\.00%\)</title>' "frames of 11.8 px kept at the default 1 px"
finish
