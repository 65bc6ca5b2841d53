#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# overlap_iprof.sh -- `profbridge overlap` on iprof inputs equals `llvm-profdata-19
# overlap` on the .profdata files `profbridge convert` makes of them (the report's
# first line names the inputs, so it is compared with the names swapped). Pairs:
# iprof/iprof, iprof/.profdata and .profdata/iprof, where the second profile is a
# "second run" (data/iprof_second_run.py: counts changed, entries dropped).
# Inputs: testdata/samples/fib-doc.iprof, and the real assorted-benchmarks iprof
# when /work/shared/testdata/iprof-real is there.
set -uo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}"
command -v llvm-profdata-19 >/dev/null || { echo "SKIP: llvm-profdata-19 not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
if ! "$PB" convert "$PB_SOURCE_DIR/testdata/samples/fib-doc.iprof" -o "$T/probe.profdata" 2>"$T/probe.err"; then
  echo "SKIP: profbridge cannot convert iprof here: $(head -c 300 "$T/probe.err")"; exit 77
fi
cd "$T"
checks=0; failures=0
names=(fib)
cp "$PB_SOURCE_DIR/testdata/samples/fib-doc.iprof" fib1.iprof
AB="${PB_SHARED_DIR:-/work/shared}/testdata/iprof-real/assorted-benchmarks_7c5c717_default.v0.4.0.iprof"
if [ -f "$AB" ]; then cp "$AB" ab1.iprof; names+=(ab); else echo "note: $AB absent, only fib-doc is used"; fi
for n in "${names[@]}"; do
  python3 "$PB_SOURCE_DIR/tests/interop/data/iprof_second_run.py" "${n}1.iprof" "${n}2.iprof" 7
  for i in 1 2; do "$PB" convert "$n$i.iprof" -o "$n$i.profdata"; done
done
# compare OPTS -- OURS_A OURS_B LLVM_A LLVM_B
compare() {
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  llvm-profdata-19 overlap "${opts[@]}" "$4" "$5" >llvm.out 2>llvm.err; local lrc=$?
  "$PB" overlap "${opts[@]}" "$2" "$3" >pb.raw 2>pb.err; local prc=$?
  sed "s|^Profile overlap infomation for base_profile: $2 and test_profile: $3\$|Profile overlap infomation for base_profile: $4 and test_profile: $5|" pb.raw >pb.out
  checks=$((checks + 1))
  if [ "$lrc" != "$prc" ] || ! cmp -s llvm.out pb.out; then
    failures=$((failures + 1))
    echo "FAIL: overlap ${opts[*]} $2 $3 vs llvm-profdata-19 on $4 $5 (exit llvm $lrc, ours $prc)"
    diff llvm.out pb.out | head -n 12; head -c 300 pb.err
  fi
}
for o in "" --value-cutoff=0 --function=jbranch; do
  set -- $o
  compare "$@" -- fib1.iprof fib2.iprof fib1.profdata fib2.profdata
  compare "$@" -- fib2.iprof fib1.iprof fib2.profdata fib1.profdata
  compare "$@" -- fib1.iprof fib2.profdata fib1.profdata fib2.profdata
  compare "$@" -- fib2.profdata fib1.iprof fib2.profdata fib1.profdata
done
# The big real file: fewer runs (each reads 4 MB of JSON), the function-level
# report of every record included.
if [ -f ab1.iprof ]; then
  compare --value-cutoff=0 -- ab1.iprof ab2.iprof ab1.profdata ab2.profdata
  compare -- ab2.profdata ab1.iprof ab2.profdata ab1.profdata
fi
echo "overlap_iprof.sh: $checks comparisons, $failures failed"
[ "$failures" -eq 0 ]
