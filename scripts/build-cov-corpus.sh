#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# build-cov-corpus.sh -- the real programs that tests/interop/cov_llvm.sh
# reads with llvm-cov-N and with `profbridge cov`: every program built with
# every installed clang-N (-fprofile-instr-generate -fcoverage-mapping, -O0),
# run once, its raw profiles merged by llvm-profdata-N.
#
# Usage: scripts/build-cov-corpus.sh [--releases "13 14 ..."] [--jobs J] [--no-cache] OUTDIR
#
# Programs (sources in tests/interop/data/cov/ unless said otherwise):
#   c       two C files and a header with an inline function: macros, loops,
#           switch, ternaries, short-circuit conditions, a static function,
#           a function never called (c/)
#   c-mcdc  the same built with -fcoverage-mcdc (clang 18+)
#   cpp     C++: a template instantiated twice, a class, a lambda, and a
#           shared library (libcovlib.so, -shared -fPIC) the program links
#           to; both objects instrumented, one raw file (cpp/)
#   zlib    Debian's zlib source package (apt-get source zlib, through
#           scripts/fetch-deb-source.sh), every library file built with
#           coverage into zlib's own test programs example and minigzip,
#           run as its `make test` runs them (example; minigzip | minigzip -d)
#   rust    rust/main.rs built by Debian's /usr/bin/rustc (1.63, LLVM 14)
#           with -C instrument-coverage, linked to clang-14's profile
#           runtime (Debian's rustc ships no profiler_builtins): release 14 only
# For each release N and program P that built, OUTDIR/N/P/ holds:
#   the binaries, their raw profiles (*.profraw), cov.profdata
#   (llvm-profdata-N merge of them), and
#   OBJECTS   the binaries, one a line, the first is llvm-cov's BIN and the
#             others go after -object
#   RAW       the raw profile's name when the program wrote exactly one
#   SOURCES   absolute paths of source files for `report -show-functions`
#   NAME      a function name for -name=
#   BUILD     the commands that built it
# OUTDIR/INDEX lists "N<TAB>P" of every unit built, OUTDIR/SKIPPED "N<TAB>P<TAB>why"
# of those that were not, OUTDIR/README.txt describes the whole.
#
# Cache: the corpus is keyed by the contents of this script, its helper, the
# program sources and the versions of the compilers. As root it lives in
# /var/cache/profbridge-cov/corpus-KEY and OUTDIR becomes a symbolic link to
# it (binaries record absolute source paths, so it is built in place); a
# second run with the same key does nothing. Otherwise OUTDIR is built in
# place and reused while OUTDIR/KEY matches. --no-cache rebuilds.
# Sources of Debian packages are cached in /var/cache/profbridge-cov/src
# (as root) or OUTDIR/.deb-src.
# Builds run J at a time (default 2). Exit 0 when at least one unit built.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
data="$root/tests/interop/data/cov"

# ---------------------------------------------------------------- one unit
# build_unit N P CORPUS: builds program P with release N into CORPUS/N/P; on
# failure leaves CORPUS/N/P/FAILED with the reason. Runs in a child (xargs).
build_unit() {
  local n="$1" p="$2" corpus="$3"
  local out="$corpus/$n/$p" src="$corpus/src"
  rm -rf "$out"; mkdir -p "$out"
  local log="$out/build.log"
  local cov=(-O0 -fprofile-instr-generate -fcoverage-mapping -Wl,--build-id)
  local cc="clang-$n" cxx="clang++-$n"
  # step CMD...: runs and records one command; on failure records why.
  step() {
    printf '%s\n' "$*" | sed "s|$corpus/|CORPUS/|g" >> "$out/BUILD"
    if ! "$@" >>"$log" 2>&1; then
      { echo "command failed: $*" | sed "s|$corpus/|CORPUS/|g"; grep -m3 -E 'error|Error|undefined' "$log" || tail -3 "$log"; } > "$out/FAILED"
      return 1
    fi
  }
  # run_prog RAW CMD...: runs a program writing RAW (a pattern allowed).
  run_prog() {
    local raw="$1"; shift
    (cd "$out" && LLVM_PROFILE_FILE="$out/$raw" "$@" >>"$log" 2>&1) || {
      echo "the program failed: $*" | sed "s|$corpus/|CORPUS/|g" > "$out/FAILED"; return 1; }
  }
  case "$p" in
    c|c-mcdc)
      local extra=()
      [ "$p" = c-mcdc ] && extra=(-fcoverage-mcdc)
      step "$cc" "${cov[@]}" "${extra[@]}" "$src/c/main.c" "$src/c/util.c" -o "$out/prog" || return 0
      run_prog cov.profraw ./prog || return 0
      echo prog > "$out/OBJECTS"
      echo cov.profraw > "$out/RAW"
      printf '%s\n' "$src/c/main.c" "$src/c/util.c" > "$out/SOURCES"
      echo classify > "$out/NAME"
      ;;
    cpp)
      step "$cxx" "${cov[@]}" -shared -fPIC "$src/cpp/covlib.cpp" -o "$out/libcovlib.so" || return 0
      step "$cxx" "${cov[@]}" "$src/cpp/main.cpp" -L"$out" -lcovlib '-Wl,-rpath,$ORIGIN' -o "$out/prog" || return 0
      run_prog cov.profraw ./prog || return 0
      printf '%s\n' prog libcovlib.so > "$out/OBJECTS"
      echo cov.profraw > "$out/RAW"
      printf '%s\n' "$src/cpp/main.cpp" "$src/cpp/covlib.cpp" > "$out/SOURCES"
      echo main > "$out/NAME"
      ;;
    zlib)
      local z="$src/zlib" objs=() f
      [ -f "$z/zlib.h" ] || { echo "no zlib source (see SKIPPED)" > "$out/FAILED"; return 0; }
      mkdir -p "$out/obj"
      # zlib's own flags for a Linux build (configure's), K&R C: gnu99
      local zf=(-std=gnu99 -w -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN -DHAVE_UNISTD_H -I"$z")
      for f in adler32 crc32 deflate infback inffast inflate inftrees trees zutil \
               compress uncompr gzclose gzlib gzread gzwrite; do
        step "$cc" "${cov[@]}" "${zf[@]}" -c "$z/$f.c" -o "$out/obj/$f.o" || return 0
        objs+=("$out/obj/$f.o")
      done
      step "$cc" "${cov[@]}" "${zf[@]}" "$z/test/example.c" "${objs[@]}" -o "$out/example" || return 0
      step "$cc" "${cov[@]}" "${zf[@]}" "$z/test/minigzip.c" "${objs[@]}" -o "$out/minigzip" || return 0
      rm -rf "$out/obj"
      # zlib's Makefile `test`: example, then a round trip through minigzip
      run_prog example.profraw ./example || return 0
      (cd "$out" && echo "hello world" | LLVM_PROFILE_FILE="$out/minigzip-c.profraw" ./minigzip \
        | LLVM_PROFILE_FILE="$out/minigzip-d.profraw" ./minigzip -d) >>"$log" 2>&1 \
        || { echo "minigzip round trip failed" > "$out/FAILED"; return 0; }
      rm -f "$out/foo.gz"
      printf '%s\n' example minigzip > "$out/OBJECTS"
      printf '%s\n' "$z/deflate.c" "$z/inflate.c" "$z/gzlib.c" > "$out/SOURCES"
      echo deflate > "$out/NAME"
      ;;
    rust)
      local rt
      rt="$(ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.profile-x86_64.a 2>/dev/null | head -1)"
      [ -n "$rt" ] || { echo "no libclang_rt.profile-x86_64.a of clang 14 (apt-get install libclang-rt-14-dev)" > "$out/FAILED"; return 0; }
      # Debian's rustc has no profiler_builtins crate: -Z no-profiler-runtime
      # (nightly-only, hence RUSTC_BOOTSTRAP) and clang-14's runtime instead;
      # rustc links with -nodefaultlibs, so libc goes after the runtime.
      step env RUSTC_BOOTSTRAP=1 /usr/bin/rustc -C instrument-coverage -Z no-profiler-runtime \
        -C link-arg="$rt" -C link-arg=-lc -C link-arg=-Wl,--build-id \
        "$src/rust/main.rs" -o "$out/prog" || return 0
      run_prog cov.profraw ./prog || return 0
      echo prog > "$out/OBJECTS"
      echo cov.profraw > "$out/RAW"
      echo "$src/rust/main.rs" > "$out/SOURCES"
      echo main > "$out/NAME"
      ;;
    *) echo "unknown program $p" > "$out/FAILED"; return 0 ;;
  esac
  local raws=("$out"/*.profraw)
  step "llvm-profdata-$n" merge -o "$out/cov.profdata" "${raws[@]}" || return 0
  rm -f "$log"
}

# --unit-line CORPUS N P: one unit (how xargs calls this script back)
if [ "${1:-}" = --unit-line ]; then
  build_unit "$3" "$4" "$2"
  echo "build-cov-corpus: $3 $4 $( [ -f "$2/$3/$4/FAILED" ] && echo "FAILED: $(head -1 "$2/$3/$4/FAILED")" || echo built)" >&2
  exit 0
fi

# ---------------------------------------------------------------- options
releases=""
jobs=2
use_cache=1
while [ $# -gt 0 ]; do
  case "$1" in
    --releases) releases="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --no-cache) use_cache=0; shift ;;
    -h|--help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "build-cov-corpus: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { echo "usage: $0 [--releases \"13 14 ...\"] [--jobs J] [--no-cache] OUTDIR" >&2; exit 2; }
outdir="$1"
if [ -z "$releases" ]; then
  for n in 13 14 15 16 17 18 19 20 21 22 23 24; do
    command -v "clang-$n" >/dev/null 2>&1 && command -v "llvm-profdata-$n" >/dev/null 2>&1 && releases="$releases $n"
  done
fi
read -r -a rels <<<"$releases"
[ ${#rels[@]} -gt 0 ] || { echo "build-cov-corpus: no clang-N with llvm-profdata-N on PATH" >&2; exit 1; }

# ---------------------------------------------------------------- the key
key="$(
  {
    cat "$0" "$here/fetch-deb-source.sh"
    (cd "$data" && find . -type f | LC_ALL=C sort | xargs cat)
    for n in "${rels[@]}"; do
      echo "$n: $("clang-$n" --version 2>&1 | head -1) / $("llvm-profdata-$n" --version 2>&1 | grep -i version | head -1)"
    done
    /usr/bin/rustc -vV 2>/dev/null || true
  } | sha256sum | cut -c1-16
)"

if [ "$(id -u)" -eq 0 ] && [ "$use_cache" = 1 ]; then
  cache=/var/cache/profbridge-cov
  corpus="$cache/corpus-$key"
  debsrc="$cache"
else
  mkdir -p "$outdir"
  corpus="$(cd "$outdir" && pwd -P)"
  debsrc="$corpus/.deb-src"
  cache=""
fi
mkdir -p "$corpus"
exec 9>"$corpus.lock"
flock 9   # one build at a time (run-tests.sh's background build and a ctest run)

link_outdir() {
  [ -n "$cache" ] || return 0
  if [ -L "$outdir" ] || [ ! -e "$outdir" ]; then
    mkdir -p "$(dirname "$outdir")"
    ln -sfn "$corpus" "$outdir"
  elif [ -d "$outdir" ] && { [ -f "$outdir/KEY" ] || [ -z "$(ls -A "$outdir")" ]; }; then
    rm -rf "$outdir"; ln -sfn "$corpus" "$outdir"
  else
    echo "build-cov-corpus: $outdir exists and is not a corpus; corpus left in $corpus" >&2
  fi
}

if [ "$use_cache" = 1 ] && [ -f "$corpus/COMPLETE" ] && [ "$(cat "$corpus/KEY" 2>/dev/null)" = "$key" ]; then
  link_outdir
  echo "build-cov-corpus: cached corpus $key ($corpus): $(wc -l < "$corpus/INDEX") units" >&2
  exit 0
fi

start=$(date +%s)
# the directory is emptied first: refuse one that holds something else
if [ -z "$cache" ] && [ -n "$(ls -A "$corpus" | grep -vx '.deb-src')" ] && [ ! -f "$corpus/KEY" ] && [ ! -f "$corpus/INDEX" ]; then
  echo "build-cov-corpus: $corpus is not empty and holds no corpus; give an empty or new directory" >&2
  exit 2
fi
find "$corpus" -mindepth 1 -maxdepth 1 ! -name .deb-src -exec rm -rf {} +
if [ -n "$cache" ]; then
  # older corpora (other keys) are a few MB each: drop those unused for a week
  find "$cache" -maxdepth 1 -name 'corpus-*' -type d ! -name "corpus-$key" -mtime +7 -exec rm -rf {} + 2>/dev/null || true
fi

# sources: ours copied (the corpus stands alone), zlib from Debian
mkdir -p "$corpus/src"
cp -r "$data/c" "$data/cpp" "$data/rust" "$corpus/src/"
: > "$corpus/SKIPPED"
zsrc=""
if zsrc="$(bash "$here/fetch-deb-source.sh" zlib "$debsrc" 2>"$corpus/fetch-zlib.log")"; then
  cp -r "$zsrc" "$corpus/src/zlib"
  rm -f "$corpus/fetch-zlib.log"
else
  why="apt-get source zlib failed: $(tail -1 "$corpus/fetch-zlib.log")"
  for n in "${rels[@]}"; do printf '%s\tzlib\t%s\n' "$n" "$why" >> "$corpus/SKIPPED"; done
  zsrc=""
fi

# the units, biggest first so the two workers end together
units=()
if [ -n "$zsrc" ]; then for n in "${rels[@]}"; do units+=("$n zlib"); done; fi
for n in "${rels[@]}"; do
  units+=("$n cpp" "$n c")
  if [ "$n" -ge 18 ]; then units+=("$n c-mcdc"); fi
  if [ "$n" = 14 ]; then
    if [ ! -x /usr/bin/rustc ]; then
      printf '14\trust\t%s\n' "no /usr/bin/rustc (apt-get install rustc)" >> "$corpus/SKIPPED"
    elif ! /usr/bin/rustc -vV 2>/dev/null | grep -q '^LLVM version: 14\.'; then
      printf '14\trust\t%s\n' "/usr/bin/rustc is not built on LLVM 14: $(/usr/bin/rustc -vV | grep LLVM)" >> "$corpus/SKIPPED"
    else
      units+=("14 rust")
    fi
  fi
done
printf '%s\n' "${units[@]}" | xargs -P "$jobs" -L1 bash "$0" --unit-line "$corpus" 2>&1 || true

: > "$corpus/INDEX"
for u in "${units[@]}"; do
  read -r n p <<<"$u"
  if [ -f "$corpus/$n/$p/FAILED" ]; then
    printf '%s\t%s\t%s\n' "$n" "$p" "$(head -3 "$corpus/$n/$p/FAILED" | tr '\n' ' ')" >> "$corpus/SKIPPED"
  elif [ -f "$corpus/$n/$p/cov.profdata" ]; then
    printf '%s\t%s\n' "$n" "$p" >> "$corpus/INDEX"
  fi
done
sort -n -o "$corpus/INDEX" "$corpus/INDEX"
sort -n -o "$corpus/SKIPPED" "$corpus/SKIPPED"
secs=$(( $(date +%s) - start ))
{
  echo "Coverage corpus of profbridge's tests/interop/cov_llvm.sh, built by"
  echo "scripts/build-cov-corpus.sh on $(date -u '+%Y-%m-%d %H:%M UTC') in ${secs}s ($jobs jobs), key $key."
  echo "N/P/: binaries (OBJECTS: BIN then -object ones), *.profraw, cov.profdata"
  echo "(llvm-profdata-N merge), SOURCES, NAME, BUILD. Sources: src/ (zlib: Debian's $( [ -n "$zsrc" ] && cat "$zsrc/.fetched"))."
  echo
  for n in "${rels[@]}"; do
    echo "$n: $("clang-$n" --version | head -1)  built: $(awk -v n="$n" '$1 == n { printf "%s ", $2 }' "$corpus/INDEX")"
  done
  if [ -s "$corpus/SKIPPED" ]; then echo; echo "Not built:"; sed 's/^/  /' "$corpus/SKIPPED"; fi
} > "$corpus/README.txt"
echo "$key" > "$corpus/KEY"
if [ ! -s "$corpus/INDEX" ]; then
  cat "$corpus/README.txt" >&2
  echo "build-cov-corpus: nothing built" >&2
  exit 1
fi
touch "$corpus/COMPLETE"
link_outdir
echo "build-cov-corpus: built $(wc -l < "$corpus/INDEX") units in ${secs}s into $corpus" >&2
if [ -s "$corpus/SKIPPED" ]; then sed 's/^/build-cov-corpus: not built: /' "$corpus/SKIPPED" >&2; fi
