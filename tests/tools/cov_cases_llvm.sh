#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Small programs, each built here by clang-N, set beside llvm-cov-N through
# the public API (tests/tools/cov_api_tool.c), for the rules the corpus does
# not reach:
#   dots      a file compiled as ../src/p.c: 13-14 print /x/build/../src/p.c,
#             15+ remove the dots (export JSON, lcov, report);
#   mcdc      (18+) decisions in macros, nested in one another's files, several
#             per function: the records' order (23+: as their walk of the
#             mapping, into each expansion where it stands, meets each
#             decision's last branch), the
#             conditions' order (23+: the expanded source's), 18's decisions
#             that wait for branches in a macro (export JSON, lcov, report
#             -show-mcdc-summary);
#   outdated  an object newer than its profile (touch -d), twice as an
#             object operand: stderr and stdout of report;
#   mismatch  a profile of another build: "N functions have mismatched data";
#   errors    a missing profile, 8 bytes of text, an empty file, a directory, an indexed
#             profile of the newest llvm-profdata on PATH (refused where
#             llvm-cov-N reads an older indexed version): the first line of
#             stderr and the exit status (export's second line, "could not
#             load coverage information", is the CLI's).
#   cov_cases_llvm.sh TOOL [RELEASES...]
# Exits 77 when no clang-N/llvm-cov-N pair is installed.
set -u
tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
releases=("$@")
((${#releases[@]})) || releases=(13 14 15 16 17 18 19 21 22 23 24)
[[ -x $tool ]] || { echo "no driver: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0 ran=0
newest=""
for n in 24 23 22 21 19 18 17 16 15 14 13; do
  command -v "llvm-profdata-$n" >/dev/null && { newest=$n; break; }
done

same() { # LABEL FILE-A FILE-B
  if cmp -s "$2" "$3"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $1"
    diff "$2" "$3" | head -8
  fi
}

mkdir -p "$work/src"
cat >"$work/src/p.c" <<'EOF'
int f(int x) { return x ? 1 : 2; }
int main(int argc, char **argv) { (void)argv; return f(argc) - 1; }
EOF
sed 's/return x ? 1 : 2;/if (x > 3) return 5; return x ? 1 : 2;/' "$work/src/p.c" >"$work/src/p3.c"
cat >"$work/src/m.c" <<'EOF'
#define CHK(a, b) ((a) && (b))
#define BOTH(a, b, c) (CHK(a, b) || (c))
int g(int a, int b, int c, int d) {
  int r = 0;
  if (a && b) r++;
  if (CHK(c, d)) r++;
  if ((a || c) && (b || d)) r++;
  if (BOTH(a, d, c)) r++;
  r += (b && c) ? 1 : 0;
  if (c || d) r++;
  return r;
}
int h(int a, int b) {
  if (CHK(a, b) && a) return 1;
  while (a && b) { a--; }
  return CHK(b, a) ? 2 : 3;
}
/* 23+ make a record when their walk of the mapping, into each expansion
 * where it stands, meets a decision's last branch: a while condition before
 * its body's decisions, a decision nested in a macro argument (as lua's
 * luaL_argexpected(L, t == A || t == B, ...)) before the one holding it */
#define LIKELY(x) (__builtin_expect(((x) != 0), 1))
#define EXPECT(cond, f) ((void)(LIKELY(cond) || (f)))
int k(int a, int b, int c, int d) {
  int n = 0;
  while (a && b) {
    if (c || d) n++;
    a--;
  }
  for (int i = 0; i < c && CHK(d, i < 3); i++) n += (a || b) ? 1 : 2;
  EXPECT(a == 1 || b == 2, n++);
  return n;
}
int main(int argc, char **argv) {
  (void)argv;
  int s = 0;
  for (int i = 0; i < 16; i++) s += g(i & 1, i & 2, i & 4, i & 8) + h(i & 1, argc) + k(i & 3, i & 4, i & 8, i & 1);
  return s == 0;
}
EOF
printf 'garbage\n' >"$work/garbage.profdata"
: >"$work/empty.profdata"
mkdir "$work/adir"

for n in "${releases[@]}"; do
  command -v "clang-$n" >/dev/null && command -v "llvm-cov-$n" >/dev/null && command -v "llvm-profdata-$n" >/dev/null || continue
  ran=$((ran + 1))
  b=$work/b$n
  mkdir -p "$b"
  (
    cd "$b" || exit 1
    "clang-$n" -fprofile-instr-generate -fcoverage-mapping ../src/p.c -o p &&
      LLVM_PROFILE_FILE=p.profraw ./p &&
      "llvm-profdata-$n" merge -o p.profdata p.profraw &&
      "clang-$n" -fprofile-instr-generate -fcoverage-mapping ../src/p3.c -o p3
  ) >/dev/null 2>&1 || { echo "FAIL build of p.c by clang-$n"; fail=$((fail + 1)); continue; }
  cd "$b" || exit 1
  # dots
  "llvm-cov-$n" export ./p -instr-profile p.profdata >llvm.json 2>/dev/null
  "$tool" "$n" export ./p p.profdata >ours.json 2>/dev/null
  same "dots export $n" llvm.json ours.json
  "llvm-cov-$n" export -format=lcov ./p -instr-profile p.profdata >llvm.lcov 2>/dev/null
  "$tool" "$n" lcov ./p p.profdata >ours.lcov 2>/dev/null
  same "dots lcov $n" llvm.lcov ours.lcov
  "llvm-cov-$n" report ./p -instr-profile p.profdata >llvm.txt 2>/dev/null
  "$tool" "$n" report ./p p.profdata >ours.txt 2>/dev/null
  same "dots report $n" llvm.txt ours.txt
  # outdated
  cp p q && cp p.profdata q.profdata
  touch -d '2020-01-01 00:00:01' q.profdata
  touch -d '2020-01-01 00:00:01.5' q
  "llvm-cov-$n" report ./q -object ./q -instr-profile q.profdata >llvm.txt 2>llvm.err
  "$tool" "$n" report ./q,./q q.profdata >ours.txt 2>ours.err
  same "outdated report $n" llvm.txt ours.txt
  same "outdated warnings $n" llvm.err ours.err
  touch -d '2020-01-01 00:00:01' q
  "llvm-cov-$n" report ./q -instr-profile q.profdata >/dev/null 2>llvm.err
  "$tool" "$n" report ./q q.profdata >/dev/null 2>ours.err
  same "same time, no warning $n" llvm.err ours.err
  # mismatch
  touch -d '2020-01-01' p3
  "llvm-cov-$n" report ./p3 -instr-profile p.profdata >llvm.txt 2>llvm.err
  "$tool" "$n" report ./p3 p.profdata >ours.txt 2>ours.err
  same "mismatch report $n" llvm.txt ours.txt
  same "mismatch warning $n" llvm.err ours.err
  # errors
  profs=(/nonexistent/p.profdata ../garbage.profdata ../empty.profdata ../adir)
  if [[ -n $newest ]] && "llvm-profdata-$newest" merge -o newest.profdata p.profraw 2>/dev/null; then
    profs+=(newest.profdata)
  fi
  for prof in "${profs[@]}"; do
    for cmd in export report; do
      "llvm-cov-$n" "$cmd" ./p -instr-profile "$prof" >/dev/null 2>llvm.err
      echo "exit $?" >>llvm.err
      "$tool" "$n" "$cmd" ./p "$prof" >/dev/null 2>ours.err
      echo "exit $?" >>ours.err
      head -1 llvm.err >llvm.first; tail -1 llvm.err >>llvm.first
      head -1 ours.err >ours.first; tail -1 ours.err >>ours.first
      same "error $cmd $n ${prof##*/}" llvm.first ours.first
    done
  done
  # mcdc
  if ((n >= 18)); then
    if "clang-$n" -fprofile-instr-generate -fcoverage-mapping -fcoverage-mcdc ../src/m.c -o m >/dev/null 2>&1 &&
      LLVM_PROFILE_FILE=m.profraw ./m && "llvm-profdata-$n" merge -o m.profdata m.profraw; then
      "llvm-cov-$n" export ./m -instr-profile m.profdata >llvm.json 2>/dev/null
      "$tool" "$n" export ./m m.profdata >ours.json 2>/dev/null
      same "mcdc export $n" llvm.json ours.json
      "llvm-cov-$n" export -format=lcov ./m -instr-profile m.profdata >llvm.lcov 2>/dev/null
      "$tool" "$n" lcov ./m m.profdata >ours.lcov 2>/dev/null
      same "mcdc lcov $n" llvm.lcov ours.lcov
      "llvm-cov-$n" report -show-mcdc-summary ./m -instr-profile m.profdata >llvm.txt 2>/dev/null
      "$tool" "$n" report -m ./m m.profdata >ours.txt 2>/dev/null
      same "mcdc report $n" llvm.txt ours.txt
    else
      echo "FAIL build of m.c by clang-$n"
      fail=$((fail + 1))
    fi
  fi
  cd "$work" || exit 1
done
((ran)) || { echo "no clang-N with llvm-cov-N: skipped"; exit 77; }
echo "$pass passed, $fail failed"
((fail == 0))
