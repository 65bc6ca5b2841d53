#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# merge_stream.sh -- `merge` streams raw inputs into the accumulator
# (pb_read_options.merge_into) instead of reading each into a model first.
# Oracle: llvm-profdata-19 merge --num-threads=1 --keep-vtable-symbols on the
# same inputs (bytes of the .profdata). Checks:
#  - weighted raw inputs with vtable values, concatenated profiles (the same
#    function twice in one file), temporal traces and several programs, with
#    1 and 2 threads: bytes = llvm-profdata;
#  - an empty input is skipped, as llvm-profdata skips it;
#  - a raw input that fails half-way (data[150].CounterPtr made to point past
#    the counters): llvm-profdata keeps the 150 records read before the error
#    under --failure-mode warn/all; ours must write the same bytes, first or
#    in the middle of the inputs, and give the same output and stderr with
#    1, 2 and 4 threads.
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
  if ! cmp -s "$2" "$3"; then echo "FAIL: $1"; fails=$((fails + 1)); fi
}
llvm() { llvm-profdata-19 merge --num-threads=1 --keep-vtable-symbols "$@" 2>/dev/null; }

for set in "concat-ir concat-ir" "vtable-ir concat-ir vtable-ir" "many-ir many-ir static-ir" \
           "basic-ir vtable-ir cs-ir" "mcdc-fe mcdc-fe" "sbc-fe sbc-fe" \
           "temporal-ir temporal-ir simple-ir"; do
  args=(); w=1
  for x in $set; do w=$((w + 2)); args+=(--weighted-input="$w,$L/$x.profraw"); done
  llvm "${args[@]}" -o "$T/l.profdata"
  # a raw input's temporal trace takes the input's weight (llvm's raw reader)
  for n in 1 2; do
    "$PB" merge --num-threads "$n" "${args[@]}" -o "$T/p.profdata" 2>/dev/null
    check "weighted $set, $n threads = llvm-profdata-19" "$T/l.profdata" "$T/p.profdata"
  done
done

# A function-entry-only profile and an entry-first one cannot be merged: the
# second input fails. Default (--failure-mode any): llvm-profdata exits 1, and
# so must we; warn and all: the first input's bytes, as llvm-profdata writes.
for mode in any warn all; do
  lrc=0; llvm-profdata-19 merge --num-threads=1 --keep-vtable-symbols --failure-mode="$mode" \
    "$L/fentry-ir.profraw" "$L/entry-ir.profraw" -o "$T/l.profdata" 2>/dev/null || lrc=$?
  for n in 1 2; do
    prc=0; "$PB" merge --num-threads "$n" --failure-mode "$mode" "$L/fentry-ir.profraw" "$L/entry-ir.profraw" \
      -o "$T/p.profdata" 2>/dev/null || prc=$?
    checks=$((checks + 1))
    [ "$lrc" = "$prc" ] || { echo "FAIL: fentry + entry, $mode, $n threads: exit $prc, llvm-profdata-19 $lrc"; fails=$((fails + 1)); }
    [ "$lrc" != 0 ] || check "fentry + entry, $mode, $n threads = llvm-profdata-19" "$T/l.profdata" "$T/p.profdata"
  done
done

# An empty input: llvm-profdata merge skips it silently (we say so in a note),
# alone (an empty profile) or among others, in every failure mode.
: > "$T/empty.profraw"
for mode in any warn all; do
  for set in "$T/empty.profraw" "$T/empty.profraw $L/basic-ir.profraw $T/empty.profraw"; do
    # shellcheck disable=SC2086
    llvm --failure-mode="$mode" $set -o "$T/l.profdata"
    # shellcheck disable=SC2086
    "$PB" merge --failure-mode "$mode" $set -o "$T/p.profdata" 2>/dev/null \
      || { echo "FAIL: empty input, $mode: merge failed"; fails=$((fails + 1)); }
    check "empty input, $mode, $(echo "$set" | wc -w) inputs = llvm-profdata-19" "$T/l.profdata" "$T/p.profdata"
  done
done
llvm-profdata-19 merge --text "$T/empty.profraw" -o "$T/l.proftext" 2>/dev/null
"$PB" merge --text "$T/empty.profraw" -o "$T/p.proftext" 2>/dev/null
check "empty input, --text = llvm-profdata-19" "$T/l.proftext" "$T/p.proftext"

# many-ir.profraw: raw v10, 64-bit; its dump names the field we break.
"$PB" dump "$L/many-ir.profraw" > "$T/dump.txt" 2>/dev/null
grep -q '^  0x002630 .*data\[150\]\.CounterPtr' "$T/dump.txt" \
  || { echo "FAIL: data[150].CounterPtr of many-ir.profraw is not at 0x2630 any more"; exit 1; }
cp "$L/many-ir.profraw" "$T/bad.profraw"
printf '\000\000\000\000\000\000\000\160' | dd of="$T/bad.profraw" bs=1 seek=$((0x2630)) conv=notrunc 2>/dev/null
for order in "$T/bad.profraw $L/simple-ir.profraw $L/basic-ir.profraw" \
             "$L/simple-ir.profraw $T/bad.profraw $L/many-ir.profraw"; do
  for mode in warn all; do
    # shellcheck disable=SC2086
    llvm --failure-mode="$mode" $order -o "$T/l.profdata"
    for n in 1 2 4; do
      # shellcheck disable=SC2086
      "$PB" merge --num-threads "$n" --failure-mode "$mode" $order -o "$T/p$n.profdata" 2>"$T/p$n.err"
    done
    what="--failure-mode $mode, $(basename "${order%% *}") first"
    check "$what: keeps the records before the error as llvm-profdata-19" "$T/l.profdata" "$T/p1.profdata"
    checks=$((checks + 1))
    grep -q 'data\[150\]\.CounterPtr' "$T/p1.err" || { echo "FAIL: $what: no error naming the field"; fails=$((fails + 1)); }
    for n in 2 4; do
      check "$what: $n threads output = 1 thread" "$T/p1.profdata" "$T/p$n.profdata"
      check "$what: $n threads stderr = 1 thread" "$T/p1.err" "$T/p$n.err"
    done
  done
done

# Warnings of the reader and of the merge in one streamed input: the merge's
# come after the reader's (as when the input is read into a model first, the
# threaded path), so stderr is the same for 1 and 2 threads. simple-ir's
# "main" (data[2], counters at 0x180) gets a count > 2^56 (a reader warning),
# and the accumulator's "bar", merged before it, a counter more (a merge one).
# As LLVM 17 (LLVM 18+ fail such an input and report it at the end, after
# every merge warning: merge_diag_llvm.sh).
counter_mismatch_text "$L/simple-ir.proftext" "$T/mismatch.proftext"
large_counter_raw "$L/simple-ir.profraw" "$T/big.profraw"
for n in 1 2; do
  "$PB" merge --llvm-version 17 --num-threads "$n" "$T/mismatch.proftext" "$T/big.profraw" -o "$T/w$n.profdata" 2>"$T/w$n.err" || true
done
check "reader + merge warnings: 2 threads stderr = 1 thread" "$T/w1.err" "$T/w2.err"
checks=$((checks + 1))
if ! grep -q 'excessively large' "$T/w1.err" || ! grep -q 'counter mismatch' "$T/w1.err" ||
   [ "$(grep -n 'excessively large' "$T/w1.err" | cut -d: -f1)" -gt "$(grep -n 'counter mismatch' "$T/w1.err" | cut -d: -f1)" ]; then
  echo "FAIL: the reader's warning must come before the merge's"; cat "$T/w1.err"; fails=$((fails + 1))
fi

echo "$checks checks, $fails failures"
[ "$fails" -eq 0 ]
