#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# raw_show_llvm19.sh -- `profbridge show FLAGS f` must print byte for byte what
# `llvm-profdata-19 show FLAGS f` prints, for every raw file llvm-profdata-19
# reads in ../shared/testdata (llvm-real/llvm19, synthetic v10, profparser v10)
# and 17 flag sets. The oracle is the installed llvm-profdata-19, run now.
set -u
command -v llvm-profdata-19 >/dev/null || { echo "SKIP: llvm-profdata-19 is not installed"; exit 77; }
"$PB" show --help 2>&1 | grep -q -- '--all-functions' || { echo "SKIP: this CLI has no 'show' command yet"; exit 77; }
T="$PB_SHARED_DIR/testdata"
[ -d "$T/llvm-real/llvm19" ] || { echo "SKIP: $T/llvm-real is absent"; exit 77; }

FLAGSETS=(
  ""
  "--all-functions --counts"
  "--all-functions --counts --ic-targets --memop-sizes --show-vtables"
  "--all-functions --text"
  "--all-functions --counts --ic-targets --memop-sizes --show-vtables --text"
  "--detailed-summary"
  "--detailed-summary --detailed-summary-cutoffs=800000,901000,999999"
  "--binary-ids"
  "--profile-version"
  "--topn=3"
  "--topn=1 --value-cutoff=5"
  "--value-cutoff=20 --list-below-cutoff"
  "--covered"
  "--temporal-profile-traces"
  "--showcs --all-functions --counts"
  "--function=ma --counts --ic-targets"
  "--all-functions --counts --showcs --text"
)
files=("$T"/llvm-real/llvm19/*.profraw "$T"/llvm-real/synthetic/syn-v10-*.profraw \
       "$T"/llvm-profparser/tests/data/profdata/llvm-19/*.profraw)
n=0; fail=0; refused=0
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  for fl in "${FLAGSETS[@]}"; do
    # shellcheck disable=SC2086
    exp=$(llvm-profdata-19 show $fl "$f" 2>&1) || { refused=$((refused + 1)); continue; }
    # shellcheck disable=SC2086
    got=$("$PB" show $fl "$f" 2>&1)
    n=$((n + 1))
    if [ "$exp" != "$got" ]; then
      fail=$((fail + 1))
      echo "DIFF: show $fl $f"
      diff <(echo "$exp") <(echo "$got") | head -10
    fi
  done
done
echo "raw_show_llvm19: $((n - fail)) of $n outputs identical ($refused combinations llvm-profdata-19 refused, not compared)"
[ "$n" -gt 100 ] || { echo "too few comparisons"; exit 1; }
[ "$fail" -eq 0 ]
