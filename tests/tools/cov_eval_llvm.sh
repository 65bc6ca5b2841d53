#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The evaluator against llvm-cov-N export on real programs: for every
# program P built by clang-N in a coverage corpus (tests' cov-corpus:
# N/P/OBJECTS, N/P/cov.profdata), cov_eval_dump (reader + profile +
# evaluator) and `llvm-cov-N export` must agree on every file's segments,
# branches, MC/DC records and summary and every function's name, count,
# regions, branches and filenames (tests/tools/cov_eval_compare.py).
#
#   cov_eval_llvm.sh DUMP CORPUS [RELEASES...]
# With PB_COV_EVAL_CROSS=1, llvm-cov-N also reads the programs of every
# other release's clang (where llvm-cov-N accepts them).
# Exits 77 when the corpus or the tools are missing.
set -u
dump=$1 corpus=${PB_COV_CORPUS:-$2}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
[[ -x $dump && -f $corpus/COMPLETE ]] || { echo "no corpus or driver: skipped"; exit 77; }
releases=("$@")
((${#releases[@]})) || releases=(13 14 15 16 17 18 19 21 22 23 24)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
for n in "${releases[@]}"; do
  command -v "llvm-cov-$n" >/dev/null || continue
  if [[ ${PB_COV_EVAL_CROSS:-0} == 1 ]]; then dirs=("$corpus"/*/*/); else dirs=("$corpus/$n"/*/); fi
  for dir in "${dirs[@]}"; do
    [[ -f $dir/OBJECTS && -f $dir/cov.profdata ]] || continue
    p=$(basename "$(dirname "$dir")")/$(basename "$dir")
    mapfile -t objs < <(sed "s|^|$dir|" "$dir/OBJECTS")
    args=("${objs[0]}")
    for o in "${objs[@]:1}"; do args+=(-object "$o"); done
    if ! "llvm-cov-$n" export -instr-profile="$dir/cov.profdata" "${args[@]}" >"$work/llvm.json" 2>/dev/null; then
      echo "skip $p by llvm-cov-$n: it fails"
      continue
    fi
    if ! "$dump" "$n" "$dir/cov.profdata" "${objs[@]}" >"$work/ours.json" 2>"$work/err"; then
      echo "FAIL $p by llvm-cov-$n: driver: $(head -c 300 "$work/err")"
      fail=$((fail + 1))
      continue
    fi
    if python3 "$here/cov_eval_compare.py" "$work/llvm.json" "$work/ours.json" >"$work/diff"; then
      pass=$((pass + 1))
    else
      echo "FAIL $p by llvm-cov-$n:"
      head -5 "$work/diff" | cut -c1-400
      fail=$((fail + 1))
    fi
  done
done
echo "cov_eval_llvm: $pass agree, $fail differ"
((fail == 0 && pass > 0)) || exit 1
