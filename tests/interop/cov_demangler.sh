#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cov_demangler.sh -- llvm-cov's -Xdemangler through the llvm-cov-N link and
# the real llvm-cov-N, on the C++ program (templates, a lambda, a shared
# library) each clang-N built (scripts/build-cov-corpus.sh): report
# -show-functions with c++filt (demangled names, the column as wide as the
# longest) and with a demangler writing "\r\n" (llvm-cov trims it); the
# demangler's failures, which llvm-cov reports in one error line and then
# goes on with the names as the binary has them (exit status unchanged):
# not on PATH (exit 1, before the objects are read), not executable, a bad
# interpreter, exit 1, 126 and 127, killed by a signal, one line too many, a
# line too few; and export, which runs the demangler too. Compared: stdout,
# stderr, exit status. Environment: PB_COV_CORPUS as cov_callers.sh.
set -uo pipefail
: "${PB:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish
checks=0; failures=0
corpus="${PB_COV_CORPUS:-${PB_BINARY_DIR:-$PB_SOURCE_DIR/build}/cov-corpus}"
if [ ! -s "$corpus/INDEX" ]; then
  bash "$PB_SOURCE_DIR/scripts/build-cov-corpus.sh" "$corpus" >"$T/corpus.log" 2>&1 ||
    { echo "SKIP: no coverage corpus ($(tail -1 "$T/corpus.log"))"; exit 77; }
fi
command -v c++filt >/dev/null || { echo "SKIP: c++filt (binutils) is not installed"; exit 77; }
releases=()
for n in 13 14 15 16 17 18 19 21 22 23 24; do
  command -v "llvm-cov-$n" >/dev/null && grep -q "^$n	cpp\$" "$corpus/INDEX" && releases+=("$n")
done
[ ${#releases[@]} -gt 0 ] || { echo "SKIP: no llvm-cov-N with a C++ program in the corpus"; exit 77; }

printf 'x\n' >"$T/noexec"; chmod 644 "$T/noexec"
printf '#!/nonexistent/interpreter\n' >"$T/badinterp"; chmod 755 "$T/badinterp"
mkdir -p "$T/bin"
ln -s "$PB" "$T/bin/profbridge"

# the demanglers, each a list of -Xdemangler words (one per line)
cases=(
  "c++filt"
  $'sed\ns/$/\\r/'
  "no-such-demangler-here"
  "$T/noexec"
  "$T/badinterp"
  "false"
  $'sh\n-c\nexit 126'
  $'sh\n-c\nexit 127'
  $'sh\n-c\nkill -9 $$'
  $'sh\n-c\ncat; echo one-too-many'
  $'sh\n-c\nsed 1d'
  $'sh\n-c\ncat; echo; echo'
)
for n in "${releases[@]}"; do
  u="$corpus/$n/cpp"
  mapfile -t objs <"$u/OBJECTS"
  mapfile -t srcs <"$u/SOURCES"
  ln -sf "$PB" "$T/bin/llvm-cov-$n"
  objargs=("$u/${objs[0]}")
  for o in "${objs[@]:1}"; do objargs+=(-object "$u/$o"); done
  for c in "${cases[@]}"; do
    mapfile -t words <<<"$c"
    dm=()
    for w in "${words[@]}"; do dm+=(-Xdemangler "$w"); done
    for cmd in "report -show-functions" "export -summary-only"; do
      # shellcheck disable=SC2206
      line=($cmd -instr-profile="$u/cov.profdata" "${objargs[@]}" "${dm[@]}")
      [ "${cmd%% *}" = report ] && line+=("${srcs[@]}")
      "llvm-cov-$n" "${line[@]}" >"$T/l.out" 2>"$T/l.err"; lrc=$?
      "$T/bin/llvm-cov-$n" "${line[@]}" >"$T/p.out" 2>"$T/p.err"; prc=$?
      checks=$((checks + 1))
      what="llvm-cov-$n ${cmd%% *} -Xdemangler ${words[*]}"
      if [ "$lrc" != "$prc" ]; then fail "$what: exit $prc, llvm-cov-$n $lrc: $(head -c 300 "$T/p.err")"
      elif ! cmp -s "$T/l.err" "$T/p.err"; then fail "$what: stderr differs: $(diff "$T/l.err" "$T/p.err" | head -5)"
      elif ! cmp -s "$T/l.out" "$T/p.out"; then fail "$what: stdout differs: $(diff "$T/l.out" "$T/p.out" | head -5)"
      fi
    done
  done
  # the demangled names are really there (the test can fail if they are not)
  checks=$((checks + 1))
  "$T/bin/llvm-cov-$n" report -show-functions -instr-profile="$u/cov.profdata" "${objargs[@]}" -Xdemangler c++filt "${srcs[@]}" 2>/dev/null |
    grep -q 'pick<int>(int, int, bool)' || fail "llvm-cov-$n report -Xdemangler c++filt: no demangled template name"
done
echo "cov_demangler.sh: $checks checks against llvm-cov ${releases[*]}, $failures failed"
[ "$failures" -eq 0 ]
