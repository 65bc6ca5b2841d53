#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/shapes.sh -- raw -> indexed (merge RAW -o X.profdata) with profbridge
# and with llvm-profdata-N, on three program shapes (bench/gen_big_c.py:
# value = heavy in indirect-call and memop value sites, the shape the other
# benchmarks use; plain = counters only; cxx = counters only, ~150-byte
# C++-mangled names over 400 translation units), each built once with
# clang-N -O0 (bench/big_raw.sh, cached in bench/cache) for N = 19 and 23 so
# that each llvm-profdata-N reads the raw version its own compiler writes;
# profbridge runs with --llvm-version N on the same file.
#
# Paired, alternating runs (llvm first on odd rounds, ours first on even
# ones), --repeat of each (default 5); the table shows the median wall time,
# CPU time (user + sys: the better measure on a loaded machine) and peak RSS
# (/usr/bin/time -f) of each and the ratios ours/theirs,
# and whether the two indexed files are byte-identical (llvm-profdata with
# --keep-vtable-symbols, which profbridge's default equals). A difference
# or a refusal by profbridge is reported, not fatal: the readers and
# writers are being changed while this is measured.
# The machine may be shared: say so when quoting the numbers.
# Builds a Release profbridge in build-bench-idx/ (or runs $PB when set).
# Not part of the test run.
# Usage: bench/shapes.sh [--repeat N] [--functions N] [--shapes "value plain cxx"] [--llvm "19 23"]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
repeat=5
functions=100000
shapes="value plain cxx"
releases="19 23"
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift 2 ;;
    --functions) functions="$2"; shift 2 ;;
    --shapes) shapes="$2"; shift 2 ;;
    --llvm) releases="$2"; shift 2 ;;
    *) echo "usage: bench/shapes.sh [--repeat N] [--functions N] [--shapes \"value plain cxx\"] [--llvm \"19 23\"]" >&2; exit 2 ;;
  esac
done
# shellcheck source=bench/lib/paired.bash
. "$root/bench/lib/paired.bash"
for n in $releases; do
  command -v "llvm-profdata-$n" >/dev/null || die "llvm-profdata-$n is missing (scripts/fetch-llvm.sh --clang $n)"
done
pb="$(bench_profbridge build-bench-idx)"
tmp="$bench_tmp"
run() { local name="$1"; shift; bench_run "$name" /dev/null "$@"; }
median() { bench_median "$@"; }

rows=()
echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs" >&2
for shape in $shapes; do
  for n in $releases; do
    dir="$(bash bench/big_raw.sh --functions "$functions" --shape "$shape" --clang "$n" --opt O0)" \
      || die "bench/big_raw.sh --shape $shape --clang $n failed"
    raw="$dir/run1.profraw"
    cat "$raw" >/dev/null # page cache
    key="$shape-$n"
    llvm_cmd=("llvm-profdata-$n" merge --keep-vtable-symbols "$raw" -o "$tmp/llvm.profdata")
    pb_cmd=("$pb" merge --llvm-version "$n" "$raw" -o "$tmp/pb.profdata")
    for ((r = 1; r <= repeat; r++)); do
      if [ $((r % 2)) -eq 1 ]; then
        run "llvm-$key" "${llvm_cmd[@]}"; run "pb-$key" "${pb_cmd[@]}"
      else
        run "pb-$key" "${pb_cmd[@]}"; run "llvm-$key" "${llvm_cmd[@]}"
      fi
    done
    same="identical"
    if grep -q fail "$tmp/pb-$key.times"; then
      same="ours FAILED: $(head -c 160 "$tmp/pb-$key.err" | tr '\n' ' ')"
    elif grep -q fail "$tmp/llvm-$key.times"; then
      same="llvm-profdata FAILED: $(head -c 160 "$tmp/llvm-$key.err" | tr '\n' ' ')"
    elif ! cmp -s "$tmp/llvm.profdata" "$tmp/pb.profdata"; then
      same="DIFFERENT bytes"
    fi
    bench_record "llvm-$key" "pb-$key" "$same"
    funcs="$("llvm-profdata-$n" show "$tmp/llvm.profdata" 2>/dev/null | awk '/^Total functions:/ { print $3 }')"
    lt="$(median "llvm-$key" 1)"; lm="$(median "llvm-$key" 2)"; lc="$(median "llvm-$key" 3)"
    pt="$(median "pb-$key" 1)"; pm="$(median "pb-$key" 2)"; pc="$(median "pb-$key" 3)"
    rows+=("$(awk -v s="$shape" -v n="$n" -v f="$funcs" -v sz="$(stat -c %s "$raw")" \
        -v lt="$lt" -v lm="$lm" -v lc="$lc" -v pt="$pt" -v pm="$pm" -v pc="$pc" -v same="$same" '
      function ratio(a, b) { return (a == "-" || b == "-" || b == 0) ? "-" : sprintf("%.2f", a / b) }
      function two(a) { return a == "-" ? a : sprintf("%.2f", a) }
      BEGIN {
      printf "%-6s %3s %7s %5.1f | %6s %6s %6.1f | %6s %6s %6.1f | %5s %5s %5s  %s",
        s, n, f, sz / 1048576, two(lt), two(lc), lm / 1024, two(pt), two(pc), pm / 1024,
        ratio(pt, lt), ratio(pc, lc), ratio(pm, lm), same }')")
    echo "bench: $shape, clang-$n: done" >&2
  done
done
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

printf "\nraw -> indexed, median of %d paired alternating runs (wall s, cpu s = user + sys, peak RSS MB)\n" "$repeat"
printf "%-6s %3s %7s %5s | %-20s | %-20s | %-17s\n" "" "" "" "raw" "llvm-profdata-N" "profbridge" "ours/theirs"
printf "%-6s %3s %7s %5s | %6s %6s %6s | %6s %6s %6s | %5s %5s %5s  %s\n" shape N funcs MB wall cpu MB wall cpu MB wall cpu mem output
for r in "${rows[@]}"; do echo "$r"; done
