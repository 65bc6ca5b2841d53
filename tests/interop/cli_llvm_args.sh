#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli_llvm_args.sh -- a command parsed by src/cli/llvm_args.c (order) takes
# LLVM's spellings: -x=v, --x=v, -x v, booleans -x / -x=false, an @response
# file; a mistyped option is exit 2 with "did you mean" and the usage line,
# never a file name. Inputs: a text profile with one temporal trace.
set -uo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
fails=0
fail() { echo "cli_llvm_args.sh: FAIL: $*" >&2; fails=$((fails + 1)); }
cat > in.proftext <<'T'
:ir
main
0x1
1
1

T
"$PB" order in.proftext > want 2>/dev/null || { echo "cli_llvm_args.sh: FAIL: order of a text profile failed" >&2; exit 1; }
for spell in "-output=o1" "--output=o1" "-output o1" "-o o1" "-o=o1" "--output o1"; do
  rm -f o1
  # shellcheck disable=SC2086
  "$PB" order in.proftext $spell || fail "order $spell: status $?"
  cmp -s o1 want || fail "order $spell: o1 is not the order"
done
rm -f o1 ./utput=o1
"$PB" order -lenient -o o1 in.proftext && cmp -s o1 want || fail "boolean -lenient"
"$PB" order --lenient=false -o o1 in.proftext && cmp -s o1 want || fail "boolean --lenient=false"
"$PB" order -lenient=maybe in.proftext 2>/dev/null; [ $? = 2 ] || fail "-lenient=maybe must be a usage error"
printf '%s\n' "-o 'o 2' in.proftext" > args.rsp
"$PB" order @args.rsp && cmp -s "o 2" want || fail "@response file"
"$PB" order -outptu=o3 in.proftext 2>err; st=$?
[ $st = 2 ] || fail "mistyped option: status $st, want 2"
grep -q "did you mean '--output'?" err || fail "no suggestion: $(cat err)"
grep -q '^Usage: profbridge order' err || fail "no usage line: $(cat err)"
ls | grep -q utput && fail "a mistyped option made a file"
"$PB" order -hot-func-list in.proftext >/dev/null 2>&1; [ $? = 2 ] || fail "-hot-func-list must be unknown to order, not -h"
echo "cli_llvm_args.sh: $fails failures"
[ $fails = 0 ]
