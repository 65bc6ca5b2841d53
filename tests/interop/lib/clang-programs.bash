# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# clang-programs.bash -- builds and runs a fixed set of small C/C++ programs
# (tests/interop/data/programs, taken from raw_clang.sh and
# raw_clang_more.sh) with clang-N and leaves the raw profiles they write,
# named by kind, for tests to compare against llvm-profdata-N.
#
# Sourced:  pb_clang_programs N OUTDIR   (returns non-zero only when not even
#                                         the plain IR program could be built)
# Run:      bash tests/interop/lib/clang-programs.bash N OUTDIR
#
# In OUTDIR afterwards, for each kind K that release N supports:
#   K            the executable (coverage kinds need it for llvm-cov)
#   K.profraw    the raw profile of one run (`K` with no arguments)
# and KINDS (lines "K<TAB>clang flags") and SKIPPED (lines "K<TAB>why": a
# flag this release does not accept, ...). The kinds:
#   ir, fe            plain counters (mcdc.c), -fprofile-generate (IR) and
#                     -fprofile-instr-generate (front end)
#   ir-value, fe-value  indirect calls and memcpy of variable sizes (ic.c)
#   vtable            C++ virtual calls, -mllvm -enable-vtable-value-profiling
#   temporal          -mllvm -pgo-temporal-instrumentation
#   coverage, mcdc    -fcoverage-mapping [-fcoverage-mcdc], front end
#   entry-coverage    -mllvm -pgo-function-entry-coverage
#   block-coverage    -mllvm -pgo-block-coverage
#   loop-entries      -mllvm -pgo-instrument-loop-entries
#   atomic            -fprofile-update=atomic (ic.c, IR)
#   statics           two files with a static `helper` each (one.c two.c)
#   shared            a shared library (one.c) and the program (two.c), both
#                     instrumented, writing one raw file: two profiles in it
#   cs                -fcs-profile-generate on top of -fprofile-use of the
#                     merged ir-value profile, at -O2 (ic.c)
# Everything is built at -O0 (but cs) with -Wl,--build-id, so every raw file
# carries a binary id.

pb_clang_programs_src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../data/programs" && pwd)"

pb_clang_programs() {
  local n="$1" out="$2" src="$pb_clang_programs_src"
  mkdir -p "$out" || return 1
  : > "$out/KINDS"; : > "$out/SKIPPED"
  # kind K COMPILER FLAGS... : compiles, runs, records the kind or why not.
  kind() {
    local k="$1" cc="$2"; shift 2
    rm -f "$out/$k" "$out/$k.profraw"
    if ! "$cc" "$@" -Wl,--build-id -o "$out/$k" 2>"$out/$k.log"; then
      printf '%s\t%s: %s\n' "$k" "$cc refused" "$(grep -m1 -E 'error|Unknown' "$out/$k.log" || head -1 "$out/$k.log")" >> "$out/SKIPPED"
      rm -f "$out/$k" "$out/$k.log"; return 1
    fi
    # vt.cpp's exit status is its result: only the profile matters
    (cd "$out" && LLVM_PROFILE_FILE="$out/$k.profraw" "./$k" >/dev/null 2>>"$out/$k.log") || true
    if [ ! -s "$out/$k.profraw" ]; then
      printf '%s\t%s\n' "$k" "the program wrote no profile: $(head -1 "$out/$k.log")" >> "$out/SKIPPED"
      rm -f "$out/$k.log"; return 1
    fi
    rm -f "$out/$k.log"
    # the flags, with the build directories left out
    printf '%s\t%s\n' "$k" "$(echo "$cc $*" | sed "s|$src/||g; s|$out/||g; s|$out|.|g")" >> "$out/KINDS"
  }
  local c="clang-$n" cxx="clang++-$n"
  kind ir "$c" -O0 -fprofile-generate "$src/mcdc.c" || return 1
  kind fe "$c" -O0 -fprofile-instr-generate "$src/mcdc.c"
  kind ir-value "$c" -O0 -fprofile-generate "$src/ic.c"
  kind fe-value "$c" -O0 -fprofile-instr-generate "$src/ic.c"
  kind vtable "$cxx" -O0 -fprofile-generate -mllvm -enable-vtable-value-profiling "$src/vt.cpp"
  kind temporal "$c" -O0 -fprofile-generate -mllvm -pgo-temporal-instrumentation "$src/mcdc.c"
  kind coverage "$c" -O0 -fprofile-instr-generate -fcoverage-mapping "$src/mcdc.c"
  kind mcdc "$c" -O0 -fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc "$src/mcdc.c"
  kind entry-coverage "$c" -O0 -fprofile-generate -mllvm -pgo-function-entry-coverage "$src/mcdc.c"
  kind block-coverage "$c" -O0 -fprofile-generate -mllvm -pgo-block-coverage "$src/mcdc.c"
  kind loop-entries "$c" -O0 -fprofile-generate -mllvm -pgo-instrument-loop-entries "$src/mcdc.c"
  kind atomic "$c" -O0 -fprofile-generate -fprofile-update=atomic "$src/ic.c"
  kind statics "$c" -O0 -fprofile-generate "$src/one.c" "$src/two.c"
  if "$c" -O0 -fprofile-generate -fPIC -shared -Wl,--build-id "$src/one.c" -o "$out/libone.so" 2>"$out/shared.log"; then
    # shellcheck disable=SC2016 # $ORIGIN is for the linker
    kind shared "$c" -O0 -fprofile-generate "$src/two.c" -L"$out" -lone -Wl,-rpath,'$ORIGIN'
  else
    printf '%s\t%s\n' shared "$c refused the shared library: $(head -1 "$out/shared.log")" >> "$out/SKIPPED"
  fi
  rm -f "$out/shared.log"
  if [ -s "$out/ir-value.profraw" ] && command -v "llvm-profdata-$n" >/dev/null &&
     "llvm-profdata-$n" merge -o "$out/ir-value.profdata" "$out/ir-value.profraw"; then
    kind cs "$c" -O2 -fprofile-use="$out/ir-value.profdata" -fcs-profile-generate "$src/ic.c"
  else
    printf '%s\t%s\n' cs "no merged ir-value profile to build on (llvm-profdata-$n)" >> "$out/SKIPPED"
  fi
  unset -f kind
  return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -u
  [ $# -eq 2 ] || { echo "usage: $0 N OUTDIR" >&2; exit 2; }
  out="$(mkdir -p "$2" && cd "$2" && pwd)"
  pb_clang_programs "$1" "$out" || { echo "clang-$1 cannot build the plain IR program: $(cat "$out/SKIPPED")" >&2; exit 1; }
  echo "clang-$1: built $(cut -f1 "$out/KINDS" | tr '\n' ' ')"
  if [ -s "$out/SKIPPED" ]; then echo "clang-$1: skipped:"; sed 's/^/  /' "$out/SKIPPED"; fi
fi
