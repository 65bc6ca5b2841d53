#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/raw_show.sh -- `profbridge show --all-functions --counts` against
# `llvm-profdata-19 show --all-functions --counts` on the same large real raw
# profile (bench/big_raw.sh: >= 100k functions, raw v10, made by clang-19;
# built once and cached). Target: our time <= 1.0x llvm-profdata's.
# Not part of the test run.
#
# Builds a Release profbridge in build-bench-raw/. The machine is shared, so
# each program runs --repeat times (default 3), interleaved; the table keeps
# the fastest wall and CPU time and the largest peak memory of each. Both
# outputs go to files and must be byte-identical (cmp), or the run fails.
# Usage: bench/raw_show.sh [--repeat N] [--functions N]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
repeat=3
functions=100000
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift 2 ;;
    --functions) functions="$2"; shift 2 ;;
    *) echo "usage: bench/raw_show.sh [--repeat N] [--functions N]" >&2; exit 2 ;;
  esac
done
die() { echo "bench: $*" >&2; exit 1; }

[ -x /usr/bin/time ] || die "/usr/bin/time is missing (package 'time')"
command -v llvm-profdata-19 >/dev/null || die "llvm-profdata-19 is missing (scripts/install-deps.sh)"

cmake -S . -B build-bench-raw -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_TESTS=OFF >/dev/null \
  || die "cmake configure failed"
nice cmake --build build-bench-raw -j2 --target profbridge_cli >/dev/null || die "building profbridge failed"
pb="$root/build-bench-raw/profbridge"

dir="$(bash bench/big_raw.sh --functions "$functions")" || die "building the big raw profile failed"
big="$dir/run1.profraw"
size=$(stat -c %s "$big")

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cat "$big" >/dev/null # warm the page cache

declare -A secs kib cpu
# measure NAME CMD...: one run; keeps the best time and the largest peak RSS.
measure() {
  local name="$1"; shift
  /usr/bin/time -f "%e %M %U %S" -o "$tmp/time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" \
    || { cat "$tmp/$name.err" >&2; die "$name failed"; }
  local t m c
  read -r t m c < <(tail -n1 "$tmp/time" | awk '{ print $1, $2, $3 + $4 }')
  echo "bench: $name: $t s wall, $c s cpu, $m KiB" >&2
  if [ -z "${secs[$name]:-}" ] || awk -v a="$t" -v b="${secs[$name]}" 'BEGIN { exit !(a < b) }'; then secs[$name]="$t"; fi
  if [ -z "${cpu[$name]:-}" ] || awk -v a="$c" -v b="${cpu[$name]}" 'BEGIN { exit !(a < b) }'; then cpu[$name]="$c"; fi
  if [ -z "${kib[$name]:-}" ] || [ "$m" -gt "${kib[$name]}" ]; then kib[$name]="$m"; fi
}

for ((r = 1; r <= repeat; r++)); do
  measure llvm llvm-profdata-19 show --all-functions --counts "$big"
  measure ours "$pb" show --all-functions --counts "$big"
done
cmp -s "$tmp/llvm.out" "$tmp/ours.out" || {
  diff "$tmp/llvm.out" "$tmp/ours.out" | head >&2
  die "the two outputs differ"
}

awk -v size="$size" -v big="$big" -v repeat="$repeat" -v lines="$(wc -l <"$tmp/ours.out")" \
    -v ls="${secs[llvm]}" -v lm="${kib[llvm]}" -v lc="${cpu[llvm]}" \
    -v os="${secs[ours]}" -v om="${kib[ours]}" -v oc="${cpu[ours]}" '
function row(label, t, c, m) { printf "%-52s %8.2f %8.2f %9.1f\n", label, t, c, m / 1024 }
BEGIN {
  printf "\ninput: %s (%.1f MB); output %d lines, identical; best of %d runs each\n", big, size / 1e6, lines, repeat
  printf "%-52s %8s %8s %9s\n", "run", "wall (s)", "cpu (s)", "peak (MB)"
  row("llvm-profdata-19 show --all-functions --counts", ls, lc, lm)
  row("profbridge show --all-functions --counts", os, oc, om)
  printf "ratios ours/llvm: wall %.2fx, cpu %.2fx, peak memory %.2fx\n", os / ls, oc / lc, om / lm
  printf "target: time <= 1.0x llvm-profdata-19: %s\n", (os <= ls ? "met" : "MISSED")
}'
