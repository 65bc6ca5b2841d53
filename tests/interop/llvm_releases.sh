#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# llvm_releases.sh -- the rows of PBI_LLVM_RELEASES (src/llvm/target.h: raw
# and indexed version of each release) against the real tools of every
# release on PATH (docs/llvm-releases.md has the table this checks):
#  - raw: the version in the header of the raw file a program compiled by
#    clang-N -fprofile-generate writes; llvm-profdata-N reads it and refuses
#    the raw files of the releases whose raw version differs;
#  - indexed: the version in the header of llvm-profdata-N merge's output;
#    llvm-profdata-N reads every available release's indexed file up to that
#    version and refuses those above it.
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
# shellcheck disable=SC1091 # in the source tree
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
releases="$(pb_llvm_releases clang)"
[ -n "$releases" ] || { echo "SKIP: no clang-N with llvm-profdata-N on PATH (scripts/fetch-llvm.sh)"; exit 77; }
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
fails=0; checks=0
check() { # check WHAT EXPECTED GOT
  checks=$((checks + 1))
  if [ "$2" != "$3" ]; then echo "FAIL: $1: expected $2, got $3"; fails=$((fails + 1)); fi
}
# The rows, "release raw indexed" per line, from the X-macro.
rows="$(sed -n 's/^ *X(\([0-9]*\), *\([0-9]*\), *\([0-9]*\)) *\\\?$/\1 \2 \3/p' "$PB_SOURCE_DIR/src/llvm/target.h")"
[ "$(wc -l <<<"$rows")" -ge 12 ] || { echo "FAIL: cannot read PBI_LLVM_RELEASES from target.h"; exit 1; }
row() { awk -v n="$1" -v f="$2" '$1 == n { print $f }' <<<"$rows"; }
u32at8() { od -An -t u4 -j 8 -N 4 "$1" | tr -d ' '; }

src="$PB_SOURCE_DIR/tests/interop/data/programs/mcdc.c"
for n in $releases; do
  [ -n "$(row "$n" 2)" ] || { echo "FAIL: target.h has no row for $n"; fails=$((fails + 1)); continue; }
  "clang-$n" -O0 -fprofile-generate "$src" -o "$T/p$n"
  LLVM_PROFILE_FILE="$T/$n.profraw" "$T/p$n" >/dev/null
  "llvm-profdata-$n" merge -o "$T/$n.profdata" "$T/$n.profraw"
  check "raw version clang-$n writes" "$(row "$n" 2)" "$(u32at8 "$T/$n.profraw")"
  check "indexed version llvm-profdata-$n merge writes" "$(row "$n" 3)" "$(u32at8 "$T/$n.profdata")"
done
for n in $releases; do
  [ -n "$(row "$n" 2)" ] || continue
  for m in $releases; do
    [ -n "$(row "$m" 2)" ] || continue
    raw_ok=no; idx_ok=no
    if "llvm-profdata-$n" show "$T/$m.profraw" >/dev/null 2>&1; then raw_ok=yes; fi
    if "llvm-profdata-$n" show "$T/$m.profdata" >/dev/null 2>&1; then idx_ok=yes; fi
    want=no; [ "$(row "$m" 2)" = "$(row "$n" 2)" ] && want=yes
    check "llvm-profdata-$n reads raw v$(row "$m" 2) (clang-$m)" "$want" "$raw_ok"
    want=no; [ "$(row "$m" 3)" -le "$(row "$n" 3)" ] && want=yes
    check "llvm-profdata-$n reads indexed v$(row "$m" 3) (llvm-profdata-$m)" "$want" "$idx_ok"
  done
done
echo "llvm_releases: releases $(tr '\n' ' ' <<<"$releases")- $((checks - fails)) of $checks checks agree with target.h"
[ "$fails" -eq 0 ]
