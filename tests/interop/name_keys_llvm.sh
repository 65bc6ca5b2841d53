#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# name_keys_llvm.sh -- records whose name cannot be found, against the real
# tools of every installed release N with clang-N (issue 12, items 3 and 4).
# For a program built and run with clang-N:
#   - its .profraw with data[0].NameRef pointing at no name: llvm-profdata-N
#     reads it, naming the record "" (also under --failure-mode=warn, or
#     =all before LLVM 18, next to a good input). profbridge merge --llvm-version N must write the same
#     bytes, show must print the same text, and validate must refuse it (the
#     function the record belonged to is lost);
#   - the indexed file llvm-profdata-N merge makes of it holds the key "":
#     profbridge show reads it as llvm-profdata-N does, validate refuses it;
#   - an indexed file whose KeyHash of "main" is not MD5("main"): clang-N
#     -fprofile-use never finds main's record (no function_entry_count on
#     main; with the right hash there is one), so validate must refuse the
#     file, while merge writes the record back under the right hash, byte for
#     byte as llvm-profdata-N merge.
set -uo pipefail
: "${PB:?}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib/llvm-tools.bash
. "$here/lib/llvm-tools.bash"
command -v python3 >/dev/null || { echo "SKIP: python3 is not on PATH"; exit 77; }
releases="$(pb_llvm_releases clang)"
[ -n "$releases" ] || { echo "SKIP: no llvm-profdata-N with clang-N on PATH ($(pb_llvm_how 19))"; exit 77; }
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
failures=0
checks=0
cat >"$T/prog.c" <<'C'
static int sq(int x) { return x * x; }
static int cube(int x) { return x * x * x; }
int main(int argc, char **argv) {
  int s = 0;
  (void)argv;
  for (int i = 0; i < 40 + argc; i++) s += (i % 3 ? sq(i) : cube(i)) % 7 ? 1 : 2;
  return s == 3;
}
C
# flip OFFSET_HEX BYTE_INDEX IN OUT: OUT = IN with byte OFFSET+BYTE_INDEX xor 1
flip() {
  python3 - "$@" <<'PY'
import sys
b = bytearray(open(sys.argv[3], "rb").read())
b[int(sys.argv[1], 16) + int(sys.argv[2])] ^= 1
open(sys.argv[4], "wb").write(b)
PY
}
# main_has_profile LL: the IR clang wrote gives main a function_entry_count
main_has_profile() { grep -q '^define.*@main(.*!prof ' "$1"; }

one_release() {
  n="$1"
  local d="$T/$n"
  mkdir -p "$d"
  (cd "$d" && clang-"$n" -O0 -fprofile-generate ../prog.c -o prog 2>/dev/null && LLVM_PROFILE_FILE="$d/good.profraw" ./prog) ||
    { fail "LLVM $n: clang-$n could not build and run the program"; return; }
  # --- raw: a NameRef that is the MD5 of no name ---
  local at
  at="$("$PB" dump "$d/good.profraw" | sed -n 's/^  0x\([0-9a-f]*\) .*data\[0\]\.NameRef .*/\1/p')"
  [ -n "$at" ] || { fail "LLVM $n: no data[0].NameRef in profbridge dump of clang-$n's profile"; return; }
  flip "$at" 0 "$d/good.profraw" "$d/bad.profraw"
  # LLVM 13-17 know --failure-mode any|all, 18 on warn|any|all
  local fm=--failure-mode=warn
  llvm-profdata-"$n" merge --help 2>/dev/null | grep -q '=warn' || fm=--failure-mode=all
  if ! llvm-profdata-"$n" merge "$fm" "$d/bad.profraw" "$d/good.profraw" -o "$d/want-warn.profdata" 2>"$d/err"; then
    fail "LLVM $n: llvm-profdata-$n merge $fm refuses a raw profile with an unknown NameRef: $(head -c 300 "$d/err")"
  else
    "$PB" merge --llvm-version "$n" "$fm" "$d/bad.profraw" "$d/good.profraw" -o "$d/got-warn.profdata" 2>"$d/err"
    cmp -s "$d/want-warn.profdata" "$d/got-warn.profdata" && checks=$((checks + 1)) ||
      fail "LLVM $n: merge $fm of a raw profile with an unknown NameRef and a good one differs from llvm-profdata-$n: $(head -c 300 "$d/err")"
    llvm-profdata-"$n" merge "$d/bad.profraw" -o "$d/want.profdata" 2>/dev/null
    "$PB" merge --llvm-version "$n" "$d/bad.profraw" -o "$d/got.profdata" 2>"$d/err"
    cmp -s "$d/want.profdata" "$d/got.profdata" && checks=$((checks + 1)) ||
      fail "LLVM $n: merge of a raw profile with an unknown NameRef differs from llvm-profdata-$n: $(head -c 300 "$d/err")"
    llvm-profdata-"$n" show --all-functions --counts "$d/bad.profraw" >"$d/want.txt" 2>/dev/null
    "$PB" show --llvm-version "$n" --all-functions --counts "$d/bad.profraw" >"$d/got.txt" 2>/dev/null
    cmp -s "$d/want.txt" "$d/got.txt" && checks=$((checks + 1)) ||
      { fail "LLVM $n: show of a raw profile with an unknown NameRef differs from llvm-profdata-$n"; diff "$d/want.txt" "$d/got.txt" | head -6; }
    # --- indexed: the key "" llvm-profdata-N wrote for it ---
    llvm-profdata-"$n" show --all-functions --counts "$d/want.profdata" >"$d/want.txt" 2>/dev/null
    "$PB" show --llvm-version "$n" --all-functions --counts "$d/want.profdata" >"$d/got.txt" 2>/dev/null
    cmp -s "$d/want.txt" "$d/got.txt" && checks=$((checks + 1)) ||
      { fail "LLVM $n: show of llvm-profdata-$n's indexed file with the key \"\" differs"; diff "$d/want.txt" "$d/got.txt" | head -6; }
    "$PB" validate "$d/want.profdata" >"$d/out" 2>&1
    [ $? -eq 1 ] && grep -q 'KeyLen.*empty key' "$d/out" && checks=$((checks + 1)) ||
      fail "LLVM $n: validate does not refuse the key \"\": $(head -c 300 "$d/out")"
  fi
  "$PB" validate "$d/bad.profraw" >"$d/out" 2>&1
  [ $? -eq 1 ] && grep -q 'NameRef .* is the MD5 of no name' "$d/out" && checks=$((checks + 1)) ||
    fail "LLVM $n: validate does not refuse a raw profile with an unknown NameRef: $(head -c 300 "$d/out")"
  # --- indexed: main's KeyHash is not MD5("main") ---
  llvm-profdata-"$n" merge "$d/good.profraw" -o "$d/good.profdata" || { fail "LLVM $n: llvm-profdata-$n merge"; return; }
  at="$("$PB" dump "$d/good.profdata" | sed -n 's/^0x\([0-9a-f]*\)   key "main" .*/\1/p')"
  [ -n "$at" ] || { fail "LLVM $n: no key \"main\" in profbridge dump of llvm-profdata-$n's file"; return; }
  flip "$at" 7 "$d/good.profdata" "$d/key.profdata" # the top byte: the bucket stays the same
  (cd "$d" && clang-"$n" -O0 -fprofile-use=good.profdata -S -emit-llvm ../prog.c -o good.ll 2>/dev/null &&
    clang-"$n" -O0 -fprofile-use=key.profdata -S -emit-llvm ../prog.c -o key.ll 2>/dev/null) ||
    { fail "LLVM $n: clang-$n -fprofile-use failed"; return; }
  if ! main_has_profile "$d/good.ll"; then
    fail "LLVM $n: clang-$n did not use main's record from the good file (the oracle does not work)"
  elif main_has_profile "$d/key.ll"; then
    echo "note: LLVM $n: clang-$n finds main's record under a wrong KeyHash"
  else
    checks=$((checks + 1))
  fi
  "$PB" validate "$d/key.profdata" >"$d/out" 2>&1
  [ $? -eq 1 ] && grep -q 'KeyHash.*is not the MD5' "$d/out" && checks=$((checks + 1)) ||
    fail "LLVM $n: validate does not refuse a key stored under a wrong hash: $(head -c 300 "$d/out")"
  llvm-profdata-"$n" merge "$d/key.profdata" -o "$d/want-key.profdata" 2>/dev/null
  "$PB" merge --llvm-version "$n" "$d/key.profdata" -o "$d/got-key.profdata" 2>"$d/err"
  cmp -s "$d/want-key.profdata" "$d/got-key.profdata" && checks=$((checks + 1)) ||
    fail "LLVM $n: merge of a file with a wrong KeyHash differs from llvm-profdata-$n: $(head -c 300 "$d/err")"
}

for n in $releases; do one_release "$n"; done
echo "name_keys_llvm: releases $releases: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
