#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# hostile_table.sh -- issue 12's closing table: truncations and byte/bit flips
# of real files of every format through every command, counted per format
# and command (tests/tools/hostile_table.py does the work). Not run by ctest:
# it is a measurement that runs for as long as it is given.
#
# Usage: tests/tools/hostile_table.sh BUILD_DIR [SECONDS] [SEED]   (default 600 s)
#   BUILD_DIR: preferably an ASan+UBSan build (-DPB_SANITIZE=ON), whose
#   reports count as crashes. Runs at nice 19, one process at a time.
# Prints a Markdown table; exits 1 when a run crashed, hung or lost its input.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:?usage: hostile_table.sh BUILD_DIR [SECONDS] [SEED]}" && pwd)"
secs="${2:-600}"
seed="${3:-12}"
shared="${PB_SHARED_DIR:-$root/../shared}"
[ -x "$build/profbridge" ] || { echo "hostile_table: $build/profbridge is missing" >&2; exit 2; }
[ -d "$shared/testdata/llvm-real/llvm19" ] || { echo "hostile_table: $shared/testdata/llvm-real/llvm19 is missing" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# ASan: a report is a crash, not an abort with a core dump; leaks count too
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
exec nice -n 19 python3 "$root/tests/tools/hostile_table.py" "$build/profbridge" "$root" "$shared" "$work" "$secs" "$seed"
