#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# readme_recipes.sh -- runs every command of README.md's "Recipes" section
# exactly as written there (read from the README between the
# <!-- recipes:begin --> and <!-- recipes:end --> markers, so README and test
# cannot drift apart) and checks what each promises. Inputs carry the file
# names the recipes use; they are made from the bundled samples
# (fib-doc.iprof, and basic-ir.v10.profraw: a clang-19 raw file from
# ../shared/testdata/llvm-real/llvm19).
set -euo pipefail
: "${PB:?} ${PB_SOURCE_DIR:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
profbridge() { "$PB" "$@"; }

# The recipes: one "#### title" and one ```sh block with one command each.
mapfile -t cmds < <(awk '/<!-- recipes:begin -->/{on=1} /<!-- recipes:end -->/{on=0}
  on && /^```sh/{blk=1; next} on && blk && /^```/{blk=0; next} on && blk && NF{print}' \
  "$PB_SOURCE_DIR/README.md")
[ "${#cmds[@]}" -ge 7 ] || { echo "FAIL: expected at least 7 recipes in README.md, found ${#cmds[@]}"; exit 1; }

# Inputs named as in the recipes.
cp "$PB_SOURCE_DIR/testdata/samples/fib-doc.iprof" app.iprof
python3 - app.iprof run1.iprof run2.iprof <<'PY'
# Two "runs" of one program: the same entries, the call and sample counts x3.
import json, sys
d = json.load(open(sys.argv[1]))
json.dump(d, open(sys.argv[2], "w"))
for sec in ("callCountProfiles", "samplingProfiles"):
    for e in d[sec]:
        e["records"] = [r * 3 for r in e["records"]]
json.dump(d, open(sys.argv[3], "w"))
PY
cp "$PB_SOURCE_DIR/testdata/samples/basic-ir.v10.profraw" new.profraw
head -c 200 new.profraw > broken.profraw   # the header, then the file ends
"$PB" convert app.iprof -o before.profdata
cp before.profdata r1.profdata
"$PB" convert "$PB_SOURCE_DIR/testdata/samples/basic-ir.v10.profraw" -o native.profdata
"$PB" convert run2.iprof -o after.profdata
cp after.profdata r2.profdata

# The llvm-profdata recipe names the links of `cmake --install` under the
# default prefix /usr/local: the tested build is installed into a temporary
# prefix and the recipe runs with that prefix in place of /usr/local (as
# `profbridge` above stands for $PB). Its Makefile is the usual profile step.
prefix="$work/prefix"
if [ -n "${PB_BINARY_DIR:-}" ] && cmake --install "$PB_BINARY_DIR" --prefix "$prefix" >install.log 2>&1; then :
else echo "FAIL: cmake --install of ${PB_BINARY_DIR:-?} failed: $(tail -3 install.log 2>/dev/null)"; exit 1; fi
mkdir -p mk && cp "$PB_SOURCE_DIR/testdata/samples/basic-ir.v10.profraw" mk/run1.profraw
cp mk/run1.profraw mk/run2.profraw
printf 'default.profdata: $(wildcard *.profraw)\n\t$(LLVM_PROFDATA) merge -output=$@ $^\n' > mk/Makefile

# The coverage recipe's program: built by clang-14 (raw v8, which
# llvm-profdata-19 does not read) and run once, writing default.profraw. Its
# expected lcov is llvm-cov-19's on what llvm-profdata-14 merges of that raw
# file (llvm-cov-19 reads clang-14 binaries and indexed v7).
cov_ready=0
if command -v clang-14 >/dev/null && command -v llvm-profdata-14 >/dev/null && command -v llvm-cov-19 >/dev/null; then
  cat > prog.c <<'C'
static int twice(int x) { return 2 * x; }
int main(int argc, char **argv) {
  (void)argv;
  int s = 0;
  for (int i = 0; i < argc * 3; i++) s += i % 2 ? twice(i) : i;
  return s > 100 && argc > 5 ? 1 : 0;
}
C
  if clang-14 -fprofile-instr-generate -fcoverage-mapping prog.c -o prog 2>cc.err &&
     LLVM_PROFILE_FILE=default.profraw ./prog &&
     llvm-profdata-14 merge default.profraw -o prog14.profdata; then
    cov_ready=1
  fi
fi

failures=0
for c in "${cmds[@]}"; do
  case "$c" in *" cov "*)
    if [ "$cov_ready" != 1 ]; then echo "skip recipe: $c: clang-14, llvm-profdata-14 or llvm-cov-19 missing"; continue; fi
    set +e; eval "$c" >out.txt 2>err.txt; rc=$?; set -e
    why=""
    [ $rc = 0 ] || why="exit $rc"
    case "$c" in
      *"cov export"*)
        llvm-cov-19 export -format=lcov -instr-profile=prog14.profdata ./prog > expected.lcov
        cmp -s coverage.lcov expected.lcov || why="${why:+$why; }coverage.lcov differs from llvm-cov-19's" ;;
      *"cov report --llvm-version 14"*)
        llvm-cov-14 report -instr-profile=prog14.profdata ./prog > expected.txt
        cmp -s out.txt expected.txt || why="${why:+$why; }the table differs from llvm-cov-14 report's" ;;
    esac
    if [ -n "$why" ]; then echo "FAIL recipe: $c: $why; stderr: $(head -c 400 err.txt)"; failures=$((failures + 1))
    else echo "ok recipe: $c"; fi
    continue ;;
  esac
  case "$c" in *"make LLVM_PROFDATA="*)
    set +e; (cd mk && eval "${c//\/usr\/local\//$prefix/}") >out.txt 2>err.txt; rc=$?; set -e
    why=""
    [ $rc = 0 ] || why="exit $rc"
    llvm-profdata-19 merge -output=expected.profdata mk/run1.profraw mk/run2.profraw
    cmp -s mk/default.profdata expected.profdata || why="${why:+$why; }default.profdata differs from llvm-profdata-19's merge"
    if [ -n "$why" ]; then echo "FAIL recipe: $c: $why; stderr: $(head -c 400 err.txt)"; failures=$((failures + 1))
    else echo "ok recipe: $c"; fi
    continue ;;
  esac
  set +e; eval "$c" >out.txt 2>err.txt; rc=$?; set -e
  why=""
  case "$c" in
    *"convert app.iprof -o app.profdata"*)
      [ $rc = 0 ] || why="exit $rc"
      llvm-profdata-19 show --all-functions app.profdata | grep -q 'Fib.fibonacci()void' || why="llvm-profdata-19 does not list Fib.fibonacci" ;;
    *"--raw-version 8"*)
      [ $rc = 0 ] || why="exit $rc"
      llvm-profdata-14 show --all-functions --counts old.profraw >a.txt 2>&1 || why="llvm-profdata-14 refuses old.profraw: $(cat a.txt)"
      llvm-profdata-19 show --all-functions --counts new.profraw >b.txt
      diff -q a.txt b.txt >/dev/null || why="llvm-profdata-14 on old.profraw differs from llvm-profdata-19 on new.profraw" ;;
    *"--llvm-version 13"*)
      [ $rc = 0 ] || why="exit $rc"
      if command -v llvm-profdata-13 >/dev/null; then
        llvm-profdata-13 show --all-functions --counts for13.profraw >a.txt 2>&1 || why="llvm-profdata-13 refuses for13.profraw: $(cat a.txt)"
        llvm-profdata-19 show --all-functions --counts new.profraw >b.txt
        diff -q a.txt b.txt >/dev/null || why="llvm-profdata-13 on for13.profraw differs from llvm-profdata-19 on new.profraw"
      fi ;;
    *"dump broken.profraw"*)
      [ $rc = 1 ] || why="exit $rc, expected 1 (the file is broken)"
      grep -q 'Magic' out.txt || why="the header fields were not explained"
      grep -qE 'byte 0x[0-9a-f]+' err.txt || why="the problem does not name its byte offset" ;;
    *"convert native.profdata -o native.iprof"*)
      [ $rc = 0 ] || why="exit $rc"
      "$PB" convert native.iprof -o back.profdata && cmp -s native.profdata back.profdata \
        || why="native.iprof does not convert back to the same .profdata bytes" ;;
    *"llvm-profdata-19 merge r1.profdata r2.profdata"*)
      [ $rc = 0 ] || why="exit $rc"
      "$PB" merge run1.iprof run2.iprof -o expected.iprof
      cmp -s merged.iprof expected.iprof || why="merged.iprof differs from profbridge merge of the two runs" ;;
    *"merge run1.iprof run2.iprof"*)
      [ $rc = 0 ] || why="exit $rc"
      # print() called from fibonacci:34 ran 10 times in run 1 and 30 in run 2 (hand-computed).
      got=$(llvm-profdata-19 show --all-functions --counts merged.profdata | awk '
        $0 == "  jcall:java.io.PrintStream.print(java.lang.String)void:0<Fib.fibonacci()void:34:" {f=1}
        f && /Block counts:/ {print $3; exit}')
      [ "$got" = "[40]" ] || why="llvm-profdata-19 shows the merged print() call count as '$got', expected [40]" ;;
    *"diff "*)
      [ $rc = 1 ] || why="exit $rc, expected 1 (the builds differ)" ;;
    *"types "*)
      [ $rc = 0 ] || why="exit $rc"
      grep -qi 'megamorphic' out.txt || why="no site classified" ;;
    *"flame "*)
      [ $rc = 0 ] || why="exit $rc"
      grep -q '<svg' flame.svg || why="flame.svg is not an SVG" ;;
    *) [ $rc = 0 ] || why="exit $rc" ;;
  esac
  if [ -n "$why" ]; then
    echo "FAIL recipe: $c: $why; stderr: $(head -c 400 err.txt)"; failures=$((failures + 1))
  else echo "ok recipe: $c"; fi
done
# The Python recipe: the README's python block saved as merge_profraw.py and
# its command run as written, with the package and library of the `cmake
# --install` above, on raw files clang-19 programs wrote (ic.c run with 1, 2
# and 3 arguments: different paths; mcdc.c) plus one cut short. The merge
# must be what `profbridge merge` and llvm-profdata-19 merge make of the
# good files, byte for byte, and the bad one must be named.
python_recipe() {
  awk '/<!-- python-recipe:begin -->/{on=1} /<!-- python-recipe:end -->/{on=0}
    on && /^```python/{blk=1; next} on && blk && /^```/{blk=0; next} on && blk{print}' \
    "$PB_SOURCE_DIR/README.md" > merge_profraw.py
  local cmd
  cmd=$(awk '/<!-- python-recipe:begin -->/{on=1} /<!-- python-recipe:end -->/{on=0}
    on && /^```sh/{blk=1; next} on && blk && /^```/{blk=0; next} on && blk && NF{print}' "$PB_SOURCE_DIR/README.md")
  [ -s merge_profraw.py ] && [ -n "$cmd" ] || { echo "FAIL: README.md has no Python recipe (python-recipe markers)"; return 1; }
  [ "$(grep -cv '^\s*$' merge_profraw.py)" -le 25 ] || { echo "FAIL: the Python recipe has more than 25 lines"; return 1; }
  if ! command -v clang-19 >/dev/null || ! command -v llvm-profdata-19 >/dev/null; then
    echo "skip recipe: $cmd (clang-19 or llvm-profdata-19 missing)"; return 0
  fi
  local progs="$PB_SOURCE_DIR/tests/interop/data/programs" site
  mkdir -p profiles bin
  clang-19 -O0 -fprofile-generate "$progs/ic.c" -o bin/ic && clang-19 -O0 -fprofile-generate "$progs/mcdc.c" -o bin/mcdc \
    || { echo "FAIL: clang-19 cannot build the recipe's programs"; return 1; }
  LLVM_PROFILE_FILE=profiles/ic-1.profraw bin/ic >/dev/null
  LLVM_PROFILE_FILE=profiles/ic-2.profraw bin/ic a >/dev/null
  LLVM_PROFILE_FILE=profiles/ic-3.profraw bin/ic a b >/dev/null
  LLVM_PROFILE_FILE=profiles/mcdc.profraw bin/mcdc >/dev/null || true
  head -c 100 profiles/ic-1.profraw > profiles/broken.profraw
  good=(profiles/ic-1.profraw profiles/ic-2.profraw profiles/ic-3.profraw profiles/mcdc.profraw)
  site=$(find "$prefix" -type d -name profbridge -path '*-packages/*' | head -n1)
  [ -n "$site" ] || { echo "FAIL: cmake --install put no Python package under $prefix"; return 1; }
  local env=(PYTHONPATH="$(dirname "$site")")
  if [[ "$(ldd "$PB_BINARY_DIR/libprofbridge.so.0")" == *libasan* ]]; then
    # an ASan build's library loads into python3 only after the sanitizer runtimes
    env+=(LD_PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)" ASAN_OPTIONS=detect_leaks=0)
  fi
  set +e; env "${env[@]}" bash -c "$cmd" >out.txt 2>err.txt; rc=$?; set -e
  local why=""
  [ $rc = 0 ] || why="exit $rc"
  grep -q 'dropping profiles/broken.profraw: ' err.txt || why="${why:+$why; }the broken file was not named"
  [ "$(grep -c dropping err.txt)" = 1 ] || why="${why:+$why; }not exactly one file dropped"
  "$PB" merge --no-keep-vtable-symbols "${good[@]}" -o pb.profdata
  llvm-profdata-19 merge "${good[@]}" -o llvm.profdata
  cmp -s merged.profdata pb.profdata || why="${why:+$why; }merged.profdata differs from profbridge merge"
  cmp -s merged.profdata llvm.profdata || why="${why:+$why; }merged.profdata differs from llvm-profdata-19 merge"
  if [ -n "$why" ]; then echo "FAIL recipe: $cmd: $why; stderr: $(head -c 400 err.txt)"; return 1; fi
  echo "ok recipe: $cmd (4 clang-19 raw files merged, 1 broken one dropped)"
}
python_recipe || failures=$((failures + 1))
# The Dask recipe: its python block saved as fleet_merge.py and its command
# run as written (a LocalCluster of two processes), with the installed
# package, over the recipe's profiles (4 clang-19 raw files and a broken
# one): the result must be `profbridge merge --failure-mode warn` of them,
# byte for byte, and the broken file named.
dask_recipe() {
  awk '/<!-- dask-recipe:begin -->/{on=1} /<!-- dask-recipe:end -->/{on=0}
    on && /^```python/{blk=1; next} on && blk && /^```/{blk=0; next} on && blk{print}' \
    "$PB_SOURCE_DIR/README.md" > fleet_merge.py
  local cmd
  cmd=$(awk '/<!-- dask-recipe:begin -->/{on=1} /<!-- dask-recipe:end -->/{on=0}
    on && /^```sh/{blk=1; next} on && blk && /^```/{blk=0; next} on && blk && NF{print}' "$PB_SOURCE_DIR/README.md")
  [ -s fleet_merge.py ] && [ -n "$cmd" ] || { echo "FAIL: README.md has no Dask recipe (dask-recipe markers)"; return 1; }
  if ! /usr/bin/python3 -c 'import dask.bag, distributed' 2>/dev/null; then
    echo "skip recipe: $cmd (python3-dask / python3-distributed missing)"; return 0
  fi
  [ -d profiles ] && [ -s profiles/ic-1.profraw ] || { echo "skip recipe: $cmd (no profiles: clang-19 missing)"; return 0; }
  local site
  site=$(find "$prefix" -type d -name profbridge -path '*-packages/*' | head -n1)
  local env=(PYTHONPATH="$(dirname "$site")")
  if [[ "$(ldd "$PB_BINARY_DIR/libprofbridge.so.0")" == *libasan* ]]; then
    env+=(LD_PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)" ASAN_OPTIONS=detect_leaks=0)
  fi
  rm -f merged.profdata
  set +e; env "${env[@]}" timeout 300 bash -c "$cmd" >out.txt 2>err.txt; rc=$?; set -e
  local why=""
  [ $rc = 0 ] || why="exit $rc"
  grep -q '^dropped profiles/broken.profraw: ' err.txt || why="${why:+$why; }the broken file was not named"
  grep -q '^4 of 5 profiles merged into merged.profdata' out.txt || why="${why:+$why; }no '4 of 5' line"
  "$PB" merge --failure-mode warn profiles/*.profraw -o pb-warn.profdata 2>/dev/null
  cmp -s merged.profdata pb-warn.profdata || why="${why:+$why; }merged.profdata differs from profbridge merge"
  if [ -n "$why" ]; then echo "FAIL recipe: $cmd: $why; stderr: $(grep -v '^\s*$' err.txt | tail -c 400)"; return 1; fi
  echo "ok recipe: $cmd (4 clang-19 raw files merged on a LocalCluster, 1 broken one dropped)"
}
dask_recipe || failures=$((failures + 1))
[ $failures = 0 ] || exit 1
