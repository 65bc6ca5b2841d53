# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# common.bash -- the one harness every tests/interop/*.sh sources (directly or
# through cli-common.bash): one `fail`, one temporary directory, one summary
# line and `same_as_llvm`. Sourced, not a test. Needs nothing from ctest, so
# the install and packaging scripts can use it too.
#
#   $T                     a fresh temporary directory, removed on exit
#   fail MSG...            reports a failed check on stderr; counts it in
#                          $failures, or exits 1 at once when the script set
#                          PB_FAIL_FAST=1 before sourcing (a script whose
#                          later steps need the earlier ones)
#   ok                     counts a passed check in $checks
#   finish                 prints "NAME: C checks passed, F failed" and
#                          returns non-zero when a check failed
#   same_text WHAT WANT GOT
#                          ok when the two texts are equal, else fails with
#                          their first differing lines (WANT: the real
#                          tool's output, GOT: ours)
#   same_as_llvm N CMD...  runs "llvm-profdata-N CMD..." with the real tool
#                          and with profbridge called through a link of that
#                          name, each in a fresh copy of the files of the
#                          current directory matching $SAME_AS_LLVM_COPY
#                          (a glob, default *.profraw); fails unless stdout,
#                          the exit status and every file the real tool left
#                          are the same (stderr is compared by the callers
#                          that need it: the paths in it differ)

T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
failures=0
checks=0
PB_FAIL_FAST="${PB_FAIL_FAST:-0}"
pb_script="$(basename "$0")"

fail() {
  echo "$pb_script: FAIL: $*" >&2
  failures=$((failures + 1))
  if [ "$PB_FAIL_FAST" = 1 ]; then exit 1; fi
  return 0
}
ok() { checks=$((checks + 1)); }

finish() {
  echo "$pb_script: $checks checks passed, $failures failed"
  [ "$failures" -eq 0 ]
}

same_text() {
  if [ "$2" = "$3" ]; then
    ok
  else
    fail "$1 differs from the real tool's:
$(diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | head -20)"
  fi
}

# pb_llvm_link N: prints a directory holding llvm-profdata-N -> $PB.
pb_llvm_link() {
  : "${PB:?PB must name the profbridge binary (set by ctest)}"
  mkdir -p "$T/llvm-bin"
  [ -e "$T/llvm-bin/llvm-profdata-$1" ] || ln -s "$(readlink -f "$PB")" "$T/llvm-bin/llvm-profdata-$1"
  echo "$T/llvm-bin"
}

same_as_llvm() {
  local n="$1" bin f
  shift
  bin="$(pb_llvm_link "$n")"
  rm -rf "$T/same-real" "$T/same-ours"
  mkdir -p "$T/same-real" "$T/same-ours"
  for f in ${SAME_AS_LLVM_COPY:-*.profraw}; do
    [ -f "$f" ] || continue
    cp "$f" "$T/same-real/"
    cp "$f" "$T/same-ours/"
  done
  (cd "$T/same-real" && "llvm-profdata-$n" "$@" >stdout 2>stderr; echo $? >status)
  (cd "$T/same-ours" && "$bin/llvm-profdata-$n" "$@" >stdout 2>stderr; echo $? >status)
  local bad=0
  for f in "$T/same-real"/*; do
    f="${f##*/}"
    [ "$f" = stderr ] && continue
    cmp -s "$T/same-real/$f" "$T/same-ours/$f" || { fail "llvm-profdata-$n $*: $f differs from the real tool's"; bad=1; }
  done
  [ "$bad" = 1 ] || ok
}
