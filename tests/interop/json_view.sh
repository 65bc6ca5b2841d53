#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The JSON view of the model: schema-valid (checked by python3-jsonschema against
# docs/profbridge-model.schema.json) and lossless (iprof -> json -> iprof gives the
# same bytes as iprof -> iprof).
set -euo pipefail
: "${PB:?} ${PB_SOURCE_DIR:?}"
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || { echo "SKIP: python3-jsonschema is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inputs=("$PB_SOURCE_DIR/testdata/samples/fib-doc.iprof")
real="${PB_SHARED_DIR:-$PB_SOURCE_DIR/../shared}/testdata/iprof-real/assorted-benchmarks_7c5c717_default.v0.4.0.iprof"
if [ -f "$real" ]; then inputs+=("$real"); else echo "note: $real absent, checking the bundled sample only"; fi
for in in "${inputs[@]}"; do
  "$PB" convert "$in" -o "$work/a.json"
  /usr/bin/python3 "$PB_SOURCE_DIR/tests/interop/lib/schema_check.py" --model "$PB_SOURCE_DIR/docs/profbridge-model.schema.json" "$work/a.json"
  "$PB" convert "$in" -o "$work/direct.iprof"
  "$PB" convert "$work/a.json" -o "$work/via-json.iprof"
  cmp "$work/direct.iprof" "$work/via-json.iprof"
  "$PB" convert --to json "$work/via-json.iprof" -o "$work/b.out"
  cmp "$work/a.json" "$work/b.out"
  echo "ok: $(basename "$in")"
done
