#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# fuzz-run.sh -- runs every libFuzzer target (tests/fuzz/*_fuzz.c) for a short,
# bounded time, so fuzzing keeps running with every test run (issue 12).
#
# Usage: scripts/fuzz-run.sh BUILD_DIR [SECONDS_PER_TARGET]   (default 25)
#   BUILD_DIR is configured with -DPB_FUZZ=ON -DPB_SANITIZE=ON
#   -DCMAKE_C_COMPILER=clang-19 (scripts/run-tests.sh does it: build-fuzz).
#
# Corpus policy (tests/fuzz/README.md):
#   - tests/fuzz/<name>/ is the committed corpus: seeds and minimized
#     regressions, replayed by the unit tests. This script only reads it.
#   - BUILD_DIR/fuzz-corpus/<name>/ collects what runs find (new coverage);
#     the next run starts from it and the committed corpus. It is never
#     committed automatically: a find worth keeping is minimized and copied
#     into tests/fuzz/<name>/ by hand, with the fix it caught.
#   - A crash, leak, timeout (-timeout, 10 s per input) or an input that needs
#     more than -rss_limit_mb fails the run; the input is kept in
#     BUILD_DIR/fuzz-artifacts/<name>/ and named in the message.
# Two targets run at a time (PB_FUZZ_JOBS, default 2), each for its full time.
# Prints one line per target: seconds, executions, coverage.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:?usage: fuzz-run.sh BUILD_DIR [SECONDS_PER_TARGET]}"
secs="${2:-25}"
shopt -s nullglob
targets=()
# every target, the format plugins' too (tests/fuzz/<name>_fuzz.c)
for src in "$root"/tests/fuzz/*_fuzz.c; do
  name="$(basename "$src" _fuzz.c)"
  targets+=("$name")
done
[ ${#targets[@]} -gt 0 ] || { echo "fuzz-run: no tests/fuzz/*_fuzz.c" >&2; exit 1; }
# one NAME: fuzzes target NAME; prints its line (on stderr when it failed)
# and leaves its status in $build/fuzz-NAME.rc
one() {
  local name="$1" bin corpus art seeds=() dict=() log rc execs cov d
  bin="$build/fuzz_$name"
  if [ ! -x "$bin" ]; then
    echo "fuzz-run: $bin is missing (build with -DPB_FUZZ=ON)" >&2; echo 1 >"$build/fuzz-$name.rc"; return
  fi
  corpus="$build/fuzz-corpus/$name"
  art="$build/fuzz-artifacts/$name"
  mkdir -p "$corpus" "$art"
  [ -d "$root/tests/fuzz/$name" ] && seeds+=("$root/tests/fuzz/$name")
  # the read-back targets, the report writers and show read every format: all corpora are their seeds
  if [[ "$name" == *_readback || "$name" == report || "$name" == show ]]; then
    for d in "$root"/tests/fuzz/*/; do seeds+=("${d%/}"); done
  fi
  [ -f "$root/tests/fuzz/$name.dict" ] && dict+=("-dict=$root/tests/fuzz/$name.dict")
  log="$build/fuzz-$name.log"
  set +e
  # the hard timeout is a guard against a hang of libFuzzer itself
  timeout $((secs + 120)) "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$art/" "${dict[@]}" "$corpus" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  set -e
  echo "$rc" >"$build/fuzz-$name.rc"
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  cov="$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)"
  if [ "$rc" -ne 0 ]; then
    echo "fuzz-run: fuzz_$name FAILED (exit $rc) after ${execs:-?} executions; input: $(ls -t "$art" | head -n 1)" >&2
    grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$log" | head -n 20 >&2 || true
  else
    echo "fuzz-run: fuzz_$name ${secs}s, ${execs:-?} executions, coverage ${cov:-?} edges, $(ls "$corpus" | wc -l) inputs found so far in $corpus"
  fi
}

# Two targets at a time (PB_FUZZ_JOBS): each libFuzzer process uses one core,
# and CI has two; each target still gets its SECONDS.
jobs_max="${PB_FUZZ_JOBS:-2}"
running=0
for name in "${targets[@]}"; do
  rm -f "$build/fuzz-$name.rc"
  one "$name" >"$build/fuzz-$name.out" 2>&1 &
  running=$((running + 1))
  if [ "$running" -ge "$jobs_max" ]; then wait -n || true; running=$((running - 1)); fi
done
wait || true
failed=0
for name in "${targets[@]}"; do
  cat "$build/fuzz-$name.out"
  [ "$(cat "$build/fuzz-$name.rc" 2>/dev/null)" = 0 ] || failed=1
done
exit $failed
