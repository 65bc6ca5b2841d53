#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Every array of src/ and formats/ that grows, grows through util/grow.h
# (pbu_grow, pbu_grow_err): one doubling rule, one overflow check, one
# out-of-memory error, instead of a realloc loop per file. realloc is left
# only where the list below says why.
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
cd "$PB_SOURCE_DIR"
. "$(dirname "$0")/lib/lint-grep.bash"
# realloc stays only where the reason says why
allowed='@(src/util/grow.c|src/util/intern.c|src/model/profile_records.c|src/model/jname.c)'
#   src/util/grow.c             the helper itself
#   src/util/intern.c           grow_ids: four per-id arrays under one uint32_t capacity that ends at the id space
#   src/model/profile_records.c the record-name cache: sized to the records' capacity and zero-filled
#   src/model/jname.c           the method-descriptor cache: sized to the method table and zero-filled
lint_grep "realloc outside util/grow.c (grow the array with pbu_grow/pbu_grow_err, or add the file to the list with the reason):" \
  "ok: arrays grow through util/grow.h" '\brealloc\s*\(' "$allowed" 'src/*.c' 'formats/*.c'
