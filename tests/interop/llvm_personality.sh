#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# llvm_personality.sh -- profbridge called through a link named
# llvm-profdata-19 behaves as llvm-profdata-19 (docs/llvm-profdata.md): the
# same real command lines through the link and through the real tool give
# the same output bytes and exit status. Only commands whose output matches
# today: merge of clang-19 raw profiles into an indexed profile, show of it.
# Also the personality's own rules: LLVM's messages for no and unknown
# subcommands, profbridge-only commands refused, the release from the name.
set -uo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
. "$PB_SOURCE_DIR/tests/interop/lib/clang-programs.bash"
pb_need_llvm 19 clang

. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
work="$T"
failures=0 cases=0

mkdir -p "$work/bin"
ln -s "$(readlink -f "$PB")" "$work/bin/llvm-profdata-19"
ln -s "$(readlink -f "$PB")" "$work/bin/llvm-profdata"
pb_clang_programs 19 "$work/p" || { echo "SKIP: clang-19 cannot build the test programs"; exit 77; }
cd "$work/p" || exit 2

# same CMD...: "llvm-profdata-19 CMD..." through both, each in a copy of
# this directory's raw files; stdout, output files and status compared
# (lib/common.bash's same_as_llvm).
same() {
  cases=$((cases + 1))
  same_as_llvm 19 "$@"
}

kinds="$(cut -f1 KINDS | grep -E '^(ir|fe|ir-value|temporal)$' | tr '\n' ' ')"
[ -n "$kinds" ] || { echo "SKIP: no plain kind was built"; exit 77; }
# merge takes LLVM's spellings (-output=F, --sparse=true, -j=N, ...):
# src/cli/llvm_args.c parses it.
for k in $kinds; do
  same merge -o out.profdata "$k.profraw"
  same merge "$k.profraw" -output=out.profdata
  same merge --sparse=true -o=out.profdata "$k.profraw" "$k.profraw"
  same merge -sparse=true -j=2 -output=out.profdata "$k.profraw" "$k.profraw"
  same merge -failure-mode=warn -num-threads=1 "$k.profraw" -o out.profdata
  same merge --dump-input-file-list "$k.profraw" "-weighted-input=3,$k.profraw"
  # show of an indexed profile made by the real tool
  llvm-profdata-19 merge -o "$k.profdata" "$k.profraw"
  cp "$k.profdata" "$k.profdata.keep"
  same show --all-functions --counts "$work/p/$k.profdata"
  same show -all-functions -counts=true "$work/p/$k.profdata"
done
same merge -o out.profdata no-such-file.profraw
# a response file holding the subcommand too (LLVM expands before it looks)
printf '%s\n' "merge -o 'o 2.profdata'" "ir.profraw" > "$work/top.rsp"
same "@$work/top.rsp"

# usage errors in LLVM's words, through a command on the LLVM parser (order)
same_err() {
  cases=$((cases + 1))
  local want got ws gs
  want="$(llvm-profdata-19 "$@" 2>&1 >/dev/null)"; ws=$?
  # by name on PATH, as the real one: LLVM's "Try: 'ARGV0 --help'" names argv[0] as given
  got="$(PATH="$work/bin:$PATH" llvm-profdata-19 "$@" 2>&1 >/dev/null)"; gs=$?
  [ "$ws" = "$gs" ] || fail "llvm-profdata-19 $*: status $gs, the real tool's $ws"
  [ "$want" = "$got" ] || fail "llvm-profdata-19 $*: stderr '$got', the real tool's '$want'"
}
same_err order -num-test-trace=1 "$work/p/ir.profdata.keep"
same_err order --num-test-traces=x "$work/p/ir.profdata.keep"
same_err order "$work/p/ir.profdata.keep" -num-test-traces
same_err order --num-test-traces=1 -o

# a pipe (process substitution) is read once, as llvm-profdata reads it: the
# same output, no hang (the personality may not open an input a second time)
# (larger than a pipe's 64 KiB buffer, so that a writer still writing when
# an input is opened and closed to be checked would be cut off)
python3 -c 'import sys
for i in range(6000): sys.stdout.write("f%d\n%d\n2\n%d\n7\n\n" % (i, i, i))' >"$work/big.proftext"
llvm-profdata-19 merge -o "$work/big.profdata" "$work/big.proftext" || fail "llvm-profdata-19 merge big.proftext"
for f in "$work/p/ir.profdata.keep" "$work/big.profdata"; do
  cases=$((cases + 1))
  want="$(timeout 20 llvm-profdata-19 show --counts --all-functions <(cat "$f") 2>&1)"
  got="$(PATH="$work/bin:$PATH" timeout 20 llvm-profdata-19 show --counts --all-functions <(cat "$f") 2>&1)"
  [ -n "$want" ] && [ "$want" = "$got" ] || fail "show <(cat ${f##*/}): '$(echo "$got" | head -2)', the real tool's '$(echo "$want" | head -2)'"
  # a named FIFO: no descriptor of it is inherited, so an input opened and
  # closed to be checked leaves the writer with no reader
  cases=$((cases + 1))
  rm -f "$work/fifo"; mkfifo "$work/fifo"
  (cat "$f" >"$work/fifo" 2>/dev/null &)
  got="$(PATH="$work/bin:$PATH" timeout 20 llvm-profdata-19 show --counts --all-functions "$work/fifo" 2>&1)"
  [ "$want" = "$got" ] || fail "show FIFO (${f##*/}): '$(echo "$got" | head -2)', the real tool's '$(echo "$want" | head -2)'"
done
cases=$((cases + 1))
PATH="$work/bin:$PATH" timeout 20 llvm-profdata-19 show <(head -c 30 "$work/p/ir.profdata.keep") >/dev/null 2>&1; rc=$?
[ $rc = 1 ] || fail "show of a cut pipe: status $rc, want 1 (124 = it hung)"

# the personality's own rules
"$work/bin/llvm-profdata-19" >/dev/null 2>"$work/e"; rc=$?
[ $rc = 1 ] && grep -q '^llvm-profdata-19: No subcommand specified!' "$work/e" || fail "no subcommand: status $rc, $(cat "$work/e")"
"$work/bin/llvm-profdata-19" frob 2>"$work/e"; rc=$?
[ $rc = 1 ] && grep -qF "llvm-profdata-19: Unknown subcommand 'frob'." "$work/e" || fail "unknown subcommand: $rc $(cat "$work/e")"
"$work/bin/llvm-profdata-19" convert x 2>/dev/null && fail "profbridge's convert is no llvm-profdata subcommand"
"$work/bin/llvm-profdata-19" --version | grep -q 'acting as llvm-profdata of LLVM 19' || fail "--version"
# what scripts read of llvm-profdata --version (the real one: "LLVM version 19.1.7")
[ "$("$work/bin/llvm-profdata-19" --version | sed -n 's/.*LLVM version \([0-9]*\)\..*/\1/p')" = \
  "$(llvm-profdata-19 --version | sed -n 's/.*LLVM version \([0-9]*\)\..*/\1/p')" ] || fail "--version: LLVM version N"
PROFBRIDGE_LLVM_VERSION=23 "$work/bin/llvm-profdata" --version | grep -q 'of LLVM 23' || fail "plain llvm-profdata does not take PROFBRIDGE_LLVM_VERSION"
# the release from the name wins over the environment
PROFBRIDGE_LLVM_VERSION=23 "$work/bin/llvm-profdata-19" --version | grep -q 'of LLVM 19' || fail "the name's release must win"

echo "llvm_personality.sh: $cases command lines compared with llvm-profdata-19, $failures failures"
[ $failures = 0 ]
