#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cov_callers.sh -- profbridge as the llvm-cov that coverage tools run (issue
# 20 item 4). Every command line of tests/interop/data/cov_callers.txt (the
# words cargo-llvm-cov, grcov, Chromium's coverage scripts, OSS-Fuzz, Bazel's
# collect_cc_coverage.sh, StableCoder's code-coverage.cmake, FuzzBench and
# OpenTitan build for `llvm-cov export` / `report`, with their error paths)
# runs, for
# every release N with llvm-cov-N on PATH, on the real programs clang-N built
# (scripts/build-cov-corpus.sh), through links named llvm-cov and llvm-cov-N
# to $PB and through the real llvm-cov-N (and a link llvm-cov to it), in an
# empty directory of the same path; and the same through a newer llvm-cov-M
# than the clang-N that built the program (a caller's prebuilt or rustup's
# llvm-cov: PB_COV_CALLERS_CROSS). Compared byte for byte: stdout, stderr,
# the exit status and every file the line leaves. The `show` lines the
# callers also run must be refused in one line (exit 1). Sampled (pb_cell,
# lib/llvm-tools.bash): each line on one release in three, in turn, and on
# every cross pair; PB_TEST_FULL=1 runs every line on every release.
#
# Environment: PB_COV_CORPUS (the corpus; default $PB_BINARY_DIR/cov-corpus,
# built or reused from the cache by scripts/build-cov-corpus.sh),
# PB_COV_CALLERS_RELEASES ("19 23": some releases only), PB_COV_CALLERS_CROSS
# (pairs N:M, llvm-cov-M on release N's programs; default "14:19 18:24",
# "" for none), PB_COV_JOBS (cases
# at once, default 2), PB_COV_KEEP (a directory: keep the outputs of failed
# cases there). Exit 77 when no llvm-cov-N or no corpus.
set -uo pipefail

# ------------------------------------------------------------ one case
# pairs OPT F...: "OPT F1 OPT F2 ..."; joined OPT= F...: "OPT=F1 OPT=F2 ..."
pairs() { local o="$1" f; shift; for f in "$@"; do printf '%s %s ' "$o" "$f"; done; }
joined() { local o="$1" f; shift; for f in "$@"; do printf '%s%s ' "$o" "$f"; done; }

# one_case LINE: LINE = id<TAB>M<TAB>N<TAB>unit<TAB>check<TAB>command: the
# line through llvm-cov-M on release N's program (M = N, or a later release:
# a caller whose llvm-cov is newer than the compiler); writes
# $CC_T/res/ID: "PASS label" or "FAIL label: why" and indented excerpt lines.
one_case() {
  local id m n unit check cmd
  IFS=$'\t' read -r id m n unit check cmd <<<"$1"
  local dir="$CC_CORPUS/$n/$unit" r="$CC_T/rel/$m" w="$CC_T/work/$id" builddir
  [ "$unit" = relc ] && dir="$CC_T/rel/$n/relc"
  builddir="$dir"
  [ -f "$dir/BUILDDIR" ] && builddir="$(cat "$dir/BUILDDIR")"
  local label="llvm-cov-$m on $n/$unit: $cmd"
  mkdir -p "$w"
  local objs=() srcs=() o
  mapfile -t objs < "$dir/OBJECTS"
  mapfile -t srcs < "$dir/SOURCES"
  local abs=() rest=()
  for o in "${objs[@]}"; do abs+=("$dir/$o"); done
  rest=("${abs[@]:1}")
  local other=c
  [ "$unit" = c ] && other=cpp
  # the variables the command lines use (cov_callers.txt)
  local srcdir
  srcdir="$(dirname "${srcs[0]}")"
  export N="$m" PROF="$dir/cov.profdata" UNIT="$dir" BUILDDIR="$builddir" BIN="${abs[0]}" REST="${rest[*]}" OBJECTS="${abs[*]}" \
    SOURCES="${srcs[*]}" SRCDIR="$srcdir" NOCOV="$r/nocov" TEXT="$r/tool.sh" \
    OTHERPROF="$CC_CORPUS/$n/$other/cov.profdata" STALEPROF="$CC_T/rel/$n/relc/stale.profdata" EMPTY="$r/empty.profdata" LLVM_COV="llvm-cov-$m" \
    PROFBRIDGE_LLVM_VERSION="$m"
  if [[ "$cmd" == *STALEPROF* ]] && [ ! -s "$STALEPROF" ]; then
    echo "FAIL $label: the setup made no $STALEPROF" > "$CC_T/res/$id"; return 0
  fi
  local who
  for who in real ours; do
    [ "$check" = refused ] && [ "$who" = real ] && continue
    rm -rf "$CC_T/run/$id"; mkdir -p "$CC_T/run/$id"
    # (PROF and the others name no file in the run directory: "$CC_T/run/ID"
    # is the one path both tools see, so messages naming it agree)
    (cd "$CC_T/run/$id" && PATH="$r/$who:$PATH" timeout 120 bash -c "$cmd" >"$w/$who.out" 2>"$w/$who.err" </dev/null
     echo $? >"$w/$who.rc")
    rm -rf "${w:?}/$who.dir"; mv "$CC_T/run/$id" "$w/$who.dir"
  done
  local why=() ex=""
  if [ "$check" = refused ]; then
    local lines
    lines="$(wc -l < "$w/ours.err")"
    [ "$(cat "$w/ours.rc")" = 1 ] || why+=("exit $(cat "$w/ours.rc"), want 1")
    [ ! -s "$w/ours.out" ] || why+=("stdout not empty")
    { [ "$lines" = 1 ] && grep -q "export and report only" "$w/ours.err"; } ||
      why+=("stderr is not one line naming export and report: $(head -c 300 "$w/ours.err" | tr '\n' '|')")
  else
    local rr ro
    rr="$(cat "$w/real.rc")"; ro="$(cat "$w/ours.rc")"
    [ "$rr" = "$ro" ] || why+=("exit $ro, llvm-cov-$m's $rr")
    if ! cmp -s "$w/real.out" "$w/ours.out"; then
      why+=("stdout differs")
      ex="$ex$(diff "$w/real.out" "$w/ours.out" | head -6 | cut -c1-240)"$'\n'
    fi
    if ! cmp -s "$w/real.err" "$w/ours.err"; then
      why+=("stderr differs")
      ex="$ex$(diff "$w/real.err" "$w/ours.err" | head -6 | cut -c1-240)"$'\n'
    fi
    local f
    if ! f="$(diff -r "$w/real.dir" "$w/ours.dir" 2>&1)"; then
      why+=("files differ")
      ex="$ex$(printf '%s\n' "$f" | head -6 | cut -c1-240)"$'\n'
    fi
    # a guard against comparing two failures of the harness itself
    if [ "$rr" = 127 ] || grep -q 'command not found' "$w/real.err"; then why+=("the line does not run: $(head -c 200 "$w/real.err")"); fi
  fi
  if [ ${#why[@]} -eq 0 ]; then
    echo "PASS $(cat "$w/real.rc" 2>/dev/null || echo refused) $label" > "$CC_T/res/$id"
  else
    { local IFS=';'; echo "FAIL $label: ${why[*]}"; } > "$CC_T/res/$id"
    if [ -n "$ex" ]; then printf '%s' "$ex" | sed 's/^/    /' >> "$CC_T/res/$id"; fi
    if [ -n "${PB_COV_KEEP:-}" ]; then mkdir -p "$PB_COV_KEEP"; cp -r "$w" "$PB_COV_KEEP/"; fi
  fi
  rm -rf "$w"
}
if [ "${1:-}" = --case ]; then
  one_case "$2"
  exit 0
fi

# ------------------------------------------------------------ setup
: "${PB_SOURCE_DIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
. "$PB_SOURCE_DIR/tests/interop/lib/cli-common.bash"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash" # pb_cell
self="$PB_SOURCE_DIR/tests/interop/cov_callers.sh"
lines="$PB_SOURCE_DIR/tests/interop/data/cov_callers.txt"
pb="$(readlink -f "$PB")"

corpus="${PB_COV_CORPUS:-}"
if [ -z "$corpus" ]; then
  corpus="${PB_BINARY_DIR:-$PB_SOURCE_DIR/build}/cov-corpus"
  if ! bash "$PB_SOURCE_DIR/scripts/build-cov-corpus.sh" "$corpus" >"$T/corpus.log" 2>&1; then
    echo "SKIP: scripts/build-cov-corpus.sh could not build the corpus: $(tail -3 "$T/corpus.log")"
    exit 77
  fi
fi
if [ ! -s "$corpus/INDEX" ]; then
  echo "SKIP: no corpus in $corpus (scripts/build-cov-corpus.sh DIR, then PB_COV_CORPUS=DIR)"
  exit 77
fi
corpus="$(cd "$corpus" && pwd -P)"

releases=()
for n in ${PB_COV_CALLERS_RELEASES:-13 14 15 16 17 18 19 20 21 22 23 24}; do
  command -v "llvm-cov-$n" >/dev/null 2>&1 && grep -q "^$n	" "$corpus/INDEX" && releases+=("$n")
done
[ ${#releases[@]} -gt 0 ] || { echo "SKIP: no llvm-cov-N on PATH with a corpus release (scripts/install-deps.sh, scripts/fetch-llvm.sh)"; exit 77; }

mkdir -p "$T/res" "$T/work" "$T/run"
printf '#!/bin/sh\necho not an object file\n' > "$T/tool.sh"
printf 'int main(void) { return 0; }\n' > "$T/nocov.c"
for n in "${releases[@]}"; do
  r="$T/rel/$n"
  mkdir -p "$r/real" "$r/ours"
  # ours: llvm-cov-N and llvm-cov (with PROFBRIDGE_LLVM_VERSION=N) to $PB;
  # the real: llvm-cov-N from PATH, and llvm-cov a link to it
  ln -s "$pb" "$r/ours/llvm-cov-$n"; ln -s "$pb" "$r/ours/llvm-cov"
  ln -s "$(command -v "llvm-cov-$n")" "$r/real/llvm-cov"
  cp "$T/tool.sh" "$r/tool.sh"; chmod +x "$r/tool.sh"
  : > "$r/empty.profdata"
  # an object without coverage: clang-N's plain build, else the system's
  "clang-$n" -O0 "$T/nocov.c" -o "$r/nocov" 2>/dev/null || cp /bin/true "$r/nocov"
  # relc: the corpus's C program compiled as Bazel, Chromium and rustc
  # compile, with paths relative to the build directory recorded as "."
  # (-fcoverage-compilation-dir=.), run once, merged by llvm-profdata-N
  mkdir -p "$r/relc"
  if [ -f "$corpus/src/c/main.c" ] &&
     (cd "$corpus/src" && "clang-$n" -O0 -fprofile-instr-generate -fcoverage-mapping -fcoverage-compilation-dir=. \
        c/main.c c/util.c -o "$r/relc/prog") >/dev/null 2>&1 &&
     (cd "$r/relc" && LLVM_PROFILE_FILE="$r/relc/cov.profraw" ./prog) >/dev/null 2>&1 &&
     "llvm-profdata-$n" merge -o "$r/relc/cov.profdata" "$r/relc/cov.profraw" >/dev/null 2>&1; then
    echo prog > "$r/relc/OBJECTS"
    printf '%s\n' "$corpus/src/c/main.c" "$corpus/src/c/util.c" > "$r/relc/SOURCES"
    echo "$corpus/src" > "$r/relc/BUILDDIR"
    # stale.profdata: the profile of an earlier build whose classify() had
    # one case more (the same names, another hash: "mismatched data")
    mkdir -p "$r/stale/c"
    cp "$corpus/src/c/"* "$r/stale/c/"
    sed -i 's/^    case 4:$/    case 3:\n    case 4:/' "$r/stale/c/util.c"
    (cd "$r/stale" && "clang-$n" -O0 -fprofile-instr-generate -fcoverage-mapping -fcoverage-compilation-dir=. \
        c/main.c c/util.c -o prog && LLVM_PROFILE_FILE="$r/stale/cov.profraw" ./prog &&
     "llvm-profdata-$n" merge -o "$r/relc/stale.profdata" "$r/stale/cov.profraw") >/dev/null 2>&1
  fi
done

# has_unit N U: release N has program U (the corpus's, or relc built above)
has_unit() {
  if [ "$2" = relc ]; then [ -f "$T/rel/$1/relc/cov.profdata" ]; else grep -q "^$1	$2\$" "$corpus/INDEX"; fi
}
cases="$T/cases"
: > "$cases"
k=0
# add_cases M N: the line's cases for each unit built by clang-N, run by llvm-cov-M
add_cases() {
  for u in ${units//,/ }; do
    has_unit "$2" "$u" || continue
    k=$((k + 1))
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$1" "$2" "$u" "$check" "$cmd" >> "$cases"
  done
}
li=0 sampled=0
while IFS=$'\t' read -r units check cmd; do
  case "$units" in '#'*|'') continue ;; esac
  li=$((li + 1))
  # each line on one release in three, in turn (pb_cell; PB_TEST_FULL=1: all)
  for n in "${releases[@]}"; do
    if pb_cell 3 "$li" "$n"; then add_cases "$n" "$n"; else sampled=$((sampled + 1)); fi
  done
  # a newer llvm-cov than the compiler (PB_COV_CALLERS_CROSS: "N:M ...")
  for pair in ${PB_COV_CALLERS_CROSS-14:19 18:24}; do
    n="${pair%%:*}" m="${pair#*:}"
    if [ ! -d "$T/rel/$m" ] || [ ! -d "$T/rel/$n" ]; then continue; fi
    [ "$check" = same ] || continue
    add_cases "$m" "$n"
  done
done < "$lines"

export -f one_case pairs joined
export CC_T="$T" CC_CORPUS="$corpus" PB_COV_KEEP="${PB_COV_KEEP:-}"
start=$SECONDS
tr '\n' '\0' < "$cases" | xargs -0 -P "${PB_COV_JOBS:-2}" -n1 bash "$self" --case
real_ok=0
while IFS= read -r line; do
  case "$line" in
    PASS*) ok; case "$line" in "PASS 0 "*) real_ok=$((real_ok + 1)) ;; esac ;;
    FAIL*) fail "${line#FAIL }" ;;
    *) echo "$line" >&2 ;;
  esac
done < <(find "$T/res" -type f -print0 | LC_ALL=C sort -z -V | xargs -0 -r cat)
done_cases=$(find "$T/res" -type f | wc -l)
[ "$done_cases" = "$k" ] || fail "$((k - done_cases)) of $k cases left no result (the harness failed)"
# a guard against comparing only errors: most lines must succeed for real
[ "$real_ok" -ge $((k / 2)) ] || fail "the real llvm-cov succeeded in $real_ok of $k cases only: the lines are passed wrong?"
echo "cov_callers.sh: $k cases ($(grep -vc -e '^#' -e '^$' "$lines") command lines) over llvm-cov ${releases[*]} in $((SECONDS - start)) s;" \
  "the real llvm-cov exited 0 in $real_ok ($sampled (line, release) cells left to other releases)"
finish
