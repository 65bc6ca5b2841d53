#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bridge_llvm_roundtrip.sh -- LLVM -> iprof -> LLVM is lossless (issue 5 §2).
# Oracles are files and tools of LLVM, never our own earlier output:
#  * every .profdata written by llvm-profdata-14 (v7) and -19 (v12) in
#    testdata/llvm-real: X -> iprof -> same version gives X's bytes;
#  * every raw input (llvm-real, llvm-profparser if present, each content once): raw -> indexed
#    directly and raw -> iprof -> indexed give the same bytes;
#  * every other LLVM input the readers accept (llvm-profparser .profdata of
#    all versions, .proftext): the via-iprof .profdata has the same bytes as
#    the direct one and, where llvm-profdata-19 reads the input, the same
#    `show --all-functions --counts --ic-targets --memop-sizes` as the input
#    (checked only where the direct conversion shows the same, so the test
#    blames the bridge alone);
#  * every iprof written is valid against the iprof 1.1.0 JSON schema.
set -euo pipefail
: "${PB:?}" "${PB_SHARED_DIR:?}"
R="$PB_SHARED_DIR/testdata/llvm-real"
P="$PB_SHARED_DIR/testdata/llvm-profparser/tests/data"
SCHEMA="$PB_SHARED_DIR/spec/iprof-schema/iprof-v1.1.0.schema.json"
[ -d "$R/llvm19" ] || { echo "SKIP: $R absent"; exit 77; }
for t in llvm-profdata-19 python3; do
  command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || { echo "SKIP: python3-jsonschema not installed"; exit 77; }
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
fails=0; checks=0; n=0
same() { # same WHAT A B
  checks=$((checks + 1))
  cmp -s "$2" "$3" || { echo "FAIL: $1"; fails=$((fails + 1)); }
}
to_iprof() { # to_iprof IN: writes $T/i<n>.iprof (kept for the schema check)
  n=$((n + 1))
  "$PB" convert "$1" -o "$T/i$n.iprof" 2>/dev/null || { echo "FAIL: $1 -> iprof"; fails=$((fails + 1)); return 1; }
}
show() { llvm-profdata-19 show --all-functions --counts --ic-targets --memop-sizes "$1" > "$2" 2>&1; }

for f in "$R"/llvm19/*.profdata "$R"/llvm14/*.profdata; do
  case "$f" in */llvm14/*) iv=7 ;; *) iv=12 ;; esac
  to_iprof "$f" || continue
  "$PB" convert "$T/i$n.iprof" -o "$T/back.profdata" --indexed-version "$iv" 2>/dev/null
  same "${f#"$R"/} -> iprof -> v$iv is not the same bytes" "$f" "$T/back.profdata"
done

raws=("$R"/llvm19/*.profraw "$R"/llvm14/*.profraw)
others=("$R"/llvm19/*.proftext "$R"/llvm14/*.proftext)
if [ -d "$P" ]; then
  # each distinct file once (lib/distinct.bash: 563 files, 108 contents)
  . "$PB_SOURCE_DIR/tests/interop/lib/distinct.bash"
  while IFS= read -r f; do raws+=("$f"); done < <(find "$P" -name '*.profraw' | sort | pb_distinct)
  while IFS= read -r f; do others+=("$f"); done < <(find "$P" -name '*.profdata' -o -name '*.proftext' | sort | pb_distinct)
else
  echo "note: $P absent, llvm-profparser inputs skipped"
fi
for f in "${raws[@]}" "${others[@]}"; do
  # inputs our readers refuse (sample profiles, broken files) are not the bridge's
  "$PB" convert "$f" -o "$T/direct.profdata" 2>/dev/null || continue
  to_iprof "$f" || continue
  "$PB" convert "$T/i$n.iprof" -o "$T/via.profdata" 2>/dev/null || { echo "FAIL: $f: iprof -> indexed"; fails=$((fails + 1)); continue; }
  same "${f#"$PB_SHARED_DIR"/}: via iprof differs from direct" "$T/direct.profdata" "$T/via.profdata"
  case "$f" in *.profraw) continue ;; esac
  show "$f" "$T/o.txt" || continue
  show "$T/direct.profdata" "$T/d.txt" || true
  cmp -s "$T/o.txt" "$T/d.txt" || continue
  show "$T/via.profdata" "$T/v.txt" || true
  same "${f#"$PB_SHARED_DIR"/}: llvm-profdata-19 show via iprof differs" "$T/o.txt" "$T/v.txt"
done

checks=$((checks + 1))
/usr/bin/python3 "$PB_SOURCE_DIR/tests/interop/lib/schema_check.py" "$SCHEMA" "$T"/i*.iprof || { echo "FAIL: schema"; fails=$((fails + 1)); }
echo "$checks checks, $fails failures"
[ "$fails" -eq 0 ]
