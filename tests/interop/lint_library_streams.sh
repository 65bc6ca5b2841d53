#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The library prints nothing and holds no FILE *: its output goes into a
# pb_sink (files, standard output) or a pb_buf (memory), so every write is
# checked, atomic and testable in memory. Printing to a stream is the tool's
# (src/cli/) and the fuzz harnesses' business.
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
cd "$PB_SOURCE_DIR"
. "$(dirname "$0")/lib/lint-grep.bash"
lint_grep "stdio streams in the library (write into a pb_buf or a pb_sink; printing belongs in src/cli/):" \
  "ok: no FILE * and no stdio writes in src/ (but src/cli/) and formats/" \
  '\bFILE\s*\*|\b(printf|v?fprintf|fputs|fputc|fwrite|fopen|fdopen|puts|putchar|fflush)\s*\(' \
  '@(src/cli/*|*_fuzz.c)' 'src/*.[ch]' 'formats/*.[ch]'
