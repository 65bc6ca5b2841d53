#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bridge_merge.sh -- merge safety of converted profiles with a PLAIN
# llvm-profdata-19 merge (issue 5 §3). Two "runs" of one program (run2 made
# from run1 by lib/iprof_gen.py: ids renumbered and shuffled, counts changed)
# are converted to .profdata, merged by llvm-profdata-19 (no extra flags,
# also --weighted-input) and converted back to iprof. The result must equal
# the hand-computed sums (lib/iprof_canon.py --sum, pure Python) and
# `profbridge merge` of the two iprof files, type names included: the plain
# merge empties the vtable-names section, so they come back from jmeta:types.
set -euo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}" "${PB_SHARED_DIR:?}"
L="$PB_SOURCE_DIR/tests/interop/lib"
REAL="$PB_SHARED_DIR/testdata/iprof-real/assorted-benchmarks_7c5c717_default.v0.4.0.iprof"
for t in llvm-profdata-19 python3; do
  command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
fails=0; checks=0
same() { # same WHAT A B
  checks=$((checks + 1))
  cmp -s "$2" "$3" || { echo "FAIL: $1: $(diff "$2" "$3" | head -4 | tr '\n' ' ')"; fails=$((fails + 1)); }
}
canon() { python3 "$L/iprof_canon.py" "$@"; }

python3 "$L/iprof_gen.py" hostile "$T/hostile.iprof"
inputs=("$T/hostile.iprof")
if [ -f "$REAL" ]; then inputs+=("$REAL"); else echo "note: $REAL absent, real-file merge skipped"; fi
for r1 in "${inputs[@]}"; do
  n=$(basename "$r1")
  python3 "$L/iprof_gen.py" run2 "$r1" "$T/r2.iprof" 7
  "$PB" convert "$r1" -o "$T/r1.profdata" 2>/dev/null
  "$PB" convert "$T/r2.iprof" -o "$T/r2.profdata" 2>/dev/null
  # the vtable-names section really is empty after a plain merge
  llvm-profdata-19 merge "$T/r1.profdata" "$T/r2.profdata" -o "$T/m.profdata"
  "$PB" convert "$T/m.profdata" -o "$T/m.iprof" 2>/dev/null
  "$PB" merge "$r1" "$T/r2.iprof" -o "$T/pm.iprof" 2>/dev/null
  canon --sum "$r1" "$T/r2.iprof" > "$T/sum.canon"
  canon "$T/m.iprof" > "$T/m.canon"
  canon "$T/pm.iprof" > "$T/pm.canon"
  same "$n: llvm-profdata-19 merge -> iprof vs python sums" "$T/sum.canon" "$T/m.canon"
  same "$n: profbridge merge vs python sums" "$T/sum.canon" "$T/pm.canon"
  checks=$((checks + 1))
  llvm-profdata-19 show --all-functions --counts "$T/m.profdata" > "$T/show"
  grep -A3 '^  jmeta:version:' "$T/show" | grep -q 'Block counts: \[2\]' ||
    { echo "FAIL: $n: jmeta:version does not count the 2 runs"; fails=$((fails + 1)); }

  llvm-profdata-19 merge --weighted-input=3,"$T/r1.profdata" --weighted-input=2,"$T/r2.profdata" -o "$T/mw.profdata"
  "$PB" convert "$T/mw.profdata" -o "$T/mw.iprof" 2>/dev/null
  "$PB" merge --weighted-input 3,"$r1" --weighted-input 2,"$T/r2.iprof" -o "$T/pmw.iprof" 2>/dev/null
  canon --sum "$r1" "$T/r2.iprof" --weights 3,2 > "$T/sumw.canon"
  canon "$T/mw.iprof" > "$T/mw.canon"
  canon "$T/pmw.iprof" > "$T/pmw.canon"
  same "$n: weighted llvm-profdata-19 merge -> iprof vs python sums" "$T/sumw.canon" "$T/mw.canon"
  same "$n: weighted profbridge merge vs python sums" "$T/sumw.canon" "$T/pmw.canon"
done
echo "$checks checks, $fails failures"
[ "$fails" -eq 0 ]
