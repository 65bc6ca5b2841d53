#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# headers.sh -- every public header (include/profbridge/*.h, sys/*.h and the
# generated version.h) compiles alone, included twice (its guard), as C11 and
# as C++ with all warnings as errors: a consumer may include any one of them
# first, from either language (as libgit2's tests/headertest).
set -euo pipefail
: "${PB_SOURCE_DIR:?}" "${PB_BINARY_DIR:?}"
# shellcheck source=lib/common.bash
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"

cache="$PB_BINARY_DIR/CMakeCache.txt"
cc="$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$cache")"
[ -n "$cc" ] || cc=cc
cxx=""
for c in g++ clang++-19 clang++ c++; do
  if command -v "$c" >/dev/null 2>&1; then cxx="$c"; break; fi
done
[ -n "$cxx" ] || { echo "SKIP: no C++ compiler (g++ or clang++-19) on PATH"; exit 77; }

inc="$PB_SOURCE_DIR/include"
gen="$PB_BINARY_DIR/include"
[ -f "$gen/profbridge/version.h" ] || fail "the build has no include/profbridge/version.h"
n=0
while IFS= read -r h; do
  rel="${h#"$inc"/}"
  [ "$h" != "$rel" ] || rel="${h#"$gen"/}"
  printf '#include <%s>\n#include <%s>\nint pb_headertest_anchor;\n' "$rel" "$rel" >"$T/one.c"
  cp "$T/one.c" "$T/one.cpp"
  if "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$inc" -I"$gen" -c "$T/one.c" -o "$T/one.o" 2>"$T/err"; then ok
  else fail "$rel does not compile alone as C11: $(head -c 800 "$T/err")"; fi
  if "$cxx" -std=c++11 -Wall -Wextra -Wpedantic -Werror -I"$inc" -I"$gen" -c "$T/one.cpp" -o "$T/one.o" 2>"$T/err"; then ok
  else fail "$rel does not compile alone as C++ ($cxx): $(head -c 800 "$T/err")"; fi
  n=$((n + 1))
done < <(find "$inc/profbridge" "$gen/profbridge" -name '*.h' | LC_ALL=C sort)
[ "$n" -ge 12 ] || fail "only $n public headers found under $inc/profbridge"
echo "headers.sh: $n public headers, each alone as C11 ($cc) and C++ ($cxx)"
finish
