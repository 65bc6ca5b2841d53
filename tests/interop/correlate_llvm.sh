#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# correlate_llvm.sh -- lightweight raw profiles (counters only) read with
# their binary, against the real llvm-profdata-N of every release on PATH:
#   - clang-N builds a small C program (and clang++-N, 18+, a C++ one whose
#     inline and template functions two files share) (two files, static functions with one
#     name, loops, recursion, an indirect call, a condition of three terms)
#     with -profile-correlate=binary (18+) and with -g
#     -profile-correlate=debug-info (18+; -debug-info-correlate in 14-17),
#     IR-instrumented and front-end instrumented with coverage and, from 18 on,
#     MC/DC bitmaps (correlated by 23+), value profiling off (-disable-vp:
#     LLVM correlates no value sites, and clang crashes building such
#     programs), runs each twice with different arguments;
#   - `llvm-profdata-N merge --binary-file|--debug-info BIN r1 r2` (indexed and
#     --text) against `profbridge merge --llvm-version N` with the same words
#     and against profbridge called as llvm-profdata-N: the same bytes;
#     `profbridge convert r1 --binary-file BIN` against a merge of r1 alone;
#   - `show --debug-info BIN` (and --show-format=yaml where it exists): the same
#     stdout;
#   - the errors (both options, a missing file, a file that is no object, a
#     binary without correlation data, a complete raw profile with
#     --binary-file, --debuginfod where it exists): the same exit status
#     through the llvm-profdata-N link and LLVM's message in ours.
# Releases run two at a time.
set -u
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?PB_SOURCE_DIR must name the source tree (set by ctest)}"
# shellcheck source=lib/llvm-tools.bash
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"

releases=()
for n in $(pb_llvm_releases clang); do [ "$n" -ge 14 ] && releases+=("$n"); done
if [ ${#releases[@]} -eq 0 ]; then
  echo "SKIP: no llvm-profdata-N with clang-N for N >= 14 on PATH ($(pb_llvm_how 19))"
  exit 77
fi
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
mkdir -p "$W/bin"

cat > "$W/a.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int from_b(int n);
static int helper(int x) { return x * x; }
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 7, s = 0;
    int (*f)(int) = n % 2 ? twice : thrice;
    for (int i = 0; i < n; i++) s += (i & 1) ? helper(i) : fib(i);
    s += from_b(n) + f(n);
    printf("%d\n", s);
    return 0;
}
C
cat > "$W/b.c" <<'C'
static int helper(int x) { return x + 1; }
static int decide(int a, int b, int c) { return (a && b) || c; }
int from_b(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) if (i % 3) s += helper(i) + decide(i & 1, i & 2, n > 8);
    return s;
}
C

cat > "$W/h.h" <<'C'
template <class T> inline T twice(T x) { return x + x; }
inline int sq(int x) { return x * x; }
int one(int);
int two(int);
C
cat > "$W/c1.cpp" <<'C'
#include "h.h"
int one(int n) { int s = 0; for (int i = 0; i < n; i++) s += twice(i) + sq(i); return s; }
C
cat > "$W/c2.cpp" <<'C'
#include <cstdio>
#include <cstdlib>
#include "h.h"
int two(int n) { return (int)twice(n * 1.0) + sq(n); }
int main(int argc, char **argv) {
    int n = argc > 1 ? std::atoi(argv[1]) : 3;
    std::printf("%d\n", one(n) + two(n));
    return 0;
}
C

# one_release N: builds, runs and compares; writes $W/N.log, the counts in $W/N.count
one_release() {
  local n=$1 d="$W/r$1" checks=0 fails=0 kinds=() k bin opt tool
  mkdir -p "$d"
  local cc="clang-$n" pd="llvm-profdata-$n" me="$W/bin/llvm-profdata-$n"
  fail() { echo "FAIL [$n]: $*"; fails=$((fails + 1)); }
  # build K FLAGS...: the program and two runs' raw profiles, or a note
  build() {
    local k=$1 comp="$cc" srcs=("$W/a.c" "$W/b.c"); shift
    case "$k" in cxx-*) comp="clang++-$n" srcs=("$W/c1.cpp" "$W/c2.cpp") ;; esac
    if ! "$comp" -O0 "$@" "${srcs[@]}" -o "$d/$k" 2>"$d/$k.log" >/dev/null; then
      case "$k" in
        fe-*|cxx-*) echo "note [$n]: $comp refused $*: $k not tested"; return 1 ;;
      esac
      fail "$cc refused $*: $(grep -m1 -E 'error|Unknown' "$d/$k.log" | cut -c1-200)"; return 1
    fi
    (cd "$d" && LLVM_PROFILE_FILE="$d/$k.1.profraw" "./$k" 4 >/dev/null &&
      LLVM_PROFILE_FILE="$d/$k.2.profraw" "./$k" 9 >/dev/null) || { fail "$k did not run"; return 1; }
    kinds+=("$k")
  }
  # Value profiling is not correlated (LLVM's TODO): with it clang-19..24
  # crash building -profile-correlate=debug-info and the =binary programs
  # crash when they run, so it is off, as in LLVM's own tests.
  # The fe-* kinds: front-end instrumentation with coverage and MC/DC
  # bitmaps (18+), which LLVM 23+ correlate and 18-22 drop.
  local fe="-fprofile-instr-generate -fcoverage-mapping"
  if [ "$n" -ge 18 ]; then
    build binary -fprofile-generate -mllvm -disable-vp -mllvm -profile-correlate=binary
    build debug -g -fprofile-generate -mllvm -disable-vp -mllvm -profile-correlate=debug-info
    # shellcheck disable=SC2086
    build fe-binary $fe -fcoverage-mcdc -mllvm -disable-vp -mllvm -profile-correlate=binary
    # shellcheck disable=SC2086
    build fe-debug -g $fe -fcoverage-mcdc -mllvm -disable-vp -mllvm -profile-correlate=debug-info
    # C++ inline and template functions of two files share their counters:
    # the second record of each is dropped
    build cxx-binary -fprofile-generate -mllvm -disable-vp -mllvm -profile-correlate=binary
    build cxx-debug -g -fprofile-generate -mllvm -disable-vp -mllvm -profile-correlate=debug-info
  else
    # (front-end programs of 14-17 write complete or empty profiles with
    # -debug-info-correlate: only IR instrumentation is correlated there)
    build debug -g -fprofile-generate -mllvm -disable-vp -mllvm -debug-info-correlate
  fi
  build plain -fprofile-generate || return 0
  # same ARGS...: the real tool, profbridge --llvm-version N and the link write the same bytes
  same() {
    local what="$*"
    if ! "$pd" merge "$@" -o "$d/want" 2>"$d/want.err"; then fail "$pd refused merge $what: $(head -3 "$d/want.err")"; return; fi
    checks=$((checks + 1))
    if ! "$PB" merge --llvm-version "$n" "$@" -o "$d/got" 2>"$d/got.err"; then
      fail "profbridge refused merge $what: $(head -3 "$d/got.err")"
    elif ! cmp -s "$d/want" "$d/got"; then
      fail "merge $what: other bytes than $pd"
    fi
    checks=$((checks + 1))
    if ! "$me" merge "$@" -o "$d/got2" 2>"$d/got.err" || ! cmp -s "$d/want" "$d/got2"; then
      fail "llvm-profdata-$n link: merge $what: other bytes or a failure: $(head -3 "$d/got.err")"
    fi
  }
  for k in "${kinds[@]}"; do
    [ "$k" = plain ] && continue
    opt=--debug-info; case "$k" in *binary) opt=--binary-file ;; esac
    bin="$d/$k"
    same "$opt=$bin" "$d/$k.1.profraw" "$d/$k.2.profraw"
    same "$opt=$bin" --text "$d/$k.1.profraw" "$d/$k.2.profraw"
    same "$opt" "$bin" --weighted-input=3,"$d/$k.1.profraw" "$d/$k.2.profraw"
    # convert takes the raw reader's option
    checks=$((checks + 1))
    "$pd" merge "$opt=$bin" -o "$d/want" "$d/$k.1.profraw" 2>/dev/null
    if ! "$PB" convert --llvm-version "$n" "$d/$k.1.profraw" "$opt" "$bin" -o "$d/conv.profdata" 2>"$d/got.err" ||
       ! cmp -s "$d/want" "$d/conv.profdata"; then
      fail "convert $k.1.profraw $opt: not what $pd merge writes: $(head -3 "$d/got.err")"
    fi
  done
  # show --debug-info: the functions the debug info has
  for k in "${kinds[@]}"; do
    case "$k" in *debug) ;; *) continue ;; esac
    for fmt in "" "--show-format=yaml"; do
      [ -n "$fmt" ] && ! "$pd" show --help-hidden 2>/dev/null | grep -q -- '--show-format' && continue
      # shellcheck disable=SC2086
      "$pd" show --debug-info="$d/$k" $fmt >"$d/want" 2>&1 || { fail "$pd show --debug-info $fmt failed"; continue; }
      checks=$((checks + 1))
      # shellcheck disable=SC2086
      "$me" show --debug-info="$d/$k" $fmt >"$d/got" 2>&1
      cmp -s "$d/want" "$d/got" || fail "show --debug-info $fmt: $(diff "$d/want" "$d/got" | head -6)"
      checks=$((checks + 1))
      # shellcheck disable=SC2086
      "$me" show --debug-info="$d/$k" $fmt -o "$d/got.o" >/dev/null 2>&1
      cmp -s "$d/want" "$d/got.o" || fail "show --debug-info $fmt -o: not what $pd prints"
    done
    if "$pd" show --help-hidden 2>/dev/null | grep -q -- '--show-format'; then
      local rw rm
      "$pd" show --debug-info="$d/$k" --show-format=json >/dev/null 2>&1; rw=$?
      "$me" show --debug-info="$d/$k" --show-format=json >/dev/null 2>&1; rm=$?
      checks=$((checks + 1))
      [ "$rw" = "$rm" ] || fail "show --debug-info --show-format=json: exit $rm, $pd exits $rw"
    fi
  done
  # errors: the same exit status through the link, LLVM's words in ours
  err_case() {
    local rw rm
    "$pd" merge "$@" -o "$d/x" >/dev/null 2>"$d/want.err"; rw=$?
    "$me" merge "$@" -o "$d/x" >/dev/null 2>"$d/got.err"; rm=$?
    checks=$((checks + 1))
    if [ "$rw" != "$rm" ]; then fail "merge $*: exit $rm, $pd exits $rw ($(head -2 "$d/got.err"))"; return; fi
    # LLVM's first line without its "error: " / "warning: " and tool name in
    # ours, where our detail (byte offset and field) may follow the file name
    local msg; msg=$(head -1 "$d/want.err" | sed -E 's/^(llvm-profdata[-0-9]*: )?(error|warning): //')
    case "$msg" in
      "") return ;; # both succeeded
      *"Unknown command line argument"*|*"Expected --correlate"*) return ;; # --debuginfod: refused with our reason
    esac
    sed -E 's/: byte 0x[0-9a-f]+ \([^)]*\)//' "$d/got.err" | grep -qF -- "$msg" ||
      fail "merge $*: '$msg' not in: $(head -2 "$d/got.err")"
  }
  local lw
  if [ "$n" -ge 18 ]; then
    lw="$d/binary.1.profraw"
    err_case --binary-file="$d/binary" --debug-info="$d/debug" "$lw"
    err_case --binary-file="$d/plain" "$lw"
    err_case --binary-file="$d/binary" "$d/plain.1.profraw"
    err_case --binary-file="$W/a.c" "$lw"
    err_case --binary-file="$W/nonexistent" "$lw"
    err_case --debuginfod "$lw"
  fi
  err_case --debug-info="$d/plain" "$d/debug.1.profraw"
  err_case --debug-info="$W/a.c" "$d/debug.1.profraw"
  err_case --debug-info="$W/nonexistent" "$d/debug.1.profraw"
  err_case --debug-info="$d/debug" "$d/plain.1.profraw"
  # a lightweight profile without its binary: refused by 14-17, no records in 18+
  if [ "$n" -ge 18 ]; then same "$d/debug.1.profraw"; fi
  err_case "$d/debug.1.profraw"
  echo "$checks $fails" > "$W/$n.count"
}

for n in "${releases[@]}"; do ln -s "$(readlink -f "$PB")" "$W/bin/llvm-profdata-$n"; done
running=0
for n in "${releases[@]}"; do
  one_release "$n" >"$W/$n.log" 2>&1 &
  running=$((running + 1))
  if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
done
wait
checks=0; fails=0
for n in "${releases[@]}"; do
  cat "$W/$n.log"
  if [ -s "$W/$n.count" ]; then
    read -r c f < "$W/$n.count"; checks=$((checks + c)); fails=$((fails + f))
  else
    echo "FAIL [$n]: the release's checks did not finish"; fails=$((fails + 1))
  fi
done
echo "correlate_llvm.sh: releases ${releases[*]}: $checks comparisons with llvm-profdata-N, $fails failures"
[ "$fails" -eq 0 ]
