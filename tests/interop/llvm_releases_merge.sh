#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# llvm_releases_merge.sh -- `profbridge merge --llvm-version N` against the
# real llvm-profdata-N merge, for every release N = 13..24 whose tool is on
# PATH (the oracle; nothing here is frozen from our own output). Per release:
#  - every real raw/indexed/text file of shared/testdata (llvm-real,
#    llvm-profparser) that llvm-profdata-N merge accepts, alone: indexed and
#    --text bytes identical (profbridge with --no-keep-vtable-symbols, the
#    llvm-profdata default);
#  - weighted pairs of the accepted llvm-real files, with and without
#    --sparse: indexed and text bytes;
#  - programs built now with that release's clang-N (FE and IR
#    instrumentation; tests/interop/lib/clang-programs.bash), their raw
#    profiles merged alone and weighted: indexed and text bytes;
#  - llvm-profdata-N's own indexed and text outputs read back by profbridge
#    and merged again: the bytes llvm-profdata-N gives for the same;
#  - a bad --llvm-version is a usage error (exit 2) before a broken input is
#    read (once, not per release).
# llvm-profparser's files run each on one release, in turn, the llvm-real
# files on every fourth release, 8 weighted pairs, the clang-N
# kinds read back and merged with --sparse on every other kind, and merged
# with the IR one on the others (pb_cell,
# lib/llvm-tools.bash; PB_TEST_FULL=1: every file on every release, 16 pairs).
# Releases run two at a time (the tools are single-threaded here).
# LLVM_RELEASES="14 19" limits the releases; exit 77 when no tool is found.
set -euo pipefail
: "${PB:?}" "${PB_SHARED_DIR:?}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
R="$PB_SHARED_DIR/testdata/llvm-real"
P="$PB_SHARED_DIR/testdata/llvm-profparser"

# ---------------------------------------------------------------- one release
if [ "${1:-}" = --release ]; then
  N="$2" T="$3"
  LP="llvm-profdata-$N"
  fails=0; checks=0; accepted=0; textok=0; idxok=0; textn=0; idxn=0; sampled=0
  # shellcheck disable=SC1091 # pb_cell
  . "$HERE/lib/llvm-tools.bash"
  . "$HERE/lib/distinct.bash"
  rel=$(pb_rel "$N") # the release's index for pb_cell
  fail() { echo "FAIL [$N]: $*"; fails=$((fails + 1)); }
  # Known differences, outside this test's writers: reported, not failed, and
  # a failure once they pass (so the list shrinks when they are fixed).
  #  (none now: clang-13's unpadded 28-byte binary-id section of a program
  #  and its shared library is read as LLVM 13 reads it, binary_ids.h)
  known() { case "$N:$1" in "") return 0 ;; esac; return 1; }
  # same KIND WHAT WANT GOT: KIND idx|text counts toward the per-release table
  same() {
    checks=$((checks + 1))
    if [ "$1" = idx ]; then idxn=$((idxn + 1)); else textn=$((textn + 1)); fi
    if cmp -s "$3" "$4"; then
      if [ "$1" = idx ]; then idxok=$((idxok + 1)); else textok=$((textok + 1)); fi
      if known "$2"; then fail "$2: passes now: take it off the known list"; fi
    elif known "$2"; then
      echo "KNOWN [$N]: $2"
    else
      fail "$2: $(cmp "$3" "$4" 2>&1 | head -1)"
    fi
  }
  # both WHAT ARGS...: llvm-profdata-N merge vs profbridge merge, indexed and
  # text; returns 1 (no check) when llvm-profdata-N refuses the inputs
  both() {
    local what="$1"; shift
    rm -f "$T/l.profdata" "$T/p.profdata" "$T/l.proftext" "$T/p.proftext"
    "$LP" merge --num-threads=1 "$@" -o "$T/l.profdata" >/dev/null 2>&1 || return 1
    "$PB" merge --llvm-version "$N" --no-keep-vtable-symbols "$@" -o "$T/p.profdata" 2>"$T/err" || true
    same idx "merge $what" "$T/l.profdata" "$T/p.profdata"
    if "$LP" merge --num-threads=1 --text "$@" -o "$T/l.proftext" >/dev/null 2>&1; then
      "$PB" merge --llvm-version "$N" --no-keep-vtable-symbols --text "$@" -o "$T/p.proftext" 2>"$T/err" || true
      same text "merge --text $what" "$T/l.proftext" "$T/p.proftext"
    fi
    return 0
  }
  # back WHAT: llvm-profdata-N's outputs of the last `both`, read back by us
  back() {
    for x in profdata proftext; do
      [ -s "$T/l.$x" ] || continue
      cp "$T/l.$x" "$T/own.$x"
      "$LP" merge --num-threads=1 "$T/own.$x" -o "$T/ll.profdata" >/dev/null 2>&1 || continue
      "$PB" merge --llvm-version "$N" --no-keep-vtable-symbols "$T/own.$x" -o "$T/pp.profdata" 2>/dev/null || true
      same idx "merge of llvm-profdata-$N's own .$x of $1" "$T/ll.profdata" "$T/pp.profdata"
      "$LP" merge --num-threads=1 --text "$T/own.$x" -o "$T/ll.proftext" >/dev/null 2>&1 || continue
      "$PB" merge --llvm-version "$N" --no-keep-vtable-symbols --text "$T/own.$x" -o "$T/pp.proftext" 2>/dev/null || true
      same text "merge --text of llvm-profdata-$N's own .$x of $1" "$T/ll.proftext" "$T/pp.proftext"
    done
  }

  # llvm-profparser holds the same bytes under many names (483 texts, 71
  # contents): each content once (lib/distinct.bash).
  files=()
  while IFS= read -r f; do files+=("$f"); done < <({
    for d in "$R"/llvm*; do
      [ -d "$d" ] && for f in "$d"/*.profraw "$d"/*.profdata "$d"/*.proftext; do [ -f "$f" ] && echo "$f"; done
    done
    [ -d "$P" ] && find "$P" -type f \( -name '*.profraw' -o -name '*.profdata' -o -name '*.proftext' \) | sort
  } | pb_distinct)
  ok=()
  j=0
  for f in "${files[@]}"; do
    # llvm-profparser's files each on one release (pb_cell by 11), in
    # turn; the llvm-real files on every fourth release
    j=$((j + 1))
    case "$f" in "$R"/*) every=4 ;; *) every=11 ;; esac
    pb_cell "$every" "$j" "$rel" || { sampled=$((sampled + 1)); continue; }
    both "${f#"$PB_SHARED_DIR"/testdata/}" "$f" || continue
    accepted=$((accepted + 1))
    case "$f" in "$R"/*) ok+=("$f") ;; esac
  done

  # Weighted pairs and --sparse over the accepted llvm-real files (raw files
  # and texts first: they exercise the merge, not only the copy).
  pairs=()
  for f in "${ok[@]}"; do case "$f" in *.profraw) pairs+=("$f") ;; esac; done
  for f in "${ok[@]}"; do case "$f" in *.proftext) pairs+=("$f") ;; esac; done
  n=0 max_pairs=8
  [ "${PB_TEST_FULL:-0}" = 1 ] && max_pairs=16
  for a in "${pairs[@]}"; do
    for b in "${pairs[@]:0:3}"; do
      for sparse in "" --sparse; do
        n=$((n + 1)); [ "$n" -le "$max_pairs" ] || break 3
        # shellcheck disable=SC2086
        both "$sparse 3,${a#"$R"/} 2,${b#"$R"/}" $sparse --weighted-input=3,"$a" --weighted-input=2,"$b" \
          && [ $((n % 4)) = 1 ] && back "3,${a#"$R"/} 2,${b#"$R"/}"
      done
    done
  done

  # Newer text than N reads (LLVM 19's byte coverage, bitmaps, vtable
  # sites, temporal traces): what N's text cannot hold is left out with a
  # note naming N, and llvm-profdata-N reads the rest (from idx_llvm17.sh).
  for x in sbc-fe:single-byte-coverage mcdc-fe:bitmaps vtable-ir:"vtable value sites" temporal-ir:"temporal traces"; do
    prog="${x%%:*}" what="${x#*:}"
    f="$R/llvm19/$prog.proftext"
    [ -f "$f" ] || continue
    "$PB" merge --text --llvm-version "$N" "$f" -o "$T/p.proftext" 2>"$T/err" || { fail "$prog: merge --text failed"; continue; }
    checks=$((checks + 1))
    if "$LP" merge "$f" -o /dev/null >/dev/null 2>&1; then
      # N reads it whole: nothing may be left out
      ! grep -q "$what" "$T/err" || fail "$prog: $what left out although llvm-profdata-$N reads them"
    else
      grep -q "$what.*LLVM $N" "$T/err" || fail "$prog: no note naming LLVM $N about $what"
    fi
    "$LP" merge "$T/p.proftext" -o /dev/null >/dev/null 2>&1 \
      || fail "$prog: llvm-profdata-$N cannot read our --llvm-version $N text"
  done

  # Saturation (2^64-1 up to LLVM 14, 2^64-3 later) and the summaries'
  # special-count rules; 300 names (key order: StringMap of first appearance
  # or sorted) with 1 to 5 hashes each (record order inside a key: x*37 or
  # the mixed hash).
  printf ':ir\nf\n1\n2\n18446744073709551610\n3\n\ng\n2\n1\n18446744073709551615\n' > "$T/sat.proftext"
  both "sat x2" "$T/sat.proftext" "$T/sat.proftext" || fail "llvm-profdata-$N refuses sat.proftext"
  both "7,sat" --weighted-input=7,"$T/sat.proftext" || fail "llvm-profdata-$N refuses sat.proftext"
  awk 'BEGIN { print ":ir"; for (i = 0; i < 300; i++) { x = (i * 7919) % 300;
      for (h = 0; h < 1 + i % 5; h++) printf "fn_%d_%s\n%d\n2\n%d\n%d\n\n", x, substr("abcdefgh", 1 + i % 8), \
        1000003 * h + x, i, h } }' > "$T/keys.proftext"
  both "300 names" "$T/keys.proftext" || fail "llvm-profdata-$N refuses keys.proftext"
  both "300 names + sat" "$T/sat.proftext" --weighted-input=2,"$T/keys.proftext" && back "300 names + sat"
  # convert acts as the same release, chosen by the option or the environment
  if "$LP" merge --num-threads=1 "$T/keys.proftext" -o "$T/l.profdata" >/dev/null 2>&1; then
    "$PB" convert --llvm-version "$N" "$T/keys.proftext" -o "$T/p.profdata" 2>/dev/null || true
    same idx "convert --llvm-version $N keys.proftext" "$T/l.profdata" "$T/p.profdata"
    PROFBRIDGE_LLVM_VERSION="$N" "$PB" convert "$T/keys.proftext" -o "$T/p.profdata" 2>/dev/null || true
    same idx "PROFBRIDGE_LLVM_VERSION=$N convert keys.proftext" "$T/l.profdata" "$T/p.profdata"
    PROFBRIDGE_LLVM_VERSION="$N" "$PB" merge "$T/keys.proftext" -o "$T/p.profdata" --no-keep-vtable-symbols 2>/dev/null || true
    same idx "PROFBRIDGE_LLVM_VERSION=$N merge keys.proftext" "$T/l.profdata" "$T/p.profdata"
  fi

  # Vtable names (v12+, with llvm-profdata's --keep-vtable-symbols, 19 on):
  # 300 names in StringSet order (XXH3-64), zlib level 9.
  keep=0
  if "$LP" merge --help 2>/dev/null | grep -q keep-vtable-symbols; then
    keep=1
    awk 'BEGIN { srand(3); print ":ir";
      for (r = 0; r < 30; r++) { printf "fn%d\n%d\n1\n100\n1\n2\n1\n10\n", r, r + 1;
        for (k = 0; k < 10; k++) { i = (r * 10 + k) % 300; x = ""; for (j = 0; j < i % 31; j++) x = x "x";
          printf "_ZTV%dClass%s:%d\n", i, x, 1 + int(rand() * 50) } print "" } }' > "$T/vt.proftext"
    for f in "$T/vt.proftext" "$R/llvm19/vtable-ir.profraw"; do
      "$LP" merge --num-threads=1 --keep-vtable-symbols "$f" -o "$T/l.profdata" >/dev/null 2>&1 || continue
      "$PB" merge --llvm-version "$N" --keep-vtable-symbols "$f" -o "$T/p.profdata" 2>/dev/null || true
      same idx "merge --keep-vtable-symbols $(basename "$f")" "$T/l.profdata" "$T/p.profdata"
    done
  fi

  # This release's own clang-built raw profiles, one per instrumentation
  # kind the release supports (tests/interop/lib/clang-programs.bash).
  built=0
  lib="${PB_CLANG_PROGRAMS:-$HERE/lib/clang-programs.bash}"
  if [ -f "$lib" ] && command -v "clang-$N" >/dev/null; then
    # shellcheck source=/dev/null
    . "$lib"
    if pb_clang_programs "$N" "$T/cc" >/dev/null 2>&1; then
      rl=()
      while IFS=$'\t' read -r k _; do
        [ -s "$T/cc/$k.profraw" ] && rl+=("$T/cc/$k.profraw")
      done < "$T/cc/KINDS"
      # every kind alone; read back, and weighted twice with --sparse, on
      # every other kind (pb_cell: the others on the neighbouring releases)
      for ki in "${!rl[@]}"; do
        f="${rl[$ki]}"
        k=${f##*/}; k=${k%.profraw}
        built=$((built + 1))
        mine=0; pb_cell 2 "$ki" "$N" && mine=1 # this kind's read-back and --sparse cell
        if both "clang-$N $k" "$f"; then [ "$mine" = 1 ] && back "clang-$N $k"
        else fail "llvm-profdata-$N refuses clang-$N's $k.profraw"; fi
        [ "$mine" = 1 ] &&
          { both "clang-$N 3,$k 2,$k --sparse" --sparse --weighted-input=3,"$f" --weighted-input=2,"$f" || true; }
        if [ "$keep" = 1 ] && [ "$k" = vtable ]; then
          "$LP" merge --num-threads=1 --keep-vtable-symbols "$f" -o "$T/l.profdata" >/dev/null 2>&1
          "$PB" merge --llvm-version "$N" --keep-vtable-symbols "$f" -o "$T/p.profdata" 2>/dev/null || true
          same idx "merge --keep-vtable-symbols clang-$N $k" "$T/l.profdata" "$T/p.profdata"
        fi
      done
      # every other kind merged with the first (IR) one, weighted, in turn
      # with the read-back ones (pb_cell: the others on the neighbouring releases)
      for ki in "${!rl[@]}"; do
        [ "$ki" -gt 0 ] && pb_cell 2 "$ki" "$N" 1 || continue
        f="${rl[$ki]}" k=${rl[$ki]##*/}
        both "clang-$N 5,ir ${k%.profraw}" --weighted-input=5,"${rl[0]}" "$f" || true
      done
    else
      echo "note [$N]: clang-$N cannot build the programs: $(cat "$T/cc/SKIPPED" 2>/dev/null | head -3)"
    fi
  elif command -v "clang-$N" >/dev/null; then
    echo "note [$N]: $lib absent: no clang-$N raws"
  fi

  echo "note [$N]: $sampled files left to other releases (pb_cell; PB_TEST_FULL=1 runs them)"
  echo "RESULT $N accepted=$accepted idx=$idxok/$idxn text=$textok/$textn clang_raws=$built"
  echo "$checks checks, $fails failures (llvm-profdata-$N)"
  [ "$fails" -eq 0 ]
  exit
fi

# ---------------------------------------------------------------- dispatcher
[ -d "$R" ] || { echo "SKIP: $R absent"; exit 77; }
[ -d "$P" ] || echo "note: $P absent: llvm-profparser files not compared"
want="${LLVM_RELEASES:-13 14 15 16 17 18 19 20 21 22 23 24}"
rels=()
for n in $want; do
  if command -v "llvm-profdata-$n" >/dev/null; then rels+=("$n"); else echo "note: llvm-profdata-$n not on PATH: release $n not checked"; fi
done
[ "${#rels[@]}" -gt 0 ] || { echo "SKIP: no llvm-profdata-N on PATH"; exit 77; }
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT

# A bad release is a usage error before any input is read, even a broken one.
printf 'not a profile' > "$T/broken.profraw"
fails=0
for bad in 12 25 19x ""; do
  rc=0; "$PB" merge --llvm-version "$bad" "$T/broken.profraw" -o "$T/x.profdata" 2>"$T/e" || rc=$?
  [ "$rc" = 2 ] && grep -q "llvm-version" "$T/e" || { echo "FAIL: --llvm-version '$bad': exit $rc"; fails=$((fails + 1)); }
  rc=0; PROFBRIDGE_LLVM_VERSION="${bad:-x}" "$PB" convert "$T/broken.profraw" -o "$T/x.profdata" 2>"$T/e" || rc=$?
  [ "$rc" = 2 ] && grep -q PROFBRIDGE_LLVM_VERSION "$T/e" || { echo "FAIL: PROFBRIDGE_LLVM_VERSION='$bad': exit $rc"; fails=$((fails + 1)); }
done

# Raw inputs of an older clang written with the default target: a note names
# the release their clang reads (none when the release was chosen).
if [ -f "$R/llvm14/basic-ir.profraw" ]; then
  "$PB" merge "$R/llvm14/basic-ir.profraw" "$R/llvm14/many-ir.profraw" -o "$T/x.profdata" 2>"$T/e" || true
  grep -q -- "--llvm-version 14" "$T/e" || { echo "FAIL: no hint naming --llvm-version 14 for clang-14 raws"; fails=$((fails + 1)); }
  "$PB" merge --llvm-version 19 "$R/llvm14/basic-ir.profraw" -o "$T/x.profdata" 2>"$T/e" || true
  ! grep -q -- "--llvm-version 14" "$T/e" || { echo "FAIL: hint although --llvm-version was given"; fails=$((fails + 1)); }
  "$PB" merge "$R/llvm19/basic-ir.profraw" -o "$T/x.profdata" 2>"$T/e" || true
  ! grep -q -- "--llvm-version" "$T/e" || { echo "FAIL: hint for clang-19 raws"; fails=$((fails + 1)); }
fi

for n in "${rels[@]}"; do mkdir -p "$T/$n"; done
printf '%s\n' "${rels[@]}" \
  | xargs -P2 -I{} bash -c '"$0" --release {} "$1/{}" > "$1/{}.log" 2>&1; echo $? > "$1/{}.rc"' "$0" "$T" || true
for n in "${rels[@]}"; do
  grep -v '^RESULT' "$T/$n.log" || true
  [ "$(cat "$T/$n.rc")" = 0 ] || fails=$((fails + 1))
done
echo "release  accepted  indexed-bytes  text-bytes  clang-raws"
for n in "${rels[@]}"; do
  sed -n 's/^RESULT \([0-9]*\) accepted=\([0-9]*\) idx=\([^ ]*\) text=\([^ ]*\) clang_raws=\([0-9]*\)/  \1       \2       \3       \4       \5/p' "$T/$n.log"
done
[ "$fails" -eq 0 ]
