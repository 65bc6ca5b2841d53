#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# big_raw.sh -- builds (once) the large real raw profiles the LLVM benchmarks
# use and prints their directory. A generated program (bench/gen_big_c.py,
# default 100000 functions, of the given shape: value, plain or cxx, see
# there) is compiled by clang-N (default 19) with IR instrumentation
# (-fprofile-generate) and run twice with different arguments, giving
# run1.profraw and run2.profraw (the raw version of release N) in
# bench/cache/big-<functions> (shape value, clang-19, -O1: the benchmarks'
# original input) or bench/cache/big-<shape>-clang<N>[-O0]-<functions>.
# --opt O0 compiles ten times faster than the default O1 (IR instrumentation
# happens before inlining either way; the counters differ little).
# Cached: a second call only prints the directory.
# Usage: bench/big_raw.sh [--functions N] [--shape value|plain|cxx] [--clang N] [--opt O0|O1]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
functions=100000
shape=value
clang=19
opt=O1
while [ $# -gt 0 ]; do
  case "$1" in
    --functions) functions="$2"; shift 2 ;;
    --shape) shape="$2"; shift 2 ;;
    --clang) clang="$2"; shift 2 ;;
    --opt) opt="$2"; shift 2 ;;
    *) echo "usage: bench/big_raw.sh [--functions N] [--shape value|plain|cxx] [--clang N] [--opt O0|O1]" >&2; exit 2 ;;
  esac
done
case "$shape" in value|plain|cxx) ;; *) echo "big_raw: unknown shape $shape" >&2; exit 2 ;; esac
case "$opt" in O0) suffix=-O0 ;; O1) suffix="" ;; *) echo "big_raw: --opt is O0 or O1" >&2; exit 2 ;; esac
if [ "$shape" = value ] && [ "$clang" = 19 ] && [ "$opt" = O1 ]; then
  dir="$root/bench/cache/big-$functions"
else
  dir="$root/bench/cache/big-$shape-clang$clang$suffix-$functions"
fi
if [ -f "$dir/run2.profraw" ]; then echo "$dir"; exit 0; fi
cc="clang-$clang"; ext=c
if [ "$shape" = cxx ]; then cc="clang++-$clang"; ext=cpp; fi
command -v "$cc" >/dev/null || { echo "big_raw: $cc is missing (scripts/install-deps.sh, scripts/fetch-llvm.sh --clang $clang)" >&2; exit 1; }
rm -rf "$dir.tmp"; mkdir -p "$dir.tmp/src" "$dir.tmp/obj"
python3 "$root/bench/gen_big_c.py" "$dir.tmp/src" --shape "$shape" --functions "$functions" >&2
# -O1 keeps the program fast to run; IR instrumentation happens before inlining.
(cd "$dir.tmp/src" && ls ./*."$ext" | CC="$cc" EXT="$ext" OPT="-$opt" xargs -P 2 -I{} sh -c \
  '"$CC" "$OPT" -fprofile-generate -c "$1" -o "../obj/$(basename "$1" ".$EXT").o"' _ {}) >&2
"$cc" -fprofile-generate "$dir.tmp"/obj/*.o -o "$dir.tmp/big" >&2
# The runtime warns that some value sites ran out of static value counters:
# expected with 16 shared targets, kept in run.log rather than on the screen.
LLVM_PROFILE_FILE="$dir.tmp/run1.profraw" "$dir.tmp/big" 1 2>>"$dir.tmp/run.log" || true
LLVM_PROFILE_FILE="$dir.tmp/run2.profraw" "$dir.tmp/big" 2 2>>"$dir.tmp/run.log" || true
rm -rf "$dir.tmp/obj" "$dir.tmp/src"
mv "$dir.tmp" "$dir"
echo "$dir"
