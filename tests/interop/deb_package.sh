#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# deb_package.sh -- `cpack -G DEB` (cmake/packaging.cmake) of a Release build
# gives three Debian packages with the right files and fields (dpkg-deb -c/-f);
# then, as root with dpkg, they are installed, used (the installed CLI's
# --version, a conversion that llvm-profdata-19 reads, the llvm-profdata link,
# the bash completion, a program built with pkg-config against the -dev
# package) and purged, and no file of theirs is left behind. It never touches
# a profbridge package it did not install: if one is installed already, it
# stops (exit 77) before installing anything.
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
PB_FAIL_FAST=1
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
skip() { echo "deb_package.sh: SKIP: $*"; exit 77; }

for tool in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed (cmake, dpkg-dev: scripts/install-deps.sh)"
done

work="$(mktemp -d)"
installed=0
cleanup() {
  if [ "$installed" = 1 ]; then
    dpkg -P profbridge libprofbridge-dev libprofbridge0 >/dev/null 2>&1 || true
  fi
  rm -rf "$work" "$T"
}
trap cleanup EXIT

version="$(sed -n 's/^project(profbridge VERSION \([0-9][0-9.]*\).*/\1/p' "$PB_SOURCE_DIR/CMakeLists.txt")"
[ -n "$version" ] || fail "no version in CMakeLists.txt"
arch="$(dpkg --print-architecture)"
multiarch="$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)"

# --- build and package ------------------------------------------------------------------
build="$work/build"
cmake -S "$PB_SOURCE_DIR" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPB_BUILD_TESTS=OFF \
  -DCMAKE_INSTALL_PREFIX=/usr >"$work/cmake.log" 2>&1 || { cat "$work/cmake.log" >&2; fail "cmake failed"; }
cmake --build "$build" -j2 >"$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; fail "the build failed"; }
(cd "$build" && cpack -G DEB) >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log" >&2; fail "cpack -G DEB failed"; }

deb_lib="$build/libprofbridge0_${version}-1_${arch}.deb"
deb_dev="$build/libprofbridge-dev_${version}-1_${arch}.deb"
deb_cli="$build/profbridge_${version}-1_${arch}.deb"
for d in "$deb_lib" "$deb_dev" "$deb_cli"; do
  [ -f "$d" ] || fail "$(basename "$d") was not made; cpack made: $(cd "$build" && ls ./*.deb 2>/dev/null)"
done

# --- what is in which package ----------------------------------------------------------------
contents() { dpkg-deb -c "$1" | awk '{ p = $6; sub(/^\./, "", p); print p }'; }
contents "$deb_lib" >"$work/lib.files"
contents "$deb_dev" >"$work/dev.files"
contents "$deb_cli" >"$work/cli.files"
# has PKG PATH...: PKG's package holds every PATH
has() {
  local list="$work/$1.files"; shift
  for p in "$@"; do grep -qx -- "$p" "$list" || fail "$(basename "$list" .files) package lacks $p"; done
}
lib="/usr/lib/$multiarch"
has lib "$lib/libprofbridge.so.0" "$lib/libprofbridge.so.$version" /usr/share/doc/libprofbridge0/copyright
has dev /usr/include/profbridge/profbridge.h /usr/include/profbridge/version.h /usr/include/profbridge/io.h \
  "$lib/libprofbridge.so" "$lib/libprofbridge.a" "$lib/pkgconfig/profbridge.pc" \
  "$lib/cmake/profbridge/profbridgeConfig.cmake" /usr/share/doc/libprofbridge-dev/copyright
has cli /usr/bin/profbridge /usr/share/man/man1/profbridge.1 \
  /usr/share/bash-completion/completions/profbridge /usr/share/zsh/vendor-completions/_profbridge \
  /usr/libexec/profbridge/llvm/bin/llvm-profdata /usr/libexec/profbridge/llvm/bin/llvm-profdata-19 \
  /usr/libexec/profbridge/llvm/bin/llvm-cov /usr/libexec/profbridge/llvm/bin/llvm-cov-19 \
  /usr/share/doc/profbridge/copyright
# a path in two packages would make dpkg refuse the second (directories aside)
dup="$(cat "$work"/*.files | grep -v '/$' | sort | uniq -d)"
[ -z "$dup" ] || fail "paths in more than one package: $dup"
# the library is only in the library package, the headers only in -dev
grep -q 'libprofbridge\.so\.0' "$work/cli.files" "$work/dev.files" && fail "libprofbridge.so.0 outside libprofbridge0"
grep -q '/usr/include' "$work/lib.files" "$work/cli.files" && fail "headers outside libprofbridge-dev"

field() { dpkg-deb -f "$1" "$2"; }
for d in "$deb_lib" "$deb_dev" "$deb_cli"; do
  [ "$(field "$d" Version)" = "$version-1" ] || fail "$(basename "$d"): Version $(field "$d" Version), not $version-1"
  [ -n "$(field "$d" Maintainer)" ] || fail "$(basename "$d") has no Maintainer"
  [ -n "$(field "$d" Section)" ] || fail "$(basename "$d") has no Section"
  field "$d" Description | grep -q 'Apache-2.0 WITH LLVM-exception' || fail "$(basename "$d"): the description does not name the licence"
  dpkg-deb -f "$d" Description | sed -n 2p | grep -q '^ [^ ]' || fail "$(basename "$d"): no long description"
done
[ "$(field "$deb_lib" Section)" = libs ] || fail "libprofbridge0's Section is $(field "$deb_lib" Section)"
[ "$(field "$deb_dev" Section)" = libdevel ] || fail "libprofbridge-dev's Section is $(field "$deb_dev" Section)"
# dpkg-shlibdeps found the libraries the binaries load
for lib_pkg in libjansson4 libxxhash0 libdeflate0 libdw1 libc6; do
  field "$deb_lib" Depends | grep -q "$lib_pkg" || fail "libprofbridge0 does not depend on $lib_pkg: $(field "$deb_lib" Depends)"
done
# the tool links the shared library (issue 21 item 4), and libc
field "$deb_cli" Depends | grep -q "libprofbridge0 (= $version-1)" || fail "profbridge does not depend on libprofbridge0 (= $version-1): $(field "$deb_cli" Depends)"
field "$deb_cli" Depends | grep -q "libc6" || fail "profbridge does not depend on libc6: $(field "$deb_cli" Depends)"
field "$deb_dev" Depends | grep -q "libprofbridge0 (= $version-1)" || fail "libprofbridge-dev does not depend on libprofbridge0 (= $version-1)"
dpkg-deb -e "$deb_lib" "$work/ctl"
grep -q "^libprofbridge 0 libprofbridge0" "$work/ctl/shlibs" || fail "libprofbridge0 has no shlibs file"
echo "deb_package.sh: the three packages hold the right files and fields"

# --- install, use, remove ----------------------------------------------------------------------
[ "$(id -u)" = 0 ] || skip "not root: the packages were built and inspected, not installed"
command -v dpkg >/dev/null 2>&1 || skip "no dpkg: the packages were built and inspected, not installed"
for p in profbridge libprofbridge-dev libprofbridge0; do
  if dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -qv 'not-installed'; then
    skip "the package $p is installed already ($(dpkg-query -W -f '${Version} ${Status}' "$p")); this test installs and removes only its own"
  fi
done
installed=1
dpkg -i "$deb_lib" "$deb_dev" "$deb_cli" >"$work/dpkg-i.log" 2>&1 || { cat "$work/dpkg-i.log" >&2; fail "dpkg -i failed"; }
for p in profbridge libprofbridge-dev libprofbridge0; do
  dpkg-query -L "$p" >>"$work/installed.files"
done

[ "$(/usr/bin/profbridge --version)" = "profbridge $version (library $version)" ] \
  || fail "/usr/bin/profbridge --version says '$(/usr/bin/profbridge --version)'"
/usr/bin/profbridge convert "$PB_SOURCE_DIR/testdata/samples/fib-doc.iprof" -o "$work/fib.profdata" \
  || fail "the installed profbridge cannot convert fib-doc.iprof"
if command -v llvm-profdata-19 >/dev/null 2>&1; then
  llvm-profdata-19 show --all-functions "$work/fib.profdata" >"$work/show.txt" \
    || fail "llvm-profdata-19 cannot read what the installed profbridge wrote"
  grep -q 'Fib.fibonacci' "$work/show.txt" || fail "llvm-profdata-19 show does not list Fib.fibonacci: $(head -5 "$work/show.txt")"
else
  echo "note: llvm-profdata-19 is not installed; the converted file is not checked by it"
fi
/usr/libexec/profbridge/llvm/bin/llvm-profdata-19 --version | grep -q 'acting as llvm-profdata of LLVM 19' \
  || fail "the installed llvm-profdata-19 link does not run profbridge"
man -w profbridge >/dev/null 2>&1 || [ -f /usr/share/man/man1/profbridge.1 ] || fail "man profbridge finds no page"
got="$(bash -c '. /usr/share/bash-completion/completions/profbridge; COMP_WORDS=(profbridge con); COMP_CWORD=1
                _profbridge; echo "${COMPREPLY[*]}"')"
[ "$got" = convert ] || fail "the installed bash completion offers '$got' for 'profbridge con'"

cat >"$work/consumer.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <profbridge/profbridge.h>

int main(void) {
    pb_profile *p = NULL;
    pb_error err;
    pb_error_clear(&err);
    if (pb_read_file(&p, FIB, NULL, &err) != 0) {
        char m[512];
        pb_error_format(&err, m, sizeof m);
        fprintf(stderr, "%s\n", m);
        return 1;
    }
    pb_profile_free(p);
    printf("%s %s\n", PB_VERSION_STRING, pb_version());
    return strcmp(PB_VERSION_STRING, pb_version()) != 0;
}
C
command -v pkg-config >/dev/null 2>&1 || fail "pkg-config is missing"
# shellcheck disable=SC2046
cc -o "$work/consumer" "$work/consumer.c" -DFIB="\"$PB_SOURCE_DIR/testdata/samples/fib-doc.iprof\"" \
  $(pkg-config --cflags --libs profbridge) 2>"$work/cc.log" || { cat "$work/cc.log" >&2; fail "a program does not build with pkg-config profbridge"; }
[ "$("$work/consumer")" = "$version $version" ] || fail "the consumer built against the package printed '$("$work/consumer")'"
ldd "$work/consumer" >"$work/ldd.txt" 2>&1 || true
grep -qE "libprofbridge\.so\.0 => (/usr)?/lib/$multiarch/libprofbridge\.so\.0" "$work/ldd.txt" ||
  fail "the consumer does not load the packaged libprofbridge.so.0: ldd says $(grep -i profbridge "$work/ldd.txt" || echo nothing about it)${LD_LIBRARY_PATH:+ (LD_LIBRARY_PATH=$LD_LIBRARY_PATH)}"

# remove (the files go), then purge (dpkg forgets the packages)
dpkg -r profbridge libprofbridge-dev libprofbridge0 >"$work/dpkg-r.log" 2>&1 || { cat "$work/dpkg-r.log" >&2; fail "dpkg -r failed"; }
[ ! -e /usr/bin/profbridge ] || fail "/usr/bin/profbridge is still there after dpkg -r"
dpkg -P profbridge libprofbridge-dev libprofbridge0 >"$work/dpkg-P.log" 2>&1 || { cat "$work/dpkg-P.log" >&2; fail "dpkg -P failed"; }
installed=0
for p in profbridge libprofbridge-dev libprofbridge0; do
  if dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -qv 'not-installed'; then fail "$p is still known to dpkg after dpkg -P"; fi
done
left=""
while read -r path; do
  [ -n "$path" ] || continue
  if [ -d "$path" ] && [ ! -L "$path" ]; then
    # shared directories (/usr, /usr/bin, ...) stay; ours must go
    case "$path" in *profbridge*) left+=" $path" ;; esac
  elif [ -e "$path" ] || [ -L "$path" ]; then
    left+=" $path"
  fi
done <"$work/installed.files"
[ -z "$left" ] || fail "left behind after dpkg -P:$left"
if ldconfig -p | grep -q libprofbridge; then fail "ldconfig still knows libprofbridge after removal"; fi
n=$(sort -u "$work/installed.files" | wc -l)
echo "ok: installed, used and purged the three packages; none of their $n paths is left"
