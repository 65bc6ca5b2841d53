#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# overlap_llvm19.sh -- `profbridge overlap` prints what `llvm-profdata-19 overlap`
# prints (stdout byte for byte, same exit status) for pairs of the real LLVM files
# in testdata/llvm-real: every pair of formats of one program (raw, indexed, text),
# pairs of different programs (functions only in one, hash mismatches through the
# LLVM 14 files whose static names differ), with --value-cutoff, --function and --cs.
# The oracle is llvm-profdata-19 itself.
set -uo pipefail
: "${PB:?}" "${PB_SHARED_DIR:?}"
D="$PB_SHARED_DIR/testdata/llvm-real"
command -v llvm-profdata-19 >/dev/null || { echo "SKIP: llvm-profdata-19 not installed"; exit 77; }
[ -d "$D/llvm19" ] || { echo "SKIP: $D/llvm19 not present"; exit 77; }
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
checks=0; failures=0
# compare OPTS... -- BASE TEST
compare() {
  local opts=() a b
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  a="$2"; b="$3"
  llvm-profdata-19 overlap "${opts[@]}" "$a" "$b" >"$T/llvm" 2>"$T/llvm.err"; local lrc=$?
  "$PB" overlap "${opts[@]}" "$a" "$b" >"$T/pb" 2>"$T/pb.err"; local prc=$?
  checks=$((checks + 1))
  if [ "$lrc" != "$prc" ] || ! cmp -s "$T/llvm" "$T/pb"; then
    failures=$((failures + 1))
    echo "FAIL: overlap ${opts[*]} $a $b (exit llvm $lrc, ours $prc)"
    diff "$T/llvm" "$T/pb" | head -n 12; head -c 300 "$T/pb.err"
  fi
}
cd "$D"
progs="basic-fe basic-ir concat-ir entry-ir fentry-ir many-ir mcdc-fe sbc-fe simple-ir static-ir temporal-ir vtable-ir cs-merged"
for p in $progs; do
  fs=(); for e in profraw profdata proftext; do [ -f "llvm19/$p.$e" ] && fs+=("llvm19/$p.$e"); done
  for a in "${fs[@]}"; do for b in "${fs[@]}"; do
    compare -- "$a" "$b"
    compare --value-cutoff=1 -- "$a" "$b"
  done; done
done
# Different programs (records only in one profile; concat = simple + basic).
compare --value-cutoff=0 -- llvm19/simple-ir.profdata llvm19/concat-ir.profraw
compare --value-cutoff=0 -- llvm19/concat-ir.profraw llvm19/basic-ir.proftext
compare -- llvm19/basic-ir.profdata llvm19/many-ir.profdata
compare -- llvm19/cs-merged.profdata llvm19/simple-ir.profdata
compare --cs -- llvm19/cs-merged.profdata llvm19/cs-merged.proftext
compare --cs --value-cutoff=0 -- llvm19/cs-merged.proftext llvm19/simple-ir.profraw
compare --cs -- llvm19/basic-ir.profdata llvm19/basic-ir.profraw   # zero CS sum: no output
# LLVM 14 vs 19 files of one program: same names, other hashes or counter counts.
for p in basic-ir basic-fe entry-ir many-ir simple-ir static-ir; do
  compare --value-cutoff=0 -- "llvm14/$p.profdata" "llvm19/$p.profdata"
  compare -- "llvm19/$p.proftext" "llvm14/$p.proftext"
done
# --function is a substring (not a regex); --value-cutoff above every count.
compare --function=help -- llvm19/basic-ir.profdata llvm19/basic-ir.profraw
compare --function=ma --value-cutoff=1000000 -- llvm19/many-ir.profraw llvm19/many-ir.profdata
compare --function='f.*' -- llvm19/many-ir.profraw llvm19/many-ir.profdata
compare --value-cutoff=1000000 -- llvm19/many-ir.profraw llvm19/many-ir.profdata
# llvm-profdata's single-dash spellings.
compare -cs -- llvm19/cs-merged.profdata llvm19/cs-merged.proftext
compare -value-cutoff=0 -function=help -- llvm19/basic-ir.profdata llvm19/basic-ir.profraw
# Synthetic raw v10 files (32/64-bit, both byte orders).
for f in synthetic/syn-v10-*.profraw; do compare --value-cutoff=0 -- "$f" synthetic/syn-v10-64le.profraw; done
# -o writes the same report to a file.
"$PB" overlap --value-cutoff=0 -o "$T/out.txt" llvm19/basic-ir.profdata llvm19/basic-ir.profraw
llvm-profdata-19 overlap --value-cutoff=0 llvm19/basic-ir.profdata llvm19/basic-ir.profraw >"$T/llvm"
checks=$((checks + 1)); cmp -s "$T/llvm" "$T/out.txt" || { failures=$((failures + 1)); echo "FAIL: -o OUT differs"; }
echo "overlap_llvm19.sh: $checks comparisons, $failures failed"
[ "$failures" -eq 0 ]
