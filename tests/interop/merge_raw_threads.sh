#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# merge_raw_threads.sh -- raw inputs merged on 2 and 3 threads (the feed
# reads ahead on worker threads, the merging thread merges in input order)
# give the bytes and stderr of 1 thread and of the real tool. Checks:
#  - many real raws of llvm-profdata-19's test set, weighted, several of
#    each (value profiles, MC/DC bitmaps, byte coverage, concatenated
#    profiles, binary ids; vtable and temporal raws among them): the bytes
#    of llvm-profdata-19 merge --num-threads=1, with 1, 2 and 3 threads, and
#    the same stderr;
#  - the same through the llvm-profdata-19 personality (its writer contexts
#    at -j 2 and 3): the real tool's bytes at the same thread count;
#  - a raw that fails half-way among good ones (warn / all / any): output,
#    stderr and exit status of 1 thread with 2 and 3;
#  - a raw with a reader warning (a counter above 2^56, LLVM 17 and 19
#    rules) after a merge warning: stderr and bytes of 1 thread.
set -euo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?}" "${PB_SHARED_DIR:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
pb_need_llvm 19
L="$PB_SHARED_DIR/testdata/llvm-real/llvm19"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm19-variants.bash"
if [ ! -d "$L" ]; then echo "SKIP: $L absent"; exit 77; fi
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"

# same WHAT A B: the files are byte-identical
same() { if cmp -s "$2" "$3"; then ok; else fail "$1"; fi; }

# IR raws that merge together (FE ones go in their own set: kinds conflict)
ir=(); w=1
for x in many-ir simple-ir many-ir concat-ir many-ir cs-ir static-ir many-ir simple-ir basic-ir many-ir entry-ir; do
  w=$((w % 5 + 1)); ir+=(--weighted-input="$w,$L/$x.profraw")
done
fe=("$L/mcdc-fe.profraw" "$L/basic-fe.profraw" --weighted-input="3,$L/mcdc-fe.profraw" "$L/basic-fe.profraw")
sbc=("$L/sbc-fe.profraw" "$L/sbc-fe.profraw" --weighted-input="7,$L/sbc-fe.profraw")
# vtable values and temporal traces among plain raws
mixed=("$L/many-ir.profraw" "$L/vtable-ir.profraw" "$L/many-ir.profraw" "$L/temporal-ir.profraw"
       "$L/simple-ir.profraw" "$L/vtable-ir.profraw" "$L/many-ir.profraw")
for set in ir fe sbc mixed; do
  declare -n in="$set"
  llvm-profdata-19 merge --num-threads=1 --keep-vtable-symbols "${in[@]}" -o "$T/l.profdata" 2>/dev/null
  for n in 1 2 3; do
    "$PB" merge --llvm-version 19 --num-threads "$n" "${in[@]}" -o "$T/p$n.profdata" 2>"$T/p$n.err"
    same "$set, $n threads = llvm-profdata-19 --num-threads=1" "$T/l.profdata" "$T/p$n.profdata"
    [ "$n" = 1 ] || same "$set, $n threads: stderr of 1 thread" "$T/p1.err" "$T/p$n.err"
  done
  # the personality: llvm-profdata-19's writer contexts at its thread count
  bin="$(pb_llvm_link 19)"
  for n in 2 3; do
    llvm-profdata-19 merge --num-threads="$n" "${in[@]}" -o "$T/l$n.profdata" 2>/dev/null
    "$bin/llvm-profdata-19" merge --num-threads="$n" "${in[@]}" -o "$T/q$n.profdata" 2>/dev/null
    same "$set through llvm-profdata-19 --num-threads=$n = the real tool's" "$T/l$n.profdata" "$T/q$n.profdata"
  done
  unset -n in
done

# many-ir.profraw's data[150].CounterPtr (0x2630, merge_stream.sh checks the
# place) pointed past the counters: the read fails after 150 records.
cp "$L/many-ir.profraw" "$T/bad.profraw"
printf '\000\000\000\000\000\000\000\160' | dd of="$T/bad.profraw" bs=1 seek=$((0x2630)) conv=notrunc 2>/dev/null
order=("$L/simple-ir.profraw" "$L/many-ir.profraw" "$T/bad.profraw" "$L/many-ir.profraw" "$T/bad.profraw"
       "$L/simple-ir.profraw")
for mode in warn all any; do
  llvm-profdata-19 merge --num-threads=1 --failure-mode="$mode" "${order[@]}" -o "$T/l.profdata" 2>/dev/null \
    && lrc=0 || lrc=$?
  for n in 1 2 3; do
    "$PB" merge --llvm-version 19 --num-threads "$n" --failure-mode "$mode" "${order[@]}" -o "$T/p$n.profdata" \
      2>"$T/p$n.err" && rc=0 || rc=$?
    if [ "$rc" = "$lrc" ]; then ok; else fail "bad raw, $mode, $n threads: exit $rc, llvm-profdata-19 $lrc"; fi
    if [ "$lrc" = 0 ]; then
      same "bad raw, $mode, $n threads = llvm-profdata-19" "$T/l.profdata" "$T/p$n.profdata"
    fi
    [ "$n" = 1 ] || same "bad raw, $mode, $n threads: stderr of 1 thread" "$T/p1.err" "$T/p$n.err"
  done
done

# simple-ir's "main" (data[2], counters at 0x180) counts above 2^56: a
# reader warning (LLVM 17), an input that fails (18+); a text input before it
# with one counter more for "bar": a merge warning.
counter_mismatch_text "$L/simple-ir.proftext" "$T/mismatch.proftext"
large_counter_raw "$L/simple-ir.profraw" "$T/big.profraw"
for rel in 17 19; do
  for mode in all any; do
    for n in 1 2 3; do
      "$PB" merge --llvm-version "$rel" --failure-mode "$mode" --num-threads "$n" "$T/mismatch.proftext" \
        "$L/simple-ir.profraw" "$T/big.profraw" "$L/simple-ir.profraw" "$T/big.profraw" \
        -o "$T/w$n.profdata" 2>"$T/w$n.err" && echo 0 >"$T/w$n.rc" || echo $? >"$T/w$n.rc"
      [ "$n" = 1 ] && continue
      same "large counter, LLVM $rel, $mode, $n threads: stderr of 1 thread" "$T/w1.err" "$T/w$n.err"
      same "large counter, LLVM $rel, $mode, $n threads: exit status of 1 thread" "$T/w1.rc" "$T/w$n.rc"
      if [ -f "$T/w1.profdata" ] && [ "$(cat "$T/w1.rc")" = 0 ]; then
        same "large counter, LLVM $rel, $mode, $n threads: output of 1 thread" "$T/w1.profdata" "$T/w$n.profdata"
      fi
    done
    if grep -q 'excessively large' "$T/w1.err" && grep -q 'counter mismatch' "$T/w1.err"; then ok; else
      fail "large counter, LLVM $rel, $mode: the warnings are missing: $(head -c 400 "$T/w1.err")"
    fi
  done
done
finish
