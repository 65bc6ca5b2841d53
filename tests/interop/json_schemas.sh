#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Every --json report against its schema in docs/schemas/ (python3-jsonschema,
# draft 2020-12) on real inputs, and checks that can fail by other oracles:
#  - show (LLVM view): names, hashes, counters, block counts and totals equal
#    what llvm-profdata-19 show prints for the same flags;
#  - overlap: every number equals llvm-profdata-19 overlap's text report;
#  - show (Java view): the summary equals counts computed here from the
#    iprof file itself; types: the numbers docs/types-flame.md measured;
#  - validate: the problems of hand-damaged files, offsets and paths by hand;
#  - merge --json-summary: statuses by hand, records = llvm-profdata-19's
#    "Total functions" of the merged file;
#  - names that are not UTF-8 (bytes ff fe, a cut sequence): every report is
#    strict UTF-8 JSON, the name's _hex member holds the bytes llvm-profdata-19
#    prints, and profdata -> json -> profdata gives llvm-profdata-19 the same
#    profile;
#  - documents broken on purpose fail their schema; --json under the
#    llvm-profdata personality still failures as llvm-profdata-19 does.
set -euo pipefail
: "${PB:?} ${PB_SOURCE_DIR:?}"
source "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
pb_need_llvm 19
# Debian's python3-jsonschema is in the system python, which a pyenv python3
# on PATH may hide.
PY=
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
done
[ -n "$PY" ] || { echo "SKIP: no python3 with jsonschema (python3-jsonschema; scripts/install-deps.sh installs it)"; exit 77; }
SHARED="${PB_SHARED_DIR:-$PB_SOURCE_DIR/../shared}"
L19="$SHARED/testdata/llvm-real/llvm19"
L14="$SHARED/testdata/llvm-real/llvm14"
IPROF="$SHARED/testdata/iprof-real"
[ -d "$L19" ] || { echo "SKIP: $L19 is absent (the shared test profiles)"; exit 77; }
S="$PB_SOURCE_DIR/docs/schemas"
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
failures=0

# validate SCHEMA FILE...: each FILE is strict UTF-8 JSON valid against SCHEMA.
validate() {
  /usr/bin/python3 "$PB_SOURCE_DIR/tests/interop/lib/schema_check.py" "$@" || fail "schema $(basename "$1")"
}

# ---- a profile whose second function's name is not UTF-8 -----------------------
printf ':ir\nmain\n# Func Hash:\n1234\n# Num Counters:\n2\n# Counter Values:\n7\n3\n\nf\xff\xfeo\xc3(x\xe2\x82\n# Func Hash:\n99\n# Num Counters:\n1\n# Counter Values:\n5\n\n' >"$T/bad.proftext"
llvm-profdata-19 merge "$T/bad.proftext" -o "$T/bad.profdata"
"$PB" convert "$T/bad.proftext" -o "$T/bad.profraw" --llvm-version 19

# ---- show, LLVM view ------------------------------------------------------------
flags=(--all-functions --counts --ic-targets --memop-sizes --show-vtables --detailed-summary --topn=3
       --binary-ids --profile-version --temporal-profile-traces)
n=0
inputs=("$L19"/*.profdata "$L19"/*.profraw "$L19"/basic-ir.proftext "$T/bad.profdata" "$T/bad.profraw")
for f in "${inputs[@]}"; do
  n=$((n + 1))
  "$PB" show "$f" --json "${flags[@]}" >"$T/sl$n.json" || fail "show --json $f"
done
for extra in --covered --text --list-below-cutoff "--value-cutoff=5"; do
  n=$((n + 1))
  "$PB" show "$L19/many-ir.profdata" --json $extra --all-functions >"$T/sl$n.json" || fail "show --json $extra"
done
validate "$S/show-llvm.schema.json" "$T"/sl*.json
# against llvm-profdata-19 show's text, same flags but the JSON-only ones
k=0
for f in "${inputs[@]}"; do
  k=$((k + 1))
  llvm-profdata-19 show "$f" --all-functions --counts --topn=3 >"$T/ref$k.txt" 2>/dev/null || { echo "note: llvm-profdata-19 cannot show $f"; continue; }
  "$PY" - "$T/ref$k.txt" "$T/sl$k.json" "$f" <<'PY' || fail "show --json vs llvm-profdata-19 show: $f"
import json, re, sys
txt = open(sys.argv[1], 'rb').read()
doc = json.loads(open(sys.argv[2], 'rb').read().decode('utf-8'))
fns, top, tot = [], [], {}
cur = None
for line in txt.split(b'\n'):
    if line.startswith(b'  ') and line.endswith(b':') and not line.startswith(b'    '):
        cur = {'name': line[2:-1]}
        fns.append(cur)
    elif (m := re.match(rb'    Hash: (0x[0-9a-f]+)$', line)): cur['hash'] = m.group(1).decode()
    elif (m := re.match(rb'    Counters: (\d+)$', line)): cur['counters'] = int(m.group(1))
    elif (m := re.match(rb'    Block counts: \[(.*)\]$', line)):
        cur['block_counts'] = [int(x) for x in m.group(1).split(b', ') if x]
    elif (m := re.match(rb'    Function count: (\d+)$', line)): cur['function_count'] = int(m.group(1))
    elif (m := re.match(rb'  (.*), max count = (\d+)$', line)): top.append((m.group(1), int(m.group(2))))
    elif (m := re.match(rb'(Total functions|Maximum function count|Maximum internal block count): (\d+)$', line)):
        tot[m.group(1).decode().lower().replace(' ', '_')] = int(m.group(2))
def name(o):
    return bytes.fromhex(o['name_hex']) if 'name_hex' in o else o['name'].encode()
keys = ('hash', 'counters', 'block_counts', 'function_count')
got = [dict({'name': name(o)}, **{k: o[k] for k in keys if k in o}) for o in doc.get('functions', [])]
want = fns
assert got == want, f"functions differ:\n{got[:3]}\n{want[:3]}"
assert [(name(o), int(o['max_count'])) for o in doc['top_functions']] == top, (doc['top_functions'], top)
assert doc['total_functions'] == tot['total_functions'] and int(doc['maximum_function_count']) == tot['maximum_function_count'] \
    and int(doc['maximum_internal_block_count']) == tot['maximum_internal_block_count'], (doc, tot)
print(f"ok: show --json = llvm-profdata-19 show ({len(got)} functions): {sys.argv[3].rsplit('/', 1)[-1]}")
PY
done

# ---- overlap: the numbers of llvm-profdata-19 overlap --------------------------
pairs=("basic-ir.profdata basic-ir.profraw" "basic-fe.profdata basic-ir.profdata" "basic-ir.profdata vtable-ir.profdata"
       "cs-merged.profdata basic-ir.profdata" "many-ir.profdata many-ir.profraw")
k=0
for p in "${pairs[@]}"; do
  set -- $p
  k=$((k + 1))
  "$PB" overlap "$L19/$1" "$L19/$2" --value-cutoff=0 --json >"$T/ov$k.json" || fail "overlap --json $p"
  llvm-profdata-19 overlap "$L19/$1" "$L19/$2" --value-cutoff=0 >"$T/ov$k.txt"
  "$PY" - "$T/ov$k.txt" "$T/ov$k.json" <<'PY' || fail "overlap --json vs llvm-profdata-19 overlap: $p"
import json, re, sys
blocks, cur = [], None
KIND = {'Edge': 'edge', 'IndirectCall': 'IndirectCall', 'MemOP': 'MemOP', 'VTable': 'VTable'}
for line in open(sys.argv[1]):
    line = line.rstrip('\n')
    if line in ('Function level:', 'Program level:'):
        cur = {'counts': {}, 'kinds': {}}
        blocks.append(cur)
        continue
    if (m := re.match(r'  Function: (.*) \(Hash=(\d+)\)$', line)):
        cur['name'], cur['hash'] = m.group(1), int(m.group(2)); continue
    if (m := re.match(r'  # of (?:functions|edge counters) (overlap|mismatch|only in test_profile): (\d+)$', line)):
        cur['counts'][m.group(1).replace(' in test_profile', '_in_test').replace(' ', '_')] = int(m.group(2)); continue
    if (m := re.match(r'  (\w+) profile overlap: ([\d.]+)%$', line)):
        cur['kinds'].setdefault(KIND[m.group(1)], {})['overlap_percent'] = m.group(2); continue
    if (m := re.match(r'  Mismatched count percentage \((\w+)\): ([\d.]+)%$', line)):
        cur['kinds'].setdefault(KIND[m.group(1)], {})['mismatch_percent'] = m.group(2); continue
    if (m := re.match(r'  Percentage of (\w+) profile only in test_profile: ([\d.]+)%$', line)):
        cur['kinds'].setdefault(KIND[m.group(1)], {})['only_in_test_percent'] = m.group(2); continue
    if (m := re.match(r'  (\w+) profile (base|test) count sum: (\d+)$', line)):
        cur['kinds'].setdefault(KIND[m.group(1)], {})[m.group(2) + '_sum'] = int(m.group(3)); continue
    if line.startswith('Profile overlap'): continue
    raise SystemExit(f"unparsed line: {line!r}")
doc = json.load(open(sys.argv[2]))
def mine(b, counts_key):
    out = {'counts': {k: v for k, v in b[counts_key].items() if v or k == 'overlap'}, 'kinds': {}}
    for k in [dict(b['edge'], kind='edge')] + b['values']:
        d = {x: (f"{k[x]:.3f}" if x.endswith('percent') else int(k[x])) for x in k if x != 'kind'}
        out['kinds'][k['kind']] = d
    return out
got = [dict(mine(f, 'edge_counters'), name=f['name'], hash=f['hash']) for f in doc['functions']]
got.append(mine(doc['program'], 'functions'))
# the text leaves out zero mismatch/only-in-test lines: so does the comparison
for g, w in zip(got, blocks):
    for kd in g['kinds'].values():
        for x in ('mismatch_percent', 'only_in_test_percent'):
            if x in kd and not any(x in wk for wk in w['kinds'].values()): kd.pop(x)
assert got == blocks, f"\n got: {got[-1]}\nwant: {blocks[-1]}" if got[-1] != blocks[-1] else f"\n got: {got}\nwant: {blocks}"
print(f"ok: overlap --json = llvm-profdata-19 overlap ({len(blocks)} blocks)")
PY
done
"$PB" overlap "$T/bad.profdata" "$T/bad.profdata" --value-cutoff=0 --json >"$T/ov-bad.json" || fail "overlap --json (a non-UTF-8 name)"
validate "$S/overlap.schema.json" "$T"/ov*.json

# ---- show, Java view; types ---------------------------------------------------------
k=0
for f in "$PB_SOURCE_DIR/testdata/samples/fib-doc.iprof" "$IPROF"/*.iprof; do
  [ -f "$f" ] || continue
  k=$((k + 1))
  # --lenient: elidemin-jspy names a method id it does not define
  "$PB" show "$f" --json --lenient >"$T/sj$k.json" 2>/dev/null || fail "show --json $f"
  "$PB" show "$f" --json --topn=5 --lenient >"$T/sjt$k.json" 2>/dev/null || fail "show --json --topn $f"
  "$PB" types "$f" --json --lenient >"$T/ty$k.json" 2>/dev/null || fail "types --json $f"
  # the summary against the iprof file itself (1.x layout; the 0.x files' counts are skipped)
  "$PY" - "$f" "$T/sj$k.json" <<'PY' || fail "show --json (Java view) summary: $f"
import json, sys
src = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
s = doc['summary']
if 'callCountProfiles' in src and 'types' in src and isinstance(src.get('methods'), list):
    secs = ['callCountProfiles', 'conditionalProfiles', 'virtualInvokeProfiles', 'instanceOfProfiles', 'monitorProfiles', 'samplingProfiles']
    want = {k: len(src.get(k, [])) for k in secs}
    assert {k: s['sections'][k] for k in secs} == want, (s['sections'], want)
    assert s['entries'] == sum(want.values()), s
    # lenient reading adds a placeholder for each dangling type or method id
    exact = sys.argv[1].endswith('fib-doc.iprof')
    assert (s['types'], s['methods']) == (len(src['types']), len(src['methods'])) if exact else \
        s['types'] >= len(src['types']) and s['methods'] >= len(src['methods']), s
    assert s['total_call_count'] == sum(e['records'][0] for e in src['callCountProfiles']), s
assert sum(len(m['entries']) for m in doc['methods']) == s['entries'], 'entries listed != summary'
print(f"ok: show --json (Java view) {sys.argv[1].rsplit('/', 1)[-1]}: {s['entries']} entries")
PY
done
validate "$S/show-java.schema.json" "$T"/sj*.json
"$PB" types "$L19/vtable-ir.profdata" --json >"$T/ty-llvm.json" || fail "types --json vtable-ir"
"$PB" types "$T/bad.profdata" --json >"$T/ty-bad.json" || fail "types --json (a non-UTF-8 name)"
validate "$S/types.schema.json" "$T"/ty*.json
# docs/types-flame.md's measured row for fib-doc.iprof: 3 sites, 1/0/2, lost 47 of 244 (19.26 %)
"$PY" -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; w={"sites":3,"monomorphic":1,"bimorphic":0,"megamorphic":2,"lost":47,"total":244}; assert {k:s[k] for k in w}==w and s["lost_percent"]==19.26, s' "$T/ty1.json" \
  || fail "types --json fib-doc numbers"

# ---- validate ------------------------------------------------------------------------
cp "$L19/basic-ir.profraw" "$T/dmg.profraw"
printf '\xff\xff' | dd of="$T/dmg.profraw" bs=1 seek=40 conv=notrunc 2>/dev/null # NumCounters (raw v10 header word 5)
printf '{\n  "types": [\n' >"$T/cut.iprof"
set +e
"$PB" validate --json "$PB_SOURCE_DIR/testdata/cli/three-problems.iprof" "$T/dmg.profraw" "$T/cut.iprof" \
  "$L19/basic-ir.profdata" "$T/bad.profdata" "$T/missing.profraw" >"$T/va.json" 2>/dev/null
rc=$?
set -e
[ "$rc" = 2 ] || fail "validate --json with a missing input: exit $rc, expected 2"
"$PB" validate --json "$L19/basic-ir.profraw" >"$T/va-ok.json" || fail "validate --json of a valid file"
validate "$S/validate.schema.json" "$T"/va*.json
"$PY" - "$T/va.json" <<'PY' || fail "validate --json: the problems by hand"
import json, sys
d = json.load(open(sys.argv[1]))
f = d['files']
assert [x['status'] for x in f] == ['invalid', 'invalid', 'invalid', 'valid', 'valid', 'unreadable'], [x['status'] for x in f]
assert d['valid'] is False and d['exit_status'] == 2
# testdata/cli/README.md: the three problems of three-problems.iprof
p = f[0]['problems']
assert f[0]['problem_count'] == 3 and [x['path'] for x in p] == ['callCountProfiles[0].records', 'conditionalProfiles[0].records',
    'virtualInvokeProfiles[0].records[2]'], p
assert (p[0]['expected'], p[0]['found']) == ('exactly 1 value', '2') and p[2]['found'] == '99', p
# NumCounters is the header's 6th u64: byte 40
p = f[1]['problems']
assert len(p) == 1 and p[0]['offset'] == 40 and p[0]['path'] == 'header.NumCounters' and p[0]['kind'] == 'truncated', p
# a JSON file cut after line 2: the problem has a line
p = f[2]['problems']
assert len(p) == 1 and p[0]['line'] == 3, p
assert f[5]['error'] and 'missing.profraw' in f[5]['error']
print('ok: validate --json problems')
PY

# ---- merge --json-summary ---------------------------------------------------------------
: >"$T/empty.profraw"
printf 'garbage' >"$T/garbage.profraw"
"$PB" merge "$L19/basic-ir.profraw" --weighted-input=3,"$L19/many-ir.profdata" "$T/empty.profraw" "$T/garbage.profraw" \
  --failure-mode=all -o "$T/m.profdata" --json-summary "$T/ms1.json" 2>/dev/null || fail "merge --json-summary"
set +e
"$PB" merge "$L19/basic-ir.profraw" "$T/garbage.profraw" -o "$T/m2.profdata" --json-summary - >"$T/ms2.json" 2>/dev/null
rc=$?
"$PB" merge "$L19/basic-ir.profraw" --json-summary - >/dev/null 2>"$T/ms3.err"
rc3=$?
set -e
[ "$rc" = 1 ] || fail "merge with a bad input and --failure-mode any: exit $rc, expected 1"
[ "$rc3" = 2 ] && grep -q 'json-summary' "$T/ms3.err" || fail "merge --json-summary - without -o: exit $rc3, expected 2 naming the option"
validate "$S/merge-summary.schema.json" "$T"/ms*.json
total=$(llvm-profdata-19 show "$T/m.profdata" 2>/dev/null | sed -n 's/^Total functions: //p' || true)
"$PY" - "$T/ms1.json" "$T/ms2.json" "$total" <<'PY' || fail "merge --json-summary by hand"
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
# llvm-profdata's order: the positional inputs, then --weighted-input
assert [(i['weight'], i['status']) for i in a['inputs']] == [(1, 'merged'), (1, 'skipped-empty'), (1, 'failed'), (3, 'merged')], a['inputs']
assert a['inputs'][2]['error'] and 'garbage.profraw' in a['inputs'][2]['error'] and a['output']['written'] and a['output']['format'] == 'indexed' and a['exit_status'] == 0
assert a['records'] == int(sys.argv[3]), (a['records'], sys.argv[3])
assert b['output']['written'] is False and b['records'] is None and b['exit_status'] == 1 and b['failure_mode'] == 'any'
print(f"ok: merge --json-summary ({a['records']} records = llvm-profdata-19's total functions)")
PY

# ---- diff, dump ------------------------------------------------------------------------
"$PB" diff --json "$L19/basic-ir.profdata" "$L19/vtable-ir.profdata" >"$T/di1.json" || [ $? = 1 ] || fail "diff --json"
"$PB" diff --json "$L19/basic-ir.profdata" "$L19/basic-ir.profraw" >"$T/di2.json" || fail "diff --json equal"
"$PB" diff --json "$T/bad.profdata" "$L19/basic-ir.profdata" >"$T/di3.json" || [ $? = 1 ] || fail "diff --json bad"
validate "$S/diff.schema.json" "$T"/di*.json
k=0
for f in "$L19"/*.profraw "$L14"/basic-ir.profraw "$T/bad.profraw" "$T/dmg.profraw"; do
  k=$((k + 1))
  "$PB" dump --json "$f" >"$T/dr$k.json" 2>/dev/null || [ "$f" = "$T/dmg.profraw" ] || fail "dump --json $f"
done
validate "$S/dump-raw.schema.json" "$T"/dr*.json
k=0
for f in "$L19"/*.profdata "$L14"/basic-ir.profdata "$T/bad.profdata"; do
  k=$((k + 1))
  "$PB" dump --json "$f" >"$T/dx$k.json" || fail "dump --json $f"
done
validate "$S/dump-indexed.schema.json" "$T"/dx*.json

# ---- names that are not UTF-8 ----------------------------------------------------------
llvm-profdata-19 show --all-functions "$T/bad.profdata" >"$T/bad.txt"
"$PY" - "$T/bad.txt" "$T"/sl*.json "$T/ov-bad.json" "$T/ty-bad.json" "$T/di3.json" "$T/dx$k.json" <<'PY' || fail "non-UTF-8 name in the reports"
import json, re, sys
want = bytes.fromhex('66fffe6fc32878e282')
assert b'  ' + want + b':\n' in open(sys.argv[1], 'rb').read(), 'llvm-profdata-19 does not print the name'
def hexes(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k.endswith('_hex') and k != 'value_hex': yield bytes.fromhex(v)
            else: yield from hexes(v)
    elif isinstance(o, list):
        for v in o: yield from hexes(v)
seen = 0
for f in sys.argv[2:]:
    text = open(f, 'rb').read().decode('utf-8')
    assert not re.search(r'\\ud[89a-f]', text, re.I), f'{f}: a lone surrogate escape'
    h = list(hexes(json.loads(text)))
    assert all(x == want for x in h), (f, h)
    seen += bool(h)
assert seen >= 5, f'only {seen} reports carry the name'
print(f'ok: {seen} reports carry the non-UTF-8 name as its bytes')
PY
# the model JSON keeps the bytes: profdata -> json -> profdata, raw -> json -> raw
"$PB" convert "$T/bad.profdata" -o "$T/bad.json" || fail "convert to json"
"$PB" convert "$T/bad.json" -o "$T/back.profdata" --llvm-version 19 || fail "convert json to profdata"
llvm-profdata-19 show --all-functions --counts --text "$T/bad.profdata" >"$T/a.txt"
llvm-profdata-19 show --all-functions --counts --text "$T/back.profdata" >"$T/b.txt" || fail "llvm-profdata-19 cannot read the round trip"
cmp -s "$T/a.txt" "$T/b.txt" || fail "profdata -> json -> profdata changed the profile llvm-profdata-19 shows"
cmp -s "$T/bad.profdata" "$T/back.profdata" || fail "profdata -> json -> profdata changed bytes"
"$PB" convert "$T/bad.profraw" -o "$T/bad2.json" || fail "convert raw to json"
"$PB" convert "$T/bad2.json" -o "$T/back.profraw" || fail "convert json to raw"
cmp -s "$T/bad.profraw" "$T/back.profraw" || fail "profraw -> json -> profraw changed bytes"
grep -q '"nameHex":"66fffe6fc32878e282"' "$T/bad.json" || fail "model JSON: no nameHex of the name"
/usr/bin/python3 "$PB_SOURCE_DIR/tests/interop/lib/schema_check.py" "$PB_SOURCE_DIR/docs/profbridge-model.schema.json" "$T/bad.json" ||
  fail "model JSON of a non-UTF-8 name against its schema"

# ---- broken documents fail their schema ------------------------------------------------
"$PY" - "$S" "$T" <<'PY' || fail "schemas accept broken documents"
import copy, json, sys, jsonschema
S, T = sys.argv[1], sys.argv[2]
def load(f): return json.load(open(f'{T}/{f}'))
def broken(schema, doc, what, change):
    d = copy.deepcopy(doc); change(d)
    v = jsonschema.Draft202012Validator(json.load(open(f'{S}/{schema}')))
    assert v.is_valid(doc), f'{schema}: the original is invalid'
    assert not v.is_valid(d), f'{schema}: accepts {what}'
sl, va, ov, ms = load('sl1.json'), load('va.json'), load('ov2.json'), load('ms1.json')
broken('show-llvm.schema.json', sl, 'no format_version', lambda d: d.pop('format_version'))
broken('show-llvm.schema.json', sl, 'format_version 2.0', lambda d: d.update(format_version='2.0'))
broken('show-llvm.schema.json', sl, 'an unknown member', lambda d: d.update(extra=1))
broken('show-llvm.schema.json', sl, 'a name that is a number', lambda d: d['functions'][0].update(name=5))
broken('show-llvm.schema.json', sl, 'name_hex with odd digits', lambda d: d['functions'][0].update(name_hex='abc'))
broken('validate.schema.json', va, 'a valid file with problems', lambda d: d['files'][3].update(problem_count=1))
broken('validate.schema.json', va, 'a problem without offset', lambda d: d['files'][1]['problems'][0].pop('offset'))
broken('overlap.schema.json', ov, 'a negative sum', lambda d: d['program']['edge'].update(base_sum=-1))
broken('merge-summary.schema.json', ms, 'weight 0', lambda d: d['inputs'][0].update(weight=0))
broken('show-java.schema.json', load('sj1.json'), 'neither methods nor top_entries', lambda d: d.pop('methods'))
print('ok: broken documents fail')
PY

# ---- the llvm-profdata personality keeps refusing --json --------------------------------
mkdir "$T/bin"
ln -s "$(readlink -f "$PB")" "$T/bin/llvm-profdata-19"
for cmd in "show --json" "overlap --json $L19/basic-ir.profdata"; do
  set +e
  "$T/bin/llvm-profdata-19" $cmd "$L19/basic-ir.profdata" >"$T/p.out" 2>"$T/p.err"
  prc=$?
  llvm-profdata-19 $cmd "$L19/basic-ir.profdata" >"$T/r.out" 2>"$T/r.err"
  rrc=$?
  set -e
  [ "$prc" = "$rrc" ] && [ ! -s "$T/p.out" ] || fail "personality $cmd: exit $prc (llvm-profdata-19: $rrc)"
  # the first line, without the program's name and the --help hint that names it
  strip() { head -1 "$1" | sed 's/^[^:]*: //; s/ *Try: .*//'; }
  [ "$(strip "$T/p.err")" = "$(strip "$T/r.err")" ] ||
    fail "personality $cmd: '$(head -1 "$T/p.err")' vs llvm-profdata-19 '$(head -1 "$T/r.err")'"
done

[ "$failures" = 0 ] || { echo "json_schemas: $failures failures"; exit 1; }
echo "json_schemas: all checks passed"
