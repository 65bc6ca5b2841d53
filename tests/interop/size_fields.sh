#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# size_fields.sh -- work bounded by the input (issue 12, item 3). Every size
# or count field of each format that drives a loop or an allocation (raw
# header counts and sizes, a data record's NumCounters, NumValueSites and
# NumBitmapBytes, binary-id lengths, value data sizes; indexed summary
# counts, bucket and entry counts, key and data lengths, record counts, value
# data, binary ids, temporal trace counts and StreamSize, vtable names; the
# text format's `# Num ...` counts; the ULEB128 lengths of a names chunk,
# compressed or not; every integer of JSON and iprof files) is set to 2^30,
# 2^32 and 2^64-1 in real small files, and validate, show and `merge F F` must each end within 20 s
# with a result or a clean error naming the offset
# (tests/interop/lib/size_fields.py; offsets from the layout headers).
# Also: a 1 MB indexed file whose vtable names inflate 1000:1 is refused
# quickly, and `show --topn 2147483647` prints what llvm-profdata-19 prints.
set -uo pipefail
: "${PB:?}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
shared="${PB_SHARED_DIR:-$here/../../../shared}"
L="$shared/testdata/llvm-real/llvm19"
command -v python3 >/dev/null || { echo "SKIP: python3 is not on PATH"; exit 77; }
[ -d "$L" ] || { echo "SKIP: $L is missing"; exit 77; }
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
failures=0
export PB_SOURCE_DIR="${PB_SOURCE_DIR:-$here/../..}"
python3 "$here/lib/size_fields.py" "$PB" "$T" 20 \
  raw:"$L/vtable-ir.profraw" raw:"$L/mcdc-fe.profraw" raw:"$L/temporal-ir.profraw" \
  indexed:"$L/temporal-ir.profdata" indexed:"$L/vtable-ir.profdata" indexed:"$L/mcdc-fe.profdata" \
  text:"$L/vtable-ir.proftext" text:"$L/mcdc-fe.proftext" || failures=$((failures + 1))

# The two ULEB128 lengths heading a names chunk (raw names and vtable names,
# an indexed file's vtable names), and every count, id and size of JSON and
# iprof files: the JSON files are profbridge's view of real LLVM and iprof
# files (a temporal profile's streamSize and traces among them).
src="${PB_SOURCE_DIR:-$here/../..}"
for f in "$L/temporal-ir.profdata" "$L/vtable-ir.profdata" "$src/testdata/samples/fib-doc.iprof"; do
  "$PB" convert "$f" -o "$T/$(basename "$f" | tr . -).json" || { echo "FAIL: convert $f -o JSON"; failures=$((failures + 1)); }
done
python3 "$here/lib/size_fields.py" "$PB" "$T" 20 \
  names:"$L/vtable-ir.profraw" names:"$L/vtable-ir.profdata" \
  json:"$T/temporal-ir-profdata.json" json:"$T/vtable-ir-profdata.json" json:"$T/fib-doc-iprof.json" \
  json:"$src/testdata/samples/fib-doc.iprof" json:"$src/testdata/types/receivers.iprof" \
  json:"$src/testdata/types/samples.iprof" || failures=$((failures + 1))

# Compressed vtable names: ~1 MB of zlib chunks, each inflating ~1000:1
# into one long name, in the vtable-names section of a real indexed file.
python3 - "$L/vtable-ir.profdata" "$T/bomb.profdata" <<'PY' || { echo "FAIL: could not build the names bomb"; exit 1; }
import sys, zlib, os
sys.path.insert(0, os.path.join(os.environ["PB_SOURCE_DIR"], "tests/interop/lib"))
import layouts as L
b = bytearray(open(sys.argv[1], "rb").read())
h = L.idx_header_offsets(L.u64(b, 8) & 0xFFFFFFFF)
off = L.u64(b, h["vtable_names_offset"])
def uleb(n):
    out = bytearray()
    while True:
        c, n = n & 0x7F, n >> 7
        out.append(c | (0x80 if n else 0))
        if not n:
            return out
chunk = zlib.compress(b"v" * (1 << 20), 9)
one = uleb(1 << 20) + uleb(len(chunk)) + chunk
blob = one * ((1 << 20) // len(one))
b[off:] = L.u64.__globals__["struct"].pack("<Q", len(blob)) + blob
open(sys.argv[2], "wb").write(b)
PY
start=$(date +%s)
timeout 20 "$PB" show "$T/bomb.profdata" >"$T/out" 2>"$T/err"; rc=$?
if [ "$rc" -ge 3 ] || [ $(( $(date +%s) - start )) -gt 15 ]; then
  echo "FAIL: 1 MB of compressed vtable names: show exits $rc after $(( $(date +%s) - start )) s"; failures=$((failures + 1))
elif ! grep -q "inflate" "$T/err"; then
  echo "FAIL: 1 MB of compressed vtable names: no word about the inflation: $(head -c 300 "$T/err")"; failures=$((failures + 1))
fi

if command -v llvm-profdata-19 >/dev/null; then
  llvm-profdata-19 show --topn 2147483647 "$L/basic-ir.profdata" >"$T/want" 2>&1
  if ! "$PB" show --topn 2147483647 "$L/basic-ir.profdata" >"$T/got" 2>&1 || ! cmp -s "$T/want" "$T/got"; then
    echo "FAIL: show --topn 2147483647 differs from llvm-profdata-19:"; diff "$T/want" "$T/got" | head -5
    failures=$((failures + 1))
  fi
else
  echo "note: llvm-profdata-19 missing: --topn not compared"
fi
[ "$failures" -eq 0 ] && echo "size_fields: all passed"
[ "$failures" -eq 0 ]
