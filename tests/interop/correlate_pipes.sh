#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# correlate_pipes.sh -- issue 23: --binary-file and --debug-info read from a
# pipe, a FIFO or `<(...)` as llvm-profdata-19 reads them (into memory):
# merge (two raw inputs, so the object is used more than once), convert and
# show --debug-info give llvm-profdata-19's bytes. Before, libelf said
# "invalid file descriptor". A few seconds (two clang-19 builds).
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
. "$(dirname "$0")/lib/llvm-tools.bash"
for t in clang-19 llvm-profdata-19; do
  command -v "$t" >/dev/null || { echo "SKIP: $t is not on PATH"; exit 77; }
done
cat >"$T/p.c" <<'C'
int sq(int x) { return x * x; }
int main(int argc, char **argv) { (void)argv; int s = 0; for (int i = 0; i < argc + 3; i++) s += sq(i); return s > 1000; }
C
clang-19 -O0 -fprofile-generate -mllvm -disable-vp -mllvm -profile-correlate=binary "$T/p.c" -o "$T/bin"
clang-19 -O0 -g -fprofile-generate -mllvm -disable-vp -mllvm -profile-correlate=debug-info "$T/p.c" -o "$T/dbg"
(cd "$T" && LLVM_PROFILE_FILE="$T/bin.profraw" ./bin && LLVM_PROFILE_FILE="$T/dbg.profraw" ./dbg x) || true

for kind in binary-file:bin debug-info:dbg; do
  opt="--${kind%%:*}" f="${kind##*:}"
  llvm-profdata-19 merge "$opt" "$T/$f" "$T/$f.profraw" "$T/$f.profraw" -o "$T/$f.want"
  run "$PB" merge "$opt" <(cat "$T/$f") "$T/$f.profraw" "$T/$f.profraw" -o "$T/$f.got"
  expect_rc 0 "merge $opt <(...)"
  cmp -s "$T/$f.want" "$T/$f.got" && ok || fail "merge $opt <(...): not llvm-profdata-19's bytes"
  mkfifo "$T/$f.fifo"
  cat "$T/$f" >"$T/$f.fifo" &
  run "$PB" merge "$opt" "$T/$f.fifo" "$T/$f.profraw" "$T/$f.profraw" -o "$T/$f.fgot"
  wait
  expect_rc 0 "merge $opt FIFO"
  cmp -s "$T/$f.want" "$T/$f.fgot" && ok || fail "merge $opt FIFO: not llvm-profdata-19's bytes"
  run "$PB" convert "$T/$f.profraw" "$opt" <(cat "$T/$f") -o "$T/$f.c.profdata"
  expect_rc 0 "convert $opt <(...)"
  llvm-profdata-19 merge "$opt" "$T/$f" "$T/$f.profraw" -o "$T/$f.cwant"
  cmp -s "$T/$f.cwant" "$T/$f.c.profdata" && ok || fail "convert $opt <(...): not llvm-profdata-19's bytes"
  # through a pipe on standard input's side too: cat | merge --opt /dev/stdin
  run bash -c "cat '$T/$f' | '$PB' merge $opt /dev/stdin '$T/$f.profraw' '$T/$f.profraw' -o '$T/$f.sgot'"
  expect_rc 0 "merge $opt /dev/stdin"
  cmp -s "$T/$f.want" "$T/$f.sgot" && ok || fail "merge $opt /dev/stdin: not llvm-profdata-19's bytes"
done
llvm-profdata-19 show --debug-info "$T/dbg" >"$T/want"
run "$PB" show --debug-info <(cat "$T/dbg")
expect_rc 0 "show --debug-info <(...)"
cmp -s "$T/want" "$T/out" && ok || fail "show --debug-info <(...): $(cat "$T/out" "$T/err")"
finish
