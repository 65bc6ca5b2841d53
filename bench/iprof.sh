#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/iprof.sh -- issue 25 item 3: `convert` iprof -> iprof, iprof -> indexed
# and indexed -> iprof of a big synthetic iprof, compact and pretty-printed,
# against the jansson floor (json_load_file + json_dump_file of the same
# file, bench/jansson_floor.c), plus `validate`. Target: every convert at
# <= 1.0x the floor's time and peak memory. Not part of the test run.
#
# Builds a Release profbridge in build-bench/, generates the inputs once into
# bench/cache/ (bench/gen_iprof.py, seeded) and writes outputs to a temporary
# directory. Works from any directory. The machine may be shared: each
# repeat runs the floor and then every command on the same input, and a row
# gives the median of the per-repeat ratios (paired), the median wall and
# CPU (user + sys) seconds and the largest peak memory.
#
# Output: a header line, then one line per row, whitespace-separated fields:
#   iprof <scale> <compact|pretty> <run> <wall s> <cpu s> <peak MB> <wall/floor> <cpu/floor> <mem/floor> <same>
# run: floor, ii (iprof -> iprof), ix (iprof -> indexed), xi (that indexed ->
# iprof), validate. same: "yes" when the run's output is byte-identical to
# ii's (xi: the round trip through indexed loses nothing), "-" when it has no
# such comparison. Progress goes to stderr.
# Usage: bench/iprof.sh [--scale F] [--repeat N] [--only compact|pretty]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scale=1.0
repeat=3
variants="compact pretty"
while [ $# -gt 0 ]; do
  case "$1" in
    --scale) scale="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --only) variants="$2"; shift 2 ;;
    *) echo "usage: bench/iprof.sh [--scale F] [--repeat N] [--only compact|pretty]" >&2; exit 2 ;;
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

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p bench/cache

# measure NAME CMD...: appends "wall cpu KiB" of one run to $tmp/NAME.t.
measure() {
  local name="$1"; shift
  local rc=0
  /usr/bin/time -f "%e %M %U %S" -o "$tmp/time" "$@" >"$tmp/$name.log" 2>&1 || rc=$?
  if [ $rc -ne 0 ] && [ "$name" != validate ]; then
    cat "$tmp/$name.log" >&2
    die "$name failed (exit $rc)"
  fi
  tail -n1 "$tmp/time" | awk '{ print $1, $3 + $4, $2 }' >>"$tmp/$name.t"
  echo "bench: $variant $name: $(tail -n1 "$tmp/$name.t") (wall s, cpu s, KiB)" >&2
}

printf '%-5s %-5s %-7s %-8s %8s %8s %9s %10s %9s %9s %4s\n' "#" scale input run "wall(s)" \
  "cpu(s)" "peak(MB)" "wall/floor" "cpu/floor" "mem/floor" same
for variant in $variants; do
  in="bench/cache/big-seed20261122-scale$scale-$variant.iprof"
  if [ ! -s "$in" ]; then
    echo "bench: generating $in (once; cached)" >&2
    flag=""
    [ "$variant" = pretty ] && flag="--pretty"
    # shellcheck disable=SC2086
    python3 bench/gen_iprof.py "$in.tmp" --scale "$scale" $flag && mv "$in.tmp" "$in"
  fi
  cat "$in" >/dev/null # warm the page cache
  rm -f "$tmp"/*.t
  for ((r = 1; r <= repeat; r++)); do
    measure floor build-bench/jansson_floor "$in" "$tmp/floor.json"
    measure ii "$pb" convert -q "$in" -o "$tmp/ii.iprof"
    measure ix "$pb" convert -q "$in" -o "$tmp/ix.profdata"
    measure xi "$pb" convert -q "$tmp/ix.profdata" -o "$tmp/xi.iprof"
    measure validate "$pb" validate "$in"
  done
  same_xi=no
  cmp -s "$tmp/ii.iprof" "$tmp/xi.iprof" && same_xi=yes
  for run in floor ii ix xi validate; do
    same="-"
    [ "$run" = xi ] && same="$same_xi"
    # paired: line k of each file is repeat k
    paste -d' ' "$tmp/floor.t" "$tmp/$run.t" | awk -v scale="$scale" -v input="$variant" \
        -v run="$run" -v same="$same" '
      function median(a, n,   i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
      }
      { n++; w[n] = $4; c[n] = $5; if ($6 > m) m = $6
        rw[n] = $4 / ($1 > 0 ? $1 : 0.01); rc[n] = $5 / ($2 > 0 ? $2 : 0.01); rm[n] = $6 / $3 }
      END {
        printf "iprof %-5s %-7s %-8s %8.2f %8.2f %9.1f %9.2fx %8.2fx %8.2fx %4s\n", scale, input, run,
          median(w, n), median(c, n), m / 1024, median(rw, n), median(rc, n), median(rm, n), same
      }'
  done
done
echo "# target (issue 25 item 3): ii, ix and xi at <= 1.00x the floor in time and memory" 
