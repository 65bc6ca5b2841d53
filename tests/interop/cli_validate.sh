#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli_validate.sh -- `profbridge validate`: every problem reported (not only
# the first), one summary line per file, exit 0 valid / 1 invalid / 2 I/O or
# usage error. Fixtures: the documented fib example (valid) and a hand-made
# file with three independent problems (testdata/cli/README.md).
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
require_iprof
BAD="$PB_SOURCE_DIR/testdata/cli/three-problems.iprof"

run "$PB" validate "$FIB"; expect_rc 0 "validate fib-doc.iprof"
expect_grep "$T/out" "fib-doc.iprof: valid$" "valid summary line"

run "$PB" validate "$BAD"; expect_rc 1 "validate three-problems.iprof"
expect_grep "$T/out" "three-problems.iprof: 3 problems$" "all three problems are counted"
for section in callCountProfiles conditionalProfiles virtualInvokeProfiles; do
  expect_grep "$T/out" "^[^ ]*three-problems.iprof.*$section" "a problem line names $section"
done
n="$(grep -c 'three-problems.iprof:' "$T/out" || true)"
[ "$n" -eq 4 ] && ok || fail "expected 3 problem lines + 1 summary, found $n lines naming the file"

# Several inputs: the worst status wins, every file gets its summary.
run "$PB" validate "$FIB" "$BAD"; expect_rc 1 "valid + invalid"
expect_grep "$T/out" "fib-doc.iprof: valid$" "summary of the valid file"
expect_grep "$T/out" "three-problems.iprof: 3 problems$" "summary of the invalid file"
run "$PB" validate "$FIB" "$T/does-not-exist.iprof"; expect_rc 2 "valid + missing file"
expect_grep "$T/err" "does-not-exist.iprof" "the missing file is named"

# A truncated profile is invalid (1), not an I/O error.
head -c 1000 "$FIB" >"$T/truncated.iprof"
run "$PB" validate "$T/truncated.iprof"; expect_rc 1 "truncated file"
expect_grep "$T/out" "truncated.iprof: [1-9][0-9]* problems?$" "truncated file summary"

# Not a profile at all: invalid, with a message saying so.
printf 'hello, world\n' >"$T/hello.txt"
run "$PB" validate "$T/hello.txt"; expect_rc 1 "not a profile"
expect_grep "$T/out" "hello.txt" "the unrecognised file is named"

# Standard input.
run sh -c "\"$PB\" validate - < \"$FIB\""; expect_rc 0 "validate - (stdin)"
expect_grep "$T/out" "<stdin>: valid$" "stdin summary line"

# Usage errors.
run "$PB" validate; expect_rc 2 "no input"
run "$PB" validate --from nosuch "$FIB"; expect_rc 2 "unknown --from"

finish
