#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# value_site_order.sh -- which of several EQUAL values of a value site meet in
# a merge and in an overlap (issue 10, item 4; target.h VALUE_SORT_UNSTABLE).
# A raw file maps every indirect-call target whose address is no profiled
# function (libc, an uninstrumented library) to value 0, so one site holds
# many 0s. LLVM sorts both sides by value before it pairs them
# (sortByTargetValues): std::list::sort (stable) up to 18, std::sort (not
# stable above 16 values) from 19; and `overlap` first loads the base into its
# writer, which sorts every site by count.
# Inputs we make: hand-written .proftext files with a site of 20-24 values,
# 12-14 of them "** External Symbol **" (value 0) with unequal counts and
# named ones with equal counts; and a program built with the release's clang
# whose indirect calls go to libc functions (17 value-0 targets in a site).
# Oracles: llvm-profdata-19 (merge bytes, --text, overlap and overlap
# --value-cutoff), -14/-16/-17 (merge, with --llvm-version N).
set -uo pipefail
: "${PB:?}"
command -v llvm-profdata-19 >/dev/null || { echo "SKIP: llvm-profdata-19 not installed"; exit 77; }
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
checks=0; failures=0

# site N SEED: N targets, every third one named (f0..f3, equal counts), the
# others value 0 with counts that differ
site() {
  local n=$1 s=$2 i
  echo "$n"
  for ((i = 0; i < n; i++)); do
    if ((i % 3 == 1)); then echo "f$(((i + s) % 4)):5"
    else echo "** External Symbol **:$(((i * 7 + s * 3) % 11 + 1))"; fi
  done
}
prof() { # prof N SEED FILE
  { printf ':ir\nmain\n0x1234\n2\n100\n%d\n1\n0\n2\n' "$2"; site "$1" "$2"; site 5 "$2"
    for f in f0 f1 f2 f3; do printf '%s\n0x10\n1\n5\n' "$f"; done; } >"$3"
}
prof 20 1 "$T/a.proftext"
prof 24 2 "$T/b.proftext"
prof 17 3 "$T/c.proftext"
prof 9 4 "$T/d.proftext"

# merge_same WHAT RELEASE FILES...: merge bytes and --text agree with llvm-profdata-RELEASE
merge_same() {
  local what=$1 v=$2 as=(); shift 2
  command -v "llvm-profdata-$v" >/dev/null || return 0
  [ "$v" != 19 ] && as=(--llvm-version "$v")
  # --num-threads 1: with several threads llvm-profdata merges per-thread writers
  # in another order; profbridge merges in input order (docs/indexed.md)
  "llvm-profdata-$v" merge --num-threads 1 "$@" -o "$T/l.profdata" 2>/dev/null || { fail "$what: llvm-profdata-$v merge failed"; return; }
  "$PB" merge "${as[@]}" "$@" -o "$T/p.profdata" 2>"$T/err" || { fail "$what: merge: $(head -c 300 "$T/err")"; return; }
  "llvm-profdata-$v" merge --num-threads 1 --text "$@" -o "$T/l.txt" 2>/dev/null
  "$PB" merge "${as[@]}" --text --no-keep-vtable-symbols "$@" -o "$T/p.txt" 2>/dev/null
  checks=$((checks + 2))
  cmp -s "$T/l.profdata" "$T/p.profdata" || fail "$what: merge bytes differ from llvm-profdata-$v's"
  cmp -s "$T/l.txt" "$T/p.txt" || { fail "$what: merge --text differs from llvm-profdata-$v's"; diff "$T/l.txt" "$T/p.txt" | head -6; }
}
# overlap_same WHAT BASE TEST: overlap and overlap --value-cutoff=1 print what llvm-profdata-19 prints
overlap_same() {
  local o
  for o in --value-cutoff=0 --value-cutoff=1 --value-cutoff=1000; do
    llvm-profdata-19 overlap $o "$2" "$3" >"$T/l.ov" 2>&1
    "$PB" overlap $o "$2" "$3" >"$T/p.ov" 2>&1
    checks=$((checks + 1))
    cmp -s "$T/l.ov" "$T/p.ov" ||
      { fail "$1 overlap $o: differs from llvm-profdata-19"; diff "$T/l.ov" "$T/p.ov" | grep -i indirect | head -4; }
  done
}

for pair in "a b" "b a" "a c" "c d" "d b" "b c"; do
  set -- $pair
  for v in 19 14 16 17; do merge_same "text $1+$2 ($v)" "$v" "$T/$1.proftext" "$T/$2.proftext"; done
  merge_same "text $1+$2+$1 weighted (19)" 19 "$T/$1.proftext" --weighted-input=3,"$T/$2.proftext" "$T/$1.proftext"
  overlap_same "text $1/$2" "$T/$1.proftext" "$T/$2.proftext"
done

# A real program: indirect calls into libc give value-0 targets.
cat >"$T/ic.c" <<'EOF'
#include <ctype.h>
#include <stdlib.h>
typedef int (*fn)(int);
static int mine1(int x) { return x + 1; }
static int mine2(int x) { return x + 2; }
int main(int argc, char **argv) {
  fn t[] = {abs,     toupper, tolower, isalpha, isdigit,  isspace, mine1,   isupper, islower, isalnum,
            ispunct, isxdigit, iscntrl, isgraph, isprint, mine2,   isblank, toascii, isascii, abs};
  int s = 0;
  (void)argv;
  for (int r = 0; r < 3 + argc; r++)
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++)
      for (unsigned k = 0; k <= (i * (unsigned)argc) % 5; k++) s += t[i]((int)(97 + i));
  return s == 1;
}
EOF
for v in 19 14; do
  command -v "clang-$v" >/dev/null && command -v "llvm-profdata-$v" >/dev/null || continue
  d="$T/c$v"; mkdir -p "$d"
  (cd "$d" && "clang-$v" -O0 -fprofile-generate "$T/ic.c" -o ic 2>/dev/null && LLVM_PROFILE_FILE="$d/a.profraw" ./ic &&
     LLVM_PROFILE_FILE="$d/b.profraw" ./ic x y) || { echo "note: clang-$v could not build the program"; continue; }
  merge_same "clang-$v raw a+b" "$v" "$d/a.profraw" "$d/b.profraw"
  merge_same "clang-$v raw b+a" "$v" "$d/b.profraw" "$d/a.profraw"
  if [ "$v" = 19 ]; then
    overlap_same "clang-19 raw a/b" "$d/a.profraw" "$d/b.profraw"
    overlap_same "clang-19 raw b/a" "$d/b.profraw" "$d/a.profraw"
  fi
done
echo "value_site_order.sh: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
