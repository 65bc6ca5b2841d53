#!/usr/bin/env bash
# big_raw.sh -- builds (once) the large real raw profiles the LLVM benchmarks
# use and prints their directory. A generated C program (bench/gen_big_c.py,
# default 100000 functions) is compiled by clang-19 with IR instrumentation
# (-fprofile-generate: counters, indirect-call and memop value sites) and run
# twice with different arguments, giving bench/cache/big/run1.profraw and
# run2.profraw (raw v10). Cached: a second call only prints the directory.
# Usage: bench/big_raw.sh [--functions N]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
functions=100000
[ "${1:-}" = "--functions" ] && functions="$2"
dir="$root/bench/cache/big-$functions"
if [ -f "$dir/run2.profraw" ]; then echo "$dir"; exit 0; fi
command -v clang-19 >/dev/null || { echo "big_raw: clang-19 is missing (scripts/install-deps.sh)" >&2; exit 1; }
rm -rf "$dir.tmp"; mkdir -p "$dir.tmp/src" "$dir.tmp/obj"
python3 "$root/bench/gen_big_c.py" "$dir.tmp/src" --functions "$functions" >&2
# -O1 keeps the program fast to run; IR instrumentation happens before inlining.
(cd "$dir.tmp/src" && ls ./*.c | xargs -P 2 -I{} sh -c \
  'clang-19 -O1 -fprofile-generate -c "$1" -o "../obj/$(basename "$1" .c).o"' _ {}) >&2
clang-19 -fprofile-generate "$dir.tmp"/obj/*.o -o "$dir.tmp/big" >&2
# The runtime warns that some value sites ran out of static value counters:
# expected with 16 shared targets, kept in run.log rather than on the screen.
LLVM_PROFILE_FILE="$dir.tmp/run1.profraw" "$dir.tmp/big" 1 2>>"$dir.tmp/run.log" || true
LLVM_PROFILE_FILE="$dir.tmp/run2.profraw" "$dir.tmp/big" 2 2>>"$dir.tmp/run.log" || true
rm -rf "$dir.tmp/obj" "$dir.tmp/src"
mv "$dir.tmp" "$dir"
echo "$dir"
