#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# version.sh -- the version is written once, in CMakeLists.txt's
# project(profbridge VERSION X.Y.Z); everything that shows it must agree:
# `profbridge --version` (PB_VERSION_STRING compiled into the CLI and the
# library's pb_version()), the generated profbridge/version.h, profbridge.pc,
# the man page's .TH line and the newest released section of CHANGELOG.md.
set -euo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}" "${PB_BINARY_DIR:?}"
PB_FAIL_FAST=1
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm

want="$(sed -n 's/^project(profbridge VERSION \([0-9][0-9.]*\).*/\1/p' "$PB_SOURCE_DIR/CMakeLists.txt")"
[[ "$want" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "no X.Y.Z in CMakeLists.txt's project() line (got '$want')"
IFS=. read -r major minor patch <<<"$want"

got="$("$PB" --version)"
[ "$got" = "profbridge $want (library $want)" ] \
  || fail "profbridge --version says '$got', CMakeLists.txt says $want"
for alias in -V -version; do
  [ "$("$PB" $alias)" = "$got" ] || fail "profbridge $alias differs from --version"
done

hdr="$PB_BINARY_DIR/include/profbridge/version.h"
[ -f "$hdr" ] || fail "$hdr was not generated"
grep -qx "#define PB_VERSION_STRING \"$want\"" "$hdr" || fail "version.h's PB_VERSION_STRING is not \"$want\""
grep -qx "#define PB_VERSION_MAJOR $major" "$hdr" || fail "version.h's PB_VERSION_MAJOR is not $major"
grep -qx "#define PB_VERSION_MINOR $minor" "$hdr" || fail "version.h's PB_VERSION_MINOR is not $minor"
grep -qx "#define PB_VERSION_PATCH $patch" "$hdr" || fail "version.h's PB_VERSION_PATCH is not $patch"
# nobody writes the number by hand into the public headers again
if grep -rnE '#define PB_VERSION_(MAJOR|MINOR|PATCH|STRING) ' "$PB_SOURCE_DIR/include"; then
  fail "a public header defines PB_VERSION_* itself; it comes from cmake/version.h.in"
fi

grep -qx "Version: $want" "$PB_BINARY_DIR/profbridge.pc" || fail "profbridge.pc does not say Version: $want"

th="$(sed -n 's/^\.TH PROFBRIDGE 1 "[^"]*" "profbridge \([^"]*\)".*/\1/p' "$PB_SOURCE_DIR/docs/profbridge.1")"
[ "$th" = "$want" ] || fail "docs/profbridge.1's .TH line says profbridge '$th', not $want"

cl="$PB_SOURCE_DIR/CHANGELOG.md"
[ -f "$cl" ] || fail "CHANGELOG.md is missing"
grep -q '^## \[Unreleased\]' "$cl" || fail "CHANGELOG.md has no '## [Unreleased]' section"
released="$(sed -n 's/^## \[\([0-9][0-9.]*\)\].*/\1/p' "$cl" | head -n1)"
[ "$released" = "$want" ] || fail "CHANGELOG.md's newest release is '$released', CMakeLists.txt says $want"
echo "ok: version $want everywhere (--version, pb_version, version.h, profbridge.pc, man page, CHANGELOG.md)"
