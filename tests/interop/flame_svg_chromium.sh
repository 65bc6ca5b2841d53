#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# flame_svg_chromium.sh -- the flame-graph SVG as a browser draws it.
# Headless Chromium renders `profbridge flame --format svg --colors distinct`
# of the hand-written testdata/types/samples.iprof (23 samples); python3+PIL
# measures each frame's solid colour in the screenshot and checks its width
# and position against the counts written by hand below (1180 usable pixels,
# 1 px gap right of each frame), then clicks a frame (an injected script
# dispatches the click) and checks the zoomed widths.
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

shot() { # SVG PNG
  local prof; prof="$(mktemp -d)"
  set +e
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$prof" \
    --hide-scrollbars --force-device-scale-factor=1 --screenshot="$2" --window-size=1200,400 "$1" \
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
finish
