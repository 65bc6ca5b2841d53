# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli-common.bash -- helpers for tests/interop/cli_*.sh (sourced, not a test).
# Needs PB (the CLI) and PB_SOURCE_DIR from ctest.
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?PB_SOURCE_DIR must name the source tree (set by ctest)}"

# T, fail, ok, finish and same_as_llvm come from common.bash.
# shellcheck source=common.bash
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"

FIB="$PB_SOURCE_DIR/testdata/samples/fib-doc.iprof"

# run CMD...: runs it with stdout/stderr in $T/out and $T/err, status in $rc.
run() {
  set +e
  "$@" >"$T/out" 2>"$T/err"
  rc=$?
  set -e
}

# expect_rc N what: checks the last run's status.
expect_rc() {
  if [ "$rc" -ne "$1" ]; then
    fail "$2: exit status $rc, expected $1; stderr: $(head -c 600 "$T/err")"
  else ok; fi
}

# expect_grep FILE REGEX what
expect_grep() {
  if grep -qE -- "$2" "$1"; then ok; else fail "$3: no line matching '$2' in $(basename "$1"): $(head -c 600 "$1")"; fi
}

# Skips the whole script (exit 77) when no built-in plugin reads iprof yet.
require_iprof() {
  run "$PB" validate "$FIB"
  if grep -qE "recognises|unknown format" "$T/out" "$T/err"; then
    echo "SKIP: profbridge cannot read iprof yet (the iprof plugin is not built in): $(head -c 300 "$T/out" "$T/err")"
    exit 77
  fi
}
