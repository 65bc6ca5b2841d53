#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Library and CLI code must not use calls that invite overflows or hide errors
# (curl's checksrc idea): sprintf, vsprintf, strcpy, strcat, atoi, atol, strtok, gets;
# nor json_set_alloc_funcs: jansson's allocator is the host program's (util/oom_watch.h).
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
cd "$PB_SOURCE_DIR"
hits=$(grep -nE '\b(sprintf|vsprintf|strcpy|strcat|atoi|atol|strtok|gets|json_set_alloc_funcs)\s*\(' \
        $(git ls-files 'src/*.c' 'src/*.h' 'formats/*.c' 'formats/*.h' 2>/dev/null || find src formats -name '*.[ch]') \
        | grep -vE '\b(snprintf|vsnprintf)\s*\(' || true)
if [ -n "$hits" ]; then
  echo "banned calls found (use snprintf, memcpy with checked lengths, strtol/strtoull; leave jansson's allocator alone):"
  echo "$hits"
  exit 1
fi
echo "ok: no banned calls in src/ and formats/"
