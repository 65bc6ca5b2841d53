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
# Through the llvm-profdata-N personality (a link so named), byte for byte
# (stderr, exit status, output) against 19 and 23: missing inputs, no
# inputs, bad weights, -f lists, FIFOs, unwritable outputs,
# -r/--remapping-file (good files, each bad-line rule; text and clang-built
# raw profiles), counter overflow by weight, every failed input warned about
# in llvm-profdata's writer-context order; against every installed release
# (13-24): counter overflow lines and hints, pseudo-hot counts, a raw counter
# above 2^56 (silent in 13-17, a failed input from 18 on).
set -uo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
pb_need_llvm 19
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
work="$T"
cd "$work" || exit 2
failures=0 cases=0

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
# ---- through the personality, byte for byte -------------------------------
mkdir -p bin sub
for n in $(pb_llvm_releases); do ln -sf "$PB" "bin/llvm-profdata-$n"; done

# exact N ARGS...: stderr and exit status of `llvm-profdata-N merge ARGS`
# and of the personality's, run in sub/
exact() {
  local n="$1"; shift
  cases=$((cases + 1))
  (cd sub && "llvm-profdata-$n" merge "$@" > /dev/null 2> ../l.err); local ls=$?
  (cd sub && "../bin/llvm-profdata-$n" merge "$@" > /dev/null 2> ../p.err); local ps=$?
  [ $ls = $ps ] || fail "$n: merge $*: status $ps, the real tool's $ls ($(head -1 p.err))"
  cmp -s l.err p.err || fail "$n: merge $*: stderr differs:$(diff l.err p.err | head -6 | tr '\n' '|')"
}
# loose N ARGS...: as exact, without profbridge's detail lines ("  (profbridge:
# ...)") that follow LLVM's words for an input that cannot be read
loose() {
  local n="$1"; shift
  cases=$((cases + 1))
  (cd sub && "llvm-profdata-$n" merge "$@" > /dev/null 2> ../l.err); local ls=$?
  (cd sub && "../bin/llvm-profdata-$n" merge "$@" > /dev/null 2> ../p.err); local ps=$?
  [ $ls = $ps ] || fail "$n: merge $*: status $ps, the real tool's $ls ($(head -1 p.err))"
  [ "$(cat l.err)" = "$(grep -v '^  (profbridge: ' p.err)" ] ||
    fail "$n: merge $*: stderr differs:$(diff l.err p.err | head -6 | tr '\n' '|')"
}
# exact_out N ARGS...: as exact, each writing --text to its own file, and
# the output (or its absence) compared too
exact_out() {
  local n="$1"; shift
  cases=$((cases + 1))
  rm -f sub/l.proftext sub/p.proftext
  (cd sub && "llvm-profdata-$n" merge --text "$@" -o l.proftext > /dev/null 2> ../l.err); local ls=$?
  (cd sub && "../bin/llvm-profdata-$n" merge --text "$@" -o p.proftext > /dev/null 2> ../p.err); local ps=$?
  [ $ls = $ps ] || fail "$n: merge $*: status $ps, the real tool's $ls ($(head -1 p.err))"
  cmp -s l.err p.err || fail "$n: merge $*: stderr differs:$(diff l.err p.err | head -6 | tr '\n' '|')"
  if [ -e sub/l.proftext ] || [ -e sub/p.proftext ]; then
    cmp -s sub/l.proftext sub/p.proftext || fail "$n: merge $*: output differs from the real tool's (or only one wrote it)"
  fi
}

cd sub || exit 2
cp ../a.proftext ../g.proftext ../t.proftext ../huge.proftext .
# counts near 2^64: merging twice overflows (main's two counters: one line)
printf ':ir\nmain\n0x1\n2\n18446744073709551000\n3\n\nfoo\n0x2\n1\n18446744073709551000\n\nbar\n0x3\n1\n7\n\n' > big.proftext
# a pseudo-hot record (counter 0 = 2^64-1): no overflow from LLVM 16 on
printf ':ir\nmain\n0x1\n2\n18446744073709551615\n3\n\n' > hot.proftext
# records that remapping folds together (foo and bar share a hash)
printf ':ir\nmain\n0x1\n1\n5\n\nfoo\n0x2\n2\n7\n1\n\nbar\n0x2\n2\n1\n2\n\nbaz\n0x3\n1\n9\n\n_Z3quxv\n0x4\n1\n18446744073709551000\n\n' > r.proftext
printf '# comment\n\nfoo bar\nbaz main\n_Z3quxv bar\nfoo baz\n' > m1.map
printf 'foo bar\r\nbaz main\r\n' > m2.map
printf 'a b\n#x y z\nfoo bar' > m3.map
printf 'foo bar\n\nfoo\n' > bad1.map
printf 'foo  bar\n' > bad2.map
printf ' foo bar\n' > bad3.map
printf 'foo bar \n' > bad4.map
printf 'foo\tbar\n' > bad5.map
printf '  \n' > bad6.map
printf 'x y\n\n #c\n' > bad7.map
printf 'a.proftext\n   \n' > blank.list
printf 'a.proftext\nx,a.proftext\n' > badw.list
printf 'foo bar\n' > fb.map
# a memop value site whose count overflows
printf ':ir\nmain\n0x1\n1\n5\n1\n1\n1\n2\n8:18446744073709551000\n16:7\n\n' > v.proftext
mkfifo fifo 2>/dev/null || true
mkdir -p adir
# a program clang-N builds: foo and bar have one hash
printf '%s\n' 'int foo(int x) { return x > 2 ? x * 3 : x + 1; }' \
  'int bar(int x) { return x > 2 ? x * 3 : x + 1; }' \
  'int main(int argc, char **argv) {' \
  '  int s = 0;' \
  '  for (int i = 0; i < 100; i++) s += foo(i) + (argc > 5 ? bar(i) : 0);' \
  '  return s == 7;' '}' > prog.c
cd .. || exit 2

for n in $releases; do
  exact "$n" a.proftext nosuch.profraw g.proftext -o o.profdata
  exact "$n" a.proftext --weighted-input=x,a.proftext nosuch -o o.profdata
  exact "$n" --weighted-input=x,a.proftext -o o.profdata
  exact "$n" --weighted-input=0,a.proftext -o o.profdata
  exact "$n" --weighted-input=a.proftext -o o.profdata
  exact "$n" --weighted-input=2, -o o.profdata
  exact "$n" --weighted-input=2,nosuch a.proftext -o o.profdata
  exact "$n" -f nosuch.list a.proftext -o o.profdata
  exact "$n" -f blank.list -o o.profdata
  exact "$n" -f badw.list -o o.profdata
  exact "$n" -o o.profdata
  exact "$n" fifo -o o.profdata
  exact "$n" adir -o o.profdata
  exact "$n" a.proftext -o /no/such/dir/o.profdata
  exact "$n" a.proftext -o adir
  loose "$n" g.proftext -o /no/such/dir/o.profdata
  exact "$n" a.proftext -r nosuch.map -o o.profdata
  exact "$n" nosuch -r nosuch.map -o o.profdata
  exact_out "$n" a.proftext fifo
  # no -o: llvm-profdata writes to standard output
  cases=$((cases + 1))
  (cd sub && "llvm-profdata-$n" merge a.proftext > ../l.bin 2>/dev/null)
  (cd sub && "../bin/llvm-profdata-$n" merge a.proftext > ../p.bin 2>/dev/null)
  cmp -s l.bin p.bin || fail "$n: merge a.proftext without -o: standard output differs"
  for m in m1 m2 m3 bad1 bad2 bad3 bad4 bad5 bad6 bad7; do exact_out "$n" r.proftext r.proftext -r $m.map; done
  exact_out "$n" --remapping-file=m1.map r.proftext a.proftext
  # every failed input, in the writer contexts' order (3 threads, 5 inputs)
  loose "$n" --num-threads=3 g.proftext g.proftext a.proftext g.proftext g.proftext -o o.profdata
  loose "$n" --num-threads=2 --failure-mode=all g.proftext a.proftext g.proftext -o o.profdata
  cases=$((cases + 1))
  (cd sub && "llvm-profdata-$n" merge --num-threads=3 g.proftext t.proftext g.proftext t.proftext g.proftext \
     -o o.profdata 2>&1 | shape) > l.shape
  (cd sub && "../bin/llvm-profdata-$n" merge --num-threads=3 g.proftext t.proftext g.proftext t.proftext g.proftext \
     -o o.profdata 2>&1 | shape) > p.shape
  cmp -s l.shape p.shape ||
    fail "$n: five failing inputs on 3 threads: '$(tr '\n' '|' < p.shape)', the real tool's '$(tr '\n' '|' < l.shape)'"
  # a clang-built raw profile: foo folded into bar; overflow by weight
  if command -v "clang-$n" >/dev/null 2>&1 && (cd sub && "clang-$n" -O0 -fprofile-generate prog.c -o "prog$n" &&
       LLVM_PROFILE_FILE="prog$n.profraw" "./prog$n"); then
    exact_out "$n" -r fb.map "prog$n.profraw" "prog$n.profraw"
    exact_out "$n" --weighted-input=18446744073709551615,"prog$n.profraw" "prog$n.profraw"
    exact "$n" --weighted-input=18446744073709551616,"prog$n.profraw" -o o.profdata
    exact_out "$n" --weighted-input=300000000000000000,"prog$n.profraw" -r fb.map
  else
    echo "merge_diag_llvm.sh: clang-$n is not installed or failed: no clang-built raw profile for $n"
  fi
done

# Counter overflow, pseudo-hot counts and large raw counters follow each
# release: every installed llvm-profdata.
for n in $(pb_llvm_releases); do
  exact_out "$n" big.proftext big.proftext
  exact_out "$n" --weighted-input=2,big.proftext big.proftext
  exact_out "$n" --weighted-input=3,big.proftext
  exact_out "$n" hot.proftext hot.proftext
  exact_out "$n" hot.proftext big.proftext
  exact_out "$n" v.proftext v.proftext
  exact_out "$n" --weighted-input=3,v.proftext
  # a raw file of release n's raw version with a counter above 2^56
  if "$PB" convert --llvm-version "$n" sub/huge.proftext --to raw -o "sub/huge$n.profraw" 2>/dev/null; then
    exact_out "$n" "huge$n.profraw"
    exact_out "$n" --failure-mode=all "huge$n.profraw" a.proftext
    exact_out "$n" --failure-mode=warn "huge$n.profraw"
  else
    fail "$n: convert huge.proftext --to raw failed"
  fi
done

echo "merge_diag_llvm.sh: $cases cases ($releases), $failures failures"
[ $failures = 0 ]
