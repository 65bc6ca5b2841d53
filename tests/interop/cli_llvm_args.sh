#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli_llvm_args.sh -- the commands parsed by src/cli/llvm_args.c (order,
# validate, dump, types, flame, diff) take LLVM's spellings: -x=v, --x=v,
# -x v, booleans -x / -x=false, an @response file; a mistyped option is exit 2
# with "did you mean" and the usage line, never a file name. Each spelling's
# output is compared with the same command's output for the plain spelling.
set -uo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?}"
RAW="$PB_SOURCE_DIR/testdata/samples/basic-ir.v10.profraw"
FIB="$PB_SOURCE_DIR/testdata/samples/fib-doc.iprof"
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
work="$T"
cd "$work" || exit 2
failures=0
cat > in.proftext <<'T'
:ir
main
0x1
1
1

T
"$PB" order in.proftext > want 2>/dev/null || { echo "cli_llvm_args.sh: FAIL: order of a text profile failed" >&2; exit 1; }
for spell in "-output=o1" "--output=o1" "-output o1" "-o o1" "-o=o1" "--output o1"; do
  rm -f o1
  # shellcheck disable=SC2086
  "$PB" order in.proftext $spell || fail "order $spell: status $?"
  cmp -s o1 want || fail "order $spell: o1 is not the order"
done
rm -f o1 ./utput=o1
"$PB" order -lenient -o o1 in.proftext && cmp -s o1 want || fail "boolean -lenient"
"$PB" order --lenient=false -o o1 in.proftext && cmp -s o1 want || fail "boolean --lenient=false"
"$PB" order -lenient=maybe in.proftext 2>/dev/null; [ $? = 2 ] || fail "-lenient=maybe must be a usage error"
printf '%s\n' "-o 'o 2' in.proftext" > args.rsp
"$PB" order @args.rsp && cmp -s "o 2" want || fail "@response file"
"$PB" order -outptu=o3 in.proftext 2>err; st=$?
[ $st = 2 ] || fail "mistyped option: status $st, want 2"
grep -q "did you mean '--output'?" err || fail "no suggestion: $(cat err)"
grep -q '^Usage: profbridge order' err || fail "no usage line: $(cat err)"
ls | grep -q utput && fail "a mistyped option made a file"
"$PB" order -hot-func-list in.proftext >/dev/null 2>&1; [ $? = 2 ] || fail "-hot-func-list must be unknown to order, not -h"

# same WANT_ARGS -- ARGS...: both command lines exit alike and print alike
same() {
  local want=() got=()
  while [ "$1" != -- ]; do want+=("$1"); shift; done
  shift
  "$PB" "${want[@]}" > w.out 2>/dev/null; local ws=$?
  "$PB" "$@" > g.out 2>g.err; local gs=$?
  [ $ws = $gs ] || fail "$*: status $gs, '${want[*]}' gives $ws ($(head -2 g.err))"
  cmp -s w.out g.out || fail "$*: output differs from '${want[*]}'"
}
# mistyped CMD ARGS...: exit 2 with a suggestion and the usage line of CMD
mistyped() {
  "$PB" "$@" > /dev/null 2>err; local st=$?
  [ $st = 2 ] || fail "$*: status $st, want 2"
  grep -q "did you mean '-" err || fail "$*: no suggestion: $(head -1 err)"
  grep -q "^Usage: profbridge $1 " err || fail "$*: no usage line"
}
cp "$RAW" r.profraw
"$PB" convert r.profraw -o r.profdata 2>/dev/null || fail "convert for diff"
same validate r.profraw -- validate -lenient=false r.profraw
same validate --lenient r.profraw -- validate -lenient=1 r.profraw
same validate --from raw r.profraw -- validate -from=raw r.profraw
mistyped validate --lenint r.profraw
same dump --json r.profraw -- dump -json r.profraw
same dump --json r.profraw -- dump r.profraw --json=true
same dump --raw-profile 0 r.profraw -- dump -raw-profile=0 r.profraw
same dump r.profraw -o d1 -- dump r.profraw -output=d1
mistyped dump --jsno r.profraw
"$PB" dump --raw-profil 0 r.profraw 2>err; grep -q "did you mean '--raw-profile'" err || fail "plugin option suggestion: $(head -1 err)"
same types --width 3 r.profraw -- types -width=3 r.profraw
same types --json r.profraw -- types r.profraw -json
mistyped types --widht=3 r.profraw
same flame "$FIB" --format folded -o - -- flame -format=folded "$FIB" -o=-
same flame "$FIB" --format folded --no-bci -o - -- flame -no-bci=true -format folded "$FIB" -output -
mistyped flame "$FIB" --fromat folded -o -
same diff r.profraw r.profdata -- diff -q=false r.profraw r.profdata
same diff --json r.profraw r.profdata -- diff r.profraw -json r.profdata
mistyped diff --jsn r.profraw r.profdata
printf '%s\n' "--json" "r.profraw" > d.rsp
same dump --json r.profraw -- dump @d.rsp
# @files are expanded for every command, also those not on llvm_args yet
printf '%s\n' "-o 'm 1.profdata'" "r.profraw" > m.rsp
"$PB" merge -o m0.profdata r.profraw 2>/dev/null
"$PB" merge @m.rsp 2>/dev/null && cmp -s m0.profdata "m 1.profdata" || fail "merge @m.rsp"

# merge and convert (on llvm_args since issue 11): LLVM's spellings write
# what the plain spelling writes, and never a file named after an option.
# samef CMD ARGS... -- ARGS...: the first writes w.out, the second g.out
samef() {
  local want=()
  while [ "$1" != -- ]; do want+=("$1"); shift; done
  shift
  rm -f w.out g.out
  "$PB" "${want[@]}" > /dev/null 2>&1; local ws=$?
  "$PB" "$@" > /dev/null 2>g.err; local gs=$?
  [ $ws = $gs ] || fail "$*: status $gs, '${want[*]}' gives $ws ($(head -2 g.err))"
  [ $ws = 0 ] || fail "'${want[*]}' failed ($ws)"
  cmp -s w.out g.out || fail "$*: the output differs from '${want[*]}'"
  if ls | grep -Eq '^(utput|ailure|parse|sparse=|j=)'; then fail "$*: made a file named after an option: $(ls | grep -E '^(utput|ailure)')"; fi
}
cp r.profraw r2.profraw
samef merge r.profraw r2.profraw -o w.out -- merge r.profraw r2.profraw -output=g.out
samef merge r.profraw r2.profraw -o w.out -- merge r.profraw r2.profraw --output g.out
samef merge r.profraw -o w.out -- merge -o=g.out r.profraw
samef merge --sparse r.profraw -o w.out -- merge -sparse=true r.profraw -o g.out
samef merge --sparse r.profraw -o w.out -- merge --sparse=true r.profraw -o g.out
samef merge r.profraw -o w.out -- merge -sparse=false r.profraw -o g.out
samef merge --num-threads 2 r.profraw r2.profraw -o w.out -- merge -j=2 r.profraw r2.profraw -o g.out
samef merge --num-threads 2 r.profraw r2.profraw -o w.out -- merge -num-threads=2 r.profraw r2.profraw -o g.out
samef merge --failure-mode warn r.profraw -o w.out -- merge -failure-mode=warn r.profraw -o g.out
samef merge --text r.profraw -o w.out -- merge -text -instr r.profraw -output g.out
samef merge --weighted-input 2,r.profraw -o w.out -- merge -weighted-input=2,r.profraw -o=g.out
samef merge --no-keep-vtable-symbols r.profraw -o w.out -- merge -keep-vtable-symbols=false r.profraw -o g.out
mistyped merge -outptu=x.profdata r.profraw
mistyped merge --sparce r.profraw -o x.profdata
"$PB" merge r.profraw -output-size-limi=10 2>/dev/null; [ $? = 2 ] || fail "merge -output-size-limi=10 must be a usage error"
ls | grep -q '^utput' && fail "merge -output-size-limi made a file"
"$PB" merge --llvm-version 18 --keep-vtable-symbols r.profraw -o x.profdata 2>err; [ $? = 2 ] || fail "--keep-vtable-symbols is not an option of LLVM 18's merge"
grep -q "LLVM 19" err || fail "the release check does not name LLVM 19: $(head -1 err)"
"$PB" merge --help > h.out || fail "merge --help"
for o in output sparse llvm-version num-threads indexed-version order; do
  [ "$(grep -c -- "^  *\(-[a-z], \)\?--$o[ =]" h.out)" = 1 ] || fail "merge --help: --$o listed $(grep -c -- "--$o[ =]" h.out) times"
done
samef convert r.profraw -o w.out --to text -- convert r.profraw -output=g.out -to=text
samef convert r.profraw -o w.out --to text -- convert -to text -o=g.out r.profraw
samef convert r.profraw -o w.out --to indexed --sparse -- convert r.profraw --sparse=true -to=indexed -o g.out
samef convert r.profraw -o w.out --to text --lenient -- convert r.profraw -lenient=true -to=text -o g.out
samef convert r.profraw -o w.out --to indexed --llvm-version 14 -- convert r.profraw -llvm-version=14 -to=indexed -o g.out
mistyped convert r.profraw -outptu=x.profdata
"$PB" convert --help > h.out || fail "convert --help"
for o in output sparse llvm-version to from lenient keep-vtable-symbols indexed-version; do
  [ "$(grep -c -- "^  *\(-[a-z], \)\?--$o[ =]" h.out)" = 1 ] || fail "convert --help: --$o listed $(grep -c -- "--$o[ =]" h.out) times"
done
echo "cli_llvm_args.sh: $failures failures"
[ $failures = 0 ]
