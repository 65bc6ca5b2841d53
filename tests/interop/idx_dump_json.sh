#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# idx_dump_json.sh -- `profbridge dump --json` of indexed files. Oracle:
# llvm-profdata-19 merge --text of the same file; the (name, hash, counters)
# of every record in the dump must be those of llvm-profdata's text, for
# every real .profdata (llvm-real v7/v12, llvm-profparser v1-v10). A damaged
# record still gives valid JSON whose "problem" names the byte offset, exit 1.
set -euo pipefail
: "${PB:?}" "${PB_SHARED_DIR:?}"
R="$PB_SHARED_DIR/testdata/llvm-real"
P="$PB_SHARED_DIR/testdata/llvm-profparser/tests/data/profdata"
if [ ! -d "$R/llvm19" ]; then echo "SKIP: $R absent"; exit 77; fi
command -v llvm-profdata-19 >/dev/null || { echo "SKIP: llvm-profdata-19 not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
fails=0; checks=0
files=("$R"/llvm19/*.profdata "$R"/llvm14/*.profdata)
# llvm-profparser's 47 .profdata hold 14 contents: each once (lib/distinct.bash)
. "$PB_SOURCE_DIR/tests/interop/lib/distinct.bash"
[ -d "$P" ] && while IFS= read -r f; do files+=("$f"); done < <(find "$P" -name '*.profdata' | sort | pb_distinct)
cat > "$T/cmp.py" <<'PY'
import json, sys
dump = json.load(open(sys.argv[1]))
mine = sorted((k["name"], int(r["hash"], 16), [int(c) for c in r["counters"]])
              for k in dump["keys"] for r in k["records"])
lines = open(sys.argv[2], encoding="latin-1").read().split("\n")
theirs = []
for i, l in enumerate(lines):
    if l == "# Func Hash:":
        n = int(lines[i + 3])
        theirs.append((lines[i - 1], int(lines[i + 1]), [int(x) for x in lines[i + 5:i + 5 + n]]))
theirs.sort()
assert dump["problem"] is None, dump["problem"]
if mine != theirs:
    print("differ:", [x for x in mine if x not in theirs][:2], [x for x in theirs if x not in mine][:2])
    sys.exit(1)
PY
for f in "${files[@]}"; do
  llvm-profdata-19 merge --num-threads=1 --text "$f" -o "$T/l.proftext" 2>/dev/null || continue
  checks=$((checks + 1))
  if ! "$PB" dump --json "$f" > "$T/d.json" 2>"$T/err" || ! python3 "$T/cmp.py" "$T/d.json" "$T/l.proftext"; then
    echo "FAIL: dump --json $f"; head -3 "$T/err"; fails=$((fails + 1))
  fi
done
# damaged (the 3rd key's first record gets 0 counters): valid JSON with the
# keys before it, the problem with its byte offset, exit status 1
f="$R/llvm19/many-ir.profdata"
"$PB" dump --json "$f" > "$T/ok.json"
python3 - "$f" "$T/ok.json" "$T/bad.profdata" <<'PY'
import json, sys
d = json.load(open(sys.argv[2]))
b = bytearray(open(sys.argv[1], "rb").read())
at = d["keys"][2]["dataOffset"] + 8  # FuncHash, then NumCounters
b[at:at + 8] = bytes(8)
open(sys.argv[3], "wb").write(b)
PY
rc=0; "$PB" dump --json "$T/bad.profdata" > "$T/bad.json" 2>/dev/null || rc=$?
checks=$((checks + 1))
if [ "$rc" != 1 ] || ! python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["keys"]) == 2 and "byte 0x" in d["problem"] and "NumCounters" in d["problem"], d["problem"]' "$T/bad.json"; then
  echo "FAIL: damaged file: exit $rc, JSON: $(tail -c 300 "$T/bad.json")"; fails=$((fails + 1))
fi
echo "$checks checks, $fails failures"
[ "$fails" -eq 0 ]
