#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# raw_write_llvm.sh -- what profbridge writes as raw must read, in llvm-profdata
# of the matching release, as the source file does:
#   v10 (64/32-bit, LE/BE, zlib/plain names) read by llvm-profdata-19:
#       `show --all-functions --counts --ic-targets --memop-sizes --show-vtables --text`
#       and `merge --text` equal those of the source raw file;
#   v8 little-endian read by llvm-profdata-14: `show --all-functions --counts --text`
#       equals llvm-profdata-19's (or -14's, for LLVM 14 files) of the source, and for
#       LLVM 14 sources `llvm-profdata-14 merge --text` of both is equal;
#   v8 big-endian: `show --all-functions --counts` only, because LLVM 14 maps
#       indirect-call targets of cross-endian files wrongly (spec §2.12).
# Sources: every llvm-real raw file the target can hold (v8: no vtables,
# bitmaps, temporal or coverage flags that LLVM 14 does not know).
set -u
"$PB" convert --help 2>&1 | grep -q -- '--to' || { echo "SKIP: this CLI has no 'convert' command yet"; exit 77; }
T="$PB_SHARED_DIR/testdata/llvm-real"
[ -d "$T/llvm19" ] || { echo "SKIP: $T is absent"; exit 77; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
n=0; fail=0
same() { # label expected got
  n=$((n + 1))
  if [ "$2" != "$3" ]; then fail=$((fail + 1)); echo "DIFF: $1"; diff <(echo "$2") <(echo "$3") | head -8; fi
}
if command -v llvm-profdata-19 >/dev/null; then
  SHOW="--all-functions --counts --ic-targets --memop-sizes --show-vtables --text"
  for f in "$T"/llvm19/*.profraw; do
    for opts in "" "--raw-pointer-width 4 --raw-byte-order be" "--raw-names plain --raw-byte-order be" "--raw-pointer-width 4 --raw-names plain"; do
      # shellcheck disable=SC2086
      "$PB" convert "$f" -o "$W/out.profraw" --to raw --raw-version 10 $opts 2>"$W/err" || { fail=$((fail + 1)); echo "convert failed: $f $opts: $(cat "$W/err")"; continue; }
      # shellcheck disable=SC2086
      same "v10 [$opts] show $(basename "$f")" "$(llvm-profdata-19 show $SHOW "$f" 2>&1)" "$(llvm-profdata-19 show $SHOW "$W/out.profraw" 2>&1)"
      same "v10 [$opts] merge --text $(basename "$f")" "$(llvm-profdata-19 merge --text "$f" -o - 2>&1)" "$(llvm-profdata-19 merge --text "$W/out.profraw" -o - 2>&1)"
    done
  done
fi
if command -v llvm-profdata-14 >/dev/null && command -v llvm-profdata-19 >/dev/null; then
  V8SRC=("$T"/llvm14/*.profraw)
  for p in basic-ir basic-fe simple-ir many-ir entry-ir static-ir cs-ir concat-ir; do V8SRC+=("$T/llvm19/$p.profraw"); done
  for f in "${V8SRC[@]}"; do
    case "$f" in */llvm14/*) ref=llvm-profdata-14 ;; *) ref=llvm-profdata-19 ;; esac
    for opts in "" "--raw-pointer-width 4" "--raw-byte-order be" "--raw-pointer-width 4 --raw-byte-order be --raw-names plain"; do
      # shellcheck disable=SC2086
      "$PB" convert "$f" -o "$W/out.profraw" --to raw --raw-version 8 $opts 2>"$W/err" || { fail=$((fail + 1)); echo "convert failed: $f $opts: $(cat "$W/err")"; continue; }
      case "$opts" in *be*) fl="--all-functions --counts" ;; *) fl="--all-functions --counts --text" ;; esac
      # shellcheck disable=SC2086
      same "v8 [$opts] show $fl $(basename "$f")" "$($ref show $fl "$f" 2>&1)" "$(llvm-profdata-14 show $fl "$W/out.profraw" 2>&1)"
      if [ "$ref" = llvm-profdata-14 ] && [ "$fl" != "--all-functions --counts" ]; then
        same "v8 [$opts] merge --text $(basename "$f")" "$(llvm-profdata-14 merge --text "$f" -o - 2>&1)" "$(llvm-profdata-14 merge --text "$W/out.profraw" -o - 2>&1)"
      fi
    done
  done
fi
[ "$n" -gt 0 ] || { echo "SKIP: neither llvm-profdata-19 nor -14 is installed"; exit 77; }
echo "raw_write_llvm: $((n - fail)) of $n comparisons identical"
[ "$fail" -eq 0 ]
