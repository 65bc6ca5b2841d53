#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli_help.sh -- global and per-subcommand --help/--version, and that usage
# mistakes (unknown options, commands, missing arguments) exit 2 with a message.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"

run "$PB" --help; expect_rc 0 "profbridge --help"
for c in convert show validate dump; do expect_grep "$T/out" "^  $c " "--help lists '$c'"; done
expect_grep "$T/out" "Exit status" "--help documents the exit status"
run "$PB" -h; expect_rc 0 "profbridge -h"
run "$PB" --version; expect_rc 0 "profbridge --version"
expect_grep "$T/out" '^profbridge [0-9]+\.[0-9]+\.[0-9]+' "--version prints the version"

# Each subcommand's --help exits 0 on stdout and mentions its own options.
declare -A opts=(
  [convert]="--output --to --from --lenient"
  [show]="--topn --llvm --all-functions --counts --function --ic-targets --memop-sizes --show-vtables --detailed-summary --detailed-summary-cutoffs --value-cutoff --list-below-cutoff --showcs --covered --binary-ids --temporal-profile-traces --profile-version --text --json"
  [validate]="--from"
  [dump]="--json --from"
)
for c in convert show validate dump; do
  run "$PB" "$c" --help; expect_rc 0 "$c --help"
  expect_grep "$T/out" "^Usage: profbridge $c" "$c --help shows its usage"
  for o in ${opts[$c]}; do expect_grep "$T/out" "(^|[ ,])$o( |$)" "$c --help mentions $o"; done
  run "$PB" help "$c"; expect_rc 0 "profbridge help $c"
  expect_grep "$T/out" "^Usage: profbridge $c" "help $c = $c --help"
done

# Usage errors: exit 2 and a message on stderr naming the problem.
run "$PB"; expect_rc 2 "no command"
run "$PB" frobnicate; expect_rc 2 "unknown command"
expect_grep "$T/err" "unknown command 'frobnicate'" "unknown command message"
run "$PB" --bogus; expect_rc 2 "unknown global option"
expect_grep "$T/err" "unknown option '--bogus'" "unknown global option message"
for c in convert show validate dump; do
  run "$PB" "$c" --no-such-option "$FIB"; expect_rc 2 "$c with an unknown option"
  expect_grep "$T/err" "(unknown|unrecognized) option '--no-such-option'" "$c names the unknown option"
  expect_grep "$T/err" "profbridge $c --help" "$c points to --help"
done
run "$PB" convert "$FIB"; expect_rc 2 "convert without -o"
expect_grep "$T/err" "missing -o" "convert says -o is missing"
run "$PB" convert -o "$T/x.iprof"; expect_rc 2 "convert without input"
run "$PB" validate; expect_rc 2 "validate without input"
run "$PB" show; expect_rc 2 "show without input"
run "$PB" dump; expect_rc 2 "dump without input"
run "$PB" convert "$FIB" -o "$T/x.iprof" --to nosuchformat; expect_rc 2 "convert --to unknown format"
expect_grep "$T/err" "unknown format 'nosuchformat'" "--to names the unknown format"
run "$PB" validate --from nosuchformat "$FIB"; expect_rc 2 "validate --from unknown format"

# show's llvm-profdata flags: values are checked whatever the spelling.
for spelling in "--topn=x" "-topn=x" "--topn x" "-topn x"; do
  # shellcheck disable=SC2086
  run "$PB" show $spelling "$FIB"; expect_rc 2 "show $spelling"
  expect_grep "$T/err" "needs a number" "show $spelling rejects a non-number"
done
run "$PB" show --value-cutoff=-3 "$FIB"; expect_rc 2 "show --value-cutoff=-3"
run "$PB" show -counts=maybe "$FIB"; expect_rc 2 "show -counts=maybe"
expect_grep "$T/err" "not a boolean" "show rejects a non-boolean flag value"

finish
