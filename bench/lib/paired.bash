# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/lib/paired.bash -- what the paired benchmarks (bench/shapes.sh,
# bench/cov.sh) share: a release build of profbridge, timed runs under
# /usr/bin/time, medians and the ratio columns of their tables.
# Sourced; the caller sets `root` (the checkout) and has cd'ed there.

die() { echo "bench: $*" >&2; exit 1; }
[ -x /usr/bin/time ] || die "/usr/bin/time is missing (package 'time')"

# bench_profbridge BUILD_DIR: prints the profbridge to time: $PB when set
# (another build, e.g. of a newer checkout), else a Release build in
# BUILD_DIR (made quietly, niced: the machine may be shared).
bench_profbridge() {
  if [ -n "${PB:-}" ]; then
    echo "$PB"
    return
  fi
  cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_TESTS=OFF >/dev/null || die "cmake configure failed"
  nice cmake --build "$1" -j2 --target profbridge_cli >/dev/null || die "building profbridge failed"
  echo "$root/$1/profbridge"
}

bench_tmp="$(mktemp -d)"
trap 'rm -rf "$bench_tmp"' EXIT

# bench_run NAME OUT CMD...: one timed run, its stdout to OUT; appends
# "wall kib cpu" (cpu = user + sys) to $bench_tmp/NAME.times, or "fail"
# when the command fails (its stderr kept in $bench_tmp/NAME.err).
bench_run() {
  local name="$1" out="$2"; shift 2
  if /usr/bin/time -f "%e %M %U %S" -o "$bench_tmp/time" "$@" >"$out" 2>"$bench_tmp/$name.err"; then
    tail -n1 "$bench_tmp/time" | awk '{ print $1, $2, $3 + $4 }' >> "$bench_tmp/$name.times"
  else
    echo fail >> "$bench_tmp/$name.times"
  fi
}

# bench_median NAME FIELD: median of column FIELD (1 wall, 2 KiB, 3 cpu) of
# NAME's runs; "-" when none succeeded.
bench_median() {
  awk -v f="$2" '$1 != "fail" { print $f }' "$bench_tmp/$1.times" | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# bench_paired THEIRS OURS REPEAT THEIR_OUT OUR_OUT THEIR_CMD OUR_CMD: REPEAT
# alternating runs (theirs first on odd rounds, ours first on even ones:
# pairing keeps the ratios meaningful while the machine's load drifts).
# Each *_CMD is one string run by bash -c.
bench_paired() {
  local theirs="$1" ours="$2" repeat="$3" tout="$4" oout="$5" tcmd="$6" ocmd="$7" r
  for ((r = 1; r <= repeat; r++)); do
    if [ $((r % 2)) -eq 1 ]; then
      bench_run "$theirs" "$tout" bash -c "$tcmd"; bench_run "$ours" "$oout" bash -c "$ocmd"
    else
      bench_run "$ours" "$oout" bash -c "$ocmd"; bench_run "$theirs" "$tout" bash -c "$tcmd"
    fi
  done
}

# bench_verdict THEIRS OURS THEIR_FILE OUR_FILE: "identical", or what failed
# or differed (not fatal: a benchmark reports, the tests judge). With
# $BENCH_ROWS set (bench/run.sh) the pair's row is also recorded there.
bench_verdict() {
  local v
  if grep -q fail "$bench_tmp/$2.times"; then
    v="ours FAILED: $(head -c 160 "$bench_tmp/$2.err" | tr '\n' ' ')"
  elif grep -q fail "$bench_tmp/$1.times"; then
    v="llvm FAILED: $(head -c 160 "$bench_tmp/$1.err" | tr '\n' ' ')"
  elif ! cmp -s "$3" "$4"; then
    v="DIFFERENT bytes"
  else
    v=identical
  fi
  bench_record "$1" "$2" "$v"
  echo "$v"
}

# bench_record THEIRS OURS VERDICT: with $BENCH_ROWS set, appends one
# tab-separated row for bench/run.sh's table: $BENCH_SECTION, the pair's
# name (OURS without its "pb-"), the ratios ours/theirs of the median wall,
# CPU and peak RSS, the verdict. Nothing without $BENCH_ROWS.
bench_record() {
  [ -n "${BENCH_ROWS:-}" ] || return 0
  awk -v sec="${BENCH_SECTION:-bench}" -v name="${2#pb-}" -v verdict="$3" \
      -v lt="$(bench_median "$1" 1)" -v lm="$(bench_median "$1" 2)" -v lc="$(bench_median "$1" 3)" \
      -v pt="$(bench_median "$2" 1)" -v pm="$(bench_median "$2" 2)" -v pc="$(bench_median "$2" 3)" '
    function ratio(a, b) { return (a == "-" || b == "-" || b == 0) ? "-" : sprintf("%.2f", a / b) }
    BEGIN { printf "%s\t%s\t%s\t%s\t%s\t%s\n", sec, name, ratio(pt, lt), ratio(pc, lc), ratio(pm, lm), verdict }' \
    >> "$BENCH_ROWS"
}

# bench_columns THEIRS OURS: "lt lc lm pt pc pm rt rc rm": the medians (wall
# s, cpu s, MB) of both and the ratios ours/theirs, formatted for a table.
bench_columns() {
  awk -v lt="$(bench_median "$1" 1)" -v lm="$(bench_median "$1" 2)" -v lc="$(bench_median "$1" 3)" \
      -v pt="$(bench_median "$2" 1)" -v pm="$(bench_median "$2" 2)" -v pc="$(bench_median "$2" 3)" '
    function ratio(a, b) { return (a == "-" || b == "-" || b == 0) ? "-" : sprintf("%.2f", a / b) }
    function two(a) { return a == "-" ? a : sprintf("%.2f", a) }
    function mb(a) { return a == "-" ? a : sprintf("%.1f", a / 1024) }
    BEGIN { printf "%6s %6s %7s | %6s %6s %7s | %5s %5s %5s", two(lt), two(lc), mb(lm), two(pt), two(pc), mb(pm),
                   ratio(pt, lt), ratio(pc, lc), ratio(pm, lm) }'
}
