#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# raw_write_releases.sh -- every raw version the writer writes (v5, v7, v8, v9,
# v10, v11), made from real raw files (shared/testdata/llvm-real, llvm-profparser),
#   1. reads back with OUR reader to the same model (the JSON model, origin left
#      out) whenever the writer printed no notice (the version holds everything);
#   2. reads, in the llvm-profdata of a release that writes that version, to the
#      same `merge --text` as the source:
#        v7 llvm-profdata-13, v8 -14, v9 -18, v10 -19, v11 -23 and -24.
#      The source's text comes from a real tool as well: the reading release's
#      own `merge --text` of an indexed file the source's release made of it
#      (same text dialect), or, where the reading release cannot read that
#      indexed version (13/14/18 and LLVM 19 sources), llvm-profdata-19's text of
#      the source when it uses nothing older releases print differently.
#   v5: no LLVM 11/12 tool here. Our reader (1), and tests/tools/raw_ref.py (an
#      independent reader written from the spec) must show what
#      llvm-profdata-19 shows for the source; its header is checked by hand in
#      tests/unit/test_raw_write.c (spec §2.4).
# A missing llvm-profdata-N skips that part (scripts/fetch-llvm.sh installs
# 17/18/21-24); with none at all the test is skipped (exit 77).
set -u
"$PB" convert --help 2>&1 | grep -q -- '--to' || { echo "SKIP: this CLI has no 'convert' command yet"; exit 77; }
S="$PB_SHARED_DIR/testdata"
[ -d "$S/llvm-real/llvm19" ] || { echo "SKIP: $S/llvm-real is absent"; exit 77; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
have() { command -v "llvm-profdata-$1" >/dev/null; }
missing=""
for r in 13 14 18 19 23 24; do have "$r" || missing="$missing $r"; done
if [ -n "$missing" ]; then
  echo "note: llvm-profdata-{${missing# }} not installed (scripts/fetch-llvm.sh): those comparisons are skipped"
fi
n=0; fail=0; skipped=0
declare -A count
same() { # label expected got
  n=$((n + 1))
  if [ "$2" != "$3" ]; then fail=$((fail + 1)); echo "DIFF: $1"; diff <(echo "$2") <(echo "$3") | head -8; fi
}

# The release that wrote a raw file (its version word), and the indexed
# version that release's merge writes (src/llvm/target.h).
release_of() { # file -> release reading it, or ""
  case $(od -An -t u4 -j 8 -N 4 "$1" | tr -d ' ') in
    7) echo 13 ;; 8) echo 14 ;; 9) echo 18 ;; 10) echo 19 ;; 11) echo 23 ;; *) echo "" ;;
  esac
}
idx_written() { case $1 in 13|14) echo 7 ;; 18) echo 11 ;; 19) echo 12 ;; 23|24) echo 14 ;; esac; }
idx_read_max() { idx_written "$1"; } # each of these releases reads up to what it writes

# The source's `merge --text` in release t's dialect, into $ref: t's text of
# the indexed file the source's release made ($sidx), else LLVM 19's text of
# the source when nothing in it prints differently in older releases.
source_text() {
  if [ -n "$sidx" ] && [ "$sidx" -le "$(idx_read_max "$1")" ]; then
    ref=$("llvm-profdata-$1" merge --text "$W/src.profdata" -o - 2>&1)
  elif [ -n "$ref19" ] && ! grep -qE '^:(single_byte_coverage|temporal_prof_traces)|^# Num Bitmap Bytes|VTableTarget' <<<"$ref19"; then
    ref=$ref19
  else
    return 1
  fi
}
# Reads source $1: its model ($W/src.json), the indexed file of its release
# ($W/src.profdata, version $sidx) and LLVM 19's text of it ($ref19).
load_source() {
  "$PB" convert "$1" --to json -o "$W/src.json" 2>/dev/null || return 1
  sr=$(release_of "$1"); sidx=""; ref19=""
  if [ -n "$sr" ] && have "$sr" && "llvm-profdata-$sr" merge "$1" -o "$W/src.profdata" 2>/dev/null; then sidx=$(idx_written "$sr"); fi
  if [ "$sr" = 19 ] && have 19; then ref19=$(llvm-profdata-19 merge --text "$1" -o - 2>&1); fi
}

SRC=("$S"/llvm-real/llvm19/*.profraw "$S"/llvm-real/llvm14/*.profraw "$S"/llvm-real/synthetic/syn-v*-*.profraw)
# llvm-profparser's raws, each content once (lib/distinct.bash: 41 files, 30 contents)
. "$PB_SOURCE_DIR/tests/interop/lib/distinct.bash"
while IFS= read -r f; do SRC+=("$f"); done < <(
  for f in "$S"/llvm-profparser/tests/data/profdata/llvm-1[1-9]/*.profraw; do [ -f "$f" ] && echo "$f"; done | pb_distinct)

for f in "${SRC[@]}"; do
  b=$(basename "$f" .profraw); d=$(basename "$(dirname "$f")")
  case "$b" in syn-lit-*) continue ;; esac
  load_source "$f" || continue # unreadable sources are other tests' business
  for v in 5 7 8 9 10 11; do
    "$PB" convert "$f" -o "$W/out.profraw" --to raw --raw-version "$v" 2>"$W/err" || { fail=$((fail + 1)); n=$((n + 1)); echo "convert v$v failed: $d/$b: $(cat "$W/err")"; continue; }
    drop='^"origin"'
    if [ -s "$W/err" ]; then # something dropped: not comparable, unless only v5's binary ids
      grep -qv 'raw v5: [0-9]* binary ids dropped' "$W/err" && { skipped=$((skipped + 1)); continue; }
      drop='^"origin"\|^"binaryIds"'
    fi
    # 1. our reader: the same model
    "$PB" convert "$W/out.profraw" --to json -o "$W/out.json" 2>"$W/err2" || { fail=$((fail + 1)); n=$((n + 1)); echo "read v$v failed: $d/$b: $(cat "$W/err2")"; continue; }
    same "v$v model $d/$b" "$(grep -v "$drop" "$W/src.json")" "$(grep -v "$drop" "$W/out.json")"
    count[model$v]=$((${count[model$v]:-0} + 1))
    # 2. the real tools of the releases writing v
    case $v in 5) readers="" ;; 7) readers=13 ;; 8) readers=14 ;; 9) readers=18 ;; 10) readers=19 ;; 11) readers="23 24" ;; esac
    for t in $readers; do
      have "$t" || continue
      source_text "$t" || { skipped=$((skipped + 1)); continue; }
      same "v$v llvm-profdata-$t merge --text $d/$b" "$ref" "$("llvm-profdata-$t" merge --text "$W/out.profraw" -o - 2>&1)"
      count[tool$t]=$((${count[tool$t]:-0} + 1))
    done
    # v5: the independent reader against llvm-profdata-19 on the source
    if [ "$v" = 5 ] && [ "$sr" = 19 ] && have 19 && command -v python3 >/dev/null; then
      exp=$(llvm-profdata-19 show --all-functions --counts "$f" 2>&1)
      got=$(python3 "$PB_SOURCE_DIR/tests/tools/raw_ref.py" "$W/out.profraw" 2>&1); prc=$?
      if [ $prc -ne 3 ]; then # 3: outside the oracle's scope
        same "v5 raw_ref.py show vs llvm-profdata-19 show $d/$b" "$exp" "$got"
        count[ref5]=$((${count[ref5]:-0} + 1))
      fi
    fi
  done
done
# byte order and pointer width: big-endian 32-bit files of every version; the
# tools of LLVM 18+ (LLVM 14 maps IC targets of foreign-order files wrongly, §2.12)
for f in "$S"/llvm-real/llvm19/basic-ir.profraw "$S"/llvm-real/llvm14/basic-fe.profraw; do
  load_source "$f" || continue
  for v in 5 7 8 9 10 11; do
    "$PB" convert "$f" -o "$W/out.profraw" --to raw --raw-version "$v" --raw-byte-order be --raw-pointer-width 4 2>"$W/err" || { fail=$((fail + 1)); n=$((n + 1)); echo "convert v$v BE failed: $f"; continue; }
    "$PB" convert "$W/out.profraw" --to json -o "$W/out.json" 2>/dev/null || { fail=$((fail + 1)); n=$((n + 1)); echo "read v$v BE failed: $f"; continue; }
    drop='^"origin"'; [ -s "$W/err" ] && drop='^"origin"\|^"binaryIds"' # v5: binary ids dropped
    same "v$v BE/32 model $(basename "$f")" "$(grep -v "$drop" "$W/src.json")" "$(grep -v "$drop" "$W/out.json")"
    count[be$v]=$((${count[be$v]:-0} + 1))
    case $v in 9) t=18 ;; 10) t=19 ;; 11) t=24 ;; *) continue ;; esac
    { have "$t" && source_text "$t"; } || continue
    same "v$v BE/32 llvm-profdata-$t merge --text $(basename "$f")" "$ref" "$("llvm-profdata-$t" merge --text "$W/out.profraw" -o - 2>&1)"
    count[betool$t]=$((${count[betool$t]:-0} + 1))
  done
done
[ "$n" -gt 0 ] || { echo "SKIP: nothing to compare"; exit 77; }
summary=""
for k in $(printf '%s\n' "${!count[@]}" | sort); do summary="$summary $k=${count[$k]}"; done
echo "raw_write_releases: $((n - fail)) of $n comparisons identical ($skipped not comparable: data dropped or no oracle);$summary"
[ "$fail" -eq 0 ]
