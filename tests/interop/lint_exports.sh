#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Only the public API (pb_*) may leave libprofbridge.so; internal helpers are pbi_* and
# hidden by src/exports.map (jansson's check-exports idea).
set -euo pipefail
: "${PB_BINARY_DIR:?}"
lib=$(ls "$PB_BINARY_DIR"/libprofbridge.so.* 2>/dev/null | head -n 1)
[ -n "$lib" ] || { echo "libprofbridge.so not built in $PB_BINARY_DIR"; exit 1; }
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /[TDBR]/ {print $3}' | grep -v '^pb_' || true)
if [ -n "$bad" ]; then
  echo "symbols exported without the pb_ prefix:"
  echo "$bad"
  exit 1
fi
echo "ok: $(nm -D --defined-only "$lib" | awk '$2 ~ /[TDBR]/' | wc -l) exported symbols, all pb_*"
