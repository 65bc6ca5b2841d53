#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/cov.sh -- `profbridge cov export` against `llvm-cov-N export` (N = 19
# and 23 by default), JSON (-format=text) and lcov, on
#  - a generated 100k-function C program (bench/gen_big_c.py, shape plain)
#    built once per N with clang-N -O0 -fprofile-instr-generate
#    -fcoverage-mapping and run once (cached in $BENCH_CACHE, default
#    bench/cache, as cov-clang<N>-<functions>);
#  - the real programs of the coverage corpus (scripts/build-cov-corpus.sh;
#    $COV_CORPUS, else build/cov-corpus when it is there): each folder's
#    OBJECTS (the first is the binary, the others -object), its cov.profdata
#    and its RAW profile (else its first *.profraw).
#
# Two pairs per program, release and format:
#   export   llvm-cov-N export -instr-profile=P.profdata BIN
#         vs profbridge cov export --llvm-version N -instr-profile=P.profdata BIN
#   +merge   llvm-profdata-N merge RAW -o P.profdata && llvm-cov-N export ... P.profdata
#            (what a user of llvm-cov must run: llvm-cov reads no raw profile)
#         vs profbridge cov export --llvm-version N -instr-profile=RAW BIN
# Paired, alternating runs (--repeat, default 5; bench/lib/paired.bash); the
# table shows the median wall time, CPU time (user + sys: the better measure
# on a loaded machine; llvm-cov-23 export runs up to 3 threads, its CPU about
# the same with -num-threads=1) and peak RSS of each,
# the ratios ours/theirs, and whether the outputs are byte-identical.
# Builds a Release profbridge in build-bench-cov/ (or runs $PB when set).
# Not part of the test run.
# Usage: bench/cov.sh [--repeat N] [--functions N] [--llvm "19 23"] [--no-corpus]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
repeat=5
functions=100000
releases="19 23"
corpus="${COV_CORPUS:-$root/build/cov-corpus}"
cache="${BENCH_CACHE:-$root/bench/cache}" # built programs (kept between runs)
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift 2 ;;
    --functions) functions="$2"; shift 2 ;;
    --llvm) releases="$2"; shift 2 ;;
    --no-corpus) corpus=""; shift ;;
    *) echo "usage: bench/cov.sh [--repeat N] [--functions N] [--llvm \"19 23\"] [--no-corpus]" >&2; exit 2 ;;
  esac
done
# shellcheck source=bench/lib/paired.bash
. "$root/bench/lib/paired.bash"
for n in $releases; do
  for t in "llvm-profdata-$n" "llvm-cov-$n" "clang-$n"; do
    command -v "$t" >/dev/null || die "$t is missing (scripts/fetch-llvm.sh --clang $n)"
  done
done
pb="$(bench_profbridge build-bench-cov)"

# big_program N: builds (once) the generated program with clang-N and
# coverage, runs it, merges its profile; prints the directory.
big_program() {
  local n="$1" dir="$cache/cov-clang$1-$functions"
  if [ ! -f "$dir/run.profdata" ]; then
    rm -rf "$dir.tmp"; mkdir -p "$dir.tmp/src" "$dir.tmp/obj"
    /usr/bin/python3 bench/gen_big_c.py "$dir.tmp/src" --shape plain --functions "$functions" >&2
    (cd "$dir.tmp/src" && ls ./*.c | CC="clang-$n" xargs -P 2 -I{} sh -c \
      '"$CC" -O0 -fprofile-instr-generate -fcoverage-mapping -c "$1" -o "../obj/$(basename "$1" .c).o"' _ {}) >&2
    "clang-$n" -fprofile-instr-generate "$dir.tmp"/obj/*.o -o "$dir.tmp/big" >&2
    LLVM_PROFILE_FILE="$dir.tmp/run.profraw" "$dir.tmp/big" 1 >/dev/null
    "llvm-profdata-$n" merge "$dir.tmp/run.profraw" -o "$dir.tmp/run.profdata"
    rm -rf "$dir.tmp/obj" "$dir"
    mv "$dir.tmp" "$dir"
  fi
  echo "$dir"
}

rows=()
# measure NAME N BIN RAW PROFDATA [OBJECT_ARGS...]: the four rows of one
# program and release.
measure() {
  local name="$1" n="$2" bin="$3" raw="$4" pd="$5"; shift 5
  local objs="" w
  for w in "$@"; do objs+=" '$w'"; done
  cat "$bin" "$raw" "$pd" >/dev/null # page cache
  local fmt flag key t o
  for fmt in json lcov; do
    flag=""; [ "$fmt" = lcov ] && flag="-format=lcov"
    key="$name-$n-$fmt"; t="$bench_tmp/llvm.out"; o="$bench_tmp/pb.out"
    bench_paired "llvm-$key" "pb-$key" "$repeat" "$t" "$o" \
      "exec llvm-cov-$n export $flag -instr-profile='$pd' '$bin'$objs" \
      "exec '$pb' cov export --llvm-version $n $flag -instr-profile='$pd' '$bin'$objs"
    rows+=("$(printf "%-12s %3s %-4s %-6s | %s  %s" "$name" "$n" "$fmt" export \
      "$(bench_columns "llvm-$key" "pb-$key")" "$(bench_verdict "llvm-$key" "pb-$key" "$t" "$o")")")
    key="$key-raw"
    bench_paired "llvm-$key" "pb-$key" "$repeat" "$t" "$o" \
      "llvm-profdata-$n merge '$raw' -o '$bench_tmp/m.profdata' && exec llvm-cov-$n export $flag -instr-profile='$bench_tmp/m.profdata' '$bin'$objs" \
      "exec '$pb' cov export --llvm-version $n $flag -instr-profile='$raw' '$bin'$objs"
    rows+=("$(printf "%-12s %3s %-4s %-6s | %s  %s" "$name" "$n" "$fmt" +merge \
      "$(bench_columns "llvm-$key" "pb-$key")" "$(bench_verdict "llvm-$key" "pb-$key" "$t" "$o")")")
  done
}

# corpus_programs N: each real program of the corpus for release N, as
# "DIR BIN RAW [OBJECT ...]" (names relative to DIR).
corpus_programs() {
  local d objs raw
  [ -n "$corpus" ] && [ -d "$corpus/$1" ] || return 0
  for d in "$corpus/$1"/*/; do
    d="${d%/}"
    [ -f "$d/OBJECTS" ] && [ -f "$d/cov.profdata" ] && [ ! -f "$d/FAILED" ] || continue
    if [ -f "$d/RAW" ]; then raw="$(head -n1 "$d/RAW")"; else raw="$(cd "$d" && ls ./*.profraw 2>/dev/null | head -n1)"; fi
    [ -n "$raw" ] || continue
    objs="$(tr '\n' ' ' < "$d/OBJECTS")"
    echo "$d $raw $objs"
  done
}

echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs" >&2
for n in $releases; do
  dir="$(big_program "$n")" || die "building the $functions-function program with clang-$n failed"
  measure "gen$((functions / 1000))k" "$n" "$dir/big" "$dir/run.profraw" "$dir/run.profdata"
  echo "bench: generated program, clang-$n: done" >&2
  while read -r d raw bin rest; do
    [ -n "$d" ] || continue
    extra=()
    for w in $rest; do extra+=("-object" "$d/$w"); done
    measure "$(basename "$d")" "$n" "$d/$bin" "$d/${raw#./}" "$d/cov.profdata" "${extra[@]}"
    echo "bench: $(basename "$d"), clang-$n: done" >&2
  done < <(corpus_programs "$n")
done
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

printf "\ncov export, median of %d paired alternating runs (wall s, cpu s = user + sys, peak RSS MB);\n" "$repeat"
printf "+merge: llvm-profdata-N merge RAW first for llvm-cov, the raw profile read directly by profbridge\n"
printf "%-12s %3s %-4s %-6s | %-22s | %-22s | %-17s\n" "" "" "" "" "llvm(-profdata+)-cov-N" "profbridge" "ours/theirs"
printf "%-12s %3s %-4s %-6s | %6s %6s %7s | %6s %6s %7s | %5s %5s %5s  %s\n" program N fmt step wall cpu MB wall cpu MB wall cpu mem output
for r in "${rows[@]}"; do echo "$r"; done
