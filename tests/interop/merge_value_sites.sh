#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# merge_value_sites.sh -- value sites merged as llvm-profdata merges them
# (src/merge/profile_merge.c: small sites of distinct values without the
# sorts by value, the others sorted as the release sorts): random memop-size
# sites with count ties, weights and repeated values
# (lib/gen_value_sites.py), four inputs merged at --num-threads 1, bytes
# compared with llvm-profdata-N of every release on PATH among 14, 18, 19
# (std::sort from 19) and 24.
set -euo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}"
# shellcheck source=lib/cli-common.bash
. "$PB_SOURCE_DIR/tests/interop/lib/cli-common.bash"
# shellcheck source=lib/llvm-tools.bash
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
releases=()
for n in 14 18 19 24; do command -v "llvm-profdata-$n" >/dev/null 2>&1 && releases+=("$n"); done
if [ ${#releases[@]} -eq 0 ]; then echo "SKIP: none of llvm-profdata-14, -18, -19, -24 on PATH"; exit 77; fi
gen="$PB_SOURCE_DIR/tests/interop/lib/gen_value_sites.py"
for s in $(seq 1 15); do
  /usr/bin/python3 "$gen" "$s" "$T/a.proftext"
  /usr/bin/python3 "$gen" "$((s + 1000))" "$T/b.proftext"
  /usr/bin/python3 "$gen" "$((s + 2000))" "$T/c.proftext"
  ins=("$T/a.proftext" --weighted-input=3,"$T/b.proftext" "$T/c.proftext" "$T/a.proftext")
  for n in "${releases[@]}"; do
    "llvm-profdata-$n" merge --num-threads=1 "${ins[@]}" -o "$T/llvm.profdata" 2>/dev/null
    run "$PB" merge --num-threads 1 --llvm-version "$n" "${ins[@]}" -o "$T/pb.profdata"
    if [ "$rc" -ne 0 ]; then fail "seed $s, llvm $n: exit $rc: $(head -c 300 "$T/err")"
    elif cmp -s "$T/llvm.profdata" "$T/pb.profdata"; then ok
    else fail "seed $s: bytes differ from llvm-profdata-$n's"; fi
  done
done
finish
