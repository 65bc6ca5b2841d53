#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The ABI is one list, src/exports.txt. This test fails when libprofbridge.so
# exports a symbol the list lacks, when the list names a symbol no public header
# declares, or when a public header declares a function the library does not
# export (jansson's check-exports idea, made two-sided).
set -euo pipefail
: "${PB_BINARY_DIR:?}" "${PB_SOURCE_DIR:?}"
lib=$(ls "$PB_BINARY_DIR"/libprofbridge.so.[0-9]*.[0-9]* 2>/dev/null | head -n 1)
[ -n "$lib" ] || { echo "libprofbridge.so not built in $PB_BINARY_DIR"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

nm -D --defined-only "$lib" | awk '$2 ~ /[TDBRVW]/ {sub(/@.*/, "", $3); print $3}' | sort -u >"$tmp/exported"
grep -E '^[A-Za-z_]' "$PB_SOURCE_DIR/src/exports.txt" | sort -u >"$tmp/listed"
# Declarations in the installed headers: comments removed, then every
# "name(" that follows a type at the start of a declaration and ends in ';'.
python3 - "$PB_SOURCE_DIR"/include/profbridge/*.h "$PB_SOURCE_DIR"/include/profbridge/*/*.h >"$tmp/declared" <<'PY' 2>/dev/null || true
import re, sys
names = set()
for f in sys.argv[1:]:
    try:
        t = open(f).read()
    except OSError:
        continue
    t = re.sub(r'/\*.*?\*/', '', t, flags=re.S)
    t = re.sub(r'^\s*#.*$', '', t, flags=re.M)
    for m in re.finditer(r'^[A-Za-z][^;{}()]*?\b(pb_\w+)\s*\([^;{}]*?\)[^;{}]*;', t, flags=re.M):
        if not m.group(0).lstrip().startswith('typedef'):
            names.add(m.group(1))
    # Exported data objects: extern const ... pb_name;
    for m in re.finditer(r'^[ \t]*extern[ \t]+[^;()\n"]*?\b(pb_\w+)\s*;', t, flags=re.M):
        names.add(m.group(1))
print('\n'.join(sorted(names)))
PY
sort -u -o "$tmp/declared" "$tmp/declared"

fail=0
report() { # title file
  if [ -s "$2" ]; then echo "$1:"; sed 's/^/  /' "$2"; fail=1; fi
}
comm -23 "$tmp/exported" "$tmp/listed" >"$tmp/a"; report "exported but not in src/exports.txt" "$tmp/a"
comm -13 "$tmp/exported" "$tmp/listed" >"$tmp/b"; report "in src/exports.txt but not exported" "$tmp/b"
comm -23 "$tmp/listed" "$tmp/declared" >"$tmp/c"; report "in src/exports.txt but declared in no public header" "$tmp/c"
comm -13 "$tmp/listed" "$tmp/declared" >"$tmp/d"; report "declared in a public header but not in src/exports.txt" "$tmp/d"
[ "$fail" = 0 ] || exit 1
echo "ok: $(wc -l <"$tmp/exported") exported symbols, each listed in src/exports.txt and declared in a public header"
