#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# merge_diag_llvm.sh -- merge's diagnostics have llvm-profdata's shape
# (compared with llvm-profdata-19 and, when installed, 23): an input that
# cannot be merged is "warning: FILE: ..." (our detail, byte offset and
# field, after it), a failure mode that stops adds "error: no profile can be
# merged", in the same order and with the same exit status; --function and
# --no-function print LLVM's "N of M functions in the original profile are
# filtered." line (names, not records) on stderr, byte for byte; a
# reader's diagnostic names the input file.
set -uo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
pb_need_llvm 19
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
fails=0 cases=0
fail() { echo "merge_diag_llvm.sh: FAIL: $*" >&2; fails=$((fails + 1)); }

# Inputs every release reads: text profiles (main has two records).
printf ':ir\nmain\n0x1\n1\n5\n\nmain\n0x2\n1\n6\n\nfoo\n0x2\n1\n7\n\nbar\n0x3\n1\n0\n\n' > a.proftext
cp a.proftext b.proftext
printf 'garbage\n' > g.proftext
# a text profile broken in its second record
printf ':ir\nmain\n0x1\n1\n5\n\nfoo\nzz\n' > t.proftext

# shape: "warning: FILE" / "error: FILE" / the whole line of any other error
shape() { sed -E 's/^(llvm-profdata(-[0-9]+)?|profbridge): //' | sed -E 's/^(warning|error): ([^:]+):.*/\1: \2/' |
          grep -E '^(warning|error):'; }

# diag N ARGS...: the same diagnostic lines (shape) and exit status
diag() {
  local n="$1"; shift
  cases=$((cases + 1))
  "llvm-profdata-$n" merge "$@" -o l.profdata 2> l.err > /dev/null; local ls=$?
  "$PB" merge --llvm-version "$n" "$@" -o p.profdata 2> p.err > /dev/null; local ps=$?
  [ $ls = $ps ] || fail "$n: merge $*: status $ps, the real tool's $ls ($(head -1 p.err))"
  [ "$(shape < l.err)" = "$(shape < p.err)" ] ||
    fail "$n: merge $*: diagnostics '$(shape < p.err | tr '\n' '|')', the real tool's '$(shape < l.err | tr '\n' '|')'"
}

# filtered N ARGS...: stderr byte for byte
filtered() {
  local n="$1"; shift
  cases=$((cases + 1))
  "llvm-profdata-$n" merge "$@" -o l.profdata 2> l.err > /dev/null; local ls=$?
  "$PB" merge --llvm-version "$n" --no-keep-vtable-symbols "$@" -o p.profdata 2> p.err > /dev/null; local ps=$?
  [ $ls = $ps ] || fail "$n: merge $*: status $ps, the real tool's $ls"
  cmp -s l.err p.err || fail "$n: merge $*: stderr '$(cat p.err)', the real tool's '$(cat l.err)'"
  cmp -s l.profdata p.profdata || fail "$n: merge $*: output differs from the real tool's"
}

releases=19
command -v llvm-profdata-23 >/dev/null 2>&1 && releases="19 23"
for n in $releases; do
  diag "$n" g.proftext
  diag "$n" a.proftext g.proftext
  diag "$n" t.proftext
  diag "$n" --failure-mode=warn g.proftext a.proftext
  diag "$n" --failure-mode=all g.proftext a.proftext
  diag "$n" --failure-mode=all g.proftext t.proftext
  diag "$n" --failure-mode=warn g.proftext t.proftext
  filtered "$n" --function=foo a.proftext
  filtered "$n" --function=main a.proftext b.proftext
  filtered "$n" --no-function=ba a.proftext
  filtered "$n" --function=. --no-function='^f' a.proftext
  filtered "$n" --function=zzz a.proftext
done
# A reader's diagnostic names the input, never "<input>" (a raw profile with
# a counter above 2^56, written by convert from a hand-made text profile).
printf ':ir\nmain\n0x1\n1\n72057594037927937\n\n' > huge.proftext
cases=$((cases + 1))
if "$PB" convert huge.proftext --to raw -o huge.profraw 2>/dev/null; then
  "$PB" merge huge.profraw -o h.profdata 2> h.err
  grep -q '<input>' h.err && fail "a diagnostic says <input>: $(head -1 h.err)"
  grep -q '^profbridge: [a-z]*: huge.profraw: ' h.err || fail "no diagnostic names huge.profraw: $(head -1 h.err)"
else
  fail "convert huge.proftext --to raw failed"
fi
echo "merge_diag_llvm.sh: $cases cases ($releases), $fails failures"
[ $fails = 0 ]
