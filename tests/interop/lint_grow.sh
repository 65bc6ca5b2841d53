#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Every array of src/ and formats/ that grows, grows through util/grow.h
# (pbi_grow, pbi_grow_err): one doubling rule, one overflow check, one
# out-of-memory error, instead of a realloc loop per file. realloc is left
# only where the list below says why.
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
cd "$PB_SOURCE_DIR"
allowed=(
  src/util/grow.c             # the helper itself
  src/util/intern.c           # grow_ids: four per-id arrays under one uint32_t capacity that ends at the id space
  src/model/profile_records.c # the record-name cache: sized to the records' capacity and zero-filled
  src/model/jname.c           # the method-descriptor cache: sized to the method table and zero-filled
)
files=$(git ls-files 'src/*.c' 'formats/*.c' 2>/dev/null || find src formats -name '*.c')
hits=""
for f in $files; do
  case " ${allowed[*]} " in *" $f "*) continue ;; esac
  h=$(grep -nE '\brealloc\s*\(' "$f" || true)
  [ -z "$h" ] || hits+="$f: $h"$'\n'
done
if [ -n "$hits" ]; then
  echo "realloc outside util/grow.c (grow the array with pbi_grow/pbi_grow_err, or add the file to the list with the reason):"
  printf '%s' "$hits"
  exit 1
fi
echo "ok: arrays grow through util/grow.h"
