#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli_show.sh -- `profbridge show` Java view of the documented fib example.
# Expected values are counted by hand from testdata/samples/fib-doc.iprof:
# 34 types, 27 methods, entries 2/1/2/0/1/2, call counts 1 + 10 = 11,
# 7 distinct contexts (the monitor entry has none), deepest 13 frames.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
require_iprof

run "$PB" show "$FIB"; expect_rc 0 "show fib-doc.iprof"
o="$T/out"; cp "$o" "$T/show.txt"; o="$T/show.txt"
expect_grep "$o" "version: +1\.1\.0$" "version"
expect_grep "$o" "types: +34$" "number of types"
expect_grep "$o" "methods: +27$" "number of methods"
expect_grep "$o" "entries: +8$" "number of entries"
expect_grep "$o" "callCountProfiles +2$" "call-count entries"
expect_grep "$o" "conditionalProfiles +1$" "conditional entries"
expect_grep "$o" "virtualInvokeProfiles +2$" "virtual-invoke entries"
expect_grep "$o" "instanceOfProfiles +0$" "instanceof entries"
expect_grep "$o" "monitorProfiles +1$" "monitor entries"
expect_grep "$o" "samplingProfiles +2$" "sampling entries"
expect_grep "$o" "total call count: +11$" "total call count"
expect_grep "$o" "contexts: +7$" "distinct contexts"
expect_grep "$o" "max context depth: +13$" "deepest context"

# Method descriptors and contexts, callee first.
expect_grep "$o" "^Fib\.fibonacci\(\)void$" "method heading Fib.fibonacci()void"
expect_grep "$o" "^java\.io\.PrintStream\.print\(java\.lang\.String\)void$" "method heading with a parameter"
expect_grep "$o" "\[call-count\] java\.io\.PrintStream\.print\(java\.lang\.String\)void:0 < Fib\.fibonacci\(\)void:34$" "call-count context callee-first"
expect_grep "$o" "\[virtual-invoke\] java\.lang\.String\.valueOf\(java\.lang\.Object\)java\.lang\.String:11 < java\.io\.PrintStream\.print\(java\.lang\.String\)void:2 < Fib\.fibonacci\(\)void:34$" "three-frame context"
# The branch at bci 11: successors 20 (index 0) x10 and 53 (index 1) x1.
expect_grep "$o" "\[branch\] Fib\.fibonacci\(\)void:11$" "branch entry"
expect_grep "$o" "successor bci 20 \(index 0\): 10$" "first branch successor"
expect_grep "$o" "successor bci 53 \(index 1\): 1$" "second branch successor"
# Receiver types resolved to names.
expect_grep "$o" "receiver java\.lang\.String: 60$" "receiver type java.lang.String x60"
expect_grep "$o" "receiver example\.MonitorType3660: 56$" "receiver type MonitorType3660 x56"
# Hottest first: 60, 56, 2 (the file lists them by type id: 1322, 2280, 3660).
order="$(grep -A4 'placeholder6886()void:9 <' "$o" | grep -o 'receiver [^ ]*: [0-9]*' | tr '\n' '|')"
[ "$order" = "receiver java.lang.String: 60|receiver example.MonitorType3660: 56|receiver example.MonitorType1322: 2|" ] \
  && ok || fail "receivers not listed hottest first: $order"
# Monitor types (global entry).
expect_grep "$o" "type java\.lang\.Object: 4$" "monitor type java.lang.Object x4"
expect_grep "$o" "type example\.MonitorType3654: 61$" "monitor type MonitorType3654 x61"
expect_grep "$o" "\[sample\] com\.oracle\.svm\.core\.thread\.PlatformThreads\.sleep\(long\)void:38 < java\.lang\.Thread\.sleepNanos0\(long\)void:1 <" "sampling stack"

# --topn 2: the two hottest entries by first counter: the virtual invoke at
# 6886:9 (2 + 60 + 56 = 118), then the monitor entry (sum of its 16 counts = 116).
run "$PB" show --topn 2 "$FIB"; expect_rc 0 "show --topn 2"
n="$(grep -c '^  \[' "$T/out" || true)"
[ "$n" -eq 2 ] && ok || fail "--topn 2 listed $n entries"
first="$(grep '^  \[' "$T/out" | head -n1)"
case "$first" in
  *"[virtual-invoke] example.Placeholder.placeholder6886()void:9 < example.Placeholder.placeholder6882()void:23") ok ;;
  *) fail "--topn 2: first entry is '$first', expected the 6886:9 virtual invoke (118)" ;;
esac
expect_grep "$T/out" "^  \[monitor\]" "--topn 2 has the monitor entry (116)"
expect_grep "$T/out" "total: 116$" "--topn 2 shows the monitor total 116"
run "$PB" show -topn=1 "$FIB"; expect_rc 0 "show -topn=1"
n="$(grep -c '^  \[' "$T/out" || true)"
[ "$n" -eq 1 ] && ok || fail "-topn=1 listed $n entries"

# Output to a file.
run "$PB" show "$FIB" -o "$T/shown.txt"; expect_rc 0 "show -o FILE"
cmp -s "$T/shown.txt" "$o" && ok || fail "show -o FILE differs from show on stdout"

finish
