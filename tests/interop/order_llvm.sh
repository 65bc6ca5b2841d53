#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# order_llvm.sh -- `profbridge order` against the real `llvm-profdata order`
# of every installed release 17..24: the same bytes on stdout (and, for
# LLVM 17, which prints its count as a note, on stderr).
# Oracle: llvm-profdata-N order on the same input file.
# Inputs:
#  1. a program of 80 functions built here by clang-19 with
#     -pgo-temporal-instrumentation, run 120 times, each run calling the
#     functions in another order: 1 raw, merges of 1, 5 and 120 runs (the
#     last sampled down to 100 traces), their .proftext, --num-test-traces,
#     a profile without traces (LLVM 19); and the same program built by
#     each other release's clang-N, 1 raw and a merge of 12 runs;
#  2. random trace sets (tests/interop/data/order_traces_gen.py) of 2..200
#     functions and 1..150 traces, as .proftext and as the .profdata each
#     release's own merge makes of it, for every release installed.
set -euo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}"
GEN="$PB_SOURCE_DIR/tests/interop/data/order_traces_gen.py"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
releases=()
for v in 17 18 19 20 21 22 23 24; do command -v "llvm-profdata-$v" >/dev/null && releases+=("$v"); done
[ "${#releases[@]}" -gt 0 ] || { echo "SKIP: no llvm-profdata-17..24 installed"; exit 77; }
echo "releases compared: ${releases[*]}"
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
cd "$T"

fails=0; checks=0
check() { # check RELEASE WHAT ARGS... : llvm-profdata-RELEASE order ARGS vs profbridge
  local v="$1" what="$2"; shift 2
  checks=$((checks + 1))
  if ! "llvm-profdata-$v" order "$@" >l.out 2>l.err; then
    echo "FAIL: $what: llvm-profdata-$v order failed: $(head -c 300 l.err)"; fails=$((fails + 1)); return
  fi
  if ! "$PB" order --llvm-version "$v" "$@" >p.out 2>p.err; then
    echo "FAIL: $what: profbridge order --llvm-version $v failed: $(head -c 300 p.err)"; fails=$((fails + 1)); return
  fi
  if ! cmp -s l.out p.out; then
    echo "FAIL: $what: output differs from llvm-profdata-$v:"; diff l.out p.out | head -10; fails=$((fails + 1))
  elif [ "$v" = 17 ] && ! cmp -s l.err p.err; then
    echo "FAIL: $what: stderr differs from llvm-profdata-17: $(cat l.err) / $(cat p.err)"; fails=$((fails + 1))
  fi
}

# ---- 1. a real temporal-instrumented program (clang-19, LLVM 19's formats)
if command -v clang-19 >/dev/null && command -v llvm-profdata-19 >/dev/null; then
  python3 - <<'PY' > prog.c
n = 80
print("#include <stdlib.h>")
print("typedef int (*fn)(int);")
for i in range(n):
    storage = "static " if i % 3 == 0 else ""
    print("%sint g%d(int x) { return x * %d + 1; }" % (storage, i, i + 1))
print("static fn table[%d] = {%s};" % (n, ", ".join("g%d" % i for i in range(n))))
print("""int main(int argc, char **argv) {
  unsigned s = argc > 1 ? (unsigned)atoi(argv[1]) : 1, r = 0;
  int phase = (int)(s %% 4) * %d;
  for (int k = 0; k < %d; k++) {
    s = s * 1103515245u + 12345u;
    int i = (phase + k + (int)((s >> 16) %% 3)) %% %d;
    if ((s >> 8) %% 5) r += (unsigned)table[i]((int)r);
  }
  return (int)(r & 1);
}""" % (n // 4, n, n))
PY
  if clang-19 -O0 -fprofile-generate -mllvm -pgo-temporal-instrumentation prog.c -o prog 2>cc.err; then
    for i in $(seq 1 120); do LLVM_PROFILE_FILE="run$(printf %03d "$i").profraw" ./prog "$i" || true; done
    llvm-profdata-19 merge run001.profraw -o one.profdata
    llvm-profdata-19 merge run00[1-5].profraw -o five.profdata
    llvm-profdata-19 merge run*.profraw -o all.profdata
    llvm-profdata-19 merge --text all.profdata -o all.proftext
    clang-19 -O0 -fprofile-generate prog.c -o plain
    LLVM_PROFILE_FILE=plain.profraw ./plain 7 || true
    llvm-profdata-19 merge plain.profraw -o notraces.profdata
    check 19 "one raw" run001.profraw
    check 19 "1 run" one.profdata
    check 19 "5 runs" five.profdata
    check 19 "120 runs (100 traces kept)" all.profdata
    check 19 "120 runs, text" all.proftext
    check 19 "120 runs, 1 test trace" --num-test-traces=1 all.profdata
    check 19 "120 runs, 7 test traces" --num-test-traces=7 all.profdata
    check 19 "5 runs, 4 test traces, -o" five.profdata --num-test-traces=4
    check 19 "no traces" notraces.profdata
    llvm-profdata-19 merge --text notraces.profdata -o notraces.proftext
    check 19 "no traces, text" notraces.proftext
    # -o writes the same bytes
    llvm-profdata-19 order all.profdata -o l.order; "$PB" order all.profdata -o p.order
    checks=$((checks + 1)); cmp -s l.order p.order || { echo "FAIL: -o output differs"; fails=$((fails + 1)); }
    for v in "${releases[@]}"; do # the text merge of the program's runs, through each release
      [ "$v" = 19 ] && continue
      "llvm-profdata-$v" merge all.proftext -o "all$v.profdata" 2>/dev/null || continue
      check "$v" "120 runs, text, LLVM $v" all.proftext
      check "$v" "120 runs, LLVM $v's merge" "all$v.profdata"
    done
  else
    echo "note: clang-19 cannot build a temporal-instrumented program ($(head -c 200 cc.err)); part 1 skipped"
  fi
else
  echo "note: clang-19 or llvm-profdata-19 absent: part 1 (a real program) skipped"
fi

# ---- 1b. the same program built by each release's own clang: its raw files
# (one trace each) and their merge, through that release's llvm-profdata
if [ -f prog.c ]; then
  for v in "${releases[@]}"; do
    [ "$v" = 19 ] && continue
    command -v "clang-$v" >/dev/null || { echo "note: clang-$v absent: its raw files not compared"; continue; }
    if ! "clang-$v" -O0 -fprofile-generate -mllvm -pgo-temporal-instrumentation prog.c -o "prog$v" 2>/dev/null; then
      echo "note: clang-$v cannot build a temporal-instrumented program"; continue
    fi
    for i in $(seq 1 12); do LLVM_PROFILE_FILE="c$v-$(printf %02d "$i").profraw" "./prog$v" "$i" || true; done
    "llvm-profdata-$v" merge "c$v"-*.profraw -o "c$v.profdata"
    check "$v" "clang-$v raw" "c$v-03.profraw"
    check "$v" "clang-$v, 12 runs" "c$v.profdata"
  done
fi

# ---- 2. random trace sets through every release
for seed in $(seq 1 14); do
  nf=$(( (seed * 53) % 199 + 2 )); nt=$(( (seed * 29) % 150 + 1 ))
  [ "$seed" = 1 ] && nf=2
  python3 "$GEN" "$seed" "$nf" "$nt" > "r$seed.proftext"
  for v in "${releases[@]}"; do
    check "$v" "random $seed ($nf functions, $nt traces), text" "r$seed.proftext"
    "llvm-profdata-$v" merge "r$seed.proftext" -o "r$seed-$v.profdata" 2>/dev/null \
      || { echo "FAIL: llvm-profdata-$v cannot merge r$seed.proftext"; fails=$((fails + 1)); continue; }
    check "$v" "random $seed ($nf functions, $nt traces), indexed" "r$seed-$v.profdata"
    if [ "$v" -ge 19 ] && [ "$nt" -gt 3 ]; then
      check "$v" "random $seed, 3 test traces" --num-test-traces=3 "r$seed.proftext"
    fi
  done
done

# ---- 3. refusals: what llvm-profdata refuses, profbridge refuses (usage errors, exit 2)
refuse() { # refuse WHAT ARGS...
  local what="$1"; shift
  checks=$((checks + 1))
  set +e; "$PB" order "$@" >/dev/null 2>p.err; local rc=$?; set -e
  [ "$rc" = 2 ] || { echo "FAIL: $what: exit status $rc, expected 2"; fails=$((fails + 1)); }
}
refuse "as LLVM 16 (no order before 17)" --llvm-version 16 r2.proftext
refuse "--num-test-traces as LLVM 18 (no such option)" --llvm-version 18 --num-test-traces=1 r2.proftext
nt2=$(( (2 * 29) % 150 + 1 ))
refuse "--num-test-traces = all traces" "--num-test-traces=$nt2" r2.proftext
grep -q "expected: < $nt2, actual: $nt2" p.err || { echo "FAIL: --num-test-traces message: $(cat p.err)"; fails=$((fails + 1)); }
refuse "two inputs" r1.proftext r2.proftext

echo "$checks checks, $fails failures"
[ "$fails" -eq 0 ]
