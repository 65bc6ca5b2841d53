#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# merge_fe_ir.sh -- which front-end and IR inputs `merge` accepts together,
# per LLVM release (issue 10, item 2; src/llvm/target.h FE_IR_MIX_REFUSED,
# FE_TEXT_HEADER_CONFLICT; docs/indexed.md "Front-end and IR inputs").
# Inputs we make: a program built with each release's clang, once with
# -fprofile-instr-generate (front-end raw) and once with -fprofile-generate
# (IR raw), both merged to indexed by that release, and hand-written
# .proftext files with ':fe', ':ir' and no header.
# Every ordered pair (and a few triples) is merged by llvm-profdata-N and by
# `profbridge merge --llvm-version N` with --num-threads 1 (llvm-profdata's
# threads keep one kind per thread), under each --failure-mode the release
# has; exit status, the refusal message and the merged --text must agree.
# Sampled (pb_cell, lib/llvm-tools.bash): each release runs one (input set,
# failure mode) cell in three, its neighbours the others; PB_TEST_FULL=1
# runs all.
set -uo pipefail
: "${PB:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash" # pb_cell
sampled=0
checks=0; failures=0; releases=()

cat >"$T/prog.c" <<'EOF'
int add(int a, int b) { return a + b; }
int main(int argc, char **argv) {
  int s = 0;
  for (int i = 0; i < 10 + argc; i++) s = add(s, i);
  (void)argv;
  return s == 0;
}
EOF
printf ':fe\nadd\n24\n1\n7\n' >"$T/fe.proftext"
printf 'add\n24\n1\n7\n' >"$T/nohdr.proftext"
printf ':ir\nadd\n0x123\n2\n7\n1\n' >"$T/ir.proftext"

for v in 13 14 15 16 17 18 19 21 22 23 24; do
  command -v "llvm-profdata-$v" >/dev/null && command -v "clang-$v" >/dev/null || continue
  # our merge must act as this release
  "$PB" merge --llvm-version "$v" "$T/fe.proftext" -o "$T/x.proftext" --text >"$T/v.err" 2>&1
  if grep -q "wants" "$T/v.err"; then echo "note: profbridge merge cannot act as LLVM $v yet: skipped"; continue; fi
  d="$T/$v"; mkdir -p "$d"
  (cd "$d" && "clang-$v" -O0 -fprofile-instr-generate "$T/prog.c" -o fe 2>/dev/null &&
     LLVM_PROFILE_FILE="$d/fe.profraw" ./fe &&
     "clang-$v" -O0 -fprofile-generate "$T/prog.c" -o ir 2>/dev/null && LLVM_PROFILE_FILE="$d/ir.profraw" ./ir) ||
    { echo "note: clang-$v could not build the program: release $v skipped"; continue; }
  releases+=("$v")
  modes=(any all)
  "llvm-profdata-$v" merge --failure-mode=warn "$T/fe.proftext" -o /dev/null 2>/dev/null && modes+=(warn)
  # indexed inputs written by the release itself (a front-end one has no kind bit either)
  "llvm-profdata-$v" merge "$d/fe.profraw" -o "$d/fe.profdata" && "llvm-profdata-$v" merge "$d/ir.profraw" -o "$d/ir.profdata" ||
    { fail "llvm-profdata-$v cannot merge its clang's raw files"; continue; }
  ins=("$d/fe.profraw" "$d/ir.profraw" "$d/fe.profdata" "$d/ir.profdata" "$T/fe.proftext" "$T/nohdr.proftext"
       "$T/ir.proftext")
  sets=()
  for a in "${ins[@]}"; do for b in "${ins[@]}"; do [ "$a" != "$b" ] && sets+=("$a $b"); done; done
  sets+=("$d/fe.profraw $T/fe.proftext $d/ir.profraw" "$T/nohdr.proftext $T/fe.proftext $T/fe.proftext"
         "$d/fe.profraw $d/ir.profraw $T/fe.proftext" "$d/fe.profdata $T/fe.proftext $d/fe.profraw")
  for si in "${!sets[@]}"; do
    set="${sets[$si]}"
    for mi in "${!modes[@]}"; do
      m="${modes[$mi]}"
      pb_cell 3 "$si" "$mi" "$v" || { sampled=$((sampled + 1)); continue; }
      # shellcheck disable=SC2086
      "llvm-profdata-$v" merge --num-threads 1 --failure-mode=$m --text $set -o "$T/llvm.txt" >"$T/llvm.err" 2>&1; lrc=$?
      # shellcheck disable=SC2086
      "$PB" merge --llvm-version "$v" --num-threads 1 --failure-mode=$m --text --no-keep-vtable-symbols \
        $set -o "$T/pb.txt" >"$T/pb.err" 2>&1; prc=$?
      checks=$((checks + 1))
      what="llvm $v $m: ${set//$T\//}"
      if [ "$lrc" != "$prc" ]; then
        fail "$what: exit llvm $lrc, ours $prc: $(head -c 300 "$T/pb.err")"; continue
      fi
      if grep -q "Merge IR generated profile with Clang generated profile" "$T/llvm.err" &&
         ! grep -q "Merge IR generated profile with Clang generated profile" "$T/pb.err"; then
        fail "$what: llvm refused an input, we did not say so: $(head -c 300 "$T/pb.err")"
      fi
      if [ "$lrc" = 0 ] && ! cmp -s "$T/llvm.txt" "$T/pb.txt"; then
        fail "$what: merged text differs"; diff "$T/llvm.txt" "$T/pb.txt" | head -8
      fi
    done
  done
done
[ "${#releases[@]}" -gt 0 ] || { echo "SKIP: no llvm-profdata-N with its clang-N that profbridge can act as"; exit 77; }
echo "merge_fe_ir.sh: $checks checks against llvm-profdata ${releases[*]}, $failures failed" \
  "($sampled cells left to other releases; PB_TEST_FULL=1 runs them)"
[ "$failures" -eq 0 ]
