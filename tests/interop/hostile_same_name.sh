#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# hostile_same_name.sh -- issue 23: overlap, overlap --html and diff stay
# n log n in records that share one name (before: each lookup walked every
# record of the name, 60k such records took 51 s; one index sorted by name
# and hash now, pbi_profile_find_name_hash). A small case is compared with
# llvm-profdata-19 overlap (which is itself slow on the big one); the big one
# (30k and 60k records of one name) must finish within a bound.
# Takes about 5 s.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
. "$(dirname "$0")/lib/llvm-tools.bash"
pb_need_llvm 19
cd "$T"
# same_name N STEP MOD: N records "foo", hashes STEP*i, counters i % MOD + 1
same_name() {
  awk -v n="$1" -v step="$2" -v mod="$3" 'BEGIN { for (i = 1; i <= n; i++)
    printf "foo\n# Func Hash:\n%d\n# Num Counters:\n1\n# Counter Values:\n%d\n\n", i * step, i % mod + 1 }'
}
same_name 300 1 7 >a.proftext
same_name 200 2 5 >b.proftext
llvm-profdata-19 merge a.proftext -o a.profdata
llvm-profdata-19 merge b.proftext -o b.profdata
llvm-profdata-19 overlap a.profdata b.profdata >want.txt
run "$PB" overlap a.profdata b.profdata
expect_rc 0 "overlap <300 and 200 records named foo>"
cmp -s want.txt "$T/out" && ok || fail "overlap of one name's records: $(diff want.txt "$T/out" | head -6)"

same_name 60000 1 7 >big_a.proftext
same_name 30000 2 5 >big_b.proftext
llvm-profdata-19 merge big_a.proftext -o big_a.profdata
llvm-profdata-19 merge big_b.proftext -o big_b.profdata
for cmd in "overlap big_a.profdata big_b.profdata" "overlap --html o.html big_a.profdata big_b.profdata" \
           "diff big_a.profdata big_b.profdata"; do
  start=$(date +%s%N)
  # shellcheck disable=SC2086
  run timeout 30 "$PB" $cmd
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  want_rc=0
  case "$cmd" in diff*) want_rc=1 ;; esac # diff: 1 when the profiles differ
  expect_rc "$want_rc" "$cmd <60k and 30k records of one name> (124: past 30 s)"
  [ "$ms" -lt 8000 ] && ok || fail "$cmd on 60k records of one name took $ms ms"
  echo "$cmd: $ms ms"
done
finish
