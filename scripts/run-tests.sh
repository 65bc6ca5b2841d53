#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# run-tests.sh -- the whole test run (what CI runs through .ci/run):
#   1. installs missing dependencies (scripts/install-deps.sh) and, in the
#      background while build-asan builds, the LLVM tools and clangs of the
#      releases bookworm lacks (17 18 21 22 23 24: scripts/fetch-llvm.sh;
#      as root into /opt/profbridge-llvm, else into build-llvm + PATH), and
#      after them the coverage corpus of cov_llvm.sh (scripts/build-cov-corpus.sh:
#      C, C++, zlib, Rust programs built by every clang-N, cached by its key);
#   2. gcc build with ASan+UBSan and -Werror in build-asan, then ctest -j2:
#      the CUnit suites, tests/interop/*.sh (CLI, interop with llvm-profdata)
#      and tests/interop/install.sh (install into a temporary prefix, build
#      consumers through pkg-config and find_package);
#   3. clang-19 build with -Werror in build-clang and an optimised gcc build
#      with -Werror in build-gcc-release (warnings checks only: gcc reports
#      some maybe-uninitialized cases only when optimising); the release
#      build also runs the allocation-failure sweep (scripts/alloc-sweep.sh:
#      a few commands with their N-th allocation failing, for N over their
#      whole range, at most 50 values each: about 1,400 runs, tens of ms of
#      page faults per process start on the CI's machines; in the background
#      beside step 4, its log printed when it ends);
#   4. clang-19 libFuzzer build with ASan+UBSan in build-fuzz, then every fuzz
#      target for PB_FUZZ_SECONDS (default 15) seconds on the committed corpus
#      plus what earlier runs found (scripts/fuzz-run.sh, tests/fuzz/README.md);
#      a crash fails the run. PB_FUZZ_SECONDS=0 skips the step.
# Works from any directory. Stops at the first failure, saying which step.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
step=""
trap 'rc=$?; if [ $rc -ne 0 ]; then echo "run-tests: FAILED at step: $step (exit $rc)" >&2; fi' EXIT
# each step with the clock and the seconds since the start: the CI's log
# then says where its time went
say() { step="$*"; echo; echo "== run-tests: $* ($(date -u +%H:%M:%S), ${SECONDS} s in)"; }

say "installing missing dependencies"
bash scripts/install-deps.sh
say "fetching the LLVM tools of 17 18 21 22 23 24 from Debian (background)"
llvm_releases=(17 18 21 22 23 24)
if [ "$(id -u)" -eq 0 ]; then
  llvm_prefix=/opt/profbridge-llvm
else
  llvm_prefix="$root/build-llvm"
  for n in "${llvm_releases[@]}"; do PATH="$llvm_prefix/$n/bin:$PATH"; done
  export PATH
fi
mkdir -p build-asan
fetch_log="$root/build-asan/fetch-llvm.log"
corpus_log="$root/build-asan/cov-corpus.log"
# then, still in the background, the coverage corpus (it needs the clangs just
# fetched): every program built by every clang-N for tests/interop/cov_llvm.sh,
# into build-asan/cov-corpus (cached by its key; as root in /var/cache/profbridge-cov).
# A failure here is reported, not fatal: cov_llvm.sh then says what is missing.
( bash scripts/fetch-llvm.sh --clang --prefix "$llvm_prefix" "${llvm_releases[@]}" >"$fetch_log" 2>&1 || exit $?
  bash scripts/build-cov-corpus.sh "$root/build-asan/cov-corpus" >"$corpus_log" 2>&1 \
    || echo "run-tests: scripts/build-cov-corpus.sh failed (exit $?); cov_llvm.sh will try again" >>"$corpus_log"
) &
fetch_pid=$!
trap 'rc=$?; kill "$fetch_pid" 2>/dev/null || true
      if [ $rc -ne 0 ]; then echo "run-tests: FAILED at step: $step (exit $rc)" >&2; fi' EXIT

say "configuring the gcc ASan+UBSan build (build-asan)"
cmake -S . -B build-asan -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Debug \
  -DPB_SANITIZE=ON -DPB_WERROR=ON >/dev/null
say "building build-asan"
cmake --build build-asan -j2
say "waiting for scripts/fetch-llvm.sh and scripts/build-cov-corpus.sh"
if ! wait "$fetch_pid"; then
  cat "$fetch_log" >&2
  false
fi
cat "$fetch_log" >&2
cat "$corpus_log" >&2 2>/dev/null || true
say "running the tests (ctest in build-asan)"
ctest --test-dir build-asan --output-on-failure -j2

say "configuring the clang-19 warnings build (build-clang)"
cmake -S . -B build-clang -DCMAKE_C_COMPILER=clang-19 -DPB_WERROR=ON >/dev/null
say "building build-clang (warnings are errors)"
cmake --build build-clang -j2

say "configuring the optimised gcc warnings build (build-gcc-release)"
# (the library, the CLI and the tools; the tests' own code is built with
# -Werror by gcc in build-asan and by clang in build-clang)
cmake -S . -B build-gcc-release -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Release -DPB_WERROR=ON \
  -DPB_BUILD_TESTS=OFF >/dev/null
say "building build-gcc-release (warnings are errors)"
cmake --build build-gcc-release -j2
# The sweep starts one process at a time; it runs in the background beside
# the fuzz build and the fuzzers (which run for a fixed time, so they lose
# iterations, not minutes), and its log is printed when it ends.
say "allocation-failure sweep on build-gcc-release (scripts/alloc-sweep.sh; no ASan: it owns malloc; background)"
sweep_log="$root/build-gcc-release/alloc-sweep.log"
bash scripts/alloc-sweep.sh --strict build-gcc-release 50 >"$sweep_log" 2>&1 &
sweep_pid=$!
trap 'rc=$?; kill "$fetch_pid" "$sweep_pid" 2>/dev/null || true
      if [ $rc -ne 0 ]; then echo "run-tests: FAILED at step: $step (exit $rc)" >&2; fi' EXIT

fuzz_seconds="${PB_FUZZ_SECONDS:-15}"
if [ "$fuzz_seconds" != 0 ]; then
  say "configuring the clang-19 libFuzzer build (build-fuzz)"
  cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang-19 -DCMAKE_BUILD_TYPE=Debug -DPB_FUZZ=ON \
    -DPB_SANITIZE=ON -DPB_BUILD_TESTS=OFF >/dev/null
  say "building build-fuzz"
  cmake --build build-fuzz -j2
  say "fuzzing every target for ${fuzz_seconds}s (scripts/fuzz-run.sh)"
  bash scripts/fuzz-run.sh build-fuzz "$fuzz_seconds"
fi
say "waiting for the allocation-failure sweep (scripts/alloc-sweep.sh)"
sweep_rc=0
wait "$sweep_pid" || sweep_rc=$?
cat "$sweep_log"
[ "$sweep_rc" = 0 ] || { echo "run-tests: scripts/alloc-sweep.sh failed (exit $sweep_rc)" >&2; exit "$sweep_rc"; }

step=""
echo
echo "run-tests: all steps passed in ${SECONDS} s"
