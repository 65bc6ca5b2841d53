#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# validate_vs_llvm.sh -- `profbridge validate` is as strict as the strictest
# consumer (issue 12, item 4). Real files (shared/testdata/llvm-real and a
# program built here with clang-19 -fprofile-generate: its .profraw, indexed
# .profdata and .proftext from llvm-profdata-19) are truncated at every 8th
# byte and changed one byte at a time (a fixed seed, a bounded sample), and
# every indexed file's bucket offsets are pointed past the end and at
# 2^64-1, its NumEntries set to 0 and one less. Each mutant validate calls
# valid must be read by llvm-profdata-19 show --all-functions --counts and,
# when indexed, used by clang-19 -fprofile-use on its program, without a
# crash or a refusal. Every other release N with clang-N (tests/interop/lib/
# llvm-tools.bash) gets the same checks, with llvm-profdata-N and clang-N, on
# a smaller sample of mutants of the files clang-N and llvm-profdata-N make.
# Mutants LLVM reads and we refuse are reported only.
# The work is tests/interop/lib/mutate_check.py. Budgets: 40 mutants a file
# for 19, 10/6/4 (indexed/raw/text) for the other releases; a mutant validate
# accepts costs a start of llvm-profdata and of clang.
set -uo pipefail
: "${PB:?}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
shared="${PB_SHARED_DIR:-$here/../../../shared}"
real="$shared/testdata/llvm-real"
for t in llvm-profdata-19 clang-19 python3; do
  command -v "$t" >/dev/null || { echo "SKIP: $t is not on PATH (apt-get install llvm-19 clang-19)"; exit 77; }
done
[ -d "$real/llvm19" ] || { echo "SKIP: $real/llvm19 is missing"; exit 77; }
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
cat >"$T/prog.c" <<'C'
static int sq(int x) { return x * x; }
static int cube(int x) { return x * x * x; }
typedef int (*fn)(int);
int main(int argc, char **argv) {
  fn f[2] = {sq, cube};
  int s = 0;
  (void)argv;
  for (int i = 0; i < 40 + argc; i++) s += f[i % 3 == 0](i) % 7 ? 1 : 2;
  return s == 3;
}
C
(cd "$T" && clang-19 -O0 -fprofile-generate prog.c -o prog && LLVM_PROFILE_FILE="$T/prog.profraw" ./prog) ||
  { echo "FAIL: clang-19 could not build and run the program"; exit 1; }
llvm-profdata-19 merge -o "$T/prog.profdata" "$T/prog.profraw" &&
  llvm-profdata-19 merge --text -o "$T/prog.proftext" "$T/prog.profraw" ||
  { echo "FAIL: llvm-profdata-19 could not merge the program's profile"; exit 1; }
# Every other release N with clang-N: the program built and run with clang-N,
# its raw profile, and llvm-profdata-N's indexed and text files of it, so
# each release is given the versions it reads; a smaller sample of mutants.
# shellcheck source=lib/llvm-tools.bash
. "$here/lib/llvm-tools.bash"
others=()
for n in $(pb_llvm_releases clang); do
  [ "$n" = 19 ] && continue
  d="$T/llvm$n"
  mkdir "$d"
  if (cd "$d" && clang-"$n" -O0 -fprofile-generate ../prog.c -o prog 2>/dev/null &&
      LLVM_PROFILE_FILE="$d/prog.profraw" ./prog && llvm-profdata-"$n" merge -o prog.profdata prog.profraw &&
      llvm-profdata-"$n" merge --text -o prog.proftext prog.profraw); then
    others+=("$d/prog.profdata:$T/prog.c@$n/10" "$d/prog.profraw@$n/6" "$d/prog.proftext@$n/4")
  else
    echo "FAIL: clang-$n and llvm-profdata-$n could not build, run and merge the program"; exit 1
  fi
done
echo "releases besides 19: ${#others[@]} files of $(( ${#others[@]} / 3 )) releases"
mkdir "$T/work"
PB_SOURCE_DIR="${PB_SOURCE_DIR:-$here/../..}" python3 "$here/lib/mutate_check.py" "$PB" "$T/work" 40 12 \
  "${others[@]}" \
  "$T/prog.profdata:$T/prog.c" "$T/prog.profraw" "$T/prog.proftext" \
  "$real/llvm19/basic-ir.profdata:$real/src/basic.c" "$real/llvm19/temporal-ir.profdata" \
  "$real/llvm19/vtable-ir.profraw" "$real/llvm19/mcdc-fe.proftext"
