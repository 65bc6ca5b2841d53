#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# alloc-sweep.sh -- the allocation-failure sweep (issue 12): runs a few
# commands with the N-th allocation failing (tests/tools/failmalloc.c through
# LD_PRELOAD), for N over the whole range of the command's allocations (at
# most MAX_POINTS evenly spaced values of N). Each run must
#   - end by itself (10 s timeout) with exit status 0, 1 or 2, never a signal;
#   - say something (stderr, or stdout for validate) when it fails;
#   - leave no temporary file and, when it fails, the old output untouched.
# These fail the sweep. Two more are counted and listed as "wrong" (they
# fail it only with --strict, which scripts/run-tests.sh passes since every
# case ran clean with it: jansson's and zlib's out of memory, raw dump):
#   - a run that succeeds must have written what the run without failures
#     wrote (else an allocation failure changed the result silently);
#   - a failing allocation must not be reported as invalid input (exit 1).
# Usage: scripts/alloc-sweep.sh [--strict] BUILD_DIR [MAX_POINTS]   (default 150)
#   BUILD_DIR holds a profbridge built WITHOUT sanitizers (ASan owns malloc):
#   scripts/run-tests.sh uses build-gcc-release.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
strict=0
[ "${1:-}" = --strict ] && { strict=1; shift; }
build="$(cd "${1:?usage: alloc-sweep.sh BUILD_DIR [MAX_POINTS]}" && pwd)"
max_points="${2:-150}"
pb="$build/profbridge"
[ -x "$pb" ] || { echo "alloc-sweep: $pb is missing" >&2; exit 1; }
if nm -D "$pb" 2>/dev/null | grep -q __asan_init; then
  echo "alloc-sweep: $pb is an ASan build; use a build without sanitizers" >&2; exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -shared -fPIC -o "$work/failmalloc.so" "$root/tests/tools/failmalloc.c"
cd "$work"
fib="$root/testdata/samples/fib-doc.iprof"
cp "$fib" in.iprof
"$pb" convert in.iprof -o in.profdata
"$pb" convert in.iprof -o in.profraw
"$pb" convert in.iprof -o in.proftext
cat in.profraw in.profraw >two.profraw # show lists a raw file's records as read (show_raw.c)
gzip -c in.iprof >in.iprof.gz
"$pb" convert in.iprof -o in.json
"$pb" merge --partial --weighted-input=3,in.profraw in.proftext -o part.pbpart
cp "$root/testdata/types/receivers.iprof" types.iprof
"$pb" convert types.iprof -o types.profdata # vtable sites back to iprof types
# the iprof fast path with extras kept through jansson; a lenient repair (the tree reader after it)
cp "$root/tests/fuzz/iprof/stream-extras.iprof" extras.iprof
cp "$root/tests/fuzz/iprof/dangling.iprof" dangling.iprof
# every section (a jmonitor entry, type histograms): Java names ordered and written without being kept
cp "$root/tests/fuzz/iprof/all-sections.iprof" sections.iprof
# a temporal profile for order: from shared/testdata when it is there
shared="${PB_SHARED_DIR:-$root/../shared}"
if [ -f "$shared/testdata/llvm-real/llvm19/temporal-ir.profdata" ]; then
  cp "$shared/testdata/llvm-real/llvm19/temporal-ir.profdata" temporal.profdata
else
  cp in.profdata temporal.profdata
fi
# .profdata without vtable names, merged straight from the file (indexed_read.c merge_direct)
if [ -f "$shared/testdata/llvm-real/llvm19/many-ir.profdata" ]; then
  cp "$shared/testdata/llvm-real/llvm19/many-ir.profdata" direct.profdata
else
  cp in.profdata direct.profdata
fi
# value sites that grow as inputs add values (grown_values.c): s0 and s1 grow
# 3 -> 6 -> 12 (exact, then into a new block of 16), s2 grows 1 -> 4 in the
# third input into the block of 6 s0 left behind
grow() { # OUT S0-AND-S1-VALUES S2-VALUES (each space-separated)
  local out="$1" site x v
  {
    printf '# IR level Instrumentation Flag\n:ir\nf\n# Func Hash:\n7\n# Num Counters:\n1\n# Counter Values:\n5\n'
    printf '# Num Value Kinds:\n1\n# ValueKind = IPVK_MemOPSize:\n1\n# NumValueSites:\n3\n'
    for site in "$2" "$2" "$3"; do
      read -ra v <<<"$site"
      echo "${#v[@]}"
      for x in "${v[@]}"; do echo "$x:$x"; done
    done
  } >"$out"
}
grow grow1.proftext "1 2 3" "1"
grow grow2.proftext "4 5 6" "1"
grow grow3.proftext "7 8 9 10 11 12" "2 3 4"

# Each case: a name, the output file it writes ("-" = its stdout) and the command.
cases=(
  "convert-iprof-to-indexed|out.profdata|convert in.iprof.gz -o out.profdata"
  "convert-indexed-to-iprof|out.iprof|convert in.profdata -o out.iprof"
  "convert-iprof-sections-to-indexed|out.profdata|convert sections.iprof -o out.profdata"
  # the model freed once its iprof form is built (pb_write_file_take): native functions, vtable types
  "convert-native-indexed-to-iprof|out.iprof|convert direct.profdata -o out.iprof"
  "convert-types-indexed-to-iprof|out.iprof|convert types.profdata -o out.iprof"
  "convert-iprof-extras|out.iprof|convert extras.iprof -o out.iprof"
  "convert-iprof-lenient|out.iprof|convert --lenient dangling.iprof -o out.iprof"
  "merge|out.profdata|merge in.profraw in.proftext in.profdata -o out.profdata --num-threads 1"
  "merge-cached-names|out.profdata|merge in.profraw in.profraw in.profraw in.profdata in.profdata -o out.profdata --num-threads 1"
  "merge-threads|out.profdata|merge in.profraw in.proftext in.profdata in.iprof -o out.profdata --num-threads 2"
  "merge-threads-raws|out.profdata|merge in.profraw in.profraw in.profraw in.proftext in.profraw -o out.profdata --num-threads 2"
  "merge-grown-sites|out.profdata|merge grow1.proftext grow2.proftext grow3.proftext grow1.proftext -o out.profdata --num-threads 1"
  "merge-profdata-direct|out.profdata|merge direct.profdata --weighted-input=2,direct.profdata direct.profdata -o out.profdata --num-threads 1"
  "merge-profdata-direct-threads|out.profdata|merge direct.profdata direct.profdata direct.profdata -o out.profdata --num-threads 2"
  # the llvm-profdata-19 personality: writer contexts, each on its own thread (merger_run.c)
  "merge-writer-contexts|out.profdata|@llvm-profdata-19 merge in.profraw in.proftext in.profdata in.profraw two.profraw -o out.profdata --num-threads=2"
  "show-indexed|out.txt|show in.profdata --counts --all-functions -o out.txt"
  "show-iprof|out.txt|show in.iprof -o out.txt"
  "validate|-|validate in.iprof in.profraw"
  "dump-raw|out.txt|dump in.profraw -o out.txt"
  "overlap|out.txt|overlap in.profdata in.iprof -o out.txt"
  "overlap-html|out.html|overlap in.profdata types.iprof --html out.html"
  "convert-json-to-text|out.proftext|convert in.json -o out.proftext"
  "convert-text-to-raw|out.profraw|convert in.proftext -o out.profraw"
  "diff|out.txt|diff in.profdata in.json -o out.txt"
  "diff-html|out.html|diff in.profdata in.json --html out.html"
  "types|out.txt|types types.iprof -o out.txt"
  "flame|out.svg|flame in.iprof --format svg -o out.svg"
  "order|out.txt|order temporal.profdata -o out.txt"
  "dump-indexed|out.txt|dump temporal.profdata -o out.txt"
  "show-iprof-json|out.json|show in.iprof --json -o out.json"
  "show-llvm-view|out.txt|show --llvm in.iprof --all-functions --ic-targets --detailed-summary -o out.txt"
  "show-raw-text|out.txt|show in.profraw --text --all-functions -o out.txt"
  "show-raw-stream|out.txt|show two.profraw --counts --all-functions --memop-sizes --detailed-summary -o out.txt"
  "validate-json|-|validate --json in.iprof in.profraw"
  "overlap-json|out.json|overlap in.profdata in.iprof --json -o out.json"
  "merge-json-summary|out.profdata|merge in.profraw in.profdata -o out.profdata --num-threads 1 --json-summary sum.json"
  "merge-partial|out.pbpart|merge --partial --weighted-input=2,in.profraw in.proftext -o out.pbpart"
  "merge-from-partials|out.profdata|merge part.pbpart in.profdata -o out.profdata"
  "merge-reservoir-22|out.profdata|merge temporal.profdata temporal.profdata -o out.profdata --num-threads 1 --llvm-version 22 --temporal-profile-trace-reservoir-size 1"
)
# Coverage (src/coverage/: the reader, the evaluator, the exporters): a small
# program built by clang-19 with coverage and MC/DC, its raw profile read
# directly (so the merge runs too), a dump of its coverage sections.
if command -v clang-19 >/dev/null; then
  cat > cov.c <<'C'
#define BOTH(a, b) ((a) && (b))
static int f(int a, int b) { return BOTH(a > 1, b < 3) ? a : b; }
int main(int argc, char **argv) { (void)argv; return f(argc, argc + 1) > 7; }
C
  if clang-19 -fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc cov.c -o covprog 2>/dev/null &&
     LLVM_PROFILE_FILE=cov.profraw ./covprog; then
    cases+=(
      "cov-export|-|cov export -instr-profile=cov.profraw covprog"
      "cov-export-lcov|-|cov export -format=lcov -instr-profile=cov.profraw covprog"
      "cov-report|-|cov report -show-mcdc-summary -instr-profile=cov.profraw covprog"
      "cov-report-demangler|-|cov report -show-functions -Xdemangler cat -instr-profile=cov.profraw covprog cov.c"
      "dump-coverage|out.txt|dump covprog -o out.txt"
    )
  fi
  # ELF correlation (src/llvm/correlate_elf.c, libelf): a lightweight raw
  # profile with the program it came from. --debug-info is left out for now:
  # a failed malloc that libdw 0.188 makes inside dwarf_child (not through
  # the OOM handler) ends in SIGSEGV there (allocation 14 of `show
  # --debug-info`, 23 and 56 of `merge --debug-info`; main too), which no
  # caller can catch.
  cat > corr.c <<'C'
static int f(int x) { return x ? f(x - 1) + 1 : 0; }
int main(void) { return f(3) != 3; }
C
  if clang-19 -O1 -fprofile-generate -mllvm -profile-correlate=binary corr.c -o corrbin 2>/dev/null &&
     LLVM_PROFILE_FILE=corr-bin.profraw ./corrbin; then
    cases+=(
      "merge-binary-file|out.profdata|merge --binary-file corrbin corr-bin.profraw -o out.profdata --num-threads 1"
    )
  fi
else
  echo "alloc-sweep: clang-19 missing: the coverage and correlation cases are left out" >&2
fi
failed=0
total_runs=0
ln -s "$pb" llvm-profdata-19 # a case's command "@llvm-profdata-19 ARGS" runs the personality
for c in "${cases[@]}"; do
  IFS='|' read -r name out cmd <<<"$c"
  prog="$pb"
  if [[ "$cmd" == @* ]]; then
    first="${cmd%% *}"
    prog="$work/${first#@}"
    cmd="${cmd#* }"
  fi
  # shellcheck disable=SC2086
  rm -f "$out"; echo old >old.marker
  # the reference run, counting allocations
  set +e
  # shellcheck disable=SC2086
  timeout 30 env PB_FAIL_COUNT_FILE="$work/count" LD_PRELOAD="$work/failmalloc.so" "$prog" $cmd >ref.stdout 2>ref.stderr
  rc=$?
  set -e
  [ "$rc" -eq 0 ] || { echo "alloc-sweep: $name: the run without failures exits $rc: $(head -c 300 ref.stderr)" >&2; failed=1; continue; }
  [ "$out" = - ] && cp ref.stdout ref.out || cp "$out" ref.out
  n="$(cat count)"
  step=$(( (n + max_points - 1) / max_points )); [ "$step" -ge 1 ] || step=1
  bad=0; wrong=0; runs=0; ok0=0
  for ((k = 1; k <= n; k += step)); do
    [ "$out" = - ] || echo old >"$out"
    set +e
    # shellcheck disable=SC2086
    timeout 10 env PB_FAIL_AT=$k LD_PRELOAD="$work/failmalloc.so" "$prog" $cmd >got.stdout 2>got.stderr
    rc=$?
    set -e
    runs=$((runs + 1))
    why=""; soft=""
    if [ "$rc" -eq 124 ]; then why="hangs"
    elif [ "$rc" -gt 2 ]; then why="exit $rc (a crash or a signal)"
    elif [ "$rc" -ne 0 ] && [ ! -s got.stderr ] && [ ! -s got.stdout ]; then why="fails ($rc) without a message"
    elif [ "$rc" -eq 0 ]; then
      ok0=$((ok0 + 1))
      if [ "$out" = - ]; then cmp -s got.stdout ref.out || soft="succeeds with other output"
      else cmp -s "$out" ref.out || soft="succeeds with another OUT"; fi
    elif [ "$rc" -eq 1 ] && [ "$prog" != "$pb" ]; then
      # a personality exits 1 on every error, as llvm-profdata does: the
      # message must say it ran out of memory
      grep -Eiq "out of memory|cannot allocate" got.stderr || soft="exit 1 without saying out of memory"
    elif [ "$rc" -eq 1 ] && [[ "$cmd" == dump* ]]; then
      # dump keeps what it explained before a problem in the input: OUT changes
      soft="reported as invalid input (exit 1)"
    elif [ "$out" != - ] && [ "$(cat "$out" 2>/dev/null)" != old ]; then why="fails ($rc) but changed OUT"
    elif [ "$rc" -eq 1 ]; then soft="reported as invalid input (exit 1)"
    fi
    if ls -A | grep -q pbtmp; then why="${why:+$why; }left a temporary file"; rm -f .*pbtmp* ./*pbtmp*; fi
    msg="$(head -c 200 got.stderr | tr '\n' ' ')$(head -c 200 got.stdout | tr '\n' ' ')"
    if [ -n "$why" ]; then
      bad=$((bad + 1))
      [ "$bad" -le 5 ] && echo "alloc-sweep: $name: allocation $k of $n failing: $why: $msg" >&2
    elif [ -n "$soft" ]; then
      wrong=$((wrong + 1))
      [ "$wrong" -le 3 ] && echo "alloc-sweep: $name: allocation $k of $n failing: wrong: $soft: $msg" >&2
    fi
  done
  total_runs=$((total_runs + runs))
  echo "alloc-sweep: $name: $n allocations, $runs runs (one allocation in $step), $ok0 succeeded anyway, $bad bad, $wrong wrong"
  [ "$bad" -eq 0 ] || failed=1
  [ "$strict" -eq 0 ] || [ "$wrong" -eq 0 ] || failed=1
done
echo "alloc-sweep: $total_runs runs"
exit $failed
