#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# merge_threads.sh -- `profbridge merge --num-threads N` reads inputs on N
# threads but merges them in input order: for every N the output bytes AND
# the stderr lines (warnings of reads and merges, skipped inputs) must be
# those of --num-threads 1, and --num-threads 1 must equal llvm-profdata-19
# merge --num-threads=1 (the oracle) on the same inputs.
set -euo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}" "${PB_SHARED_DIR:?}"
L="$PB_SHARED_DIR/testdata/llvm-real/llvm19"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm19-variants.bash"
if [ ! -d "$L" ]; then echo "SKIP: $L absent"; exit 77; fi
command -v llvm-profdata-19 >/dev/null || { echo "SKIP: llvm-profdata-19 not installed"; exit 77; }
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
fails=0; checks=0
check() { # check WHAT FILE1 FILE2
  checks=$((checks + 1))
  if ! cmp -s "$2" "$3"; then echo "FAIL: $1"; diff "$2" "$3" | head -5; fails=$((fails + 1)); fi
}

# 13 inputs of several formats and both kinds (IR and front end: a warning),
# weights, and one whose first function has one counter more (a counter-
# mismatch warning from the merge).
counter_mismatch_text "$L/simple-ir.proftext" "$T/mismatch.proftext"
inputs=(--weighted-input=3,"$L/simple-ir.profraw" "$L/simple-ir.profdata" "$T/mismatch.proftext"
        "$L/many-ir.profraw" --weighted-input=2,"$L/many-ir.profdata" "$L/basic-ir.profraw"
        "$L/concat-ir.profraw" "$L/cs-ir.profraw" "$L/entry-ir.profraw" "$L/simple-ir.proftext"
        "$L/many-ir.proftext" "$L/basic-ir.proftext" "$L/basic-fe.profraw")
llvm-profdata-19 merge --num-threads=1 --keep-vtable-symbols "${inputs[@]}" -o "$T/llvm.profdata" 2>/dev/null
"$PB" merge --num-threads 1 --keep-vtable-symbols "${inputs[@]}" -o "$T/t1.profdata" 2>"$T/t1.err"
check "--num-threads 1 = llvm-profdata-19 --num-threads=1" "$T/llvm.profdata" "$T/t1.profdata"
for n in 2 3 4 8 16; do
  "$PB" merge --num-threads "$n" --keep-vtable-symbols "${inputs[@]}" -o "$T/t$n.profdata" 2>"$T/t$n.err"
  check "--num-threads $n output = 1 thread" "$T/t1.profdata" "$T/t$n.profdata"
  check "--num-threads $n stderr = 1 thread" "$T/t1.err" "$T/t$n.err"
done

# A broken input in the middle: --failure-mode warn skips it at its place,
# any stops there; both the same for every thread count.
head -c 100 "$L/many-ir.profdata" > "$T/broken.profdata"
for mode in warn any; do
  rc1=0; "$PB" merge --num-threads 1 --failure-mode "$mode" "$L/simple-ir.profraw" "$T/broken.profdata" \
    "$L/many-ir.profraw" -o "$T/f1.profdata" 2>"$T/f1.err" || rc1=$?
  for n in 2 4; do
    rcn=0; "$PB" merge --num-threads "$n" --failure-mode "$mode" "$L/simple-ir.profraw" "$T/broken.profdata" \
      "$L/many-ir.profraw" -o "$T/fn.profdata" 2>"$T/fn.err" || rcn=$?
    checks=$((checks + 1))
    [ "$rc1" = "$rcn" ] || { echo "FAIL: --failure-mode $mode exit $rc1 vs $rcn with $n threads"; fails=$((fails + 1)); }
    check "--failure-mode $mode stderr, $n threads" "$T/f1.err" "$T/fn.err"
    [ "$mode" = warn ] && check "--failure-mode warn output, $n threads" "$T/f1.profdata" "$T/fn.profdata"
  done
done
checks=$((checks + 1))
grep -q "counter mismatch" "$T/t1.err" || { echo "FAIL: no counter-mismatch warning"; fails=$((fails + 1)); }

echo "$checks checks, $fails failures"
[ "$fails" -eq 0 ]
