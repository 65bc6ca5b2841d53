#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# install.sh -- `cmake --install` of the tested build into a temporary
# prefix must give a usable package: the CLI, the man page, profbridge.pc and
# the CMake package. A tiny consumer is compiled and run twice, through
# pkg-config and through find_package(profbridge) (shared and static).
set -euo pipefail

: "${PB_BINARY_DIR:?PB_BINARY_DIR must name the build directory (set by ctest)}" "${PB_SOURCE_DIR:?}"
PB_FAIL_FAST=1
# shellcheck source=lib/common.bash
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"

work="$T"
prefix="$work/prefix"

cache="$PB_BINARY_DIR/CMakeCache.txt"
cc="$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$cache")"
[ -n "$cc" ] || cc=cc
# An ASan build's library needs the sanitizer runtime in its consumers too.
san=""
if grep -q '^PB_SANITIZE:BOOL=ON' "$cache"; then san="-fsanitize=address,undefined"; fi

cmake --install "$PB_BINARY_DIR" --prefix "$prefix" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log" >&2; fail "cmake --install failed"; }

[ -x "$prefix/bin/profbridge" ] || fail "bin/profbridge was not installed"
"$prefix/bin/profbridge" --version | grep -q '^profbridge ' || fail "the installed CLI does not run"
# The tool is a front end of the shared library (issue 21 item 4): the
# installed one loads the library of its own prefix (RUNPATH $ORIGIN/..),
# not the build tree's.
lib_seen="$(env -u LD_LIBRARY_PATH ldd "$prefix/bin/profbridge" | sed -n 's/^[[:space:]]*libprofbridge\.so\.0 => \([^ ]*\).*/\1/p')"
case "$lib_seen" in
  "$prefix"/*) ;;
  *) fail "the installed CLI loads libprofbridge.so.0 from '${lib_seen:-nowhere}', not from $prefix" ;;
esac
# The llvm-profdata personality: links under libexec, never in bin/.
llvmbin="$(find "$prefix" -path '*/profbridge/llvm/bin' -type d | head -n1)"
[ -n "$llvmbin" ] || fail "libexec/profbridge/llvm/bin was not installed"
for n in "" -13 -14 -15 -16 -17 -18 -19 -20 -21 -22 -23 -24; do
  [ -x "$llvmbin/llvm-profdata$n" ] || fail "llvm-profdata$n was not installed in $llvmbin"
done
[ ! -e "$prefix/bin/llvm-profdata" ] || fail "bin/llvm-profdata would shadow LLVM's"
# the llvm-cov personality (export and report), beside them
for n in "" -13 -14 -15 -16 -17 -18 -19 -20 -21 -22 -23 -24; do
  [ -x "$llvmbin/llvm-cov$n" ] || fail "llvm-cov$n was not installed in $llvmbin"
done
[ ! -e "$prefix/bin/llvm-cov" ] || fail "bin/llvm-cov would shadow LLVM's"
"$llvmbin/llvm-cov-21" --version | grep -q 'acting as llvm-cov of LLVM 21' \
  || fail "llvm-cov-21 --version does not say it is profbridge acting as llvm-cov of LLVM 21"
# (read whole before grep: grep -q leaving early would kill a help longer
# than one pipe write with SIGPIPE, which pipefail reports as a failure)
help19="$("$llvmbin/llvm-profdata-19" merge --help)" || fail "llvm-profdata-19 merge --help failed"
grep -q -- '--output' <<<"$help19" || fail "llvm-profdata-19 merge --help does not list --output"
"$llvmbin/llvm-profdata-23" --version | grep -q 'acting as llvm-profdata of LLVM 23' \
  || fail "llvm-profdata-23 --version does not say it is profbridge acting as LLVM 23"
man="$prefix/share/man/man1/profbridge.1"
[ -f "$man" ] || fail "the man page was not installed at share/man/man1/profbridge.1"
grep -q '^\.TH PROFBRIDGE 1' "$man" || fail "the installed man page has no .TH PROFBRIDGE 1 header"
[ -f "$prefix/share/bash-completion/completions/profbridge" ] \
  || fail "the bash completion was not installed at share/bash-completion/completions/profbridge"
[ -f "$prefix/share/zsh/vendor-completions/_profbridge" ] \
  || fail "the zsh completion was not installed at share/zsh/vendor-completions/_profbridge"
[ -f "$prefix/include/profbridge/version.h" ] || fail "include/profbridge/version.h was not installed"
for f in profbridge.h error.h format.h io.h profile.h; do
  [ -f "$prefix/include/profbridge/$f" ] || fail "include/profbridge/$f was not installed"
done
pc="$(find "$prefix" -name profbridge.pc | head -n1)"
[ -n "$pc" ] || fail "profbridge.pc was not installed"
libdir="$(dirname "$(dirname "$pc")")"
[ -n "$(find "$prefix" -name profbridgeConfig.cmake)" ] || fail "profbridgeConfig.cmake was not installed"

cat >"$work/consumer.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <profbridge/profbridge.h>

int main(void) {
    pb_error err;
    pb_error_clear(&err);
    pb_profile *p = NULL;
    if (pb_profile_new(&p, &err) != 0) return 1;
    pb_profile_free(p);
    pb_error_set(&err, PB_EFORMAT, 16, "header", "consumer %d", 1);
    char line[256];
    pb_error_format(&err, line, sizeof line);
    if (!strstr(line, "consumer 1")) return 1;
    printf("consumer: profbridge %s, %zu formats\n", pb_version(), pb_format_count());
    return strcmp(pb_version(), PB_VERSION_STRING) != 0;
}
C

# 1. pkg-config. The .pc names its directories relative to itself (${pcfiledir}),
#    so nothing points it at this prefix: the flags must work as they come.
export PKG_CONFIG_PATH="$(dirname "$pc")"
flags="$(pkg-config --cflags --libs profbridge)" \
  || fail "pkg-config cannot resolve profbridge"
incdir="$(pkg-config --variable=includedir profbridge)"
[ -f "$incdir/profbridge/profbridge.h" ] \
  || fail "pkg-config's includedir '$incdir' is not this prefix's include/ (the .pc must use \${pcfiledir})"
# shellcheck disable=SC2086
"$cc" $san -o "$work/consumer-pc" "$work/consumer.c" $flags \
  || fail "compiling a consumer with \$(pkg-config --cflags --libs profbridge) failed"
LD_LIBRARY_PATH="$libdir" "$work/consumer-pc" || fail "the pkg-config consumer did not run"

# 2. find_package(profbridge), shared and static library targets.
mkdir -p "$work/proj"
cp "$work/consumer.c" "$work/proj/"
cat >"$work/proj/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.25)
project(consumer LANGUAGES C)
find_package(profbridge 0.1 REQUIRED)
add_executable(consumer_shared consumer.c)
target_link_libraries(consumer_shared PRIVATE profbridge::profbridge)
add_executable(consumer_static consumer.c)
target_link_libraries(consumer_static PRIVATE profbridge::profbridge_static)
CM
cmake -S "$work/proj" -B "$work/proj/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_C_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" >"$work/cfg.log" 2>&1 \
  || { cat "$work/cfg.log" >&2; fail "find_package(profbridge) project did not configure"; }
cmake --build "$work/proj/build" >"$work/build.log" 2>&1 \
  || { cat "$work/build.log" >&2; fail "find_package(profbridge) project did not build"; }
LD_LIBRARY_PATH="$libdir" "$work/proj/build/consumer_shared" || fail "the find_package shared consumer did not run"
"$work/proj/build/consumer_static" || fail "the find_package static consumer did not run"

# 3. find_package(profbridge QUIET) prints nothing and leaves no variable of
#    its dependencies (JANSSON_*, LIBMD_*, ...) in the caller's scope.
mkdir -p "$work/quiet"
cat >"$work/quiet/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.25)
project(quiet LANGUAGES C)
get_cmake_property(before VARIABLES)
get_cmake_property(cache_before CACHE_VARIABLES)
message(STATUS "MARK-BEFORE")
find_package(profbridge QUIET)
message(STATUS "MARK-AFTER")
get_cmake_property(after VARIABLES)
get_cmake_property(cache_after CACHE_VARIABLES)
list(REMOVE_ITEM after ${before} before cache_before)
list(REMOVE_ITEM cache_after ${cache_before})
# Leaks: any new normal variable but profbridge_*, and any cache entry of
# profbridge's pkg-config dependencies (which would make the caller's own
# pkg_check_modules(JANSSON ...) skip its check). FindZLIB's and
# FindThreads' cache entries are what any find_package(ZLIB) leaves.
set(leaked "")
foreach(v ${after})
  list(FIND cache_after ${v} in_cache)
  if(NOT v MATCHES "^profbridge_" AND in_cache EQUAL -1)
    list(APPEND leaked ${v})
  endif()
endforeach()
foreach(v ${cache_after})
  if(v MATCHES "JANSSON|LIBMD|LIBXXHASH|LIBELF|LIBDW|pbdep|pkgcfg_lib|__pkg_config")
    list(APPEND leaked ${v})
  endif()
endforeach()
message(STATUS "FOUND=${profbridge_FOUND}")
message(STATUS "LEAKED=${leaked}")
if(profbridge_FOUND AND NOT (TARGET profbridge::profbridge AND TARGET profbridge::profbridge_static))
  message(FATAL_ERROR "profbridge_FOUND without both imported targets")
endif()
CM
quiet_check() { # what, expected FOUND value
  sed -n '/MARK-BEFORE/,/MARK-AFTER/p' "$work/quiet.log" | sed '1d;$d' >"$work/quiet.out"
  [ ! -s "$work/quiet.out" ] || { cat "$work/quiet.out" >&2; fail "$1: find_package(profbridge QUIET) printed something"; }
  grep -Eq -- "^-- FOUND=$2\$" "$work/quiet.log" || { cat "$work/quiet.log" >&2; fail "$1: profbridge_FOUND is not $2"; }
  grep -q -- "-- LEAKED=\$" "$work/quiet.log" \
    || fail "$1: variables leaked into the caller: $(sed -n 's/^-- LEAKED=//p' "$work/quiet.log")"
}
cmake -S "$work/quiet" -B "$work/quiet/b1" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  >"$work/quiet.log" 2>&1 || { cat "$work/quiet.log" >&2; fail "the QUIET project did not configure"; }
quiet_check "all dependencies present" "(1|TRUE|ON)"
# A dependency pkg-config cannot find: FOUND false, still quiet, no hard error.
mkdir -p "$work/empty-pc"
PKG_CONFIG_LIBDIR="$work/empty-pc" PKG_CONFIG_PATH="" \
  cmake -S "$work/quiet" -B "$work/quiet/b2" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  >"$work/quiet.log" 2>&1 || { cat "$work/quiet.log" >&2; fail "a missing dependency made find_package(profbridge QUIET) fail hard"; }
quiet_check "a dependency missing" "(0|FALSE|OFF)"
# The same without QUIET says why (profbridge_NOT_FOUND_MESSAGE).
sed -i 's/find_package(profbridge QUIET)/find_package(profbridge)/' "$work/quiet/CMakeLists.txt"
PKG_CONFIG_LIBDIR="$work/empty-pc" PKG_CONFIG_PATH="" \
  cmake -S "$work/quiet" -B "$work/quiet/b3" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  >"$work/quiet.log" 2>&1 || true
grep -q "profbridge needs jansson (pkg-config)" "$work/quiet.log" \
  || { cat "$work/quiet.log" >&2; fail "without QUIET, a missing dependency is not named"; }

echo "install.sh: installed CLI, man page, headers, profbridge.pc and CMake package work; find_package(profbridge QUIET) is quiet and leaks nothing"
