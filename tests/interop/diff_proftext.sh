#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# diff_proftext.sh -- `profbridge diff` and `overlap` on the hand-written
# data/diff_a.proftext and data/diff_b.proftext. Expected values are computed by hand:
#   gone   (hash 3)  only in A, counters [100]                -> impact 100
#   foo    (hash 9)  only in B, counters [50]                 -> impact 50
#   foo    (hash 1)  [10,20,30] -> [10,25,20]: +5 at 1, -10 at 2 -> impact 15
#   bar    (hash 2)  counters equal; IC site 0: foo 7->4 (-3), baz 3->0 (-3), qux 0->2 (+2) -> 8
#   new    (hash 5)  only in B, counters [1,2]                -> impact 3
#   same   (hash 4)  equal (not listed)
# Overlap (A base, B test): sums A = 60+10+100+9 = 179, B = 55+10+3+9+50 = 127;
# edge overlap = (10+20+10+9)/179 + 20/127 = 43.122%, mismatch 50/127 = 39.370%,
# only in test 3/127 = 2.362%, IC overlap min(7/10, 4/6) = 66.667%; foo: 86.364%.
# Exit status: 0 equal, 1 different, 2 error.
set -uo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }
D="$PB_SOURCE_DIR/tests/interop/data"
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
checks=0; failures=0
ok() { checks=$((checks + 1)); }
cd "$D"

"$PB" diff diff_a.proftext diff_b.proftext >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 1 ] && ok || fail "diff of different profiles: exit $rc, expected 1 ($(head -c 300 "$T/err"))"
grep -q '^different: 1 only in A, 2 only in B, 2 changed, 1 same$' "$T/out" && ok || fail "summary line: $(sed -n 3p "$T/out")"
order="$(grep -E '^(only-in-a|only-in-b|changed): ' "$T/out" | sed 's/ (hash 0x0*\([0-9a-f]*\)), impact / \1 /' | tr '\n' '|')"
[ "$order" = "only-in-a: gone 3 100|only-in-b: foo 9 50|changed: foo 1 15|changed: bar 2 8|only-in-b: new 5 3|" ] \
  && ok || fail "records or impact order: $order"
for line in '  counter 1: 20 -> 25 \(\+5\)' '  counter 2: 30 -> 20 \(-10\)' '    foo: 7 -> 4 \(-3\)' \
            '    baz: 3 -> 0 \(-3\)' '    qux: 0 -> 2 \(\+2\)' '  counters \(2\): 1 2'; do
  grep -qE "^$line\$" "$T/out" && ok || fail "no line '$line' in the text report"
done

"$PB" diff --json diff_a.proftext diff_b.proftext >"$T/json"; rc=$?
[ "$rc" -eq 1 ] && ok || fail "diff --json: exit $rc, expected 1"
if python3 - "$T/json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["equal"] is False and (d["only_in_a"], d["only_in_b"], d["changed"], d["same"]) == (1, 2, 2, 1), d
recs = [(r["status"], r["name"], r["hash"], r["impact"]) for r in d["records"]]
assert recs == [("only-in-a", "gone", 3, 100), ("only-in-b", "foo", 9, 50), ("changed", "foo", 1, 15),
                ("changed", "bar", 2, 8), ("only-in-b", "new", 5, 3)], recs
foo = d["records"][2]
assert foo["num_counters"] == {"a": 3, "b": 3}
assert [(c["index"], c["a"], c["b"], c["delta"]) for c in foo["counters"]] == [(1, 20, 25, 5), (2, 30, 20, -10)]
bar = d["records"][3]
assert bar["counters"] == [] and len(bar["value_sites"]) == 1
s = bar["value_sites"][0]
assert (s["kind"], s["site"]) == ("indirect-call", 0)
assert sorted((v["name"], v["a"], v["b"], v["delta"]) for v in s["values"]) == \
       [("baz", 3, 0, -3), ("foo", 7, 4, -3), ("qux", 0, 2, 2)], s
new = d["records"][4]
assert [(c["index"], c["a"], c["b"]) for c in new["counters"]] == [(0, None, 1), (1, None, 2)], new
PY
then ok; else fail "--json content (see the assertion above)"; fi

# Equal: a profile with itself, and across formats.
"$PB" diff diff_a.proftext diff_a.proftext >"$T/out"; rc=$?
[ "$rc" -eq 0 ] && ok || fail "diff A A: exit $rc"
grep -q '^equal: 4 records' "$T/out" && ok || fail "diff A A text: $(cat "$T/out")"
"$PB" convert diff_b.proftext -o "$T/b.profdata" && "$PB" diff -q diff_b.proftext "$T/b.profdata"; rc=$?
[ "$rc" -eq 0 ] && ok || fail "proftext vs its .profdata: exit $rc, expected 0"
"$PB" diff --json diff_b.proftext "$T/b.profdata" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["equal"] and d["records"]==[] and d["same"]==5' \
  && ok || fail "--json of equal profiles"
FIB="$PB_SOURCE_DIR/testdata/samples/fib-doc.iprof"
if "$PB" convert "$FIB" -o "$T/fib.profdata" 2>/dev/null; then
  "$PB" diff "$FIB" "$T/fib.profdata" >"$T/out"; rc=$?
  [ "$rc" -eq 0 ] && ok || fail "iprof vs the .profdata made from it: exit $rc, expected 0: $(head -c 400 "$T/out")"
fi
# Errors: exit 2 (never 1, which means "different").
"$PB" diff diff_a.proftext "$T/missing.profdata" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] && ok || fail "missing input: exit $rc, expected 2"
printf 'foo\n1\n0\n' >"$T/bad.proftext"
"$PB" diff diff_a.proftext "$T/bad.proftext" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] && ok || fail "invalid input: exit $rc, expected 2"
"$PB" diff diff_a.proftext >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] && ok || fail "one input only: exit $rc, expected 2"

# A bitmap byte that differs makes a record "changed" with impact 0.
printf 'check\n7\n2\n8\n2\n$1\n0x13\n' >"$T/bm1.proftext"
printf 'check\n7\n2\n8\n2\n$1\n0x17\n' >"$T/bm2.proftext"
"$PB" diff "$T/bm1.proftext" "$T/bm2.proftext" >"$T/out"; rc=$?
[ "$rc" -eq 1 ] && ok || fail "bitmap change: exit $rc, expected 1"
grep -qx 'changed: check (hash 0x0000000000000007), impact 0' "$T/out" && grep -qx '  bitmap byte 0: 0x13 -> 0x17' "$T/out" \
  && ok || fail "bitmap change not reported: $(cat "$T/out")"

# Overlap: the hand-computed numbers (independent of llvm-profdata).
"$PB" overlap --value-cutoff=0 diff_a.proftext diff_b.proftext >"$T/ov"; rc=$?
[ "$rc" -eq 0 ] && ok || fail "overlap: exit $rc"
for line in '  # of functions overlap: 3' '  # of functions mismatch: 1' '  # of functions only in test_profile: 1' \
            '  Edge profile overlap: 43.122%' '  Mismatched count percentage (Edge): 39.370%' \
            '  Percentage of Edge profile only in test_profile: 2.362%' '  Edge profile base count sum: 179' \
            '  Edge profile test count sum: 127' '  IndirectCall profile overlap: 66.667%' \
            '  Function: foo (Hash=1)' '  Edge profile overlap: 86.364%'; do
  grep -qxF -- "$line" "$T/ov" && ok || fail "overlap report lacks '$line'"
done
echo "diff_proftext.sh: $checks checks passed, $failures failed"
[ "$failures" -eq 0 ]
