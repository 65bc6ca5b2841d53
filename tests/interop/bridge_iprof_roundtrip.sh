#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bridge_iprof_roundtrip.sh -- iprof -> every LLVM target -> iprof (issue 5 §3).
# Oracles: llvm-profdata-19/-14 must read every output and show the Java
# names; the round trip is compared with lib/iprof_canon.py, a Python reader
# of iprof that resolves ids to names (no profbridge code), run on the
# ORIGINAL file and on the result. Inputs: the real 0.4.0 file (skipped when
# absent) and lib/iprof_gen.py's hostile-name profile. Older targets (indexed
# v7, raw v8, text for LLVM 14) lose exactly the type histograms: the result
# must equal the original with every histogram emptied, and the writer must
# say so on stderr. Every iprof we write is validated against the 1.1.0 schema.
set -euo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}" "${PB_SHARED_DIR:?}"
L="$PB_SOURCE_DIR/tests/interop/lib"
SCHEMA="$PB_SHARED_DIR/spec/iprof-schema/iprof-v1.1.0.schema.json"
REAL="$PB_SHARED_DIR/testdata/iprof-real/assorted-benchmarks_7c5c717_default.v0.4.0.iprof"
for t in llvm-profdata-19 llvm-profdata-14 python3; do
  command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || { echo "SKIP: python3-jsonschema not installed"; exit 77; }
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
failures=0; checks=0
check() { checks=$((checks + 1)); }
valid() { # valid FILE...: schema-valid iprof 1.1.0
  check
  /usr/bin/python3 "$L/schema_check.py" "$SCHEMA" "$@" >/dev/null || fail "schema: $*"
}

inputs=("$T/hostile.iprof")
python3 "$L/iprof_gen.py" hostile "$T/hostile.iprof"
if [ -f "$REAL" ]; then inputs+=("$REAL"); else echo "note: $REAL absent, real-file round trips skipped"; fi

for in in "${inputs[@]}"; do
  name=$(basename "$in")
  python3 "$L/iprof_canon.py" "$in" > "$T/orig.canon"
  python3 "$L/iprof_canon.py" --no-histograms "$in" > "$T/orig.nohist.canon"
  # target | convert options | reader | what must survive
  while IFS='|' read -r out opts reader keep; do
    rm -f "$T/$out" "$T/back.iprof"
    check
    # shellcheck disable=SC2086
    if ! "$PB" convert "$in" -o "$T/$out" $opts 2> "$T/err"; then fail "$name -> $out: $(cat "$T/err")"; continue; fi
    check
    if ! "$reader" show --all-functions --counts --ic-targets $([ "$reader" = llvm-profdata-19 ] && echo --show-vtables) \
         "$T/$out" > "$T/show" 2>&1; then
      fail "$reader show $name -> $out: $(head -3 "$T/show")"
    elif ! grep -q '^  jcall:' "$T/show" || ! grep -q '^  jmeta:version:' "$T/show"; then
      fail "$reader show $name -> $out lists no Java/meta record names"
    fi
    check
    "$PB" convert "$T/$out" -o "$T/back.iprof" 2>/dev/null || { fail "$out -> iprof"; continue; }
    valid "$T/back.iprof"
    check
    python3 "$L/iprof_canon.py" "$T/back.iprof" > "$T/back.canon"
    if [ "$keep" = all ]; then
      cmp -s "$T/orig.canon" "$T/back.canon" || fail "$name -> $out -> iprof differs: $(diff "$T/orig.canon" "$T/back.canon" | head -4 | tr '\n' ' ')"
    else
      cmp -s "$T/orig.nohist.canon" "$T/back.canon" || fail "$name -> $out -> iprof differs beyond the histograms"
      check
      grep -q 'pairs of [0-9]* virtualInvoke/instanceOf/monitor entries are lost' "$T/err" || fail "$name -> $out: no notice about the dropped type histograms"
    fi
  done <<'TARGETS'
a.profdata||llvm-profdata-19|all
a.profraw|--raw-version 10|llvm-profdata-19|all
a.proftext||llvm-profdata-19|all
a7.profdata|--llvm-version 14|llvm-profdata-14|nohist
a8.profraw|--raw-version 8|llvm-profdata-14|nohist
a14.proftext|--llvm-version 14|llvm-profdata-14|nohist
TARGETS
done
# Lenient placeholders (%#id tokens in names and jmeta lists) and the legacy
# 0.2.0 layout: the iprof written directly and the one via .profdata are the
# same bytes (the Python oracle above cannot resolve dangling ids).
for f in elidemin-jspy_4c59df4_default.iprof binary-tree_ff318ed_default.v0.2.0.iprof; do
  src="$PB_SHARED_DIR/testdata/iprof-real/$f"
  [ -f "$src" ] || continue
  check
  "$PB" convert --lenient "$src" -o "$T/direct.iprof" 2>/dev/null
  "$PB" convert --lenient "$src" -o "$T/l.profdata" 2>/dev/null
  "$PB" convert "$T/l.profdata" -o "$T/via.iprof" 2>/dev/null
  cmp -s "$T/direct.iprof" "$T/via.iprof" || fail "$f -> .profdata -> iprof differs from $f -> iprof"
done
# llvm-profdata-14 show of a .proftext reads it as text; make sure v14 text also merges
check
"$PB" convert "$T/hostile.iprof" -o "$T/h14.proftext" --llvm-version 14 2>/dev/null
llvm-profdata-14 merge "$T/h14.proftext" -o "$T/h14.profdata" 2>"$T/err" || fail "llvm-profdata-14 merge of text for 14: $(cat "$T/err")"
echo "$checks checks, $failures failures"
[ "$failures" -eq 0 ]
