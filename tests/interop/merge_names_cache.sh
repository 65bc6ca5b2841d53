#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# merge_names_cache.sh -- what one merge input leaves for the next
# (src/model/attach.h) must never change the result: a raw input takes the
# names table of the previous raw only when its names section is
# byte-identical (formats/raw/raw_names_cache.c), and an indexed input checks
# its key hashes against the MD5s the accumulator knows
# (pbi_profile_known_str_md5). Sequences that hit, miss, replace and hit the
# cache again, of raws with one and with several profiles, with vtable
# names, and of .profdata after raws, must give llvm-profdata-19's bytes at
# --num-threads 1 and 2 (profbridge's own name: the same bytes for both).
set -euo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}" "${PB_SHARED_DIR:?}"
# shellcheck source=lib/cli-common.bash
. "$PB_SOURCE_DIR/tests/interop/lib/cli-common.bash"
# shellcheck source=lib/llvm-tools.bash
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
pb_need_llvm 19
L="$PB_SHARED_DIR/testdata/llvm-real/llvm19"
if [ ! -d "$L" ]; then echo "SKIP: $L absent"; exit 77; fi

A="$L/many-ir.profraw" B="$L/simple-ir.profraw" C="$L/concat-ir.profraw" V="$L/vtable-ir.profraw"
sequences=(
  "$A $A $B $A $A"
  "$B $A $A $B $B"
  "$C $C $A $C"
  "$V $V $A $V"
  "$A $A $L/many-ir.profdata $L/simple-ir.profdata $L/many-ir.profdata"
  "$L/many-ir.profdata $L/many-ir.profdata $A $L/simple-ir.profdata $L/many-ir.profdata"
)
k=0
for s in "${sequences[@]}"; do
  k=$((k + 1))
  # shellcheck disable=SC2086
  llvm-profdata-19 merge --num-threads=1 --keep-vtable-symbols $s -o "$T/llvm$k.profdata" 2>/dev/null
  for j in 1 2; do
    # shellcheck disable=SC2086
    run "$PB" merge --llvm-version 19 --num-threads "$j" --keep-vtable-symbols $s -o "$T/pb$k-$j.profdata"
    if [ "$rc" -ne 0 ]; then fail "sequence $k, -j $j: exit $rc: $(head -c 300 "$T/err")"; continue; fi
    # a key hash checked against a wrong known MD5 would warn
    if grep -q "not the MD5" "$T/err"; then fail "sequence $k, -j $j: $(head -c 300 "$T/err")"; else ok; fi
    if cmp -s "$T/llvm$k.profdata" "$T/pb$k-$j.profdata"; then ok
    else fail "sequence $k ($(for f in $s; do basename "$f"; done | tr '\n' ' ')), -j $j: bytes differ from llvm-profdata-19's"; fi
  done
done
finish
