#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cov_read_llvm.sh -- the coverage-mapping reader (src/coverage/cov_read*.c)
# against the real llvm-cov-N of every release on PATH: clang-N builds a C
# program (macros expanded in a condition, a static function, a loop, a
# condition of three terms: MC/DC from 18 on) and a C++ one of two files
# (inline and template functions both files instantiate: duplicate
# records, a never-used inline function: a dummy record), runs them, and
# `llvm-cov-N export` lists each function's regions and branches. Every one
# of them must be a record that `profbridge dump --json BIN` explains with
# the same name, the same file names and the same regions in the same order
# (line, column, line, column, file id, kind). Then the 13-17 ones must
# refuse a clang-18+ binary (coverage mapping version 7) with
# "Unsupported coverage format version", as profbridge's reader does for
# them (checked by the unit test cov_read__llvm_words).
set -u
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?PB_SOURCE_DIR must name the source tree (set by ctest)}"
# shellcheck source=lib/llvm-tools.bash
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 77; }

releases=()
for n in $(pb_llvm_releases clang); do command -v "llvm-cov-$n" >/dev/null && releases+=("$n"); done
if [ ${#releases[@]} -eq 0 ]; then
  echo "SKIP: no llvm-cov-N with clang-N on PATH ($(pb_llvm_how 19))"
  exit 77
fi
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT

cat > "$W/a.c" <<'C'
#include <stdio.h>
#define MAX(a, b) ((a) > (b) ? (a) : (b))
static int f(int a, int b, int c) { if ((a && b) || c) return MAX(a, b); return 0; }
int main(int argc, char **argv) {
  (void)argv;
  for (int i = 0; i < argc + 2; i++) printf("%d\n", f(i, argc, i > 1));
  return 0;
}
C
mkdir -p "$W/sub"
cat > "$W/sub/h.h" <<'C'
#pragma once
template <typename T> T mx(T a, T b) { return a > b ? a : b; }
inline int used_inline(int x) { if (x > 3) return x * 2; return x; }
inline int unused_inline(int x) { return x + 1; }
static inline int st(int x) { switch (x) { case 1: return 2; case 2: return 3; default: return 0; } }
C
cat > "$W/x.cpp" <<'C'
#include "sub/h.h"
int fa(int n) { int s = 0; for (int i = 0; i < n; i++) s += mx(i, 2) + used_inline(i) + st(i); return s; }
C
cat > "$W/y.cpp" <<'C'
#include "sub/h.h"
#include <cstdio>
int fa(int);
int main(int argc, char **) { double d = mx(1.0, 2.0);
  std::printf("%d\n", fa(argc + 4) + used_inline(argc) + (d > 1 && argc > 0 ? 1 : 0)); return 0; }
C

cat > "$W/cmp.py" <<'PY'
import json, re, sys
exp = json.load(open(sys.argv[1]))
dump = json.load(open(sys.argv[2]))
if dump.get('problem'):
    print('dump problem:', dump['problem']); sys.exit(1)
recs = {}
for sec in dump['sections']:
    if sec['section'] != '__llvm_covfun': continue
    for it in sec['items']:
        m = re.match(r'\[(\d+)\]\.(.*)', it['field'])
        if not m: continue
        k, f = int(m.group(1)), m.group(2)
        r = recs.setdefault(k, {'name': None, 'files': [], 'regions': [], 'branches': []})
        if f == 'NameRef': r['name'] = it['value'].split(' ', 1)[1] if ' ' in it['value'] else ''
        elif re.fullmatch(r'file_ids\[\d+\]', f) and it['value'].startswith('= '): r['files'].append(it['value'][2:])
        elif re.fullmatch(r'regions\[\d+\]', f):
            g = re.match(r'= ([a-z-]+), file (\d+), (\d+):(\d+) -> (\d+):(\d+)', it['value'])
            kind = ['code', 'expansion', 'skipped', 'gap', 'branch', 'mcdc-decision', 'mcdc-branch'].index(g.group(1))
            v = [int(g.group(i)) for i in (3, 4, 5, 6, 2)] + [kind]
            if kind in (4, 6): r['branches'].append(v)
            elif kind != 5: r['regions'].append(v)
bad = 0
fns = exp['data'][0]['functions']
for f in fns:
    want = ([[x[0], x[1], x[2], x[3], x[5], x[7]] for x in f['regions']],
            [[x[0], x[1], x[2], x[3], x[6], x[8]] for x in f.get('branches', [])])
    if not any(r['name'] == f['name'] and r['files'] == f['filenames'] and (r['regions'], r['branches']) == want
               for r in recs.values()):
        bad += 1
        print('no record like llvm-cov\'s for', f['name'])
print('%d functions, %d records, %d differ' % (len(fns), len(recs), bad))
sys.exit(1 if bad or not fns else 0)
PY

fail=0
for n in "${releases[@]}"; do
  mcdc=(); [ "$n" -ge 18 ] && mcdc=(-fcoverage-mcdc)
  for prog in c cpp; do
    bin="$W/$prog$n"
    if [ $prog = c ]; then
      (cd "$W" && "clang-$n" -fprofile-instr-generate -fcoverage-mapping "${mcdc[@]}" a.c -o "$bin") || { echo "FAIL clang-$n a.c"; fail=1; continue; }
    else
      command -v "clang++-$n" >/dev/null || continue
      (cd "$W" && "clang++-$n" -fprofile-instr-generate -fcoverage-mapping "${mcdc[@]}" sub/../x.cpp ./y.cpp -o "$bin") || { echo "FAIL clang++-$n"; fail=1; continue; }
    fi
    LLVM_PROFILE_FILE="$bin.profraw" "$bin" a b >/dev/null
    "llvm-profdata-$n" merge -o "$bin.profdata" "$bin.profraw"
    "llvm-cov-$n" export -instr-profile="$bin.profdata" "$bin" > "$bin.llvm.json" 2>/dev/null || { echo "FAIL llvm-cov-$n export $prog"; fail=1; continue; }
    "$PB" dump --json "$bin" > "$bin.pb.json" || { echo "FAIL profbridge dump --json $prog$n"; fail=1; continue; }
    if out=$(python3 "$W/cmp.py" "$bin.llvm.json" "$bin.pb.json"); then echo "ok   $n $prog: $out"
    else echo "FAIL $n $prog: $out"; fail=1; fi
    # the dump's JSON against its schema (Debian's python3-jsonschema, in the system python)
    if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
      /usr/bin/python3 "$PB_SOURCE_DIR/tests/interop/lib/schema_check.py" \
        "$PB_SOURCE_DIR/docs/schemas/dump-coverage.schema.json" "$bin.pb.json" >/dev/null ||
        { echo "FAIL $n $prog: dump --json breaks docs/schemas/dump-coverage.schema.json"; fail=1; }
    fi
  done
done

# llvm-cov 13-17 refuse a version-7 binary (clang 18+)
v7=""
for n in "${releases[@]}"; do [ "$n" -ge 18 ] && [ -x "$W/c$n" ] && { v7="$W/c$n"; break; }; done
for n in "${releases[@]}"; do
  [ "$n" -le 17 ] && [ -n "$v7" ] || continue
  msg=$("llvm-cov-$n" export -instr-profile="$W/c$n.profdata" "$v7" 2>&1 >/dev/null | grep -v 'out of date' | head -n 1)
  case "$msg" in
    *"Unsupported coverage format version"*) echo "ok   $n refuses version 7: $msg" ;;
    *) echo "FAIL $n on a version-7 binary: $msg"; fail=1 ;;
  esac
done
exit $fail
