#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli_types.sh -- `profbridge types` on hand-written inputs (expected values
# computed by hand, see tests/unit/test_type_profile.c) and, for LLVM inputs,
# against what llvm-profdata-19 show --ic-targets --show-vtables lists per site.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
require_iprof
D="$PB_SOURCE_DIR/testdata/types"

# Text view, width 2 (receivers.iprof): 7 sites, Σ 325, lost 62 = 19.08 %.
run "$PB" types "$D/receivers.iprof"; expect_rc 0 "types receivers.iprof"
o="$T/types.txt"; cp "$T/out" "$o"
expect_grep "$o" "^  sites: +7 \(virtual-invoke 5, instanceof 1, monitor 1\)$" "sites per kind"
expect_grep "$o" "^  monomorphic: +2$" "monomorphic sites"
expect_grep "$o" "^  bimorphic: +2$" "bimorphic sites"
expect_grep "$o" "^  megamorphic: +3$" "megamorphic sites"
expect_grep "$o" "^  polluted: +1$" "polluted sites"
expect_grep "$o" "^  total count: +325$" "total count"
expect_grep "$o" "^  kept at width 2: 263 \(80\.92%\)$" "kept at width 2"
expect_grep "$o" "^  lost: +62 \(19\.08%\)$" "lost share"
first="$(grep -m1 '^\[' "$o")"
[ "$first" = "[virtual-invoke] B.call(java.lang.Object)void:11" ] && ok || fail "first site is '$first', expected the one losing 40"
expect_grep "$o" "^  total 100, 8 types \(megamorphic\), kept 60, lost 40 \(40\.00%\)$" "8-type site"
expect_grep "$o" "^  polluted: type table full" "8-type site is polluted"
expect_grep "$o" "^ +50\.00%  50  p\.T0$" "share of the hottest type"

# --width 1 and JSON: every site's numbers.
run "$PB" types --width 1 --json "$D/receivers.iprof"; expect_rc 0 "types --width 1 --json"
cp "$T/out" "$T/w1.json"
if python3 - "$T/w1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert d["width"] == 1, d["width"]
assert (s["sites"], s["total"], s["kept"], s["lost"]) == (7, 325, 200, 125), s
assert (s["monomorphic"], s["bimorphic"], s["megamorphic"], s["no_types"], s["polluted"]) == (2, 2, 3, 0, 1), s
want = {  # name -> (kind, total, types, class, kept, lost), computed by hand
    "A.run()void:5": ("virtual-invoke", 100, 2, "bimorphic", 90, 10),
    "B.call(java.lang.Object)void:3<A.run()void:7": ("virtual-invoke", 100, 4, "megamorphic", 50, 50),
    "A.run()void:9": ("virtual-invoke", 7, 1, "monomorphic", 7, 0),
    "B.call(java.lang.Object)void:11": ("virtual-invoke", 100, 8, "megamorphic", 40, 60),
    "A.run()void:12": ("virtual-invoke", 4, 1, "monomorphic", 4, 0),
    "B.call(java.lang.Object)void:20": ("instanceof", 4, 2, "bimorphic", 3, 1),
    "": ("monitor", 10, 4, "megamorphic", 6, 4),
}
got = {x["name"]: (x["kind"], x["total"], x["types"], x["class"], x["kept"], x["lost"]) for x in d["sites"]}
assert got == want, (got, want)
lost = [x["lost"] for x in d["sites"]]
assert lost == sorted(lost, reverse=True), lost
mon = [x for x in d["sites"] if x["kind"] == "monitor"][0]
assert [(v["name"], v["count"]) for v in mon["values"]] == [("java.lang.Object", 6), ("p.T0", 2), ("p.T1", 1), ("p.T2", 1)], mon
PY
then ok; else fail "JSON of --width 1 differs from the hand-computed values"; fi

# The same entries after conversion to LLVM (records named jvcall:/jinstanceof:/
# jmonitor:, docs/mapping.md) are recognised as Java sites: the hand-computed
# lines above hold for the .profdata too.
run "$PB" convert "$D/receivers.iprof" -o "$T/r.profdata"; expect_rc 0 "convert receivers.iprof to .profdata"
run "$PB" types "$T/r.profdata"; expect_rc 0 "types on the converted .profdata"
o="$T/conv.txt"; cp "$T/out" "$o"
expect_grep "$o" "^  sites: +7 \(virtual-invoke 5, instanceof 1, monitor 1\)$" "converted: sites per kind"
expect_grep "$o" "^  lost: +62 \(19\.08%\)$" "converted: lost share"
expect_grep "$o" "^\[virtual-invoke\] B\.call\(java\.lang\.Object\)void:3<A\.run\(\)void:7$" "converted: site named by its context"
expect_grep "$o" "^  polluted: type table full" "converted: 8-type site still polluted"

# LLVM sites: our per-site values must be the ones llvm-profdata-19 lists.
compare_llvm() { # FILE what
  local f="$1"
  run "$PB" types --json "$f"; expect_rc 0 "types --json $2"
  cp "$T/out" "$T/llvm.json"
  if ! llvm-profdata-19 show --all-functions --ic-targets --show-vtables "$f" >"$T/llvm.txt" 2>"$T/llvm.err"; then
    fail "llvm-profdata-19 show failed on $2: $(head -c 300 "$T/llvm.err")"; return
  fi
  if python3 - "$T/llvm.json" "$T/llvm.txt" <<'PY'
import json, re, sys
ours = {}
for s in json.load(open(sys.argv[1]))["sites"]:
    ours[(s["name"], s["kind"], s["site"])] = sorted((v["name"], v["count"]) for v in s["values"])
theirs, func, kind = {}, None, None
for line in open(sys.argv[2]):
    m = re.match(r"^  (\S.*):$", line)
    if m: func = m.group(1); continue
    if "Indirect Target Results:" in line: kind = "indirect-call"; continue
    if "VTable Results:" in line: kind = "vtable"; continue
    m = re.match(r"^\t\[\s*(\d+), (.*),\s+(\d+) \]", line)
    if m:
        theirs.setdefault((func, kind, int(m.group(1))), []).append((m.group(2), int(m.group(3))))
theirs = {k: sorted(v) for k, v in theirs.items()}
assert set(ours) == set(theirs), (sorted(ours), sorted(theirs))
for k in theirs:
    a, b = ours[k], theirs[k]
    # llvm-profdata prints an empty name for a NameRef it cannot resolve.
    assert sorted(c for _, c in a) == sorted(c for _, c in b), (k, a, b)
    assert all(n == "" or (n, c) in a for n, c in b), (k, a, b)
PY
  then ok; else fail "$2: sites differ from llvm-profdata-19 show"; fi
}
if command -v llvm-profdata-19 >/dev/null; then
  compare_llvm "$D/sites.proftext" "sites.proftext"
  # Hand-computed: indirect-call site 0 of caller: total 50, 3 types, width 2 loses impl_c's 5.
  run "$PB" types "$D/sites.proftext"; expect_rc 0 "types sites.proftext"
  expect_grep "$T/out" "^\[indirect-call\] caller \(site 0\)$" "LLVM site named by function and index"
  expect_grep "$T/out" "^  total 50, 3 types \(megamorphic\), kept 45, lost 5 \(10\.00%\)$" "LLVM site numbers"
  expect_grep "$T/out" "^ +10\.00%  5  impl_c$" "target that is no record named through its symbol"
  real="${PB_SHARED_DIR:-}/testdata/llvm-real/llvm19"
  if [ -f "$real/vtable-ir.profraw" ]; then
    compare_llvm "$real/vtable-ir.profraw" "real vtable-ir.profraw"
    compare_llvm "$real/vtable-ir.profdata" "real vtable-ir.profdata"
  else
    echo "note: $real/vtable-ir.profraw absent, real LLVM files not compared"
  fi
else
  echo "note: llvm-profdata-19 not installed, LLVM comparison skipped"
fi

# fib-doc.iprof at width 8: only the monitor entry (16 types, Σ 116) loses
# anything: its 8 hottest are 61+10+9+7+6+4+3+3 = 103, so 13 of 244 = 5.33 %.
run "$PB" types "$FIB" --width 8; expect_rc 0 "types --width 8"
expect_grep "$T/out" "^  lost: +13 \(5\.33%\)$" "width 8 on fib-doc.iprof loses the monitor's tail"
# A profile without type sites: a summary of zeros, exit 0.
run "$PB" types "$PB_SOURCE_DIR/testdata/types/samples.iprof"; expect_rc 0 "types without sites"
expect_grep "$T/out" "^  sites: +0$" "no sites"
# Usage errors.
run "$PB" types --width 0 "$FIB"; expect_rc 2 "--width 0"
expect_grep "$T/err" "--width needs a number" "--width 0 message"
run "$PB" types; expect_rc 2 "no input"
run "$PB" types "$T/missing.iprof"; expect_rc 2 "missing input"
run "$PB" types -o "$T/t.json" --json "$FIB"; expect_rc 0 "types -o"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/t.json" && ok || fail "types -o wrote no JSON"
run "$PB" types --help; expect_rc 0 "types --help"
for o in --width --json --from --lenient --output; do
  expect_grep "$T/out" "(^|[ ,])$o( |$)" "types --help mentions $o"
done
run "$PB" --help; expect_rc 0 "profbridge --help"
expect_grep "$T/out" "^  types " "global --help lists types"
expect_grep "$T/out" "^  flame " "global --help lists flame"
finish
