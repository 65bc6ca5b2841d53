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
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
fails=0
fail() { echo "cli_llvm_args.sh: FAIL: $*" >&2; fails=$((fails + 1)); }
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
echo "cli_llvm_args.sh: $fails failures"
[ $fails = 0 ]
