#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# llvm_personality_releases.sh -- profbridge called through a link named
# llvm-profdata-N behaves as llvm-profdata-N, for every release N 13..24
# whose llvm-profdata-N and clang-N are installed (docs/llvm-profdata.md).
# For each N: a small program built with clang-N -fprofile-generate (IR) and
# -fprofile-instr-generate (front end) writes raw profiles; llvm-profdata-N
# merges them into indexed ones; then the same command lines of show,
# overlap, merge and order run through the link and through the real tool,
# in two directories, and must give the same stdout bytes, output files and
# exit status; for usage errors (unknown options, bad values, unknown
# subcommands, missing inputs) also the same stderr text. --help: the same
# exit status (the help text is profbridge's own). Releases run in parallel
# (two at a time). Sampled (pb_cell, lib/llvm-tools.bash): each release runs
# every other command line, its neighbours the rest; PB_TEST_FULL=1 runs all.
set -uo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"

releases=""
for n in $(pb_llvm_releases); do
  command -v "llvm-profdata-$n" >/dev/null 2>&1 && command -v "clang-$n" >/dev/null 2>&1 && releases="$releases $n"
done
[ -n "$releases" ] || { echo "SKIP: no llvm-profdata-N with its clang-N on PATH ($(pb_llvm_how 19))"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pb="$(readlink -f "$PB")"

cat >"$work/p.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
static int add(int a, int b) { return a + b; }
int mul(int a, int b) { int r = 0; for (int i = 0; i < b; i++) r = add(r, a); return r; }
int never(int x) { return x * 3; }
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 7, s = 0;
  for (int i = 0; i < n; i++) s += (i & 1) ? mul(i, 3) : add(i, 1);
  printf("%d\n", s);
  return 0;
}
EOF

# one release: prints "N CASES FAILS" last, failures before
run_release() {
  local n=$1 d="$work/$1" cases=0 fails=0 line=0
  local tool="llvm-profdata-$1" link="$work/$1/bin/llvm-profdata-$1"
  mkdir -p "$d/bin" "$d/in"
  ln -s "$pb" "$link"
  fail() { echo "llvm_personality_releases.sh: FAIL: $*"; fails=$((fails + 1)); }
  (cd "$d/in" && clang-"$n" -O0 -fprofile-generate -o ir "$work/p.c" && LLVM_PROFILE_FILE=ir.profraw ./ir >/dev/null &&
     LLVM_PROFILE_FILE=ir2.profraw ./ir 3 >/dev/null &&
     clang-"$n" -O0 -fprofile-instr-generate -o fe "$work/p.c" && LLVM_PROFILE_FILE=fe.profraw ./fe 5 >/dev/null &&
     "$tool" merge -o ir.profdata ir.profraw && "$tool" merge -o ir2.profdata ir2.profraw &&
     "$tool" merge -o fe.profdata fe.profraw) >"$d/build.log" 2>&1 ||
    { echo "llvm_personality_releases.sh: note: clang-$n could not build or run the program; release $n skipped"; echo "$n 0 0"; return; }
  rm -f "$d/in/ir" "$d/in/fe"
  : >"$d/in/empty.profraw"

  # same [--stderr|--status] ARGS...: runs ARGS in a copy of the inputs through
  # both, compares stdout, files written, exit status (and stderr if asked)
  same() {
    local what=all
    case "$1" in --stderr) what=stderr; shift ;; --stderr1) what=stderr1; shift ;; --status) what=status; shift ;; esac
    line=$((line + 1))
    pb_cell 2 "$line" "$n" || return 0
    cases=$((cases + 1))
    rm -rf "$d/real" "$d/ours"
    cp -r "$d/in" "$d/real"; cp -r "$d/in" "$d/ours"
    (cd "$d/real" || exit 2; "$tool" "$@" >stdout 2>stderr; echo $? >status)
    # ours by name on PATH, as the real one is found: "Try: 'ARGV0 --help'"
    # names argv[0] as started
    (cd "$d/ours" || exit 2; PATH="$d/bin:$PATH" "$tool" "$@" >stdout 2>stderr; echo $? >status)
    # the help texts are not LLVM's
    [ "$what" = status ] && rm -f "$d/real/stdout" "$d/ours/stdout"
    # LLVM 13-17 suggest libLLVM's global options too ("Did you mean
    # '--profile-isfs'?"): only the first line is compared there
    if [ "$what" = stderr1 ]; then
      sed -i '2,$d' "$d/real/stderr" "$d/ours/stderr"
      what=stderr
    fi
    local f
    for f in "$d/real"/*; do
      f="${f##*/}"
      [ "$f" = stderr ] && [ "$what" != stderr ] && continue
      cmp -s "$d/real/$f" "$d/ours/$f" ||
        fail "llvm-profdata-$n $*: $f differs: real '$(head -c 300 "$d/real/$f")', ours '$(head -c 300 "$d/ours/$f")'"
    done
  }

  has() { [ "$n" -ge "$1" ]; }
  # every flag on an IR indexed and a front-end raw profile; the common
  # ones on the other two (the script must stay within a few minutes)
  for f in ir.profdata fe.profraw fe.profdata ir.profraw; do
    same show "$f"
    same show --all-functions --counts "$f"
    same show --topn=2 "$f"
    same show -hot-func-list --value-cutoff=2 "$f"
    same show --text "$f"
    case "$f" in fe.profdata|ir.profraw) continue ;; esac
    same show -all-functions -counts=true -ic-targets=1 -memop-sizes "$f"
    same show -topn 3 --detailed-summary "$f"
    same show --detailed-summary --detailed-summary-cutoffs=500000,990000 "$f"
    same show --hot-func-list "$f"
    same show --function=mul --counts "$f"
    same show --value-cutoff 2 --list-below-cutoff "$f"
    same show --showcs "$f"
    same show --binary-ids "$f"
    same show "$f" -o out.txt -counts -all-functions
    has 14 && same show --covered "$f"
    has 16 && same show --profile-version "$f"
    has 16 && same show --show-format=text --counts --all-functions "$f"
    has 17 && same show --temporal-profile-traces "$f"
  done
  same overlap ir.profdata ir2.profdata
  same overlap ir.profraw ir2.profdata
  same overlap -cs ir.profdata ir2.profdata
  same overlap --function=mul ir.profdata ir2.profdata
  same overlap -value-cutoff=1 ir.profdata ir2.profdata
  same overlap ir.profdata ir2.profdata -o out.txt
  same overlap fe.profdata fe.profraw --instr
  same merge -o m.profdata ir.profraw ir2.profraw
  same merge -sparse=true ir.profraw -output=m.profdata
  same merge --text -o m.proftext fe.profraw
  has 17 && same order ir.profdata
  has 17 && same --stderr order
  has 17 && same --stderr order ir.profdata ir2.profdata

  # usage errors and failures: stderr too
  same --stderr show -al-functions ir.profdata
  same --stderr show --topn=x ir.profdata
  same --stderr show --counts=maybe ir.profdata
  same --stderr show ir.profdata --value-cutoff
  same --stderr show no-such.profdata
  same --stderr show --all-functions=1 no-such.profdata
  same --stderr show empty.profraw
  same --stderr overlap ir.profdata empty.profraw
  same --stderr overlap --topn=3 ir.profdata ir2.profdata
  same --stderr overlap ir.profdata no-such.profdata
  same --stderr overlap -cs=maybe ir.profdata ir2.profdata
  same --stderr frob ir.profdata
  has 16 && same --stderr show --show-format=json ir.profdata
  has 16 && same --stderr show --show-format=yaml ir.profdata
  has 16 && same --stderr show --show-format=xml ir.profdata
  has 16 && same --stderr show --json ir.profdata
  has 16 || same --stderr1 show --profile-version ir.profdata
  has 17 || same --stderr1 show --temporal-profile-traces ir.profdata
  has 19 || same --stderr1 show --show-vtables ir.profdata
  same --stderr show
  same --stderr show ir.profdata fe.profdata
  same --stderr overlap ir.profdata
  same --stderr overlap ir.profdata ir2.profdata fe.profdata
  same --stderr
  same --stderr show --show-prof-sym-lst ir.profdata
  same --stderr show --instr=1 ir.profdata
  same --stderr overlap --instr=true ir.profdata ir2.profdata
  same --stderr overlap --value-cutoff=x ir.profdata ir2.profdata
  same --status show --help
  same --status overlap -help
  echo "$n $cases $fails"
}

export -f run_release pb_cell
export work pb
results="$(printf '%s\n' $releases | xargs -P 2 -I{} bash -c 'run_release {}')"
printf '%s\n' "$results" | grep -v '^[0-9]* [0-9]* [0-9]*$'
total=0 bad=0
while read -r n c f; do
  total=$((total + c)); bad=$((bad + f))
done < <(printf '%s\n' "$results" | grep '^[0-9]* [0-9]* [0-9]*$')
echo "llvm_personality_releases.sh: $total command lines compared with llvm-profdata of releases$releases, $bad failures"
[ "$bad" = 0 ]
