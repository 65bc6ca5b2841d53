#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# idx_llvm_interop.sh -- the indexed and text plugins and `profbridge merge`
# against llvm-profdata-14/-19 run now (the oracle). Every comparison is cmp:
#  * convert X.profdata -> same version: identical to X (written by LLVM);
#  * convert X.proftext -> .proftext: identical; X.profdata -> .proftext
#    (--no-keep-vtable-symbols): identical to X.proftext;
#  * text -> indexed: identical to llvm-profdata merge of the text;
#  * merge of several inputs (indexed, text and, if the raw plugin is built
#    in, raw), weighted, sparse, -f lists: identical to llvm-profdata merge
#    --num-threads=1 of the same inputs, indexed and --text;
#  * premerge_1 + premerge_2 (raw v8) with --llvm-version 14: identical to
#    the shipped merged.profdata.
set -euo pipefail
: "${PB:?}" "${PB_SHARED_DIR:?}"
R="$PB_SHARED_DIR/testdata/llvm-real"
P="$PB_SHARED_DIR/testdata/llvm-profparser/tests/data/profdata"
if [ ! -d "$R/llvm19" ]; then echo "SKIP: $R absent"; exit 77; fi
if ! command -v llvm-profdata-19 >/dev/null || ! command -v llvm-profdata-14 >/dev/null; then
  echo "SKIP: llvm-profdata-14/-19 not installed"; exit 77
fi
if ! "$PB" merge --help >/dev/null 2>&1; then echo "SKIP: this profbridge has no merge subcommand"; exit 77; fi
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
fails=0; checks=0
same() { # same WHAT FILE1 FILE2
  checks=$((checks + 1))
  if ! cmp -s "$2" "$3"; then echo "FAIL: $1: $(cmp "$2" "$3" 2>&1 | head -1)"; fails=$((fails + 1)); fi
}
ver() { case "$1" in llvm14/*) echo 14 ;; *) echo 19 ;; esac; }
L=$R/llvm19; K=$R/llvm14

for f in "$R"/llvm19/*.profdata "$R"/llvm14/*.profdata; do
  stem="${f#"$R"/}"; stem="${stem%.profdata}"; v=$(ver "$stem"); iv=$([ "$v" = 14 ] && echo 7 || echo 12)
  "$PB" convert "$f" -o "$T/a.profdata" --indexed-version "$iv" 2>/dev/null
  same "convert $stem.profdata (v$iv)" "$f" "$T/a.profdata"
  "$PB" convert "$f" -o "$T/a.proftext" --llvm-version "$v" --no-keep-vtable-symbols 2>/dev/null
  same "convert $stem.profdata -> text" "$R/$stem.proftext" "$T/a.proftext"
  "$PB" convert "$R/$stem.proftext" -o "$T/b.proftext" --llvm-version "$v" 2>/dev/null
  same "convert $stem.proftext -> text" "$R/$stem.proftext" "$T/b.proftext"
  llvm-profdata-"$v" merge "$R/$stem.proftext" -o "$T/l.profdata"
  "$PB" convert "$R/$stem.proftext" -o "$T/b.profdata" --llvm-version "$v" 2>/dev/null
  same "text -> indexed $stem vs llvm-profdata-$v" "$T/l.profdata" "$T/b.profdata"
done

# Every version we write is read by llvm-profdata-19 (<= 12) with the same
# `show` output; v13/v14 (no local LLVM reads them) come back to the same v12 bytes.
for f in vtable-ir mcdc-fe temporal-ir cs-merged basic-ir many-ir; do
  llvm-profdata-19 show --all-functions --counts --ic-targets --memop-sizes "$L/$f.profdata" > "$T/o.txt"
  for iv in 4 7 8 9 10 11 12 13 14; do
    "$PB" convert "$L/$f.profdata" -o "$T/v.profdata" --indexed-version "$iv" 2>/dev/null
    if [ "$iv" -le 12 ]; then
      llvm-profdata-19 show --all-functions --counts --ic-targets --memop-sizes "$T/v.profdata" > "$T/s.txt" 2>&1 || true
      same "llvm-profdata-19 show of $f written as v$iv" "$T/o.txt" "$T/s.txt"
    else
      "$PB" convert "$T/v.profdata" -o "$T/back.profdata" --indexed-version 12 2>/dev/null
      same "$f v$iv back to v12" "$L/$f.profdata" "$T/back.profdata"
    fi
  done
  "$PB" convert "$L/$f.profdata" -o "$T/v7.profdata" --llvm-version 14 2>/dev/null
  checks=$((checks + 1))
  llvm-profdata-14 show --all-functions --counts "$T/v7.profdata" >/dev/null 2>&1 || { echo "FAIL: llvm-profdata-14 cannot read $f as v7"; fails=$((fails + 1)); }
done

merge_both() { # merge_both V ARGS...: llvm-profdata-V merge vs profbridge merge, indexed and text
  local v="$1"; shift
  # profbridge keeps vtable names by default: llvm-profdata-19's --keep-vtable-symbols
  local keep=(); [ "$v" = 19 ] && keep=(--keep-vtable-symbols)
  llvm-profdata-"$v" merge --num-threads=1 "${keep[@]}" "$@" -o "$T/l.profdata" 2>/dev/null
  "$PB" merge --llvm-version "$v" "$@" -o "$T/o.profdata" 2>/dev/null
  same "merge (llvm $v) $*" "$T/l.profdata" "$T/o.profdata"
  llvm-profdata-"$v" merge --num-threads=1 --text "${keep[@]}" "$@" -o "$T/l.proftext" 2>/dev/null
  "$PB" merge --llvm-version "$v" --text "$@" -o "$T/o.proftext" 2>/dev/null
  same "merge --text (llvm $v) $*" "$T/l.proftext" "$T/o.proftext"
}
merge_both 19 "$L/many-ir.profdata" "$L/simple-ir.profdata" "$L/static-ir.profdata"
merge_both 19 "$L/basic-ir.profdata" "$L/many-ir.proftext" "$L/cs-merged.profdata"
merge_both 19 --weighted-input=3,"$L/basic-ir.profdata" "$L/many-ir.profdata"
merge_both 19 --sparse "$L/many-ir.profdata" "$L/simple-ir.profdata"
# An IR and a front-end profile merge (llvm-profdata 14 and 19 accept it and write IR).
merge_both 19 "$L/many-ir.profdata" "$L/basic-fe.profdata"
merge_both 19 "$L/basic-fe.proftext" "$L/simple-ir.profdata"
merge_both 14 "$K/many-ir.profdata" "$K/simple-ir.proftext" "$K/static-ir.profdata"
merge_both 14 --weighted-input=5,"$K/basic-ir.profdata" "$K/cs-merged.profdata"
printf '%s\n# comment\n2,%s\n' "$L/simple-ir.profdata" "$L/static-ir.profdata" > "$T/list"
merge_both 19 -f "$T/list" "$L/basic-ir.profdata"


# Saturation (LLVM 14: 2^64-1, 19: 2^64-3) and the summaries' special-count rules.
printf ':ir\nf\n1\n2\n18446744073709551610\n3\n\ng\n2\n1\n18446744073709551615\n' > "$T/sat.proftext"
merge_both 14 "$T/sat.proftext" "$T/sat.proftext"
merge_both 19 "$T/sat.proftext" "$T/sat.proftext"
merge_both 14 --weighted-input=7,"$T/sat.proftext"
merge_both 19 --weighted-input=7,"$T/sat.proftext"

# --keep-vtable-symbols: 300 vtable names (StringSet order, zlib level 9).
awk 'BEGIN { srand(3); print ":ir";
  for (r = 0; r < 30; r++) { printf "fn%d\n%d\n1\n100\n1\n2\n1\n10\n", r, r + 1;
    for (k = 0; k < 10; k++) { i = (r * 10 + k) % 300; x = ""; for (j = 0; j < i % 31; j++) x = x "x";
      printf "_ZTV%dClass%s:%d\n", i, x, 1 + int(rand() * 50) } print "" } }' > "$T/vt.proftext"
llvm-profdata-19 merge --keep-vtable-symbols "$T/vt.proftext" -o "$T/vt-l.profdata"
"$PB" merge --keep-vtable-symbols "$T/vt.proftext" -o "$T/vt-o.profdata" 2>/dev/null
same "merge --keep-vtable-symbols of 300 vtable names" "$T/vt-l.profdata" "$T/vt-o.profdata"
"$PB" convert "$T/vt-l.profdata" -o "$T/vt-c.profdata" 2>/dev/null
same "convert keeps a --keep-vtable-symbols file's bytes" "$T/vt-l.profdata" "$T/vt-c.profdata"
llvm-profdata-19 merge --keep-vtable-symbols "$T/vt-l.profdata" -o "$T/vt-ll.profdata"
"$PB" merge --keep-vtable-symbols "$T/vt-l.profdata" -o "$T/vt-oo.profdata" 2>/dev/null
same "merge --keep-vtable-symbols of that .profdata" "$T/vt-ll.profdata" "$T/vt-oo.profdata"

if "$PB" convert "$L/simple-ir.profraw" -o "$T/r.profdata" >/dev/null 2>&1; then
  merge_both 19 "$L/basic-ir.profraw" "$L/simple-ir.profraw" "$L/many-ir.profraw" "$L/concat-ir.profraw"
  merge_both 19 "$L/vtable-ir.profraw" "$L/temporal-ir.profraw"
  # --no-keep-vtable-symbols: llvm-profdata-19's default (empty vtable-names section)
  llvm-profdata-19 merge --num-threads=1 "$L/vtable-ir.profraw" -o "$T/l.profdata" 2>/dev/null
  "$PB" merge --no-keep-vtable-symbols "$L/vtable-ir.profraw" -o "$T/o.profdata" 2>/dev/null
  same "merge --no-keep-vtable-symbols vtable-ir.profraw" "$T/l.profdata" "$T/o.profdata"
  llvm-profdata-19 merge --num-threads=1 --text "$L/vtable-ir.profraw" -o "$T/l.proftext" 2>/dev/null
  "$PB" merge --no-keep-vtable-symbols --text "$L/vtable-ir.profraw" -o "$T/o.proftext" 2>/dev/null
  same "merge --no-keep-vtable-symbols --text vtable-ir.profraw" "$T/l.proftext" "$T/o.proftext"
  llvm-profdata-19 merge --num-threads=1 --keep-vtable-symbols "$L/vtable-ir.profraw" -o "$T/l.profdata"
  "$PB" merge --keep-vtable-symbols "$L/vtable-ir.profraw" -o "$T/o.profdata" 2>/dev/null
  same "merge --keep-vtable-symbols vtable-ir.profraw" "$T/l.profdata" "$T/o.profdata"
  merge_both 19 "$L/mcdc-fe.profraw" "$L/basic-fe.profraw"
  merge_both 14 "$K/many-ir.profraw" "$K/static-ir.profraw" "$K/basic-ir.profraw"
  if [ -d "$P/misc" ]; then
    "$PB" merge --llvm-version 14 "$P/misc/premerge_1.profraw" "$P/misc/premerge_2.profraw" -o "$T/m.profdata" 2>/dev/null
    same "premerge_1+2 vs shipped merged.profdata" "$P/misc/merged.profdata" "$T/m.profdata"
    merge_both 14 --sparse "$P/misc/stable.profraw" "$P/misc/stable2.profraw"
    merge_both 14 "$P"/misc/multibin_merge/*.profraw
  fi
else
  echo "note: raw inputs skipped (no raw plugin built in)"
fi
# LLVM 16 (indexed v9): StringMap key order and x*37 record order as 14, but
# pseudo counts, summary and saturation (2^64-3) as 19 -- checked here against
# llvm-profdata-16 itself when it is installed.
if command -v llvm-profdata-16 >/dev/null; then
  for f in "$L"/*.proftext "$K"/*.proftext; do
    llvm-profdata-16 merge --num-threads=1 "$f" -o "$T/l16.profdata" 2>/dev/null || continue # 16 rejects newer text
    "$PB" merge --llvm-version 16 "$f" -o "$T/o16.profdata" 2>/dev/null
    same "merge --llvm-version 16 $(basename "$f") vs llvm-profdata-16" "$T/l16.profdata" "$T/o16.profdata"
  done
  merge_16() {
    llvm-profdata-16 merge --num-threads=1 "$@" -o "$T/l16.profdata" 2>/dev/null
    "$PB" merge --llvm-version 16 "$@" -o "$T/o16.profdata" 2>/dev/null
    same "merge --llvm-version 16 $*" "$T/l16.profdata" "$T/o16.profdata"
    llvm-profdata-16 merge --num-threads=1 --text "$@" -o "$T/l16.proftext" 2>/dev/null
    "$PB" merge --llvm-version 16 --text "$@" -o "$T/o16.proftext" 2>/dev/null
    same "merge --llvm-version 16 --text $*" "$T/l16.proftext" "$T/o16.proftext"
  }
  merge_16 "$T/sat.proftext" "$T/sat.proftext"
  merge_16 --weighted-input=7,"$T/sat.proftext"
  merge_16 --weighted-input=3,"$K/many-ir.proftext" "$K/cs-merged.profdata" "$K/simple-ir.profdata"
  if "$PB" convert "$K/simple-ir.profraw" -o "$T/r.profdata" >/dev/null 2>&1; then
    merge_16 "$K/many-ir.profraw" "$K/static-ir.profraw" "$K/basic-ir.profraw"
    [ -d "$P/misc" ] && merge_16 --sparse "$P/misc/stable.profraw" "$P/misc/stable2.profraw"
    [ -d "$P/misc" ] && merge_16 "$P"/misc/multibin_merge/*.profraw
  fi
else
  echo "note: llvm-profdata-16 not installed, LLVM 16 rules not checked"
fi
echo "$checks checks, $fails failures"
[ "$fails" -eq 0 ]
