#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# roundtrip_llvm.sh -- LLVM round trips through the model on real files:
# every real .profraw, .profdata and .proftext of llvm-real/llvm19 and a raw
# profile of a program clang-19 builds now (indirect calls, memcpy sizes) go
#   * to each other format of {raw, indexed, text} (every ordered pair), and
#   * raw sources also through the chain raw -> indexed -> text -> indexed -> raw.
# At every step two oracles:
#   1. the models: profbridge's JSON view of both ends, canonicalised by
#      lib/model_norm.py, must be equal, except for what a format on the path
#      cannot carry (docs/roundtrip.md): text drops binary ids, the
#      function-entry-only flag and vtable names no value references, and
#      a value-profile target without a name comes back as value 0;
#   2. llvm-profdata-19 itself: `merge --text` of both ends (its canonical,
#      name-sorted form; it reads all three formats) must be identical.
set -euo pipefail
: "${PB:?}" "${PB_SHARED_DIR:?}" "${PB_SOURCE_DIR:?}"
L="$PB_SHARED_DIR/testdata/llvm-real/llvm19"
if [ ! -d "$L" ]; then echo "SKIP: $L absent"; exit 77; fi
command -v llvm-profdata-19 >/dev/null || { echo "SKIP: llvm-profdata-19 not installed"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
NORM="$PB_SOURCE_DIR/tests/interop/lib/model_norm.py"
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
fails=0; checks=0

sources=("$L"/*.profraw "$L"/*.profdata "$L"/*.proftext)
if command -v clang-19 >/dev/null; then
  cat > "$T/prog.c" <<'C'
#include <string.h>
int add(int a, int b) { return a + b; }
int sub(int a, int b) { return a - b; }
int mul(int a, int b) { return a * b; }
static int helper(int x) { return x * 3; }
int main(int argc, char **argv) {
    (void)argv;
    int (*ops[3])(int, int) = {add, sub, mul};
    char src[300], dst[300];
    memset(src, argc, sizeof src);
    int acc = 0;
    for (int i = 0; i < 200; i++) {
        acc += ops[(i * 7 + argc) % 3](acc, i);
        memcpy(dst, src, (size_t)(i * 13 % 300));
        if (i % 10 == 0) acc ^= helper(i);
    }
    return (acc + dst[0]) & 1;
}
C
  if clang-19 -O1 -fprofile-generate -Wl,--build-id "$T/prog.c" -o "$T/prog" 2>/dev/null; then
    LLVM_PROFILE_FILE="$T/clang.profraw" "$T/prog" || true
    [ -s "$T/clang.profraw" ] && sources+=("$T/clang.profraw")
  fi
else
  echo "note: clang-19 missing, no freshly built raw profile"
fi

ext() { case "$1" in raw) echo profraw ;; indexed) echo profdata ;; text) echo proftext ;; esac; }
fmt() { case "$1" in *.profraw) echo raw ;; *.profdata) echo indexed ;; *.proftext) echo text ;; esac; }

# side FILE LOSSY PREFIX: both oracles' views of FILE, PREFIX.norm (the
# canonical model) and PREFIX.txt (llvm-profdata-19's text), LOSSY=1 leaving
# out what text cannot carry.
side() {
  local f="$1" lossy="$2" p="$3" o=()
  [ "$lossy" = 1 ] && o=(--no-binary-ids --no-entry-only-flag --only-referenced-symbols --unnamed-targets-zero)
  "$PB" convert "$f" --to json -o "$p.json" 2>/dev/null
  python3 "$NORM" "${o[@]}" "$p.json" > "$p.norm"
  llvm-profdata-19 merge --num-threads=1 --text "$f" -o "$p.txt" 2>/dev/null
  if [ "$lossy" = 1 ]; then # the flag text cannot carry
    sed -i '/^:instrument_function_entry_only$/d' "$p.txt"
  fi
}
# compare WHAT A B LOSSY: both oracles for files A and B (LOSSY=1: text was on
# the path). A's side is made once for each (A, LOSSY): a source is compared
# with up to eight files, and every start costs on the CI's machines.
a_done=""
compare() {
  local what="$1" a="$2" b="$3" lossy="$4"
  checks=$((checks + 2))
  if [ "$a_done" != "$a|$lossy" ]; then side "$a" "$lossy" "$T/a"; a_done="$a|$lossy"; fi
  side "$b" "$lossy" "$T/b"
  if ! cmp -s "$T/a.norm" "$T/b.norm"; then
    echo "FAIL: model: $what"; diff "$T/a.norm" "$T/b.norm" | head -6 || true; fails=$((fails + 1))
  fi
  if ! cmp -s "$T/a.txt" "$T/b.txt"; then
    echo "FAIL: llvm-profdata-19 merge --text: $what"; diff "$T/a.txt" "$T/b.txt" | head -6 || true; fails=$((fails + 1))
  fi
}

for s in "${sources[@]}"; do
  a_done="" # the files below are written again for each source
  from="$(fmt "$s")"; name="$(basename "$s")"
  for to in raw indexed text; do
    [ "$to" = "$from" ] && continue
    out="$T/pair.$(ext "$to")"
    "$PB" convert "$s" -o "$out" 2>/dev/null
    lossy=0; [ "$to" = text ] || [ "$from" = text ] && lossy=1
    [ "$from" = text ] && lossy=0 # nothing to lose that the source had
    compare "$name -> $to" "$s" "$out" "$lossy"
  done
  if [ "$from" = raw ]; then
    "$PB" convert "$s" -o "$T/c1.profdata" 2>/dev/null
    "$PB" convert "$T/c1.profdata" -o "$T/c2.proftext" 2>/dev/null
    "$PB" convert "$T/c2.proftext" -o "$T/c3.profdata" 2>/dev/null
    "$PB" convert "$T/c3.profdata" -o "$T/c4.profraw" 2>/dev/null
    compare "$name chain: raw -> indexed" "$s" "$T/c1.profdata" 0
    compare "$name chain: -> text" "$s" "$T/c2.proftext" 1
    compare "$name chain: -> indexed" "$s" "$T/c3.profdata" 1
    compare "$name chain: -> raw" "$s" "$T/c4.profraw" 1
    compare "$name chain: text -> raw end (no loss after text)" "$T/c2.proftext" "$T/c4.profraw" 0
  fi
done
echo "$checks checks on ${#sources[@]} sources, $fails failures"
[ "$fails" -eq 0 ]
