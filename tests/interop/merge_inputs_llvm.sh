#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# merge_inputs_llvm.sh -- merge takes its inputs as llvm-profdata merge does
# (addWeightedInput, parseInputFilenamesFile): directories walked (depth
# first, readdir order: both tools read the same directory, so the order
# compared is real), `-f` lines trimmed of " \t\v\f\r", '#' comments, W,FILE
# and FILE, the last -f counting; --dump-input-file-list prints "W,FILE"
# lines and exits; --instr is accepted; W,~/FILE (LLVM 21+);
# --output-size-limit changes nothing for instrumentation profiles. Compared with llvm-profdata-19 and,
# when installed, llvm-profdata-23: stdout byte for byte, success or failure,
# and the merged profile's bytes.
set -uo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
pb_need_llvm 19
RAW="$PB_SOURCE_DIR/testdata/samples/basic-ir.v10.profraw"
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
work="$T"
cd "$work" || exit 2
failures=0 cases=0

# The inputs are text profiles made by llvm-profdata-19 from a raw v10 one
# (LLVM 23 reads raw v11 only; both tools recognise text by its content).
llvm-profdata-19 merge --text "$RAW" -o in.proftext || { echo "merge_inputs_llvm.sh: FAIL: llvm-profdata-19 cannot read $RAW" >&2; exit 1; }
mkdir -p d/s1/deep d/s2 e
for f in a.profraw b.profraw d/x.profraw d/y.profraw d/s1/p.profraw d/s1/deep/q.profraw d/s2/r.profraw \
         d/s2/s.profraw d/s2/t.profraw e/only.profraw; do cp in.proftext "$f"; done
printf '# a comment\n\n   2,b.profraw  \n\ta.profraw\r\n  #indented comment\n3,d/s2\n\n' > list1
printf 'a.profraw\n5,b.profraw\n' > list2
printf 'x,a.profraw\n' > bad_weight
printf '0,a.profraw\n' > zero_weight
printf ' 2 ,a.profraw\n' > space_weight
printf '  \n' > blank_line

# dump N ARGS...: llvm-profdata-N merge --dump-input-file-list ARGS... and ours print the same
dump() {
  local n="$1"; shift
  cases=$((cases + 1))
  local want got ws gs
  want="$("llvm-profdata-$n" merge --dump-input-file-list "$@" 2>/dev/null)"; ws=$?
  got="$("$PB" merge --llvm-version "$n" --dump-input-file-list "$@" 2>/dev/null)"; gs=$?
  if [ $ws = 0 ]; then
    [ $gs = 0 ] || fail "$n: merge --dump-input-file-list $*: status $gs, the real tool's 0"
    [ "$want" = "$got" ] || fail "$n: merge --dump-input-file-list $*: printed '$got', the real tool '$want'"
  else
    [ $gs != 0 ] || fail "$n: merge --dump-input-file-list $*: succeeded where llvm-profdata-$n failures"
  fi
}

# merged N ARGS...: the merged profiles are the same bytes
merged() {
  local n="$1"; shift
  cases=$((cases + 1))
  rm -f l.profdata p.profdata
  "llvm-profdata-$n" merge --num-threads=1 "$@" -o l.profdata 2>/dev/null || { fail "$n: llvm-profdata merge $* failed"; return; }
  "$PB" merge --llvm-version "$n" --no-keep-vtable-symbols "$@" -o p.profdata 2>/dev/null ||
    { fail "$n: merge $* failed"; return; }
  cmp -s l.profdata p.profdata || fail "$n: merge $*: output differs from llvm-profdata-$n's"
}

printf '3,~/a.profraw\n~/b.profraw\n' > tilde_list
releases=19
command -v llvm-profdata-23 >/dev/null 2>&1 && releases="19 23"
for n in $releases; do
  dump "$n" a.profraw b.profraw
  dump "$n" d
  dump "$n" d/
  dump "$n" ./d e a.profraw
  dump "$n" -f list1 a.profraw
  dump "$n" --weighted-input=4,d/s1 -f list1 a.profraw
  dump "$n" -f list1 -f list2
  dump "$n" -f bad_weight
  dump "$n" -f zero_weight
  dump "$n" -f space_weight
  dump "$n" -f blank_line a.profraw
  dump "$n" --instr a.profraw
  # W,FILE's FILE starts "~/" for $HOME from LLVM 21 on; a plain FILE never
  HOME="$work" dump "$n" --weighted-input=2,~/a.profraw
  HOME="$work" dump "$n" -f tilde_list
  HOME="$work" dump "$n" "~/a.profraw"
  merged "$n" d
  # --output-size-limit (17+) trims sample profiles only: the same bytes
  merged "$n" -output-size-limit=1 d
  merged "$n" --output-size-limit 100 a.profraw
  merged "$n" -f list1
  merged "$n" --instr a.profraw "--weighted-input=3,d/s2"
done
echo "merge_inputs_llvm.sh: $cases cases ($releases), $failures failures"
[ $failures = 0 ]
