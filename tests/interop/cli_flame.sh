#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli_flame.sh -- `profbridge flame` folded and speedscope output of the
# hand-written testdata/types/samples.iprof (7 stacks, 23 samples). Expected
# lines are written by hand from the file; the speedscope file is checked
# for the structure speedscope's file-format schema requires.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
require_iprof
S="$PB_SOURCE_DIR/testdata/types/samples.iprof"
M='Main.main(java.lang.String[])void' W='Main.work(int)long' H='Util.hash(java.lang.String)int' I='Util.<init>()void'

run "$PB" flame "$S" --format folded -o "$T/s.folded"; expect_rc 0 "flame --format folded"
cat >"$T/want" <<WANT
$M:10;$W:4 2
$M:10;$W:4;$H:7 5
$M:10;$W:4;$H:9 3
$M:10;$W:6 4
$M:12 1
$M:14;$I:2 2
$M:14;$H:7 6
WANT
cmp -s "$T/want" "$T/s.folded" && ok || fail "folded lines differ: $(diff "$T/want" "$T/s.folded" | head -20)"

run "$PB" flame "$S" --no-bci -o "$T/n.folded"; expect_rc 0 "flame --no-bci (format from .folded)"
cat >"$T/want" <<WANT
$M 1
$M;$W 6
$M;$W;$H 8
$M;$I 2
$M;$H 6
WANT
cmp -s "$T/want" "$T/n.folded" && ok || fail "--no-bci folded lines differ: $(diff "$T/want" "$T/n.folded" | head -20)"

# The same samples converted to LLVM (records named jsample:..., docs/mapping.md)
# give the same stacks; $T/s.folded was checked against the hand-written lines.
run "$PB" convert "$S" -o "$T/s.profdata"; expect_rc 0 "convert samples.iprof to .profdata"
run "$PB" flame "$T/s.profdata" --format folded -o "$T/p.folded"; expect_rc 0 "flame on the converted .profdata"
cmp -s "$T/s.folded" "$T/p.folded" && ok || fail "converted .profdata gave other stacks: $(diff "$T/s.folded" "$T/p.folded" | head)"

# fib-doc.iprof: two sampled stacks of 13 and 10 frames, counts 10 and 1.
run "$PB" flame "$FIB" --format folded -o -; expect_rc 0 "flame fib-doc.iprof to stdout"
[ "$(wc -l <"$T/out")" -eq 2 ] && ok || fail "fib-doc: expected 2 stacks, got $(wc -l <"$T/out")"
expect_grep "$T/out" "^example\.Placeholder\.placeholder2685\(\)void:1;.*;Fib\.main\(java\.lang\.String\[\]\)void:9;Fib\.fibonacci\(\)void:17;.*;com\.oracle\.svm\.core\.thread\.PlatformThreads\.sleep\(long\)void:38 10$" "fib-doc stack root first"

# speedscope: structure of https://www.speedscope.app/file-format-schema.json.
run "$PB" flame "$S" --format speedscope -o "$T/s.json"; expect_rc 0 "flame --format speedscope"
if python3 - "$T/s.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["$schema"] == "https://www.speedscope.app/file-format-schema.json"
frames = d["shared"]["frames"]
assert isinstance(frames, list) and all(isinstance(f, dict) and isinstance(f["name"], str) for f in frames)
assert isinstance(d["profiles"], list) and len(d["profiles"]) == 1
p = d["profiles"][0]
assert p["type"] == "sampled" and p["unit"] == "none" and isinstance(p["name"], str)
assert p["startValue"] == 0 and p["endValue"] == 23, (p["startValue"], p["endValue"])
assert len(p["samples"]) == len(p["weights"]) == 7
assert all(isinstance(i, int) and 0 <= i < len(frames) for s in p["samples"] for i in s)
assert sum(p["weights"]) == p["endValue"] - p["startValue"]
assert d.get("activeProfileIndex", 0) == 0
M, W, H, I = "Main.main(java.lang.String[])void", "Main.work(int)long", "Util.hash(java.lang.String)int", "Util.<init>()void"
stacks = {tuple(frames[i]["name"] for i in s): w for s, w in zip(p["samples"], p["weights"])}
want = {(M+":10", W+":4"): 2, (M+":10", W+":4", H+":7"): 5, (M+":10", W+":4", H+":9"): 3, (M+":10", W+":6"): 4,
        (M+":12",): 1, (M+":14", I+":2"): 2, (M+":14", H+":7"): 6}
assert stacks == want, stacks
names = [f["name"] for f in frames]
assert len(names) == len(set(names)), "frames repeated"
PY
then ok; else fail "speedscope file has the wrong structure or stacks"; fi

# Errors: no samples, unknown format, missing -o.
run "$PB" flame "$PB_SOURCE_DIR/testdata/types/receivers.iprof" -o "$T/x.svg"; expect_rc 1 "flame without samples"
expect_grep "$T/err" "no sampling profiles" "message for a profile without samples"
[ ! -e "$T/x.svg" ] && ok || fail "a failed flame run left $T/x.svg behind"
run "$PB" flame "$S" --format png -o "$T/x.png"; expect_rc 2 "--format png"
run "$PB" flame "$S"; expect_rc 2 "missing -o"
run "$PB" flame "$S" -o "$T/x.out"; expect_rc 2 "no format from extension"
expect_grep "$T/err" "missing --format" "message for an output name without a known extension"
# Standard input, gzip input (the source decompresses by content) and --help.
gzip -c "$S" >"$T/s.iprof.gz"
run "$PB" flame - --format folded -o "$T/stdin.folded" <"$T/s.iprof.gz"; expect_rc 0 "flame from gzip on stdin"
cmp -s "$T/s.folded" "$T/stdin.folded" && ok || fail "gzip/stdin input gave other stacks"
run "$PB" flame --help; expect_rc 0 "flame --help"
for o in --format --output --no-bci --title --width --colors --from --lenient; do
  expect_grep "$T/out" "(^|[ ,])$o( |$)" "flame --help mentions $o"
done
finish
