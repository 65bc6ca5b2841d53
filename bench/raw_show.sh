#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/raw_show.sh -- `profbridge show --all-functions --counts` against
# `llvm-profdata-19 show --all-functions --counts` on the same large real raw
# profile (bench/big_raw.sh: >= 100k functions, made by clang-19; built once
# and cached) and on the indexed file llvm-profdata-19 merges from it.
# Targets (issue 25 item 4): raw <= 0.3x, indexed <= 0.2x llvm-profdata-19.
# Not part of the test run.
#
# Builds a Release profbridge in build-bench-raw/ (or runs $PB when set).
# Paired, alternating runs (--repeat, default 3; bench/lib/paired.bash); the
# table shows the median wall time, CPU time (user + sys) and peak RSS of
# each, the ratios ours/theirs and whether the outputs are byte-identical.
# Usage: bench/raw_show.sh [--repeat N] [--functions N] [--shape S] [--opt O0|O1]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
repeat=3
functions=100000
shape_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift 2 ;;
    --functions) functions="$2"; shift 2 ;;
    --shape|--opt) shape_args+=("$1" "$2"); shift 2 ;;
    *) echo "usage: bench/raw_show.sh [--repeat N] [--functions N] [--shape S] [--opt O0|O1]" >&2; exit 2 ;;
  esac
done
# shellcheck source=bench/lib/paired.bash
. "$root/bench/lib/paired.bash"
command -v llvm-profdata-19 >/dev/null || die "llvm-profdata-19 is missing (scripts/install-deps.sh)"
pb="$(bench_profbridge build-bench-raw)"

dir="$(bash bench/big_raw.sh --functions "$functions" --clang 19 "${shape_args[@]}")" \
  || die "building the big raw profile failed"
big="$dir/run1.profraw"
llvm-profdata-19 merge "$big" -o "$bench_tmp/big.profdata" || die "llvm-profdata-19 merge failed"
cat "$big" "$bench_tmp/big.profdata" >/dev/null # warm the page cache

rows=()
echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs" >&2
for kind in raw indexed; do
  input="$big"; [ "$kind" = indexed ] && input="$bench_tmp/big.profdata"
  key="show-$kind"
  bench_paired "llvm-$key" "pb-$key" "$repeat" "$bench_tmp/llvm.out" "$bench_tmp/pb.out" \
    "exec llvm-profdata-19 show --all-functions --counts '$input'" \
    "exec '$pb' show --all-functions --counts '$input'"
  rows+=("$(printf "%-8s %6.1f | %s  %s" "$kind" "$(stat -c %s "$input" | awk '{ print $1 / 1048576 }')" \
    "$(bench_columns "llvm-$key" "pb-$key")" \
    "$(bench_verdict "llvm-$key" "pb-$key" "$bench_tmp/llvm.out" "$bench_tmp/pb.out")")")
done
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

printf "\nshow --all-functions --counts of %s, median of %d paired alternating runs (wall s, cpu s = user + sys, peak RSS MB)\n" \
  "$big" "$repeat"
printf "%-8s %6s | %-22s | %-22s | %-17s\n" "" "" "llvm-profdata-19" "profbridge" "ours/theirs"
printf "%-8s %6s | %6s %6s %7s | %6s %6s %7s | %5s %5s %5s  %s\n" input MB wall cpu MB wall cpu MB wall cpu mem output
for r in "${rows[@]}"; do echo "$r"; done
