#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# leaks_real_inputs.sh -- LeakSanitizer over every real profile of
# ../shared/testdata (llvm-real, llvm-profparser, iprof-real), each content
# once, through the commands whose paths differ most: show, merge to indexed,
# convert to iprof (LLVM inputs) or to indexed (iprof inputs), and dump (LLVM)
# or validate (iprof). About 600 runs: each costs 0.1-0.2 s of CPU with the
# scan here, so not every command on every input.
#
# Why a test of its own: the tests that compare the CLI with the real tools
# over the same files start it tens of thousands of times, and LSan's scan at
# exit costs about 40 ms a start on the CI's machines, so they run with
# detect_leaks=0 (tests/CMakeLists.txt, PB_NO_LEAK_SCAN); here each input
# goes through each command once with the scan on. A leak fails the test
# whatever the command's exit status (a refused input must not leak either).
# A control program that leaks on purpose proves the scan works here first.
# Needs a sanitizer build ($PB instrumented): else exit 77.
set -uo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}" "${PB_SHARED_DIR:?}" "${PB_SOURCE_DIR:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish

case "$(nm -D "$PB" 2>/dev/null)" in
  *__asan_init*) ;;
  *) echo "SKIP: $PB is not built with AddressSanitizer (-DPB_SANITIZE=ON)"; exit 77 ;;
esac
D="$PB_SHARED_DIR/testdata"
[ -d "$D" ] || { echo "SKIP: $D is absent (the shared test data sits beside the checkout)"; exit 77; }
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1" # the last setting wins

# The control: the scan must report a leak in this environment (LSan does not
# work under ptrace, for one), or every check below would pass unseen.
printf '#include <stdlib.h>\nvoid *volatile keep;\nint main(void){keep=malloc(77);keep=0;return 0;}\n' >"$T/leak.c"
if cc -fsanitize=address -g "$T/leak.c" -o "$T/leak" 2>"$T/cc.err"; then
  "$T/leak" 2>"$T/leak.err"
  if grep -q 'ERROR: LeakSanitizer' "$T/leak.err"; then ok; else
    fail "the control program's leak was not reported: LeakSanitizer does not work here ($(head -c 300 "$T/leak.err"))"
    finish; exit
  fi
else
  echo "note: no control (cc -fsanitize=address failed: $(head -1 "$T/cc.err"))"
fi

# run WHAT ARGS...: $PB ARGS with the scan on; a leak report fails the check.
run() {
  local what="$1"; shift
  "$PB" "$@" >/dev/null 2>"$T/err"
  if grep -q 'LeakSanitizer' "$T/err"; then
    fail "$what leaks: $(grep -m1 -A3 'Direct leak\|Indirect leak' "$T/err" | tr '\n' ' ' | head -c 400)"
  else
    ok
  fi
}

# each (contents, extension) once: lib/distinct.bash, one md5sum for the list
. "$PB_SOURCE_DIR/tests/interop/lib/distinct.bash"
n=0
while IFS= read -r f; do
  n=$((n + 1))
  name="${f#"$D"/}"
  run "show $name" show "$f"
  case "$f" in
    *.iprof | *.iprof.gz)
      run "validate $name" validate "$f"
      run "convert $name to indexed" convert "$f" -o "$T/out.profdata" ;;
    *)
      run "dump $name" dump "$f"
      run "merge $name" merge "$f" -o "$T/out.profdata"
      run "convert $name to iprof" convert "$f" -o "$T/out.iprof" ;;
  esac
done < <(find "$D/llvm-real" "$D/llvm-profparser" "$D/iprof-real" -type f \
  \( -name '*.profraw' -o -name '*.profdata' -o -name '*.proftext' -o -name '*.iprof' -o -name '*.iprof.gz' \) 2>/dev/null |
  sort | pb_distinct)
[ "$n" -gt 0 ] || fail "no profile found under $D"
echo "leaks_real_inputs: $n distinct inputs"
finish
