#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Builds the library with -fsanitize=thread in its own directory and runs
# read_threads.c on a raw, an indexed and an iprof profile: 4 threads use one
# profile read-only at the same time; any data race fails the test.
set -euo pipefail
: "${PB_SOURCE_DIR:?}" "${PB_BINARY_DIR:?}" "${PB_SHARED_DIR:?}"
echo 'int main(void){return 0;}' >"$PB_BINARY_DIR/tsan-probe.c"
if ! cc -fsanitize=thread "$PB_BINARY_DIR/tsan-probe.c" -o "$PB_BINARY_DIR/tsan-probe" 2>/dev/null ||
   ! "$PB_BINARY_DIR/tsan-probe" 2>/dev/null; then
  echo "SKIP: this compiler or kernel cannot run -fsanitize=thread programs"
  exit 77
fi
inputs=("$PB_SHARED_DIR/testdata/llvm-real/llvm19/many-ir.profraw"
        "$PB_SHARED_DIR/testdata/llvm-real/llvm19/many-ir.profdata"
        "$PB_SOURCE_DIR/testdata/samples/fib-doc.iprof")
for f in "${inputs[@]}"; do
  [ -r "$f" ] || { echo "SKIP: $f is missing"; exit 77; }
done
dir="$PB_BINARY_DIR/tsan-build"
flags="-fsanitize=thread -O1 -g"
# The library alone (no CLI, no tests): its own build directory, because
# the main build's sanitizers (ASan+UBSan) and TSan exclude each other.
cmake -S "$PB_SOURCE_DIR" -B "$dir" -DCMAKE_BUILD_TYPE=None -DPB_BUILD_TESTS=OFF \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread \
  -DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=thread >"$dir.log" 2>&1 || { cat "$dir.log"; exit 1; }
cmake --build "$dir" --target profbridge_static -j2 >>"$dir.log" 2>&1 || { tail -30 "$dir.log"; exit 1; }
# shellcheck disable=SC2046,SC2086
cc $flags -std=c11 -D_POSIX_C_SOURCE=200809L -I"$PB_SOURCE_DIR/include" -I"$dir/include" \
  "$PB_SOURCE_DIR/tests/tsan/read_threads.c" "$dir/libprofbridge.a" \
  $(pkg-config --libs jansson libmd libxxhash libdeflate libelf libdw zlib) -lpthread -o "$dir/read_threads"
# halt_on_error: the first race fails the run (exit 66, told from other failures)
TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1" "$dir/read_threads" "${inputs[@]}"
# the merger's feed threads (raws prepared ahead) and its merging thread:
# several raws (value sites, concatenated profiles), each 6 times
# shellcheck disable=SC2046,SC2086
cc $flags -std=c11 -D_POSIX_C_SOURCE=200809L -I"$PB_SOURCE_DIR/include" -I"$dir/include" \
  "$PB_SOURCE_DIR/tests/tsan/merge_threads.c" "$dir/libprofbridge.a" \
  $(pkg-config --libs jansson libmd libxxhash libdeflate libelf libdw zlib) -lpthread -o "$dir/merge_threads"
L="$PB_SHARED_DIR/testdata/llvm-real/llvm19"
TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1" "$dir/merge_threads" \
  "$L/many-ir.profraw" "$L/simple-ir.profraw" "$L/concat-ir.profraw" "$L/cs-ir.profraw"
