#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# idx_llvm17.sh -- `--llvm-version 17` (indexed v10) against the real
# llvm-profdata-17 (Debian trixie's 17.0.6, fetched by scripts/fetch-llvm.sh:
# bookworm has no LLVM 17). LLVM 17 sorts names like 19 but orders the records
# of one name by DenseMap's Val*37 hash like 14 and 16 (19 mixes the bits);
# its text reader takes temporal traces but rejects the single-byte-coverage
# line, bitmaps and kind-2 sites.
# Oracle: llvm-profdata-17 merge (indexed bytes) and merge --text (text bytes)
# of the same inputs. Checks:
#  - every real raw/indexed/text file of shared/testdata that llvm-profdata-17
#    accepts (llvm-profparser's: each content once), alone: indexed and text
#    bytes identical;
#  - weighted pairs of llvm-real files, with and without --sparse: indexed bytes;
#  - what 17's text cannot hold is left out with a note, and llvm-profdata-17
#    reads the result.
set -euo pipefail
: "${PB:?}" "${PB_SHARED_DIR:?}"
command -v llvm-profdata-17 >/dev/null \
  || { echo "SKIP: llvm-profdata-17 not installed (scripts/fetch-llvm.sh 17)"; exit 77; }
L="$PB_SHARED_DIR/testdata/llvm-real"
[ -d "$L/llvm19" ] || { echo "SKIP: $L absent"; exit 77; }
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
fails=0; checks=0
same() { # same WHAT FILE1 FILE2
  checks=$((checks + 1))
  if ! cmp -s "$2" "$3"; then echo "FAIL: $1"; fails=$((fails + 1)); fi
}

files=("$L"/llvm14/*.profraw "$L"/llvm14/*.profdata "$L"/llvm14/*.proftext "$L"/llvm19/*.proftext \
       "$L"/llvm19/*.profdata)
P="$PB_SHARED_DIR/testdata/llvm-profparser"
if [ -d "$P" ]; then
  . "$PB_SOURCE_DIR/tests/interop/lib/distinct.bash" # each content once (563 files, 108 contents)
  while IFS= read -r f; do files+=("$f"); done \
    < <(find "$P" -type f \( -name '*.profraw' -o -name '*.profdata' -o -name '*.proftext' \) | sort | pb_distinct)
else
  echo "note: $P absent: only llvm-real files are compared"
fi

accepted=0
for f in "${files[@]}"; do
  llvm-profdata-17 merge "$f" -o "$T/l.profdata" 2>/dev/null || continue
  accepted=$((accepted + 1))
  "$PB" merge --llvm-version 17 "$f" -o "$T/p.profdata" 2>/dev/null || true
  same "merge --llvm-version 17 $f" "$T/l.profdata" "$T/p.profdata"
  llvm-profdata-17 merge --text "$f" -o "$T/l.proftext" 2>/dev/null
  "$PB" merge --text --llvm-version 17 --no-keep-vtable-symbols "$f" -o "$T/p.proftext" 2>/dev/null || true
  same "merge --text --llvm-version 17 $f" "$T/l.proftext" "$T/p.proftext"
done
# more than the llvm-real files alone: the oracle must have read a real set
[ "$accepted" -ge 25 ] || { echo "FAIL: llvm-profdata-17 accepted only $accepted inputs"; fails=$((fails + 1)); }

pairs=("$L"/llvm14/*.profraw "$L"/llvm19/*.proftext)
for a in "${pairs[@]}"; do
  for b in "${pairs[@]:0:4}"; do
    for sparse in "" --sparse; do
      # shellcheck disable=SC2086
      llvm-profdata-17 merge $sparse --weighted-input=3,"$a" --weighted-input=2,"$b" -o "$T/l.profdata" 2>/dev/null \
        || continue
      # shellcheck disable=SC2086
      "$PB" merge --llvm-version 17 $sparse --weighted-input 3,"$a" --weighted-input 2,"$b" -o "$T/p.profdata" \
        2>/dev/null || true
      same "merge --llvm-version 17 $sparse 3,$(basename "$a") 2,$(basename "$b")" "$T/l.profdata" "$T/p.profdata"
    done
  done
done

# LLVM 19 text that 17 cannot read: left out with a note, the rest readable by 17.
for x in sbc-fe:single-byte-coverage mcdc-fe:bitmaps vtable-ir:"vtable value sites"; do
  prog="${x%%:*}" what="${x#*:}"
  [ -f "$L/llvm19/$prog.profraw" ] || continue
  checks=$((checks + 1))
  "$PB" merge --text --llvm-version 17 "$L/llvm19/$prog.profraw" -o "$T/p.proftext" 2>"$T/err"
  grep -q "$what.*LLVM 17" "$T/err" || { echo "FAIL: $prog: no note about $what"; fails=$((fails + 1)); }
  llvm-profdata-17 merge "$T/p.proftext" -o "$T/l.profdata" 2>/dev/null \
    || { echo "FAIL: $prog: llvm-profdata-17 cannot read our --llvm-version 17 text"; fails=$((fails + 1)); }
done

echo "$checks checks, $fails failures ($accepted inputs accepted by llvm-profdata-17)"
[ "$fails" -eq 0 ]
