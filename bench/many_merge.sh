#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/many_merge.sh -- merges of many inputs (issue 25 item 2): 1,000 real
# raw profiles of one clang-19 program (about 1 MB each) and 200 .profdata
# files, with profbridge and with llvm-profdata-19 merge at --num-threads 1
# and 2. The program is bench/big_raw.sh's generated one (value shape,
# --functions, default 10000: ~1 MB raws), run 1,000 times with seeds
# 1..1000; the 200 .profdata are llvm-profdata-19 merges of 5 raws each.
# Inputs are cached in bench/cache/many-<functions>/ (gitignored; ~1.3 GB).
#
# Paired, alternating runs (bench/lib/paired.bash), --repeat of each
# (default 3); the table gives the median wall, CPU (user + sys) and peak
# RSS of each, the ratios ours/theirs (target: wall <= 0.25, memory <= 0.3)
# and whether the outputs are byte-identical. Two rows per thread count:
# `profbridge merge --llvm-version 19` (kind-N, whose output does not depend
# on its thread count: one accumulator) and profbridge as the drop-in, a link
# named llvm-profdata-19 given llvm-profdata-19's own command line (kind-N
# drop-in: its writer contexts, input i into context i % N on thread i % N,
# as llvm-profdata's). Each is compared with llvm-profdata-19 at that count.
# Builds a Release profbridge in build-bench-many/ (or runs $PB when set).
# Not part of the test run; prints the load average with the table.
# Usage: bench/many_merge.sh [--repeat N] [--functions N] [--raws N] [--threads "1 2"]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
repeat=3
functions=10000
nraw=1000
threads="1 2"
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift 2 ;;
    --functions) functions="$2"; shift 2 ;;
    --raws) nraw="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    *) echo "usage: bench/many_merge.sh [--repeat N] [--functions N] [--raws N] [--threads \"1 2\"]" >&2; exit 2 ;;
  esac
done
# shellcheck source=bench/lib/paired.bash
. "$root/bench/lib/paired.bash"
llvm=llvm-profdata-19
command -v "$llvm" >/dev/null || die "$llvm is missing (scripts/fetch-llvm.sh --clang 19)"
nprof=$((nraw / 5))

# ---- inputs (cached) ----
prog_dir="$(bash bench/big_raw.sh --functions "$functions" --shape value --clang 19 --opt O0)" \
  || die "bench/big_raw.sh failed"
cache="$root/bench/cache/many-$functions"
if [ ! -f "$cache/raw.done.$nraw" ]; then
  echo "bench: running the program $nraw times (once)" >&2
  mkdir -p "$cache/raw"
  for ((i = 1; i <= nraw; i++)); do
    f="$cache/raw/$(printf %04d "$i").profraw"
    [ -s "$f" ] || LLVM_PROFILE_FILE="$f" "$prog_dir/big" "$i" >/dev/null 2>>"$cache/run.log" || true
    [ -s "$f" ] || die "the program wrote no $f"
  done
  touch "$cache/raw.done.$nraw"
fi
if [ ! -f "$cache/prof.done.$nprof" ]; then
  echo "bench: merging $nprof .profdata of 5 raws each with $llvm (once)" >&2
  mkdir -p "$cache/prof"
  for ((i = 0; i < nprof; i++)); do
    f="$cache/prof/$(printf %03d "$i").profdata"
    group=()
    for ((j = 1; j <= 5; j++)); do group+=("$cache/raw/$(printf %04d $((5 * i + j))).profraw"); done
    [ -s "$f" ] || "$llvm" merge --keep-vtable-symbols "${group[@]}" -o "$f" || die "$llvm merge of group $i failed"
  done
  touch "$cache/prof.done.$nprof"
fi
raws=(); for ((i = 1; i <= nraw; i++)); do raws+=("$cache/raw/$(printf %04d "$i").profraw"); done
profs=(); for ((i = 0; i < nprof; i++)); do profs+=("$cache/prof/$(printf %03d "$i").profdata"); done
printf '%s\n' "${raws[@]}" >"$bench_tmp/raws.list"
printf '%s\n' "${profs[@]}" >"$bench_tmp/profs.list"
cat "${raws[@]}" "${profs[@]}" >/dev/null # page cache

pb="$(bench_profbridge build-bench-many)"
mkdir -p "$bench_tmp/bin"
ln -s "$pb" "$bench_tmp/bin/$llvm" # the drop-in: the personality is the link's name
rows=()
echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs" >&2
for kind in raws profs; do
  if [ "$kind" = raws ]; then n="$nraw"; mb=$(du -cm "${raws[@]}" | tail -1 | cut -f1)
  else n="$nprof"; mb=$(du -cm "${profs[@]}" | tail -1 | cut -f1); fi
  for t in $threads; do
    key="$kind-$t"
    # the inputs through -f (--input-files): 1,000 names would make a long command line
    args="merge --keep-vtable-symbols --num-threads=$t -f $bench_tmp/$kind.list -o"
    tcmd="$llvm $args $bench_tmp/llvm-$key.profdata"
    ocmd="$pb merge --llvm-version 19 --num-threads $t -f $bench_tmp/$kind.list -o $bench_tmp/pb-$key.profdata"
    dcmd="$bench_tmp/bin/$llvm $args $bench_tmp/pb-$key-dropin.profdata"
    bench_paired "llvm-$key" "pb-$key" "$repeat" /dev/null /dev/null "$tcmd" "$ocmd"
    rows+=("$(printf "%-14s %5s %6s %2s | %s  %s" "$kind" "$n" "$mb" "$t" "$(bench_columns "llvm-$key" "pb-$key")" \
      "$(bench_verdict "llvm-$key" "pb-$key" "$bench_tmp/llvm-$key.profdata" "$bench_tmp/pb-$key.profdata")")")
    bench_paired "llvm-$key-d" "pb-$key drop-in" "$repeat" /dev/null /dev/null "$tcmd" "$dcmd"
    rows+=("$(printf "%-14s %5s %6s %2s | %s  %s" "$kind drop-in" "$n" "$mb" "$t" \
      "$(bench_columns "llvm-$key-d" "pb-$key drop-in")" \
      "$(bench_verdict "llvm-$key-d" "pb-$key drop-in" "$bench_tmp/llvm-$key.profdata" "$bench_tmp/pb-$key-dropin.profdata")")")
    echo "bench: $kind, -j $t: done" >&2
  done
done
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

printf "\nmerge of many inputs (%s), median of %d paired alternating runs (wall s, cpu s = user + sys, peak RSS MB)\n" \
  "$(basename "$prog_dir")" "$repeat"
printf "%-14s %5s %6s %2s | %-22s | %-22s | %-17s\n" "" "" "" "" "llvm-profdata-19" "profbridge" "ours/theirs"
printf "%-14s %5s %6s %2s | %6s %6s %7s | %6s %6s %7s | %5s %5s %5s  %s\n" inputs n MB -j wall cpu MB wall cpu MB wall cpu mem output
for r in "${rows[@]}"; do echo "$r"; done
