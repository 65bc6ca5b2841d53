#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# examples.sh -- the programs in examples/ build against the INSTALLED library,
# through pkg-config and through find_package (examples/CMakeLists.txt), and
# give what the real LLVM tools give:
#   - list_records on real profiles (LLVM 19's raw and indexed files, a raw
#     profile of a program built here with clang-19) lists the records, hashes,
#     counter counts and counter sums llvm-profdata-19 show --all-functions
#     --counts prints for the same file;
#   - convert --llvm-version N IN x.profdata writes a file llvm-profdata-N reads
#     and shows exactly as it shows its own `merge` of IN, for every N present.
set -euo pipefail
: "${PB_BINARY_DIR:?}" "${PB_SOURCE_DIR:?}" "${PB_SHARED_DIR:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
pb_need_llvm 19 clang
PB_FAIL_FAST=1
# shellcheck source=lib/common.bash
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"

work="$T"
prefix="$work/prefix"
cache="$PB_BINARY_DIR/CMakeCache.txt"
cc="$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$cache")"
[ -n "$cc" ] || cc=cc
san=""
if grep -q '^PB_SANITIZE:BOOL=ON' "$cache"; then san="-fsanitize=address,undefined"; fi
cmake --install "$PB_BINARY_DIR" --prefix "$prefix" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; fail "cmake --install failed"; }
pc="$(find "$prefix" -name profbridge.pc | head -n1)"
libdir="$(dirname "$(dirname "$pc")")"
export LD_LIBRARY_PATH="$libdir"

# 1. pkg-config: each example alone, as examples/CMakeLists.txt's comment says.
export PKG_CONFIG_PATH="$(dirname "$pc")"
flags="$(pkg-config --cflags --libs profbridge)"
mkdir -p "$work/pc"
n=0
for src in "$PB_SOURCE_DIR"/examples/*.c; do
  name="$(basename "$src" .c)"
  # shellcheck disable=SC2086
  "$cc" $san -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$work/pc/$name" "$src" $flags \
    || fail "examples/$name.c does not compile with pkg-config's flags"
  n=$((n + 1))
done
# 2. find_package: the examples' own CMakeLists.txt.
cmake -S "$PB_SOURCE_DIR/examples" -B "$work/cm" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_C_FLAGS="$san -Wall -Wextra -Werror" -DCMAKE_EXE_LINKER_FLAGS="$san" >"$work/cm.log" 2>&1 \
  || { cat "$work/cm.log" >&2; fail "examples/CMakeLists.txt does not configure"; }
cmake --build "$work/cm" >>"$work/cm.log" 2>&1 || { cat "$work/cm.log" >&2; fail "examples/ does not build"; }
echo "built $n examples with pkg-config and with find_package"

# The oracle's view: "NAME<TAB>0xHASH<TAB>COUNTERS<TAB>SUM" from llvm-profdata show.
llvm_list() { # N FILE
  "llvm-profdata-$1" show --all-functions --counts "$2" | awk '
    function flush() { if (name != "") printf "%s\t%s\t%d\t%.0f\n", name, hash, nc, sum; name = "" }
    /^  [^ ].*:$/ { flush(); name = substr($0, 3, length($0) - 3); sum = 0; nc = 0; next }
    /^    Hash: / { hash = $2; next }
    /^    Counters: / { nc = $2; next }
    /^    Function count: / { sum += $3; next }
    /^    Block counts: / { s = $0; sub(/.*\[/, "", s); sub(/\].*/, "", s); k = split(s, v, ", ");
                            for (i = 1; i <= k; i++) sum += v[i]; next }
    END { flush() }' | LC_ALL=C sort
}
ours_list() { "$1" "$2" | LC_ALL=C sort; }

# A raw profile of a program built here with clang-19.
cat >"$work/prog.c" <<'C'
#include <stdio.h>
static int step(int i) { return i % 3 ? i * 2 : i + 1; }
int main(int argc, char **argv) {
    long s = 0;
    for (int i = 0; i < 1000 + argc; i++) s += step(i);
    printf("%ld %s\n", s, argv[0] ? "ok" : "");
    return 0;
}
C
clang-19 -O1 -fprofile-generate -o "$work/prog" "$work/prog.c"
LLVM_PROFILE_FILE="$work/prog.profraw" "$work/prog" >/dev/null

real="$PB_SHARED_DIR/testdata/llvm-real/llvm19"
compared=0
for f in "$real/many-ir.profraw" "$real/many-ir.profdata" "$real/basic-ir.profraw" "$real/vtable-ir.profdata" \
         "$work/prog.profraw"; do
  [ -r "$f" ] || continue
  for built in "$work/pc" "$work/cm"; do
    ours_list "$built/list_records" "$f" >"$work/ours.txt" || fail "list_records $f failed"
    llvm_list 19 "$f" >"$work/llvm.txt"
    [ -s "$work/llvm.txt" ] || fail "llvm-profdata-19 show listed nothing for $f"
    diff -u "$work/llvm.txt" "$work/ours.txt" >"$work/d.txt" \
      || { head -20 "$work/d.txt"; fail "list_records $(basename "$f") differs from llvm-profdata-19 show"; }
  done
  compared=$((compared + 1))
done
echo "list_records: $compared profiles, the same records as llvm-profdata-19 show"

# convert --llvm-version N, checked by llvm-profdata-N itself.
text="$real/many-ir.proftext"
converted=0
for v in $(pb_llvm_releases); do
  "$work/cm/convert" --llvm-version "$v" "$text" "$work/ours-$v.profdata" 2>"$work/convert.err" \
    || { cat "$work/convert.err"; fail "convert --llvm-version $v failed"; }
  "llvm-profdata-$v" merge -o "$work/llvm-$v.profdata" "$text"
  "llvm-profdata-$v" show --all-functions --counts --ic-targets "$work/ours-$v.profdata" >"$work/ours.show" \
    || fail "llvm-profdata-$v cannot read convert --llvm-version $v's output"
  "llvm-profdata-$v" show --all-functions --counts --ic-targets "$work/llvm-$v.profdata" >"$work/llvm.show"
  diff -u "$work/llvm.show" "$work/ours.show" >"$work/d.txt" \
    || { head -20 "$work/d.txt"; fail "llvm-profdata-$v shows convert --llvm-version $v's file differently"; }
  cmp -s "$work/llvm-$v.profdata" "$work/ours-$v.profdata" \
    || fail "convert --llvm-version $v is not byte-identical to llvm-profdata-$v merge"
  converted=$((converted + 1))
done
[ "$converted" -gt 0 ] || fail "no llvm-profdata-N to check convert with"
echo "convert: $converted releases, each file byte-identical to llvm-profdata-N merge and shown alike"
