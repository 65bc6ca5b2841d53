#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# show_big_record.sh -- show --all-functions --counts writes a record of at most
# 4096 counters through one reservation of its text bound and a bigger one piece
# by piece (src/analysis/show_llvm_listing.c): functions on both sides of that
# limit (and small ones), front-end and IR, raw and indexed, each printed as
# llvm-profdata-19 prints it (run now on clang-19's files).
set -u
for t in clang-19 llvm-profdata-19; do
  command -v "$t" >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done
PB=$(realpath "$PB")
# shellcheck source=lib/common.bash
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"
W="$T"
G="$PB_SOURCE_DIR/tests/interop/lib/gen_many_branches.py"
{
  /usr/bin/python3 "$G" 4094 near && /usr/bin/python3 "$G" 4096 at && /usr/bin/python3 "$G" 4200 over &&
    /usr/bin/python3 "$G" 3 small
  echo 'int main(int c, char **v) { (void)v; return (near(c * 50) + at(c * 7) + over(c * 99) + small(c)) & 1; }'
} > "$W/b.c" || { echo "FAIL: generating the program"; exit 1; }
for kind in fe ir; do
  flag=-fprofile-instr-generate; [ "$kind" = ir ] && flag=-fprofile-generate
  clang-19 -O0 "$flag" "$W/b.c" -o "$W/b-$kind" || { echo "FAIL: clang-19 $flag"; exit 1; }
  (cd "$W" && LLVM_PROFILE_FILE="$W/$kind.profraw" "./b-$kind") || true
  llvm-profdata-19 merge "$W/$kind.profraw" -o "$W/$kind.profdata" || { echo "FAIL: llvm-profdata-19 merge"; exit 1; }
  for f in "$kind.profraw" "$kind.profdata"; do
    for fl in "--all-functions --counts" "--all-functions" "--function=over --counts" "--all-functions --counts --ic-targets"; do
      # shellcheck disable=SC2086
      want=$(cd "$W" && llvm-profdata-19 show $fl "$f" 2>&1)
      # shellcheck disable=SC2086
      got=$(cd "$W" && "$PB" show --llvm-version 19 $fl "$f" 2>&1)
      same_text "show $fl $f" "$want" "$got"
    done
  done
done
# the limit really is crossed: 4201 counters in one record
if grep -q 'Counters: 4201' <(cd "$W" && "$PB" show --all-functions ir.profdata); then ok; else fail "no 4201-counter record"; fi
finish
