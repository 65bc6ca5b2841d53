#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/iprof.sh -- converts and validates a big synthetic iprof and compares
# wall time and peak memory with the jansson floor (json_load_file +
# json_dump_file, bench/jansson_floor.c). Targets: convert <= 1.3x the
# floor's time and <= 1.5x its peak memory. Not part of the test run.
#
# Builds a Release profbridge in build-bench/, generates the input once into
# bench/cache/ (bench/gen_iprof.py, seeded) and writes outputs to a temporary
# directory. Works from any directory. The machine is shared, so each program
# runs --repeat times (default 3), interleaved; the table keeps the fastest
# time and the largest peak memory of each. CPU time (user + sys) is shown
# too: on a loaded machine it says more than wall time.
# Usage: bench/iprof.sh [--scale F] [--repeat N]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scale=1.0
repeat=3
while [ $# -gt 0 ]; do
  case "$1" in
    --scale) scale="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    *) echo "usage: bench/iprof.sh [--scale F] [--repeat N]" >&2; exit 2 ;;
  esac
done
die() { echo "bench: $*" >&2; exit 1; }

bash scripts/install-deps.sh || die "installing the dependencies failed"
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (package 'time')"

cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_TESTS=OFF >/dev/null \
  || die "cmake configure failed"
cmake --build build-bench -j2 --target profbridge_cli >/dev/null || die "building profbridge failed"
pb="$root/build-bench/profbridge"
# shellcheck disable=SC2046
cc -O2 -o build-bench/jansson_floor bench/jansson_floor.c $(pkg-config --cflags --libs jansson) \
  || die "building the jansson floor failed"

mkdir -p bench/cache
big="bench/cache/big-seed20261122-scale$scale.iprof"
if [ ! -s "$big" ]; then
  echo "bench: generating $big (once; cached)" >&2
  python3 bench/gen_iprof.py "$big.tmp" --scale "$scale" && mv "$big.tmp" "$big"
fi
size=$(stat -c %s "$big")

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Warm the page cache so the first measurement does not pay for the disk.
cat "$big" >/dev/null

# measure NAME CMD...: wall seconds and peak RSS (KiB) of one run.
declare -A secs kib cpu
measure() {
  local name="$1"; shift
  local rc=0
  /usr/bin/time -f "%e %M %U %S" -o "$tmp/time" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
  if [ $rc -ne 0 ] && [ "$name" != validate ]; then
    cat "$tmp/$name.err" >&2
    die "$name failed (exit $rc)"
  fi
  local t m c
  t="$(tail -n1 "$tmp/time" | cut -d' ' -f1)"
  m="$(tail -n1 "$tmp/time" | cut -d' ' -f2)"
  c="$(tail -n1 "$tmp/time" | awk '{ print $3 + $4 }')"
  echo "bench: $name: $t s wall, $c s cpu, $m KiB" >&2
  if [ -z "${secs[$name]:-}" ] || awk -v a="$t" -v b="${secs[$name]}" 'BEGIN { exit !(a < b) }'; then
    secs[$name]="$t"
  fi
  if [ -z "${cpu[$name]:-}" ] || awk -v a="$c" -v b="${cpu[$name]}" 'BEGIN { exit !(a < b) }'; then
    cpu[$name]="$c"
  fi
  if [ -z "${kib[$name]:-}" ] || [ "$m" -gt "${kib[$name]}" ]; then kib[$name]="$m"; fi
}

for ((r = 1; r <= repeat; r++)); do
  measure floor build-bench/jansson_floor "$big" "$tmp/floor.iprof"
  measure convert "$pb" convert "$big" -o "$tmp/out.iprof"
  measure validate "$pb" validate "$big"
done
tail -n1 "$tmp/validate.out" >&2

# awk does the arithmetic (it is in every Debian base system).
awk -v size="$size" -v big="$big" -v repeat="$repeat" \
    -v fs="${secs[floor]}" -v fm="${kib[floor]}" -v fc="${cpu[floor]}" \
    -v cs="${secs[convert]}" -v cm="${kib[convert]}" -v cc="${cpu[convert]}" \
    -v vs="${secs[validate]}" -v vm="${kib[validate]}" -v vc="${cpu[validate]}" '
function row(label, t, c, m) {
  printf "%-42s %8.2f %8.2f %9.1f %9.2fx %8.2fx %8.2fx\n", label, t, c, m / 1024, t / fs, c / fc, m / fm
}
BEGIN {
  printf "\ninput: %s (%.1f MB); fastest of %d runs each\n", big, size / 1e6, repeat
  printf "%-42s %8s %8s %9s %10s %9s %9s\n", "run", "wall (s)", "cpu (s)", "peak (MB)",
    "wall/floor", "cpu/floor", "mem/floor"
  row("jansson floor (load + dump compact)", fs, fc, fm)
  row("profbridge convert big.iprof -o out.iprof", cs, cc, cm)
  row("profbridge validate big.iprof", vs, vc, vm)
  printf "\ntargets: convert time <= 1.3x floor: %s; convert peak memory <= 1.5x floor: %s\n",
    (cs <= 1.3 * fs ? "met" : "MISSED"), (cm <= 1.5 * fm ? "met" : "MISSED")
}'
