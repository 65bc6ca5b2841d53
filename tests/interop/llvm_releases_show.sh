#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# llvm_releases_show.sh -- `profbridge show --llvm-version N FLAGS F` prints
# what `llvm-profdata-N show FLAGS F` prints (stdout byte for byte; exit
# status 0 when N's is 0; where N's tool refuses a file of another version,
# we read it with a note naming llvm-profdata-N, and nothing is compared), for every release N from 13 to 24 whose
# llvm-profdata-N is on PATH (the oracle, run now), 16 flag sets (those of
# idx_show_llvm19.sh and raw_show_llvm19.sh, which test 19 on more files) and
# these inputs:
#   - the real files of shared/testdata/llvm-real: LLVM 14's and 19's
#     .profdata/.proftext (older releases read 14's indexed v7 and refuse
#     19's v12), their raw files and the synthetic raw v8/v10/v11 ones (each
#     release reads only its own raw version and refuses the others);
#   - when clang-N and tests/interop/lib/clang-programs.bash are there, the
#     raw profiles of that release's own clang (IR, front end, values,
#     vtables, temporal, MC/DC, loop entries, a program and its shared
#     library in one file...) and llvm-profdata-N's merge of each.
# Flags a release lacks (--covered before 14, --profile-version before 16,
# --temporal-profile-traces before 17, --show-vtables before 19) are refused
# by both. Also: PROFBRIDGE_LLVM_VERSION selects the release, and a bad
# --llvm-version is a usage error (2) before the (broken) input is read.
# Not compared (known deviations, counted): --text on a .proftext with MC/DC
# bitmap bytes, clang-13's program + shared library raw file, and 22+'s
# --topn on raw files of several profiles (garbage names; below).
# Sampled (pb_cell, lib/llvm-tools.bash): each (file, flag set) cell after the
# first flag set runs on one release of the 11, in turn;
# PB_TEST_FULL=1 runs all. Releases run two at a time. Skips when no
# llvm-profdata-N is installed.
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

FLAGSETS=(
  ""
  "--all-functions --counts"
  "--topn=3"
  "--topn=1 --value-cutoff=5"
  "--detailed-summary"
  "--detailed-summary --detailed-summary-cutoffs=800000,990000,0,1000000"
  "--value-cutoff=10 --list-below-cutoff"
  "--function=ma --counts"
  "--all-functions --counts --ic-targets --memop-sizes"
  "--all-functions --text"
  "--showcs --all-functions --counts"
  "--covered"
  "--binary-ids"
  "--profile-version"
  "--all-functions --show-vtables --ic-targets"
  "--temporal-profile-traces"
  "--hot-func-list --value-cutoff=2"
)

files=()
for f in llvm14/basic-ir llvm14/basic-fe llvm14/cs-merged llvm19/basic-ir llvm19/basic-fe \
         llvm19/vtable-ir llvm19/temporal-ir llvm19/mcdc-fe llvm19/cs-merged; do
  for e in profdata proftext profraw; do [ -f "$D/$f.$e" ] && files+=("$D/$f.$e"); done
done
files+=("$D/llvm19/concat-ir.profraw" "$D"/synthetic/syn-v8-64le.profraw "$D"/synthetic/syn-v10-32be.profraw
        "$D"/synthetic/syn-lit-v11-64le.profraw)

# check_release N: every file and flag set; "ok N" / "FAIL ..." lines on stdout.
check_release() {
  local n="$1" f fl lrc prc own=() k
  local rel; rel=$(pb_rel "$n") # the release's index for pb_cell
  local dir="$T/$n"; mkdir -p "$dir"
  if command -v "clang-$n" >/dev/null 2>&1 && [ -f "$LIB/clang-programs.bash" ]; then
    ( . "$LIB/clang-programs.bash"; pb_clang_programs "$n" "$dir/progs" ) >/dev/null 2>&1
    for k in "$dir"/progs/*.profraw; do
      [ -f "$k" ] || continue
      own+=("$k")
      # and its merge by llvm-profdata-n, for the kinds with something of their own
      case "$(basename "$k")" in ir-value.* | fe-value.* | vtable.* | temporal.* | mcdc.* | loop-entries.* | shared.*)
        "llvm-profdata-$n" merge -o "${k%.profraw}.n.profdata" "$k" 2>/dev/null && own+=("${k%.profraw}.n.profdata") ;;
      esac
    done
  fi
  local all=("${files[@]}" "${own[@]}") j i
  for j in "${!all[@]}"; do
    f="${all[$j]}"
    for i in "${!FLAGSETS[@]}"; do
      fl="${FLAGSETS[$i]}"
      # the flag sets after the first each on one release, in turn (pb_cell
      # by 11: the first decides whether n reads f, so it runs everywhere)
      [ "$i" -eq 0 ] || pb_cell 11 "$i" "$j" "$rel" || { echo "sampled"; continue; }
      # Known deviation (docs/show.md): llvm-profdata-18+ show of a .proftext
      # prints a record without bitmap bytes with the previous record's ones
      # (its text reader reuses the record); we print the file's bytes.
      if [[ "$fl" == *--text* && "$f" == *.proftext ]] && grep -q '^# Bitmap Byte Values' "$f"; then
        echo "known"; continue
      fi
      # Known deviation of our raw reader (formats/raw, not show's): clang-13's
      # runtime writes a shared library's binary ids with an unpadded
      # BinaryIdsSize (28) in raw v7, which the reader refuses.
      if [ "$n" = 13 ] && [[ "$f" == */progs/shared.profraw ]]; then echo "known"; continue; fi
      # llvm-profdata-22+ show --topn (and --hot-func-list) of a raw file
      # holding several profiles prints freed memory for the names of the
      # first profile's functions (its lists keep references to names of a
      # reader buffer since freed); we print the names.
      if [ "$n" -ge 22 ] && [[ "$fl" == *--topn* || "$fl" == *--hot-func-list* ]] && [[ "$f" == */progs/shared.profraw || "$f" == */concat-ir.profraw ]]; then
        echo "known"; continue
      fi
      # shellcheck disable=SC2086
      "llvm-profdata-$n" show $fl "$f" >"$dir/l" 2>/dev/null; lrc=$?
      # shellcheck disable=SC2086
      "$PB" show --llvm-version "$n" $fl "$f" >"$dir/p" 2>"$dir/e"; prc=$?
      if [ "$lrc" -eq 0 ] && [ "$prc" -eq 0 ] && cmp -s "$dir/l" "$dir/p"; then
        echo "ok"
      elif [ "$lrc" -ne 0 ] && { [ "$prc" -ne 0 ] || grep -q ": note: .*llvm-profdata-$n" "$dir/e"; }; then
        echo "ok refused"
      else
        echo "FAIL: LLVM $n: show $fl ${f#"$PB_SHARED_DIR/"} (exit llvm $lrc, ours $prc)"
        diff "$dir/l" "$dir/p" | head -8 | sed 's/^/    /'; head -c 300 "$dir/e" | sed 's/^/    /'
      fi
      # a file release n cannot read: one refusal is enough
      [ -z "$fl" ] && [ "$lrc" -ne 0 ] && break
    done
  done
  echo "files $n $(( ${#files[@]} + ${#own[@]} )) (${#own[@]} from clang-$n)"
}

# two releases at a time (2 cores)
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
  echo "LLVM $n: $c of $((c + fl)) identical ($r of them refused by both; $(grep -c '^known' "$T/res.$n") known deviations not compared; $(grep -c '^sampled' "$T/res.$n") cells left to other releases, PB_TEST_FULL=1 runs them); $(grep '^files' "$T/res.$n" | cut -d' ' -f3-) files"
  grep -A12 '^FAIL' "$T/res.$n" | head -60
  total=$((total + c + fl)); failures=$((failures + fl))
  [ "$c" -gt 20 ] || { echo "FAIL: LLVM $n: only $c comparisons"; failures=$((failures + 1)); }
done

# The release comes from PROFBRIDGE_LLVM_VERSION when --llvm-version is not
# given; a bad value is a usage error, before the input is read.
n="${releases[-1]}"
"llvm-profdata-$n" show --detailed-summary "$D/llvm14/basic-ir.profdata" >"$T/l" 2>/dev/null
PROFBRIDGE_LLVM_VERSION="$n" "$PB" show --detailed-summary "$D/llvm14/basic-ir.profdata" >"$T/p" 2>/dev/null
total=$((total + 1)); cmp -s "$T/l" "$T/p" || { failures=$((failures + 1)); echo "FAIL: PROFBRIDGE_LLVM_VERSION=$n"; }
printf 'junk' >"$T/broken.profraw"
for bad in "--llvm-version 12" "--llvm-version 25" "--llvm-version x"; do
  # shellcheck disable=SC2086
  "$PB" show $bad "$T/broken.profraw" >/dev/null 2>&1; rc=$?
  total=$((total + 1)); [ "$rc" -eq 2 ] || { failures=$((failures + 1)); echo "FAIL: show $bad: exit $rc, expected 2"; }
done
PROFBRIDGE_LLVM_VERSION=99 "$PB" show "$T/broken.profraw" >/dev/null 2>&1; rc=$?
total=$((total + 1)); [ "$rc" -eq 2 ] || { failures=$((failures + 1)); echo "FAIL: PROFBRIDGE_LLVM_VERSION=99: exit $rc"; }

echo "llvm_releases_show.sh: releases ${releases[*]}: $total comparisons, $failures failed"
[ "$failures" -eq 0 ]
