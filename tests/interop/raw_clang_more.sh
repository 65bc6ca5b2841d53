#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# raw_clang_more.sh -- the instrumentation variants raw_clang.sh does not
# build: programs compiled now with clang-19 (and clang-14 where the feature
# exists), run, and `profbridge show FLAGS` compared byte for byte with
# `llvm-profdata-NN show FLAGS` of the same raw file (the oracle, run now):
#   - coverage mode with MC/DC bitmaps (-fcoverage-mapping -fcoverage-mcdc; 19)
#   - temporal profiling (-mllvm -pgo-temporal-instrumentation; 19),
#     --temporal-profile-traces
#   - function-entry coverage (-mllvm -pgo-function-entry-coverage; 19, 14)
#   - static functions with the same name in two files (19, 14)
#   - a shared library and the executable writing into one file: two
#     profiles back to back (19, 14)
#   - one raw file concatenated to another (`cat a b`; 19)
# For several profiles in one file llvm-profdata show lists every profile's
# records (a function in two profiles appears twice), and so must we; merging
# them (profbridge convert) must give what llvm-profdata-19 merge gives.
set -u
"$PB" show --help 2>&1 | grep -q -- '--all-functions' || { echo "SKIP: this CLI has no 'show' command yet"; exit 77; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT

cat > "$W/mcdc.c" <<'C'
#include <stdio.h>
int decide(int a, int b, int c) { if ((a && b) || c) return 1; return 0; }
int main(int argc, char **argv) {
    (void)argv;
    int s = 0;
    for (int i = 0; i < 8; i++) s += decide(i & 1, i & 2, argc > 5);
    printf("%d\n", s);
    return 0;
}
C
cat > "$W/one.c" <<'C'
static int helper(int x) { return x + 1; }
int from_one(int n) { int s = 0; for (int i = 0; i < n; i++) s += helper(i); return s; }
C
cat > "$W/two.c" <<'C'
#include <stdio.h>
int from_one(int n);
static int helper(int x) { return x * 2; }
int main(int argc, char **argv) {
    (void)argv;
    int s = 0;
    for (int i = 0; i < 5 + argc; i++) s += from_one(i) + helper(i);
    printf("%d\n", s);
    return 0;
}
C

n=0; fail=0; tested=""
compare() { # version flags file
  local v=$1 fl=$2 f=$3 exp got
  # shellcheck disable=SC2086
  exp=$(llvm-profdata-$v show $fl "$f" 2>&1) || { echo "note: llvm-profdata-$v refused: show $fl $(basename "$f")"; return; }
  # shellcheck disable=SC2086
  got=$("$PB" show $fl "$f" 2>&1)
  n=$((n + 1))
  if [ "$exp" != "$got" ]; then
    fail=$((fail + 1)); echo "DIFF (llvm-profdata-$v): show $fl $(basename "$f")"
    diff <(echo "$exp") <(echo "$got") | head -10
  fi
}
FLAGS19=("" "--all-functions --counts" "--all-functions --text" "--detailed-summary" "--binary-ids"
         "--profile-version" "--topn=2" "--covered" "--temporal-profile-traces"
         "--function=helper --counts" "--value-cutoff=3 --list-below-cutoff")
# LLVM 14 prints these as LLVM 19 does (see raw_clang.sh)
FLAGS14=("" "--all-functions --counts" "--all-functions --counts --text" "--topn=2")
compare_all() { # version file
  local v=$1 f=$2 fl
  if [ "$v" = 19 ]; then for fl in "${FLAGS19[@]}"; do compare "$v" "$fl" "$f"; done
  else for fl in "${FLAGS14[@]}"; do compare "$v" "$fl" "$f"; done; fi
}
# build VERSION NAME CLANG-ARGS...: compiles and runs; sets $raw, or returns 1
build() {
  local v=$1 name=$2; shift 2
  clang-$v -O0 "$@" -o "$W/$name" 2>"$W/cc.log" || { echo "note: clang-$v $* failed: $(head -1 "$W/cc.log")"; return 1; }
  raw="$W/$name.profraw"
  LLVM_PROFILE_FILE="$raw" "$W/$name" >/dev/null || { echo "note: $name did not run"; return 1; }
  [ -s "$raw" ] || { echo "note: $name wrote no profile"; return 1; }
}

for v in 19 14; do
  command -v clang-$v >/dev/null && command -v llvm-profdata-$v >/dev/null || { echo "note: clang-$v or llvm-profdata-$v missing"; continue; }
  if [ $v = 19 ]; then
    if build 19 mcdc -fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc "$W/mcdc.c"; then
      tested="$tested mcdc$v"; compare_all $v "$raw"
      # the bitmap really is there (else this case tests nothing new)
      "$PB" dump "$raw" | grep -q 'NumBitmapBytes *[1-9]' || { fail=$((fail + 1)); echo "FAIL: no bitmap bytes in the MC/DC profile"; }
    fi
    if build 19 temporal -fprofile-generate -mllvm -pgo-temporal-instrumentation "$W/mcdc.c"; then
      tested="$tested temporal$v"; compare_all $v "$raw"
      "$PB" show --temporal-profile-traces "$raw" | grep -q 'Temporal Profile Trace 0' || { fail=$((fail + 1)); echo "FAIL: no trace"; }
    fi
  fi
  if build $v entry -fprofile-generate -mllvm -pgo-function-entry-coverage "$W/mcdc.c"; then
    tested="$tested entry-coverage$v"; compare_all $v "$raw"
  fi
  # one executable, two files, a static `helper` in each: two records
  if build $v statics -fprofile-generate "$W/one.c" "$W/two.c"; then
    tested="$tested statics$v"; compare_all $v "$raw"
    [ "$("$PB" show --all-functions "$raw" | grep -c 'helper:')" = 2 ] || { fail=$((fail + 1)); echo "FAIL: expected two helper records"; }
  fi
  # a shared library and the executable write into one file: two profiles
  if clang-$v -O0 -fprofile-generate -fPIC -shared "$W/one.c" -o "$W/libone$v.so" 2>"$W/cc.log" &&
     build $v shared -fprofile-generate "$W/two.c" -L"$W" -lone$v -Wl,-rpath,"$W"; then
    tested="$tested shared-lib$v"; compare_all $v "$raw"
    [ "$("$PB" dump "$raw" | grep -c '^profile [0-9]* at')" = 2 ] || { fail=$((fail + 1)); echo "FAIL: expected two profiles in $raw"; }
  fi
done

if command -v clang-19 >/dev/null && command -v llvm-profdata-19 >/dev/null &&
   build 19 twice -fprofile-generate -mllvm -pgo-temporal-instrumentation -Wl,--build-id "$W/one.c" "$W/two.c"; then
  # the same program twice, different runs, one file after the other
  LLVM_PROFILE_FILE="$W/second.profraw" "$W/twice" a b >/dev/null
  cat "$W/twice.profraw" "$W/second.profraw" > "$W/cat.profraw"
  tested="$tested cat19"; compare_all 19 "$W/cat.profraw"
  # merged: llvm-profdata-19 merge vs profbridge convert, both shown by llvm-profdata-19
  llvm-profdata-19 merge "$W/cat.profraw" -o "$W/llvm.profdata"
  if "$PB" convert "$W/cat.profraw" -o "$W/ours.profdata" 2>"$W/conv.log"; then
    for fl in "--all-functions --counts" "--detailed-summary" "--temporal-profile-traces"; do
      # shellcheck disable=SC2086
      exp=$(llvm-profdata-19 show $fl "$W/llvm.profdata" 2>&1); got=$(llvm-profdata-19 show $fl "$W/ours.profdata" 2>&1)
      n=$((n + 1))
      [ "$exp" == "$got" ] || { fail=$((fail + 1)); echo "DIFF: merged concatenation, show $fl"; diff <(echo "$exp") <(echo "$got") | head; }
    done
  else
    fail=$((fail + 1)); echo "FAIL: convert of the concatenation: $(cat "$W/conv.log")"
  fi
fi
[ -n "$tested" ] || { echo "SKIP: no clang/llvm-profdata pair could build and run a program"; exit 77; }
echo "raw_clang_more:$tested: $((n - fail)) of $n outputs identical"
[ "$fail" -eq 0 ]
