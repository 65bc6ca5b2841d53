#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# difffuzz.sh -- the differential fuzzer of tests/difffuzz (issue 22) as one
# test: every stored reduced case replayed (tests/difffuzz/cases), then a
# fixed-seed run of random command lines drawn from each installed
# release's --help-hidden, each through the real llvm-profdata-N and the
# llvm-profdata-N link side by side. Any difference the docs do not state
# fails it. The corpus is built once per compiler set and cached
# (/var/cache/profbridge-difffuzz as root, else build/difffuzz-corpus).
# A fresh-seed campaign: tests/difffuzz/difffuzz.py campaign --time SEC.
# About 1 minute on 2 cores with the ASan build (corpus cached; building
# it once takes about 30 s); PB_DIFFFUZZ_COUNT changes the 300 command lines.
set -uo pipefail
. "$PB_SOURCE_DIR/tests/interop/lib/cli-common.bash"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"

releases="$(pb_llvm_releases clang)"
[ -n "$releases" ] || { echo "SKIP: no llvm-profdata-N with its clang-N on PATH"; exit 77; }
fz=(/usr/bin/python3 "$PB_SOURCE_DIR/tests/difffuzz/difffuzz.py")
corpus=()
[ "$(id -u)" = 0 ] || corpus=(--corpus "${PB_BINARY_DIR:-$T}/difffuzz-corpus")
if ! "${fz[@]}" corpus "${corpus[@]}" >"$T/corpus.log" 2>&1; then
  fail "the corpus could not be built: $(tail -5 "$T/corpus.log")"
  finish; exit
fi
if "${fz[@]}" replay --pb "$PB" "${corpus[@]}" >"$T/replay.log" 2>&1; then ok
else fail "stored cases: $(grep -A4 '^FAIL' "$T/replay.log" | head -c 3000)"; fi
tail -1 "$T/replay.log"
if "${fz[@]}" run --seed 1 --count "${PB_DIFFFUZZ_COUNT:-300}" --pb "$PB" "${corpus[@]}" >"$T/run.log" 2>&1; then ok
else fail "fixed-seed run: $(grep -A4 '^FINDING' "$T/run.log" | head -c 3000)"; fi
tail -1 "$T/run.log"
finish
