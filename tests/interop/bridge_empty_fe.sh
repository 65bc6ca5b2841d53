#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bridge_empty_fe.sh -- profiles without records keep their kind through iprof
# (issue 10, item 5): LLVM -> iprof -> LLVM of an empty front-end profile gave
# an IR profile (version word 0x050000000000000c instead of 0xc).
# Inputs are hand-written .proftext files; the oracle is llvm-profdata-19
# (indexed and text bytes of `merge`), and -14 for the v7 indexed file.
set -uo pipefail
: "${PB:?}"
command -v llvm-profdata-19 >/dev/null || { echo "SKIP: llvm-profdata-19 not installed"; exit 77; }
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
checks=0; failures=0
# check NAME: LLVM -> iprof -> LLVM equals LLVM -> LLVM (indexed and text)
check() {
  local n="$1" f="$T/$1.proftext"
  llvm-profdata-19 merge "$f" -o "$T/$n.profdata" || { fail "$n: llvm-profdata-19 refused it"; return; }
  llvm-profdata-19 merge --text "$f" -o "$T/$n.llvm.proftext"
  "$PB" convert "$T/$n.profdata" -o "$T/$n.iprof" 2>"$T/err" || { fail "$n: to iprof: $(cat "$T/err")"; return; }
  "$PB" convert "$T/$n.iprof" -o "$T/$n.back.profdata" 2>"$T/err" || { fail "$n: from iprof: $(cat "$T/err")"; return; }
  "$PB" convert "$T/$n.iprof" --to text -o "$T/$n.back.proftext" 2>"$T/err" || { fail "$n: to text: $(cat "$T/err")"; return; }
  checks=$((checks + 2))
  cmp -s "$T/$n.profdata" "$T/$n.back.profdata" ||
    fail "$n: indexed via iprof differs: version word $(od -An -tx8 -j8 -N8 "$T/$n.back.profdata"), llvm $(od -An -tx8 -j8 -N8 "$T/$n.profdata")"
  cmp -s "$T/$n.llvm.proftext" "$T/$n.back.proftext" || fail "$n: text via iprof differs from llvm-profdata-19 --text"
  # the text route: .proftext -> iprof -> .profdata
  "$PB" convert "$f" -o "$T/$n.t.iprof" 2>/dev/null && "$PB" convert "$T/$n.t.iprof" -o "$T/$n.t.profdata" 2>/dev/null
  checks=$((checks + 1))
  cmp -s "$T/$n.profdata" "$T/$n.t.profdata" || fail "$n: text -> iprof -> indexed differs from llvm-profdata-19 merge"
  if command -v llvm-profdata-14 >/dev/null; then
    llvm-profdata-14 merge "$f" -o "$T/$n.14.profdata"
    "$PB" convert --indexed-version 7 "$T/$n.iprof" -o "$T/$n.back14.profdata" 2>/dev/null ||
      "$PB" convert "$T/$n.iprof" -o "$T/$n.back14.profdata" --llvm-version 14 2>/dev/null
    checks=$((checks + 1))
    cmp -s "$T/$n.14.profdata" "$T/$n.back14.profdata" || fail "$n: v7 indexed via iprof differs from llvm-profdata-14's"
  fi
}
printf ':fe\n' >"$T/fe-empty.proftext"
printf '# nothing but a comment\n' >"$T/noheader-empty.proftext"
printf ':ir\n' >"$T/ir-empty.proftext"
printf ':csir\n' >"$T/csir-empty.proftext"
printf ':ir\n:entry_first\n' >"$T/entry-empty.proftext"
for n in fe-empty noheader-empty ir-empty csir-empty entry-empty; do check "$n"; done
echo "bridge_empty_fe.sh: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
