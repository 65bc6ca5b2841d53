#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# pb_release_has answers 0 for an id the release table does not have, so a
# misspelt rule would silently read "no release has it". This lint checks
# that every id the sources ask about (pb_release_has(..., "ID") or
# "cov.ID") is a row of src/llvm/target.h's PBI_LLVM_FEATURES or
# PBI_LLVM_COV_FEATURES.
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"
cd "$PB_SOURCE_DIR"
rows=$(sed -n '/^#define PBI_LLVM_FEATURES/,/^$/p' src/llvm/target.h | grep -oE '^\s*X\([A-Z0-9_]+' | sed 's/.*X(//')
cov_rows=$(sed -n '/^#define PBI_LLVM_COV_FEATURES/,/^$/p' src/llvm/target.h | grep -oE 'X\([A-Z0-9_]+,' | sed 's/X(//; s/,//')
[ -n "$rows" ] && [ -n "$cov_rows" ] || fail "no rows found in src/llvm/target.h"
asked=$(grep -rhoE 'pb_release_has\([^;"]*"[A-Za-z0-9_.]+"' src formats python 2>/dev/null |
        grep -oE '"[A-Za-z0-9_.]+"$' | tr -d '"' | sort -u)
[ -n "$asked" ] || fail "no pb_release_has call found (the lint would check nothing)"
for id in $asked; do
  case $id in
    cov.*) grep -qxF "${id#cov.}" <<<"$cov_rows" && ok || fail "pb_release_has asks for '$id': no such llvm-cov row in target.h" ;;
    *) grep -qxF "$id" <<<"$rows" && ok || fail "pb_release_has asks for '$id': no such row in target.h" ;;
  esac
done
finish
