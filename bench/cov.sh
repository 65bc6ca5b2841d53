#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/cov.sh -- `profbridge cov export` against `llvm-cov-N export` (N = 19
# and 23 by default) on a generated 100k-function C program
# (bench/gen_big_c.py, shape plain) built once per N with clang-N -O0
# -fprofile-instr-generate -fcoverage-mapping and run once (cached in
# bench/cache/cov-clang<N>-<functions>), and on the real programs of the
# coverage corpus when it is built (scripts/build-cov-corpus.sh; $COV_CORPUS).
#
# Three pairs per program and release, JSON and lcov each:
#   export        llvm-cov-N export -instr-profile=P.profdata BIN
#              vs profbridge cov export --llvm-version N -instr-profile=P.profdata BIN
#   raw           llvm-profdata-N merge RAW -o P.profdata && llvm-cov-N export ... P.profdata
#                 (what a user of llvm-cov must run)
#              vs profbridge cov export --llvm-version N -instr-profile=RAW BIN
# Paired, alternating runs (--repeat, default 5); the table shows the median
# wall time, CPU time (user + sys) and peak RSS (/usr/bin/time) of each, the
# ratios ours/theirs, and whether the outputs are byte-identical. Builds a
# Release profbridge in build-bench-cov/ (or runs $PB when set). Not part of
# the test run.
# Usage: bench/cov.sh [--repeat N] [--functions N] [--llvm "19 23"]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
repeat=5
functions=100000
releases="19 23"
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift 2 ;;
    --functions) functions="$2"; shift 2 ;;
    --llvm) releases="$2"; shift 2 ;;
    *) echo "usage: bench/cov.sh [--repeat N] [--functions N] [--llvm \"19 23\"]" >&2; exit 2 ;;
  esac
done
die() { echo "bench: $*" >&2; exit 1; }
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (package 'time')"
for n in $releases; do
  for t in "llvm-profdata-$n" "llvm-cov-$n" "clang-$n"; do
    command -v "$t" >/dev/null || die "$t is missing (scripts/fetch-llvm.sh --clang $n)"
  done
done

if [ -n "${PB:-}" ]; then
  pb="$PB"
else
  cmake -S . -B build-bench-cov -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_TESTS=OFF >/dev/null \
    || die "cmake configure failed"
  nice cmake --build build-bench-cov -j2 --target profbridge_cli >/dev/null || die "building profbridge failed"
  pb="$root/build-bench-cov/profbridge"
fi

# big_program N: builds (once) the generated program with clang-N and
# coverage, runs it, merges its profile; prints the directory.
big_program() {
  local n="$1" dir="$root/bench/cache/cov-clang$1-$functions"
  if [ ! -f "$dir/run.profdata" ]; then
    rm -rf "$dir.tmp"; mkdir -p "$dir.tmp/src" "$dir.tmp/obj"
    python3 bench/gen_big_c.py "$dir.tmp/src" --shape plain --functions "$functions" >&2
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

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# run NAME OUT CMD...: one timed run writing stdout to OUT; appends
# "wall kib cpu" to $tmp/NAME.times, or "fail".
run() {
  local name="$1" out="$2"; shift 2
  if /usr/bin/time -f "%e %M %U %S" -o "$tmp/time" "$@" >"$out" 2>"$tmp/$name.err"; then
    tail -n1 "$tmp/time" | awk '{ print $1, $2, $3 + $4 }' >> "$tmp/$name.times"
  else
    echo fail >> "$tmp/$name.times"
  fi
}
median() {
  awk -v f="$2" '$1 != "fail" { print $f }' "$tmp/$1.times" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

rows=()
# pair KEY LABEL LLVM_SCRIPT PB_SCRIPT: both are shell snippets run by bash -c
# (the raw case is two commands for llvm); their stdout is compared.
pair() {
  local key="$1" label="$2" llvm_sh="$3" pb_sh="$4"
  for ((r = 1; r <= repeat; r++)); do
    if [ $((r % 2)) -eq 1 ]; then
      run "llvm-$key" "$tmp/llvm.out" bash -c "$llvm_sh"; run "pb-$key" "$tmp/pb.out" bash -c "$pb_sh"
    else
      run "pb-$key" "$tmp/pb.out" bash -c "$pb_sh"; run "llvm-$key" "$tmp/llvm.out" bash -c "$llvm_sh"
    fi
  done
  local same=identical
  if grep -q fail "$tmp/pb-$key.times"; then
    same="ours FAILED: $(head -c 160 "$tmp/pb-$key.err" | tr '\n' ' ')"
  elif grep -q fail "$tmp/llvm-$key.times"; then
    same="llvm FAILED: $(head -c 160 "$tmp/llvm-$key.err" | tr '\n' ' ')"
  elif ! cmp -s "$tmp/llvm.out" "$tmp/pb.out"; then
    same="DIFFERENT output"
  fi
  local lt lm lc pt pm pc
  lt="$(median "llvm-$key" 1)"; lm="$(median "llvm-$key" 2)"; lc="$(median "llvm-$key" 3)"
  pt="$(median "pb-$key" 1)"; pm="$(median "pb-$key" 2)"; pc="$(median "pb-$key" 3)"
  rows+=("$(awk -v l="$label" -v lt="$lt" -v lm="$lm" -v lc="$lc" -v pt="$pt" -v pm="$pm" -v pc="$pc" -v same="$same" '
    function ratio(a, b) { return (a == "-" || b == "-" || b == 0) ? "-" : sprintf("%.2f", a / b) }
    function two(a) { return a == "-" ? a : sprintf("%.2f", a) }
    BEGIN { printf "%-34s | %6s %6s %7.1f | %6s %6s %7.1f | %5s %5s %5s  %s",
      l, two(lt), two(lc), lm / 1024, two(pt), two(pc), pm / 1024, ratio(pt, lt), ratio(pc, lc), ratio(pm, lm), same }')")
}

# measure NAME N BIN RAW PROFDATA [OBJECT_ARGS...]
measure() {
  local name="$1" n="$2" bin="$3" raw="$4" pd="$5"; shift 5
  local objs="$*"
  cat "$bin" "$raw" "$pd" >/dev/null
  local fmt flag
  for fmt in json lcov; do
    flag=""; [ "$fmt" = lcov ] && flag="-format=lcov"
    pair "$name-$n-$fmt" "$name $n $fmt export" \
      "exec llvm-cov-$n export $flag -instr-profile='$pd' '$bin' $objs" \
      "exec '$pb' cov export --llvm-version $n $flag -instr-profile='$pd' '$bin' $objs"
    pair "$name-$n-$fmt-raw" "$name $n $fmt from .profraw" \
      "llvm-profdata-$n merge '$raw' -o '$tmp/m.profdata' && exec llvm-cov-$n export $flag -instr-profile='$tmp/m.profdata' '$bin' $objs" \
      "exec '$pb' cov export --llvm-version $n $flag -instr-profile='$raw' '$bin' $objs"
  done
}

echo "bench: load average before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs" >&2
for n in $releases; do
  dir="$(big_program "$n")" || die "building the $functions-function program with clang-$n failed"
  measure "gen$functions" "$n" "$dir/big" "$dir/run.profraw" "$dir/run.profdata"
  echo "bench: generated program, clang-$n: done" >&2
  # Real programs of the coverage corpus (scripts/build-cov-corpus.sh), when built.
  corpus="${COV_CORPUS:-}"
  if [ -n "$corpus" ] && [ -d "$corpus/$n" ]; then
    for meta in "$corpus/$n"/*/bench.args; do
      [ -f "$meta" ] || continue
      pdir="$(dirname "$meta")"
      # bench.args: BIN RAW PROFDATA [-object LIB ...], paths relative to its folder
      read -r b r p rest < "$meta"
      objs=()
      for w in $rest; do case "$w" in -*) objs+=("$w") ;; *) objs+=("$pdir/$w") ;; esac; done
      measure "$(basename "$pdir")" "$n" "$pdir/$b" "$pdir/$r" "$pdir/$p" "${objs[@]}"
    done
  fi
done
echo "bench: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

printf "\ncov export, median of %d paired alternating runs (wall s, cpu s = user + sys, peak RSS MB)\n" "$repeat"
printf "%-34s | %-22s | %-22s | %-17s\n" "" "llvm(-profdata+)-cov-N" "profbridge" "ours/theirs"
printf "%-34s | %6s %6s %7s | %6s %6s %7s | %5s %5s %5s  %s\n" case wall cpu MB wall cpu MB wall cpu mem output
for r in "${rows[@]}"; do echo "$r"; done
