#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The library prints nothing and holds no FILE *: its output goes into a
# pb_sink (files, standard output) or a pb_buf (memory), so every write is
# checked, atomic and testable in memory. Printing to a stream is the tool's
# (src/cli/) and the fuzz harnesses' business.
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
cd "$PB_SOURCE_DIR"
files=$(git ls-files 'src/*.[ch]' 'formats/*.[ch]' 2>/dev/null || find src formats -name '*.[ch]')
hits=""
for f in $files; do
  case "$f" in src/cli/*|*_fuzz.c) continue ;; esac
  h=$(grep -nE '\bFILE\s*\*|\b(printf|v?fprintf|fputs|fputc|fwrite|fopen|fdopen|puts|putchar|fflush)\s*\(' "$f" || true)
  [ -z "$h" ] || hits+="$f: $h"$'\n'
done
if [ -n "$hits" ]; then
  echo "stdio streams in the library (write into a pb_buf or a pb_sink; printing belongs in src/cli/):"
  printf '%s' "$hits"
  exit 1
fi
echo "ok: no FILE * and no stdio writes in src/ (but src/cli/) and formats/"
