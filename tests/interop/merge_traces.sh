#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# merge_traces.sh -- temporal profile traces through `merge`: llvm-profdata
# keeps at most --temporal-profile-trace-reservoir-size traces (100), sampled
# with its own random numbers (std::mt19937, libstdc++'s distribution,
# llvm::shuffle), so byte-identical output needs the same draws.
# Oracle: llvm-profdata-19 merge --num-threads=1 (and llvm-profdata-17 on
# text inputs, when installed) on the same inputs, indexed bytes.
# Inputs: 260 raw profiles of one program built here by clang-19 with
# -pgo-temporal-instrumentation, each run taking another path; sets below and
# above the reservoir, sampled .profdata/.proftext merged with each other and
# with raws, weights, other reservoir sizes and trace lengths, 1 and 2 threads.
set -euo pipefail
: "${PB:?}"
for t in clang-19 llvm-profdata-19; do
  command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
cd "$T"
cat > prog.c <<'EOF'
#include <stdlib.h>
static int a(int x) { return x + 1; }
static int b(int x) { return x * 2; }
static int c(int x) { return x - 3; }
static int d(int x) { return x ^ 5; }
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 0, r = 0;
  switch (n % 5) {
  case 0: r = b(a(n)); break;
  case 1: r = a(c(n)); break;
  case 2: r = c(b(d(n))); break;
  case 3: r = d(b(n)); break;
  default: r = n;
  }
  return r & 1;
}
EOF
if ! clang-19 -O0 -fprofile-generate -mllvm -pgo-temporal-instrumentation prog.c -o prog 2>cc.err; then
  echo "SKIP: clang-19 cannot build a temporal-instrumented program: $(head -c 300 cc.err)"; exit 77
fi
for i in $(seq 1 260); do LLVM_PROFILE_FILE="run$(printf %03d "$i").profraw" ./prog "$i" || true; done
ls run*.profraw > /dev/null

fails=0; checks=0
check() { # check TOOL WHAT ARGS... : llvm TOOL and profbridge on ARGS
  local tool="$1" what="$2" ver=19; shift 2
  [ "$tool" = llvm-profdata-17 ] && ver=17
  checks=$((checks + 1))
  "$tool" merge --num-threads=1 "$@" -o l.profdata 2>/dev/null || { echo "FAIL: $what: $tool failed"; fails=$((fails + 1)); return; }
  for n in 1 2; do
    "$PB" merge --num-threads "$n" --llvm-version "$ver" "$@" -o p.profdata 2>/dev/null \
      || { echo "FAIL: $what: profbridge failed"; fails=$((fails + 1)); return; }
    cmp -s l.profdata p.profdata || { echo "FAIL: $what ($n threads) != $tool"; fails=$((fails + 1)); }
  done
}
first=(run00*.profraw run01*.profraw run020.profraw)   # 20 runs: below the reservoir
A=(run0*.profraw run10*.profraw run11*.profraw)        # 119: sampled
B=(run1[2-9]*.profraw run2*.profraw)                   # 141: sampled
check llvm-profdata-19 "20 raws" "${first[@]}"
check llvm-profdata-19 "119 raws" "${A[@]}"
check llvm-profdata-19 "141 raws" "${B[@]}"
llvm-profdata-19 merge --num-threads=1 "${A[@]}" -o a.profdata
llvm-profdata-19 merge --num-threads=1 "${B[@]}" -o b.profdata
llvm-profdata-19 merge --text a.profdata -o a.proftext
llvm-profdata-19 merge --text b.profdata -o b.proftext
check llvm-profdata-19 "sampled + sampled" a.profdata b.profdata
check llvm-profdata-19 "sampled + sampled, other order" b.profdata a.profdata
check llvm-profdata-19 "raw + sampled + raws" run001.profraw a.profdata run002.profraw run003.profraw
check llvm-profdata-19 "weighted raws and sampled" --weighted-input=3,a.profdata --weighted-input=2,run005.profraw b.proftext
check llvm-profdata-19 "reservoir 10" --temporal-profile-trace-reservoir-size=10 "${A[@]}"
check llvm-profdata-19 "reservoir 7, sampled inputs" --temporal-profile-trace-reservoir-size=7 a.profdata b.profdata run009.profraw
check llvm-profdata-19 "trace length 2" --temporal-profile-max-trace-length=2 "${first[@]}"
check llvm-profdata-19 "trace length 0" --temporal-profile-max-trace-length=0 run001.profraw run002.profraw
if command -v llvm-profdata-17 >/dev/null; then
  check llvm-profdata-17 "17: sampled text + sampled text" a.proftext b.proftext
  check llvm-profdata-17 "17: reservoir 5" --temporal-profile-trace-reservoir-size=5 b.proftext a.proftext a.proftext
else
  echo "note: llvm-profdata-17 absent (scripts/fetch-llvm.sh 17): LLVM 17 not compared"
fi
echo "$checks checks, $fails failures"
[ "$fails" -eq 0 ]
