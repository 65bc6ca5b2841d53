#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# llvm_releases_overlap.sh -- `profbridge overlap --llvm-version N OPTS A B`
# prints what `llvm-profdata-N overlap OPTS A B` prints (stdout byte for byte;
# exit status 0 exactly when N's is 0), for every release N from 13 to 24
# whose llvm-profdata-N is on PATH (the oracle, run now). Pairs of the real
# files of shared/testdata/llvm-real (LLVM 14's and 19's raw, indexed and
# text files of several programs: same program, other programs, records
# only in one file, other hashes, value profiles, context-sensitive
# records; each release refuses the raw versions and indexed versions it
# does not read), plus, when clang-N and tests/interop/lib/clang-programs.bash
# are there, that release's own raw files (indirect calls and memcpy sizes,
# a program and its shared library, two statics) and their merge by
# llvm-profdata-N; with no option, --value-cutoff=0 (every function-level
# report), --function=ma and --cs. overlap_llvm19.sh tests 19 on more pairs.
# Sampled (pb_cell, lib/llvm-tools.bash): each (pair, option) cell runs on
# one release of the 11, in turn; PB_TEST_FULL=1 runs all. Releases run two
# at a time. Skips when
# no llvm-profdata-N is installed.
set -uo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}"
: "${PB_SHARED_DIR:=$PB_SOURCE_DIR/../shared}"
D="$PB_SHARED_DIR/testdata/llvm-real"
[ -d "$D/llvm19" ] || { echo "SKIP: no $D (shared test data)"; exit 77; }
LIB="${PB_TEST_LIB:-$PB_SOURCE_DIR/tests/interop/lib}" # PB_TEST_LIB: another checkout's lib/

releases=()
if [ -f "$LIB/llvm-tools.bash" ]; then
  . "$LIB/llvm-tools.bash"
  read -r -a releases <<<"$(pb_llvm_releases)"
else
  for n in 13 14 15 16 17 18 19 20 21 22 23 24; do
    command -v "llvm-profdata-$n" >/dev/null 2>&1 && releases+=("$n")
  done
fi
declare -F pb_cell >/dev/null || pb_cell() { return 0; } # an older lib/: every cell
declare -F pb_rel >/dev/null || pb_rel() { echo "$1"; }
# PB_TEST_RELEASES="14 21": only these (to run one quickly by hand)
[ -n "${PB_TEST_RELEASES:-}" ] && read -r -a releases <<<"$PB_TEST_RELEASES"
[ "${#releases[@]}" -gt 0 ] || { echo "SKIP: no llvm-profdata-N (13..24) on PATH"; exit 77; }

T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
OPTS=("" "--value-cutoff=0" "--function=ma" "--cs")
files=("$D/llvm14/basic-ir.profdata" "$D/llvm14/basic-ir.proftext" "$D/llvm14/basic-ir.profraw"
       "$D/llvm14/many-ir.profdata" "$D/llvm14/cs-merged.profdata" "$D/llvm14/basic-fe.proftext"
       "$D/llvm19/basic-ir.profdata" "$D/llvm19/basic-ir.profraw" "$D/llvm19/vtable-ir.profdata"
       "$D/llvm19/cs-merged.proftext" "$D/llvm19/concat-ir.profraw")

check_release() {
  local n="$1" a b o lrc prc own=() k
  local rel; rel=$(pb_rel "$n") # the release's index for pb_cell
  local dir="$T/$n"; mkdir -p "$dir"
  if command -v "clang-$n" >/dev/null 2>&1 && [ -f "$LIB/clang-programs.bash" ]; then
    ( . "$LIB/clang-programs.bash"; pb_clang_programs "$n" "$dir/progs" ) >/dev/null 2>&1
    for k in ir-value shared statics; do
      [ -f "$dir/progs/$k.profraw" ] || continue
      own+=("$dir/progs/$k.profraw")
      "llvm-profdata-$n" merge -o "$dir/progs/$k.n.profdata" "$dir/progs/$k.profraw" 2>/dev/null &&
        own+=("$dir/progs/$k.n.profdata")
    done
  fi
  local all=("${files[@]}" "${own[@]}")
  local ia ib io
  for ia in "${!all[@]}"; do for ib in "${!all[@]}"; do
    a="${all[$ia]}" b="${all[$ib]}"
    # Known deviation of our raw reader (formats/raw): clang-13's runtime
    # writes a shared library's binary ids with an unpadded BinaryIdsSize in
    # raw v7, which the reader refuses (llvm_releases_show.sh says the same).
    if [ "$n" = 13 ] && [[ "$a" == */progs/shared.profraw || "$b" == */progs/shared.profraw ]]; then
      echo known; continue
    fi
    for io in "${!OPTS[@]}"; do
      o="${OPTS[$io]}"
      # sampled (pb_cell by 11): each (pair, option) cell on one release,
      # in turn
      pb_cell 11 "$ia" "$ib" "$io" "$rel" ||
        { echo sampled; continue; }
      # shellcheck disable=SC2086
      "llvm-profdata-$n" overlap $o "$a" "$b" >"$dir/l" 2>/dev/null; lrc=$?
      # shellcheck disable=SC2086
      "$PB" overlap --llvm-version "$n" $o "$a" "$b" >"$dir/p" 2>"$dir/e"; prc=$?
      if [ "$lrc" -eq 0 ] && [ "$prc" -eq 0 ] && cmp -s "$dir/l" "$dir/p"; then echo ok
      elif [ "$lrc" -ne 0 ] && { [ "$prc" -ne 0 ] || grep -q ": note: .*llvm-profdata-$n" "$dir/e"; }; then echo "ok refused"
      else
        echo "FAIL: LLVM $n: overlap $o ${a#"$PB_SHARED_DIR/"} ${b#"$PB_SHARED_DIR/"} (exit llvm $lrc, ours $prc)"
        diff "$dir/l" "$dir/p" | head -8 | sed 's/^/    /'; head -c 300 "$dir/e" | sed 's/^/    /'
      fi
      # a pair release n cannot read: once is enough
      [ "$lrc" -ne 0 ] && break
    done
  done; done
  echo "files $n ${#all[@]} (${#own[@]} from clang-$n)"
}

running=0
for n in "${releases[@]}"; do
  check_release "$n" >"$T/res.$n" &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
done
wait

total=0; failures=0
for n in "${releases[@]}"; do
  c=$(grep -c '^ok' "$T/res.$n"); r=$(grep -c '^ok refused' "$T/res.$n"); fl=$(grep -c '^FAIL' "$T/res.$n")
  echo "LLVM $n: $c of $((c + fl)) identical ($r of them refused by both; $(grep -c '^known' "$T/res.$n") pairs of a known deviation not compared; $(grep -c '^sampled' "$T/res.$n") cells left to other releases, PB_TEST_FULL=1 runs them); $(grep '^files' "$T/res.$n" | cut -d' ' -f3-) files"
  grep -A12 '^FAIL' "$T/res.$n" | head -60
  total=$((total + c + fl)); failures=$((failures + fl))
  [ "$((c - r))" -gt 20 ] || { echo "FAIL: LLVM $n: only $((c - r)) reports compared"; failures=$((failures + 1)); }
done

# a bad release is a usage error before the inputs are read
printf 'junk' >"$T/broken.profraw"
"$PB" overlap --llvm-version 12 "$T/broken.profraw" "$T/broken.profraw" >/dev/null 2>&1; rc=$?
total=$((total + 1)); [ "$rc" -eq 2 ] || { failures=$((failures + 1)); echo "FAIL: overlap --llvm-version 12: exit $rc"; }
PROFBRIDGE_LLVM_VERSION=7 "$PB" overlap "$T/broken.profraw" "$T/broken.profraw" >/dev/null 2>&1; rc=$?
total=$((total + 1)); [ "$rc" -eq 2 ] || { failures=$((failures + 1)); echo "FAIL: PROFBRIDGE_LLVM_VERSION=7: exit $rc"; }

echo "llvm_releases_overlap.sh: releases ${releases[*]}: $total comparisons, $failures failed"
[ "$failures" -eq 0 ]
