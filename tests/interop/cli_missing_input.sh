#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli_missing_input.sh -- one exit status for an input that does not exist,
# in every command: 2 (README: "2 usage or I/O error"), merge included
# (positional, --weighted-input, an -f list and an entry of it, -r), which
# exited 1 before issue 21. Under the llvm-profdata-N personality merge
# keeps llvm-profdata's 1 (checked against the real tool when it is at hand).
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
require_iprof

M="$T/missing.profraw"
for cmd in "convert $M -o $T/o.profdata" "merge $M -o $T/o.profdata" "show $M" "dump $M" "validate $M" \
           "overlap $M $FIB" "diff $M $FIB" "types $M" "flame $M -o $T/o.folded" "order $M"; do
  # shellcheck disable=SC2086
  run "$PB" $cmd; expect_rc 2 "profbridge $cmd"
  expect_grep "$T/err" "No such file or directory" "profbridge $cmd says why"
done
run "$PB" merge --weighted-input="2,$M" -o "$T/o.profdata"; expect_rc 2 "merge --weighted-input 2,MISSING"
run "$PB" merge -f "$M" -o "$T/o.profdata"; expect_rc 2 "merge -f MISSING"
printf '%s\n' "$M" >"$T/list.txt"
run "$PB" merge -f "$T/list.txt" -o "$T/o.profdata"; expect_rc 2 "merge -f LIST naming a missing file"
run "$PB" merge -r "$M" "$FIB" -o "$T/o.profdata"; expect_rc 2 "merge -r MISSING"
[ ! -e "$T/o.profdata" ] && ok || fail "a failed merge wrote its output"

# the personality keeps llvm-profdata's status (1), as the real tool exits
ln -s "$PB" "$T/llvm-profdata-19"
run "$T/llvm-profdata-19" merge "$M" -o "$T/o.profdata"; expect_rc 1 "llvm-profdata-19 (profbridge) merge MISSING"
if command -v llvm-profdata-19 >/dev/null; then
  run llvm-profdata-19 merge "$M" -o "$T/o.profdata"; expect_rc 1 "the real llvm-profdata-19 merge MISSING"
fi
finish
