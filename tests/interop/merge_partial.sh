#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# merge_partial.sh -- partial merges (profbridge/partial.h, `merge --partial`,
# docs/distributed-merge.md): real inputs of several releases and formats,
# weights 1..5, a corrupt and an empty input under each failure mode, split
# into contiguous shards in many ways, shards combined into steps and the
# steps into one final merge: the final bytes must be those of ONE flat
# `profbridge merge` of the same inputs in the same order (indexed for LLVM
# 13, 19 and 23, text, JSON, iprof). Also the crafted case of issue 24 (a
# value first seen in a later shard of weight 3: 7, not 21) against
# llvm-profdata-19 itself, the provenance in --json-summary, the refusals
# (a weight on a partial, partials of other rules) and a damaged .pbpart;
# sites holding a value more than once.
# About a minute under ASan.
set -euo pipefail
. "$PB_SOURCE_DIR/tests/interop/lib/cli-common.bash"
: "${PB_SHARED_DIR:?}"
R="$PB_SHARED_DIR/testdata/llvm-real"
[ -d "$R/llvm19" ] || { echo "SKIP: no $R"; exit 77; }
SPLIT=(/usr/bin/python3 "$PB_SOURCE_DIR/tests/interop/lib/partial_split.py" "$PB" "$T")

# split NAME SEED MAX -o OUT [opts] -- INPUTS: every (or MAX sampled) split
split_case() {
  local name="$1"
  shift
  if out="$("${SPLIT[@]}" "$@" 2>&1)"; then ok; else fail "$name: $out"; fi
}

L19="$R/llvm19"
# a corrupt raw input (cut in its counters) and an empty one
head -c 200 "$L19/many-ir.profraw" >"$T/cut.profraw"
: >"$T/empty.profraw"

split_case "19 indexed, weights" 1 10 -o o.profdata -- \
  "$L19/vtable-ir.proftext" "$L19/basic-ir.profraw" "3,$L19/many-ir.profraw" "$L19/vtable-ir.profraw" \
  "2,$L19/simple-ir.profraw" "$L19/static-ir.profdata" "5,$L19/vtable-ir.profraw" "4,$L19/many-ir.profraw"
split_case "19 text, MC/DC and temporal" 2 8 -o o.proftext -- \
  "$L19/temporal-ir.profraw" "2,$L19/basic-ir.profraw" "$L19/temporal-ir.proftext" "3,$L19/concat-ir.profraw" \
  "$L19/cs-ir.profraw"
split_case "19 mcdc front-end" 3 6 -o o.profdata -- \
  "$L19/mcdc-fe.profraw" "2,$L19/basic-fe.profraw" "$L19/mcdc-fe.proftext" "5,$L19/sbc-fe.profdata"
split_case "13 indexed" 4 8 --llvm-version 13 -o o.profdata -- \
  "$R/llvm14/basic-ir.profraw" "3,$R/llvm14/many-ir.profraw" "$R/llvm14/static-ir.profdata" "2,$R/llvm14/simple-ir.proftext"
split_case "23 indexed" 5 8 --llvm-version 23 -o o.profdata -- \
  "$L19/basic-ir.profraw" "3,$L19/many-ir.profraw" "$L19/vtable-ir.profraw" "2,$L19/vtable-ir.profraw"
split_case "json" 6 6 -o o.json -- \
  "$L19/vtable-ir.profraw" "3,$L19/many-ir.profraw" "2,$L19/vtable-ir.profraw" "$L19/basic-ir.profdata"
for mode in any all warn; do
  split_case "failure mode $mode" 7 8 --failure-mode "$mode" -o o.profdata -- \
    "$L19/basic-ir.profraw" "$T/cut.profraw" "2,$L19/many-ir.profraw" "$T/empty.profraw" "$L19/simple-ir.profraw"
done
split_case "all failed, all" 8 4 --failure-mode all -o o.profdata -- "$T/cut.profraw" "$T/empty.profraw" "$T/cut.profraw"
# temporal traces past the reservoir: a sample of the same size, the same stream size, the rest exact
split_case "traces past the reservoir" 10 8 --sampled-traces --temporal-profile-trace-reservoir-size 1 -o o.proftext -- \
  "$L19/temporal-ir.profraw" "2,$L19/temporal-ir.profraw" "$L19/temporal-ir.proftext" "$L19/temporal-ir.profraw"
# a site holding a value twice (two '** External Symbol **' entries read back
# as 0): llvm-profdata pairs such entries in order; weighted, in one shard
# and across shards (exact while each input lists them by count, as
# llvm-profdata writes them: docs/distributed-merge.md)
split_case "a value twice in a site, weighted" 12 8 -o o.proftext -- \
  "2,$L19/vtable-ir.proftext" "3,$L19/vtable-ir.proftext" "$L19/vtable-ir.proftext" "4,$L19/vtable-ir.proftext"
mapfile -t DUPS < <(/usr/bin/python3 "$PB_SOURCE_DIR/tests/interop/lib/partial_dups.py" "$T/dups" 13 6)
split_case "values repeated in a site, random" 13 12 -o o.proftext -- "${DUPS[@]}"
mapfile -t DUPS < <(/usr/bin/python3 "$PB_SOURCE_DIR/tests/interop/lib/partial_dups.py" "$T/dups2" 14 5)
split_case "values repeated in a site, random, indexed" 14 12 -o o.profdata -- "${DUPS[@]}"
# the function filters apply once, to the final merge
split_case "function filters" 11 6 --function 'main|foo' --no-function bar -o o.proftext -- \
  "$L19/basic-ir.profraw" "2,$L19/many-ir.profraw" "$L19/simple-ir.proftext"

# iprof (the repository's sample: the real ones take seconds each under ASan)
split_case "iprof" 9 8 -o o.iprof -- "$FIB" "3,$FIB" "$FIB" "2,$FIB"

# random mixes: formats, weights, failures, releases, outputs, shards (seeded)
if out="$(/usr/bin/python3 "$PB_SOURCE_DIR/tests/interop/lib/partial_random.py" "$PB" "$PB_SHARED_DIR" \
  "$PB_SOURCE_DIR" "$T" 24 20 2>&1)"; then ok; else fail "random mixes: $out"; fi

# Issue 24's example: caller's site holds callee_a in a.proftext; b's
# callee_b (7) is new to the record when b comes second with weight 3:
# llvm-profdata adds it unweighted (7, not 21). Shards [a] [3 x b].
PB_PY=/usr/bin/python3
$PB_PY - "$T" <<'PY'
import sys
t = sys.argv[1]
def prof(count, target, tcount):
    return ("# IR level Instrumentation Flag\n:ir\ncaller\n# Func Hash:\n1000\n# Num Counters:\n1\n"
            "# Counter Values:\n%d\n# Num Value Kinds:\n1\n# ValueKind = IPVK_IndirectCallTarget:\n0\n"
            "# NumValueSites:\n1\n1\n%s:%d\n\ncallee_a\n# Func Hash:\n2000\n# Num Counters:\n1\n"
            "# Counter Values:\n5\n\ncallee_b\n# Func Hash:\n3000\n# Num Counters:\n1\n# Counter Values:\n7\n"
            % (count, target, tcount))
open(t + "/a.proftext", "w").write(prof(10, "callee_a", 5))
open(t + "/b.proftext", "w").write(prof(7, "callee_b", 7))
PY
cd "$T"
llvm-profdata-19 merge --text -o llvm.proftext a.proftext --weighted-input=3,b.proftext
"$PB" merge --partial -o a.pbpart a.proftext
"$PB" merge --partial -o b.pbpart --weighted-input=3,b.proftext
"$PB" merge --text -o ours.proftext a.pbpart b.pbpart
if cmp -s llvm.proftext ours.proftext && grep -qx 'callee_b:7' ours.proftext; then ok; else
  fail "7-vs-21: $(diff llvm.proftext ours.proftext | head -5)"; fi
"$PB" merge -o ours.profdata a.pbpart b.pbpart
llvm-profdata-19 merge -o llvm.profdata a.proftext --weighted-input=3,b.proftext
"$PB" merge --no-keep-vtable-symbols -o ours2.profdata a.pbpart b.pbpart
if cmp -s llvm.profdata ours2.profdata; then ok; else fail "7-vs-21: indexed bytes differ from llvm-profdata-19's"; fi

# provenance: every original input in order, with its fate, through two levels
W=(--failure-mode warn)
"$PB" merge --partial "${W[@]}" -o p1.pbpart "$L19/basic-ir.profraw" "$T/cut.profraw" 2>/dev/null
"$PB" merge --partial "${W[@]}" -o p2.pbpart "$T/empty.profraw" --weighted-input=4,"$L19/many-ir.profraw" 2>/dev/null
"$PB" merge --partial "${W[@]}" -o p12.pbpart p1.pbpart p2.pbpart 2>/dev/null
"$PB" merge --partial -o a1.pbpart "$L19/basic-ir.profraw" "$T/cut.profraw" 2>/dev/null
run "$PB" merge --failure-mode warn --json-summary sum.json -o f.profdata p12.pbpart
expect_rc 0 "final of a partial with a failed input under warn"
if $PB_PY -c '
import json, sys
s = json.load(open(sys.argv[1]))
ins = s["inputs"]
got = [(i["path"].rsplit("/", 1)[-1], i["weight"], i["status"]) for i in ins]
want = [("basic-ir.profraw", 1, "merged"), ("cut.profraw", 1, "failed"), ("empty.profraw", 1, "skipped-empty"),
        ("many-ir.profraw", 4, "merged")]
sys.exit(0 if got == want else "%r != %r" % (got, want))
' sum.json; then ok; else fail "json summary of the provenance: $(head -c 600 sum.json)"; fi
run "$PB" merge -o f.profdata a1.pbpart p2.pbpart
expect_rc 2 "partials of two failure modes"
expect_grep "$T/err" "failure_mode" "partials of two failure modes: the rule named"
run "$PB" merge -o f.profdata a1.pbpart
expect_rc 1 "the default failure mode (any) fails the final over a shard's failed input"
expect_grep "$T/err" "cut.profraw" "the failed input named at the final merge"

# refusals: a weight on a partial, other rules, a damaged file
run "$PB" merge "${W[@]}" -o f.profdata --weighted-input=2,p2.pbpart
expect_rc 2 "a weight on a partial"
expect_grep "$T/err" "takes no weight" "a weight on a partial: the message"
"$PB" merge --partial "${W[@]}" --llvm-version 20 -o p20.pbpart "$L19/basic-ir.profraw"
run "$PB" merge "${W[@]}" -o f.profdata p2.pbpart p20.pbpart
expect_rc 2 "partials of two releases"
expect_grep "$T/err" "llvm_release" "partials of two releases: the rule named"
head -c 40 p2.pbpart >bad.pbpart
run "$PB" merge -o f.profdata bad.pbpart
if [ "$rc" -ne 0 ] && grep -q "bad.pbpart" "$T/err"; then ok; else fail "a cut .pbpart: rc $rc, $(head -c 300 "$T/err")"; fi
cd - >/dev/null
finish
