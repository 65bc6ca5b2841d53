#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# overlap_clang.sh -- `profbridge overlap` == `llvm-profdata-19 overlap` (stdout byte
# for byte) on profiles made here with clang-19: two runs of one program with other
# inputs (indirect-call and memcpy-size value profiles differ), a build where one
# function has another CFG (hash mismatch), raw, indexed and text forms, and
# the iprof -> .profdata path. The oracle is llvm-profdata-19.
set -uo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}"
for t in clang-19 llvm-profdata-19; do
  command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
cd "$T"
cp "$PB_SOURCE_DIR/tests/interop/data/overlap_prog.c" prog.c
if ! clang-19 -O0 -fprofile-generate prog.c -o p1 2>cc.err || \
   ! clang-19 -O0 -DVARIANT -fprofile-generate prog.c -o p2 2>>cc.err; then
  echo "SKIP: clang-19 cannot build instrumented programs here: $(head -c 300 cc.err)"; exit 77
fi
LLVM_PROFILE_FILE=r1.profraw ./p1 20
LLVM_PROFILE_FILE=r2.profraw ./p1 50 x
LLVM_PROFILE_FILE=r3.profraw ./p2 30 x y
for r in r1 r2 r3; do
  llvm-profdata-19 merge "$r.profraw" -o "$r.profdata"
  llvm-profdata-19 merge --text "$r.profraw" -o "$r.proftext"
done
llvm-profdata-19 merge r1.profraw r2.profraw -o r12.profdata
checks=0; failures=0
compare() {
  local opts=() a b
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  a="$2"; b="$3"
  llvm-profdata-19 overlap "${opts[@]}" "$a" "$b" >llvm.out 2>llvm.err; local lrc=$?
  "$PB" overlap "${opts[@]}" "$a" "$b" >pb.out 2>pb.err; local prc=$?
  checks=$((checks + 1))
  if [ "$lrc" != "$prc" ] || ! cmp -s llvm.out pb.out; then
    failures=$((failures + 1))
    echo "FAIL: overlap ${opts[*]} $a $b (exit llvm $lrc, ours $prc)"
    diff llvm.out pb.out | head -n 12; head -c 300 pb.err
  fi
}
for a in r1 r2 r3 r12; do for b in r1 r2 r3 r12; do
  for ea in profraw profdata proftext; do for eb in profraw profdata proftext; do
    [ -f "$a.$ea" ] && [ -f "$b.$eb" ] || continue
    compare -- "$a.$ea" "$b.$eb"
  done; done
  for o in --value-cutoff=0 --value-cutoff=25 --function=shape --function=main --cs; do
    [ -f "$b.profraw" ] && compare "$o" -- "$a.profdata" "$b.profraw"
  done
done; done
# The test run must have seen value sites, else this proves little.
llvm-profdata-19 overlap r1.profraw r2.profraw | grep -q "MemOP profile overlap" && checks=$((checks + 1)) \
  || { failures=$((failures + 1)); echo "FAIL: no MemOP section in the reference report"; }
llvm-profdata-19 overlap r1.profraw r3.profraw | grep -q "functions mismatch: 1" && checks=$((checks + 1)) \
  || { failures=$((failures + 1)); echo "FAIL: the VARIANT build did not give one hash mismatch"; }
echo "overlap_clang.sh: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
