#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# html_report_chromium.sh -- `diff --html` and `overlap --html` as a browser
# shows them. Inputs: the hand-written data/diff_a.proftext and
# data/diff_b.proftext, whose differences diff_proftext.sh lists by hand:
#   gone  (hash 3) only in A [100]; foo (hash 9) only in B [50];
#   foo   (hash 1) [10,20,30] -> [10,25,20]; bar (hash 2) [5,5] both, values differ;
#   new   (hash 5) only in B [1,2]; same (hash 4) [9] both.
# Headless Chromium screenshots the diff report and python3+PIL measures
# the bars (a function's largest counter is 160 px, the others in
# proportion); --dump-dom after an injected script types into the filter
# box shows which rows are hidden. The overlap report's divergences are
# computed by hand below and its edge overlap is llvm-profdata-19's.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
. "$(dirname "$0")/lib/llvm-tools.bash"
D="$PB_SOURCE_DIR/tests/interop/data"

CHROMIUM="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$CHROMIUM" ]; then echo "SKIP: chromium is not installed (scripts/install-deps.sh installs it)"; exit 77; fi
PY=""
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import PIL' 2>/dev/null; then PY="$p"; break; fi
done
[ -n "$PY" ] || { echo "FAIL: no python3 with PIL (python3-pil; scripts/install-deps.sh installs it)"; exit 1; }

chrome() { # STDOUT ARGS...: runs headless Chromium (its standard output to STDOUT), skips the test when it cannot start
  local out="$1"; shift
  local prof; prof="$(mktemp -d)"
  set +e
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$prof" \
    --hide-scrollbars --force-device-scale-factor=1 "$@" >"$out" 2>"$T/chromium.log"
  local rc=$?
  set -e
  rm -rf "$prof"
  if [ $rc -ne 0 ]; then echo "SKIP: chromium failed (status $rc): $(tail -n 3 "$T/chromium.log")"; exit 77; fi
}

# ---- diff --------------------------------------------------------------------
run "$PB" diff "$D/diff_a.proftext" "$D/diff_b.proftext" --html "$T/d.html"; expect_rc 1 "diff --html of different profiles"
[ -s "$T/d.html" ] || { fail "diff --html wrote no report"; finish; exit 1; }
[ ! -s "$T/out" ] && ok || fail "diff --html also wrote to standard output: $(head -c 200 "$T/out")"
if grep -oE "(https?:|src=|href=|url\()[^\"' ]*" "$T/d.html" >"$T/urls"; then
  fail "the report references outside resources: $(head -3 "$T/urls")"
else ok; fi
chrome "$T/d.shot.log" --screenshot="$T/d.png" --window-size=1200,700 "file://$T/d.html"
[ -s "$T/d.png" ] || { echo "SKIP: chromium took no screenshot"; exit 77; }
if "$PY" - "$T/d.png" <<'PY'
import sys
from PIL import Image
img = Image.open(sys.argv[1]).convert("RGB")
px, (w, h) = img.load(), img.size
A, B = (0x1f, 0x77, 0xb4), (0xff, 0x7f, 0x0e)
def bars(c):
    """Rectangles of colour c, top to bottom: (x0, y0, width, height)."""
    seen, out = set(), []
    for y in range(h):
        for x in range(w):
            if px[x, y] != c or (x, y) in seen: continue
            x1 = x
            while x1 + 1 < w and px[x1 + 1, y] == c: x1 += 1
            y1 = y
            while y1 + 1 < h and px[x, y1 + 1] == c: y1 += 1
            for yy in range(y, y1 + 1):
                for xx in range(x, x1 + 1): seen.add((xx, yy))
            out.append((x, y, x1 - x + 1, y1 - y + 1))
    return [r for r in out if r[3] == 5]  # bars are 5 px high (the key's squares 10)
# By hand, per function in the report's order, round(count / largest * 160):
#   gone A [100] -> 160; foo#9 B [50] -> 160; foo#1 A [10,20,30] -> 53, 107, 160,
#   B [10,25,20] -> 53, 133, 107; bar [5,5] both -> 160, 160; new B [1,2] -> 80, 160.
want = {A: [160, 53, 107, 160, 160, 160], B: [160, 53, 133, 107, 160, 160, 80, 160]}
errors = []
for c, widths in want.items():
    got = [r[2] for r in bars(c)]
    if len(got) != len(widths) or any(abs(g - e) > 1 for g, e in zip(got, widths)):
        errors.append(f"bars of colour {c}: {got}, expected {widths}")
    xs = {r[0] for r in bars(c)}
    if len(xs) != 1: errors.append(f"bars of colour {c} do not start at one x: {sorted(xs)}")
for e in errors: print(e)
sys.exit(1 if errors else 0)
PY
then ok; else fail "bar lengths of the diff report"; fi

# The filter box: an injected script types "FOO" (case does not matter).
"$PY" - "$T/d.html" "$T/f.html" <<'PY'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
typed = """<script>
var box = document.getElementById('filter');
box.value = 'FOO';
box.dispatchEvent(new Event('input'));
</script>
</body>"""
open(sys.argv[2], "w", encoding="utf-8").write(s.replace("</body>", typed))
PY
chrome "$T/f.dom" --dump-dom "file://$T/f.html"
if "$PY" - "$T/d.html" "$T/f.dom" <<'PY'
import re, sys
def rows(html):
    body = html[html.index('<tbody id="rows">'):html.index("</tbody>")]
    return [(m.group(1), re.search(r'<td class="name"[^>]*>([^<]*)</td><td>([^<]*)</td>', m.group(2)).groups())
            for m in re.finditer(r"<tr([^>]*)>(.*?)</tr>", body)]
errors = []
before = rows(open(sys.argv[1], encoding="utf-8").read())
names = [r[1] for r in before]
want = [("gone", "only in A"), ("foo", "only in B"), ("foo", "changed"), ("bar", "changed"), ("new", "only in B")]
if names != want: errors.append(f"rows: {names}, expected {want}")
after = rows(open(sys.argv[2], encoding="utf-8").read())
shown = [r[1][0] for r in after if "display: none" not in r[0]]
if shown != ["foo", "foo"]: errors.append(f"rows shown after typing FOO: {shown}, expected foo, foo")
dom = open(sys.argv[2], encoding="utf-8").read()
if '<span id="shown">2 of 5 rows shown</span>' not in dom: errors.append("no '2 of 5 rows shown'")
for e in errors: print(e)
sys.exit(1 if errors else 0)
PY
then ok; else fail "rows or the filter box of the diff report"; fi

# ---- overlap -----------------------------------------------------------------
run "$PB" overlap "$D/diff_a.proftext" "$D/diff_b.proftext" --html "$T/o.html"; expect_rc 0 "overlap --html"
# Sums: A 179, B 127. Divergence = sum |a_i/179 - b_i/127| in %, by hand:
#   gone 100/179 = 55.866; foo#9 50/127 = 39.370;
#   foo#1 |10/179-10/127| + |20/179-25/127| + |30/179-20/127| = 11.811 (shared 32.508);
#   new 3/127 = 2.362; bar 2 * |5/179-5/127| = 2.287; same |9/179-9/127| = 2.059.
if "$PY" - "$T/o.html" <<'PY'
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
got = re.findall(r'<td class="name"[^>]*>([^<]*)</td><td>([^<]*)</td><td class="num">([0-9.]+)</td><td class="num">([0-9.]+)</td>', s)
# foo#9: the name is in BASE with another hash (llvm-profdata: a mismatch)
want = [("gone", "only in BASE", "55.866", "0.000"), ("foo", "hash mismatch (TEST)", "39.370", "0.000"),
        ("foo", "in both", "11.811", "32.508"), ("new", "only in TEST", "2.362", "0.000"),
        ("bar", "in both", "2.287", "5.587"), ("same", "in both", "2.059", "5.028")]
if got != want:
    print(f"rows {got}, expected {want}"); sys.exit(1)
PY
then ok; else fail "overlap report rows"; fi
ours="$(grep -oE 'Edge profile overlap [0-9.]+%' "$T/o.html" | grep -oE '[0-9.]+%' || true)"
if command -v llvm-profdata-19 >/dev/null; then
  theirs="$(llvm-profdata-19 overlap "$D/diff_a.proftext" "$D/diff_b.proftext" | sed -n 's/^ *Edge profile overlap: //p')"
  [ -n "$theirs" ] && [ "$ours" = "$theirs" ] && ok || fail "edge overlap $ours, llvm-profdata-19 says $theirs"
else
  echo "note: llvm-profdata-19 not installed, edge overlap checked against the hand value only"
  [ "$ours" = "43.122%" ] && ok || fail "edge overlap $ours, expected 43.122%"
fi

# ---- escaping and the row cap --------------------------------------------------
# 600 functions in both, each changed; one name with markup and a byte that
# is not UTF-8.
"$PY" - "$T/a.proftext" "$T/b.proftext" <<'PY'
import sys
for path, v in ((sys.argv[1], 1), (sys.argv[2], 2)):
    with open(path, "wb") as f:
        f.write(b":ir\n")
        f.write(b"x<b>&\"\xff\n1\n1\n%d\n\n" % (v * 100000))  # largest change: row 1
        for i in range(599):
            f.write(b"f%03d\n%d\n1\n%d\n\n" % (i, i + 2, v * (i + 1)))
PY
run "$PB" diff "$T/a.proftext" "$T/b.proftext" --html "$T/big.html"; expect_rc 1 "diff --html of 600 changed functions"
if "$PY" - "$T/big.html" <<'PY'
import sys
raw = open(sys.argv[1], "rb").read()
s = raw.decode("utf-8")  # strict: the page must be UTF-8 whatever the names
errors = []
if s.count("<tr><td") != 500: errors.append(f"{s.count('<tr><td')} rows, expected 500")
if "The first 500 of 600 functions" not in s: errors.append("no note about the cap")
if ">x&lt;b&gt;&amp;&quot;\\xFF</td>" not in s: errors.append("the markup name is not escaped as expected")
for e in errors: print(e)
sys.exit(1 if errors else 0)
PY
then ok; else fail "row cap or escaping"; fi

# ---- edge overlap against llvm-profdata-19 on the real files ----------------------
# Each real .profdata of LLVM 19 (front-end, IR, context-sensitive, MC/DC,
# value profiles) against the next one, both ways: the summary's edge
# overlap must be the one llvm-profdata-19 overlap prints.
R="${PB_SHARED_DIR:-}/testdata/llvm-real/llvm19"
if command -v llvm-profdata-19 >/dev/null && [ -d "$R" ]; then
  mapfile -t real < <(ls "$R"/*.profdata)
  pairs=0
  for ((i = 0; i < ${#real[@]}; i++)); do
    a="${real[$i]}" b="${real[$(((i + 1) % ${#real[@]}))]}"
    for pair in "$a $b" "$b $a"; do
      set -- $pair
      theirs="$(llvm-profdata-19 overlap "$1" "$2" 2>/dev/null | sed -n 's/^ *Edge profile overlap: //p')"
      "$PB" overlap "$1" "$2" --html "$T/r.html" 2>"$T/err" || true
      ours="$(grep -oE 'Edge profile overlap [0-9.]+%' "$T/r.html" 2>/dev/null | grep -oE '[0-9.]+%' || true)"
      pairs=$((pairs + 1))
      [ -n "$theirs" ] && [ "$ours" = "$theirs" ] && ok \
        || fail "$(basename "$1") vs $(basename "$2"): edge overlap $ours, llvm-profdata-19 says '$theirs'"
    done
  done
  echo "note: $pairs pairs of real files compared with llvm-profdata-19"
else
  echo "note: llvm-profdata-19 or \$PB_SHARED_DIR/testdata/llvm-real missing: real-file edge overlaps not compared"
fi
finish
