#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli_show_llvm_flags.sh -- `profbridge show` accepts llvm-profdata's flag
# spellings (-flag, --flag, --flag=value, -flag=value, --flag value,
# -flag=true/false) and means the same by each: for one real raw file every
# spelling must print exactly what llvm-profdata-19 prints for it.
# Skips when llvm-profdata-19, the shared test data or the raw plugin is absent.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
command -v llvm-profdata-19 >/dev/null || { echo "SKIP: llvm-profdata-19 is not installed"; exit 77; }
: "${PB_SHARED_DIR:=$PB_SOURCE_DIR/../shared}"
f="$(ls "$PB_SHARED_DIR"/testdata/llvm-real/llvm19/*.profraw 2>/dev/null | head -n1 || true)"
[ -n "$f" ] || { echo "SKIP: no llvm19 .profraw under $PB_SHARED_DIR/testdata/llvm-real"; exit 77; }
run "$PB" show "$f"
[ "$rc" -eq 0 ] || { echo "SKIP: profbridge cannot show $f yet: $(head -c 300 "$T/err")"; exit 77; }

compare() { # compare "llvm flags" "our flags"
  local exp got
  # shellcheck disable=SC2086
  exp="$(llvm-profdata-19 show $1 "$f" 2>&1)" || { echo "note: llvm-profdata-19 refused '$1'"; return; }
  # shellcheck disable=SC2086
  got="$("$PB" show $2 "$f" 2>&1)" || true
  if [ "$exp" = "$got" ]; then ok; else
    fail "show $2 differs from llvm-profdata-19 show $1: $(diff <(echo "$exp") <(echo "$got") | head -5)"
  fi
}
compare "--all-functions --counts" "-all-functions -counts"
compare "--all-functions --counts" "--all-functions=true --counts=1"
compare "--counts" "--all-functions=false --counts"
compare "--topn=2" "-topn 2"
compare "--topn=2" "--topn 2"
compare "--topn=2" "-topn=2"
compare "--all-functions --ic-targets --memop-sizes" "-all-functions -ic-targets -memop-sizes"
compare "--detailed-summary --detailed-summary-cutoffs=800000,990000" "-detailed-summary -detailed-summary-cutoffs 800000,990000"
compare "--value-cutoff=10 --list-below-cutoff" "-value-cutoff 10 -list-below-cutoff"
compare "--function=main --counts" "-function main -counts"
compare "--all-functions --text" "-all-functions -text"
compare "--profile-version" "-profile-version"
compare "--binary-ids" "-binary-ids"
compare "--covered" "-covered"
compare "--instr --counts --all-functions" "-instr -counts -all-functions"
finish
