#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/merge_memory.sh -- the merge memory target (issue 13): merging 20
# weighted inputs (--weighted-input W,FILE, W = 1..20, alternating two real
# raw profiles of >= 100k functions from bench/big_raw.sh) with profbridge
# and with llvm-profdata-19 at --num-threads 1, 2 and 4 and at the default,
# whole process, peak RSS and wall time from /usr/bin/time. profbridge's
# output must be byte-identical to llvm-profdata-19 --num-threads 1's at
# every thread count (llvm-profdata's own multi-threaded output orders keys
# differently, so it is not compared). Prints the median of --repeat runs
# (default 3; each profbridge run next to its llvm-profdata counterpart) and
# the ratios. Target: peak RSS <= 0.5x and time <= 0.5x at every count.
# Builds a Release profbridge in build-bench-merge/. Not part of the tests.
# Usage: bench/merge_memory.sh [--repeat N] [--functions N] [--opt O0|O1]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
repeat=3
functions=100000
opt=O0
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift 2 ;;
    --functions) functions="$2"; shift 2 ;;
    --opt) opt="$2"; shift 2 ;;
    *) echo "usage: bench/merge_memory.sh [--repeat N] [--functions N] [--opt O0|O1]" >&2; exit 2 ;;
  esac
done
die() { echo "bench: $*" >&2; exit 1; }

llvm=llvm-profdata-19
command -v "$llvm" >/dev/null || die "$llvm is missing (scripts/install-deps.sh)"
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (package 'time')"

cmake -S . -B build-bench-merge -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_TESTS=OFF >/dev/null \
  || die "cmake configure failed"
cmake --build build-bench-merge -j2 --target profbridge_cli >/dev/null || die "building profbridge failed"
pb="$root/build-bench-merge/profbridge"

dir="$(bash bench/big_raw.sh --functions "$functions" --opt "$opt")" || die "bench/big_raw.sh failed"
run1="$dir/run1.profraw"
run2="$dir/run2.profraw"
[ -s "$run1" ] && [ -s "$run2" ] || die "no raw profiles in $dir"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat "$run1" "$run2" >/dev/null # warm the page cache

weighted=()
for w in $(seq 1 20); do
  if [ $((w % 2)) -eq 1 ]; then weighted+=(--weighted-input "$w,$run1"); else weighted+=(--weighted-input "$w,$run2"); fi
done

# llvm-profdata-19 --num-threads 1: the bytes every profbridge run must write
"$llvm" merge --keep-vtable-symbols --num-threads=1 "${weighted[@]}" -o "$tmp/want.profdata" \
  || die "$llvm merge failed"

# one TOOL THREADS: appends "KiB seconds" to $tmp/TOOL-THREADS
one() {
  local tool="$1" t="$2" cmd topt=()
  [ "$t" = default ] || topt=(--num-threads="$t")
  if [ "$tool" = llvm ]; then cmd=("$llvm" merge --keep-vtable-symbols "${topt[@]}");
  else cmd=("$pb" merge "${topt[@]}"); fi
  /usr/bin/time -f "%M %e" -o "$tmp/time" "${cmd[@]}" "${weighted[@]}" -o "$tmp/$tool-$t.profdata" \
    2>"$tmp/$tool-$t.err" || die "$tool merge --num-threads $t failed: $(cat "$tmp/$tool-$t.err")"
  tail -n1 "$tmp/time" >>"$tmp/$tool-$t"
  if [ "$tool" = pb ]; then
    cmp -s "$tmp/want.profdata" "$tmp/pb-$t.profdata" || die "profbridge --num-threads $t differs from $llvm --num-threads=1"
  fi
}

median() { # FILE COLUMN
  awk -v c="$2" '{ print $c }' "$1" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

counts=(1 2 4 default)
for _ in $(seq 1 "$repeat"); do
  for t in "${counts[@]}"; do one llvm "$t"; one pb "$t"; done
done

printf "20 weighted inputs (%s), median of %s runs; outputs byte-identical to %s --num-threads=1\n" \
  "$(basename "$dir")" "$repeat" "$llvm"
printf "%-8s %12s %12s %7s %9s %9s %7s\n" threads "llvm KiB" "ours KiB" ratio "llvm s" "ours s" ratio
for t in "${counts[@]}"; do
  lm=$(median "$tmp/llvm-$t" 1); pm=$(median "$tmp/pb-$t" 1)
  ls=$(median "$tmp/llvm-$t" 2); ps=$(median "$tmp/pb-$t" 2)
  printf "%-8s %12s %12s %7.2f %9s %9s %7.2f\n" "$t" "$lm" "$pm" "$(echo "$pm / $lm" | bc -l)" \
    "$ls" "$ps" "$(echo "$ps / $ls" | bc -l)"
done
printf "target: both ratios <= 0.5 at every thread count\n"
