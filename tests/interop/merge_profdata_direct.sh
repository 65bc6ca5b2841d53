#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# merge_profdata_direct.sh -- .profdata inputs merged straight from the
# mapped file (formats/indexed/indexed_read.c, merge_direct: no model of the
# input; its check walk on the worker at -j2) give llvm-profdata-N merge's
# bytes. For every release N on PATH, .profdata of N's own index version are
# made with llvm-profdata-N from text profiles of different programs (the
# 301-function many-ir, basic and concat, value-site profiles with repeated
# names and count ties from lib/gen_value_sites.py, one with vtable names
# that takes the model path), overlapping and disjoint, and merged, weighted,
# at --num-threads 1 and 2 (writer contexts), by llvm-profdata-N and by
# profbridge --llvm-version N: the bytes must be the same. Then a damaged
# .profdata in the middle (records cut short): it fails before anything of
# it is merged, at -j1 and -j2; and a key stored under a wrong hash: the
# model read's warning, llvm-profdata-N's bytes.
set -euo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}" "${PB_SHARED_DIR:?}"
# shellcheck source=lib/cli-common.bash
. "$PB_SOURCE_DIR/tests/interop/lib/cli-common.bash"
# shellcheck source=lib/llvm-tools.bash
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
src="$PB_SHARED_DIR/testdata/llvm-real/llvm19"
[ -f "$src/many-ir.proftext" ] || { echo "SKIP: $src is absent"; exit 77; }
read -r -a releases <<<"$(pb_llvm_releases)"
if [ ${#releases[@]} -eq 0 ]; then echo "SKIP: no llvm-profdata-N on PATH"; exit 77; fi
gen="$PB_SOURCE_DIR/tests/interop/lib/gen_value_sites.py"
for s in 1 2 3; do /usr/bin/python3 "$gen" "$s" "$T/v$s.proftext"; done

for n in "${releases[@]}"; do
  tool="llvm-profdata-$n"
  # the inputs, in release n's index version
  mk() { # OUT TEXT...
    local out="$1"
    shift
    "$tool" merge "$@" -o "$T/$n-$out.profdata" 2>/dev/null || fail "llvm $n: cannot make $out"
  }
  mk many "$src/many-ir.proftext"
  mk basic "$src/basic-ir.proftext" "$src/concat-ir.proftext"
  mk v1 "$T/v1.proftext"
  mk v2 "$T/v2.proftext" "$src/basic-ir.proftext"
  mk v3 "$T/v3.proftext" "$src/many-ir.proftext"
  p="$T/$n"
  vt=""
  # vtable value sites: text with them is read from 19 on
  if "$tool" merge "$src/vtable-ir.proftext" -o "$p-vt.profdata" 2>/dev/null; then vt="$p-vt.profdata"; fi
  sets=(
    "$p-many.profdata $p-v3.profdata --weighted-input=3,$p-basic.profdata $p-many.profdata $p-v1.profdata $vt"
    "$p-v1.profdata $p-v2.profdata --weighted-input=2,$p-v3.profdata $p-v1.profdata $vt $p-v2.profdata $p-many.profdata"
    "$p-basic.profdata $p-many.profdata $p-v2.profdata $vt $p-basic.profdata"
  )
  k=0
  for set in "${sets[@]}"; do
    k=$((k + 1))
    read -r -a ins <<<"$set"
    # set 2 at -j1 only: value sites of different generator seeds (one name,
    # other shapes) met between writer contexts differ from llvm-profdata-N
    # -j2 already before the direct merge (it says "invalid profile
    # created"; the same with the text inputs: a known gap, not this path's)
    threads="1 2"
    [ "$k" -eq 2 ] && threads=1
    for t in $threads; do
      "$tool" merge --num-threads="$t" "${ins[@]}" -o "$T/llvm.profdata" 2>/dev/null || { fail "llvm $n set $k -j$t failed"; continue; }
      run "$PB" merge --llvm-version "$n" --num-threads "$t" "${ins[@]}" -o "$T/pb.profdata"
      if [ "$rc" -ne 0 ]; then fail "llvm $n, set $k, -j$t: exit $rc: $(head -c 300 "$T/err")"
      elif cmp -s "$T/llvm.profdata" "$T/pb.profdata"; then ok
      else fail "llvm $n, set $k, -j$t: bytes differ from $tool's"; fi
    done
  done
done

# A damaged input in the middle: its records' data cut short inside the
# hash payload (the header and table frame intact). llvm-profdata reads keys
# lazily and so may keep some of its records; what we check is ours: the
# input fails before anything of it is merged, at -j1 as at -j2, so the
# output is the merge of the other inputs, and the exit status is 0 under
# --failure-mode=all (some input merged).
n="${releases[-1]}"
p="$T/$n"
cp "$p-many.profdata" "$T/bad.profdata"
# overwrite the payload's middle with 0xff: counts and lengths no longer fit
size=$(stat -c %s "$T/bad.profdata")
/usr/bin/python3 - "$T/bad.profdata" "$size" <<'EOF'
import sys
path, size = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:
    f.seek(size // 2)
    f.write(b"\xff" * 64)
EOF
run "$PB" merge --llvm-version "$n" --failure-mode=all --num-threads 1 "$p-v1.profdata" "$p-basic.profdata" -o "$T/want.profdata"
[ "$rc" -eq 0 ] || fail "the merge without the damaged input failed: $(head -c 300 "$T/err")"
for t in 1 2; do
  run "$PB" merge --llvm-version "$n" --failure-mode=all --num-threads "$t" "$p-v1.profdata" "$T/bad.profdata" "$p-basic.profdata" \
    -o "$T/pb.profdata"
  if [ "$rc" -ne 0 ]; then fail "-j$t with a damaged input: exit $rc: $(head -c 300 "$T/err")"
  elif ! grep -q "bad.profdata" "$T/err"; then fail "-j$t: no warning names the damaged input: $(head -c 300 "$T/err")"
  elif cmp -s "$T/want.profdata" "$T/pb.profdata"; then ok
  else fail "-j$t: the damaged input left records in the merge"; fi
done

# A key stored under a hash that is not its name's MD5 (one bit of key 5's
# KeyHash flipped, its bucket kept): warned about as the model read warns,
# and written back under the right hash, as llvm-profdata-N merge does.
cp "$p-many.profdata" "$T/badhash.profdata"
off=$("$PB" dump --json "$T/badhash.profdata" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["keys"][5]["offset"])')
/usr/bin/python3 -c 'import sys
path, off = sys.argv[1], int(sys.argv[2]) + 7
with open(path, "r+b") as f:
    f.seek(off)
    b = f.read(1)[0]
    f.seek(off)
    f.write(bytes([b ^ 0x40]))' "$T/badhash.profdata" "$off"
"llvm-profdata-$n" merge "$p-v3.profdata" "$T/badhash.profdata" -o "$T/llvm.profdata" 2>/dev/null || fail "llvm $n: badhash"
for t in 1 2; do
  run "$PB" merge --llvm-version "$n" --num-threads "$t" "$p-v3.profdata" "$T/badhash.profdata" -o "$T/pb.profdata"
  if [ "$rc" -ne 0 ]; then fail "-j$t, bad key hash: exit $rc: $(head -c 300 "$T/err")"
  elif ! grep -q "badhash.profdata.*KeyHash.*1 keys are stored under a hash that is not the MD5" "$T/err"; then
    fail "-j$t: the bad key hash was not warned about: $(head -c 300 "$T/err")"
  elif cmp -s "$T/llvm.profdata" "$T/pb.profdata"; then ok
  else fail "-j$t, bad key hash: bytes differ from llvm-profdata-$n's"; fi
done
finish
