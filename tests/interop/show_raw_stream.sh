#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# show_raw_stream.sh -- `show` of a raw file lists its records as they are
# read (src/analysis/show_raw.c, no model) for the flags that allow it. A
# program with indirect calls and memcpy sizes is built with every clang-N
# on PATH (13..24, IR instrumentation, raw v7..v11) and its raw file shown
# by llvm-profdata-N and by `profbridge show --llvm-version N`, byte for
# byte, with the streamed flag sets; also a copy in which two records of the
# profile share a (name, hash) pair: llvm-profdata-N lists both (the model
# path merged them, so this fails if the streaming path is not taken), and
# the real files of ../shared/testdata/llvm-real (clang-14 and 19, several
# profiles in one file). A damaged small file prints the error and no
# listing, as llvm-profdata-N does. Takes about 15 s (11 compiles).
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
. "$(dirname "$0")/lib/llvm-tools.bash"
rels=$(pb_llvm_releases clang)
[ -n "$rels" ] || { echo "SKIP: no clang-N with its llvm-profdata-N on PATH"; exit 77; }
PB=$(realpath "$PB")
cd "$T"
cp "$PB_SOURCE_DIR/tests/interop/data/programs/ic.c" .
FLAGSETS=(
  "--all-functions --counts"
  ""
  "--all-functions --counts --memop-sizes"
  "--function=add --counts"
  "--covered"
  "--detailed-summary"
  "--all-functions --value-cutoff=40"
  "--list-below-cutoff --value-cutoff=40"
  "--profile-version"
)
# field_at FILE FIELD: the hex offset `profbridge dump` gives FIELD at
field_at() { "$PB" dump "$1" | sed -n "s/^  0x\([0-9a-f]*\) .* $2 .*/\1/p" | head -1; }
# dup FILE OUT: data[1] takes data[0]'s NameRef and FuncHash
dup() {
  /usr/bin/python3 "$PB_SOURCE_DIR/tests/interop/lib/raw_dup_record.py" "$1" \
    "$(field_at "$1" 'data\[0\]\.NameRef')" "$(field_at "$1" 'data\[1\]\.NameRef')" "$2"
}
# compare N FILE: every flag set, llvm-profdata-N against ours as N
compare() {
  local n=$1 f=$2 fl want got
  for fl in "${FLAGSETS[@]}"; do
    # shellcheck disable=SC2086
    if ! want=$("llvm-profdata-$n" show $fl "$f" 2>&1); then
      case "$want" in *"Unknown command line argument"*) continue ;; esac # a flag of later releases
      fail "llvm-profdata-$n refused show $fl $f: $want"
      continue
    fi
    # shellcheck disable=SC2086
    got=$("$PB" show --llvm-version "$n" $fl "$f" 2>&1)
    same_text "llvm-profdata-$n show $fl $f" "$want" "$got"
  done
}
for n in $rels; do
  "clang-$n" -O0 -fprofile-generate ic.c -o "ic$n" 2>/dev/null || { fail "clang-$n could not build ic.c"; continue; }
  LLVM_PROFILE_FILE="ic$n.profraw" "./ic$n" >/dev/null
  compare "$n" "ic$n.profraw"
  dup "ic$n.profraw" "dup$n.profraw"
  # the streamed listing: add twice, as the real tool lists it
  c=$("$PB" show --llvm-version "$n" --all-functions "dup$n.profraw" | grep -c '^  add:$' || true)
  if [ "$c" = 2 ]; then ok; else fail "dup$n.profraw: add listed $c times, want 2 (the records as read)"; fi
  compare "$n" "dup$n.profraw"
done
# real files of clang-19 (several profiles in one: concat-ir, many-ir) and clang-14
R="$PB_SHARED_DIR/testdata/llvm-real"
for n in 19 14; do
  command -v "llvm-profdata-$n" >/dev/null || continue
  for f in "$R/llvm$n"/*.profraw; do
    [ -f "$f" ] || continue
    # the files the release's own tool reads (clang-14's v10 many-ir is refused by 14)
    "llvm-profdata-$n" show "$f" >/dev/null 2>&1 || continue
    cp "$f" .
    compare "$n" "$(basename "$f")"
  done
done
# a small damaged file: the error, no listing (both tools)
n=${rels##* }
at=$(field_at "ic$n.profraw" 'data\[1\]\.CounterPtr')
/usr/bin/python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); o = int(sys.argv[2], 16); b[o:o + 8] = (0x7fffff00).to_bytes(8, "little"); open(sys.argv[3], "wb").write(b)' \
  "ic$n.profraw" "$at" bad.profraw
run "$PB" show --all-functions --counts bad.profraw
expect_rc 1 "show of a raw file with a broken CounterPtr"
if [ -s "$T/out" ]; then fail "the damaged file printed a listing: $(head -3 "$T/out")"; else ok; fi
expect_grep "$T/err" "data\[1\]\.CounterPtr" "the error names the field"
finish
