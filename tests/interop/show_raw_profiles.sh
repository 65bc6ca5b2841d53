#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# show_raw_profiles.sh -- a raw file holding several profiles (as a program and
# its shared libraries write them) is shown as llvm-profdata-N shows it, each
# profile's records listed apart, when the file comes through a pipe that can
# be read only once (<(cat f)): show takes the profiles from one visit of the
# bytes (src/cli/show_parts.c, pb_visit), not one read per profile. Oracle:
# llvm-profdata-19 on clang-19's files, llvm-profdata-17 (whose binary ids are
# the last profile's) on clang-14's, run now.
set -u
command -v llvm-profdata-19 >/dev/null || { echo "SKIP: llvm-profdata-19 is not installed"; exit 77; }
R="$PB_SHARED_DIR/testdata/llvm-real"
[ -f "$R/llvm19/basic-ir.profraw" ] || { echo "SKIP: $R is absent"; exit 77; }
PB=$(realpath "$PB")
# shellcheck source=lib/common.bash
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"
W="$T"
# three and five profiles, with a function repeated across profiles, of
# clang-19 (raw v10) and clang-14 (raw v8; llvm14/many-ir.profraw is a v10
# file, which llvm-profdata-17 refuses: left out)
for c in 19 14; do
  D="$R/llvm$c"
  cat "$D/basic-ir.profraw" "$D/simple-ir.profraw" "$D/basic-ir.profraw" > "$W/three-$c.profraw"
  if [ "$c" = 19 ]; then first="$D/many-ir.profraw"; else first="$D/static-ir.profraw"; fi
  cat "$first" "$D/cs-ir.profraw" "$D/simple-ir.profraw" "$D/entry-ir.profraw" > "$W/five-$c.profraw"
done
FLAGSETS=(
  ""
  "--all-functions --counts"
  "--all-functions --counts --ic-targets --memop-sizes --value-cutoff=1"
  "--all-functions --text"
  "--binary-ids"
  "--detailed-summary"
  "--topn=3"
  "--covered"
  "--temporal-profile-traces"
)
for rel in 19 17; do
  command -v "llvm-profdata-$rel" >/dev/null || continue
  c=$([ "$rel" = 19 ] && echo 19 || echo 14)
  for f in three-$c five-$c; do
    for fl in "${FLAGSETS[@]}"; do
      # shellcheck disable=SC2086
      want=$(cd "$W" && "llvm-profdata-$rel" show $fl $f.profraw 2>&1)
      # shellcheck disable=SC2086
      got=$(cd "$W" && "$PB" show --llvm-version "$rel" $fl <(cat $f.profraw) 2>&1 | sed "s|/dev/fd/[0-9]*|$f.profraw|g")
      same_text "llvm-profdata-$rel show $fl $f.profraw (through a pipe)" "$want" "$got"
    done
  done
done
# the profiles really are listed apart: basic-ir's helper twice
c=$("$PB" show --llvm-version 19 --all-functions "$W/three-19.profraw" | grep -c '^  basic.c;helper:$' || true)
if [ "$c" = 2 ]; then ok; else fail "basic.c;helper listed $c times in a file of two basic-ir profiles, want 2"; fi
# one pass: a reader's warning comes once per profile that raises it (the
# file used to be read twice, for the model and for the profiles, and each
# warning printed twice). Profile 0 of three gets a NameRef no name hashes to.
at=$("$PB" dump "$R/llvm19/basic-ir.profraw" | sed -n 's/^  0x\([0-9a-f]*\) .*data\[0\]\.NameRef .*/\1/p')
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[int(sys.argv[2], 16)] ^= 0xff; open(sys.argv[3], "wb").write(b)' \
  "$R/llvm19/basic-ir.profraw" "$at" "$W/bad.profraw"
cat "$W/bad.profraw" "$R/llvm19/simple-ir.profraw" "$W/bad.profraw" > "$W/bad-three.profraw"
w=$("$PB" show --all-functions "$W/bad-three.profraw" 2>&1 >/dev/null | grep -c 'is the MD5 of no name' || true)
if [ "$w" = 2 ]; then ok; else fail "$w warnings about the unknown NameRef of profiles 0 and 2, want 2 (one each)"; fi
w=$("$PB" show --all-functions "$W/bad-three.profraw" 2>&1 >/dev/null | grep -c 'profile\[2\]\.data\[0\]\.NameRef' || true)
if [ "$w" = 1 ]; then ok; else fail "the warning of profile 2 came $w times, want 1"; fi
finish
