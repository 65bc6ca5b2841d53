#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# text_quirks.sh -- what llvm-profdata's text reader accepts and refuses,
# on hand-written .proftext files (issue 10, items 1 and 3):
#  - comments: any number of '#' lines (and empty lines) before the header or
#    the first record, as LLVM's own test inputs have; a comment-only file is
#    an empty profile; " #" (not in column 0) is no comment;
#  - header lines must be exact (":ir " with a trailing blank is refused);
#  - a value-site target with an empty name (":10") is malformed.
# Oracles: every installed llvm-profdata-N (13 14 16 19, and 17 18 21-24 when
# present): the exit status, and for accepted inputs the bytes of
# `merge` (indexed, --text) compared with ours acting as that release.
set -uo pipefail
: "${PB:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
checks=0; failures=0
tools=()
for v in 13 14 16 17 18 19 21 22 23 24; do command -v "llvm-profdata-$v" >/dev/null && tools+=("$v"); done
[ "${#tools[@]}" -gt 0 ] || { echo "SKIP: no llvm-profdata-N installed"; exit 77; }


# same NAME: our merge of $T/NAME.proftext agrees with each llvm-profdata on
# the exit status (0 or 1) and, when both accept it, on the output bytes.
same() {
  local f="$T/$1.proftext" v lrc prc fmt
  for v in "${tools[@]}"; do
    # a release our merge cannot act as yet: the exit status is still compared
    local as=(--llvm-version "$v") bytes=1
    "$PB" merge --llvm-version "$v" "$T/none" -o "$T/x" >"$T/v.err" 2>&1
    if grep -q "wants" "$T/v.err"; then as=(); bytes=0; fi
    for fmt in --binary --text; do
      "llvm-profdata-$v" merge $fmt "$f" -o "$T/llvm.out" >"$T/llvm.err" 2>&1; lrc=$?
      # llvm-profdata --text names only targets that are records of the file
      "$PB" merge $fmt "${as[@]}" --no-keep-vtable-symbols "$f" -o "$T/pb.out" >"$T/pb.err" 2>&1; prc=$?
      checks=$((checks + 1))
      if [ "$lrc" != "$prc" ]; then
        fail "$1 $fmt: llvm-profdata-$v exit $lrc, ours $prc: $(head -c 300 "$T/pb.err")"
      elif [ "$lrc" = 0 ] && [ "$bytes" = 1 ] && [ "$fmt" = --text -o "$v" = 19 ] &&
           ! cmp -s "$T/llvm.out" "$T/pb.out"; then
        # indexed bytes are compared for 19 (other releases' indexed writers are other tests')
        fail "$1 $fmt: output differs from llvm-profdata-$v's"
      fi
    done
  done
}

rec='foo\n0x10\n2\n5\n7\n'
comments() { local i; for i in $(seq "$1"); do echo "# comment line $i: LLVM's test inputs open with a licence or a RUN: block"; done; }

# 1. Long comment blocks: beyond the 4 KiB the format probe sees.
{ comments 200; printf ":ir\n$rec"; } >"$T/long-ir.proftext"
{ comments 200; printf "\n\n$rec"; } >"$T/long-noheader.proftext"
{ comments 100; printf ":ir\n"; comments 100; printf ":entry_first\n# between\n$rec"; } >"$T/long-between.proftext"
{ comments 3; printf ":fe\n$rec"; } >"$T/short-fe.proftext"
{ comments 200; } >"$T/comment-only-long.proftext"
{ comments 2; } >"$T/comment-only-short.proftext"
printf ' # not a comment\n%b' "$rec" >"$T/indented.proftext"
for n in long-ir long-noheader long-between short-fe comment-only-long comment-only-short indented; do same "$n"; done
# detection alone (no --from): the comment-only file is read as text
"$PB" show "$T/comment-only-long.proftext" >"$T/show.out" 2>&1; rc=$?
checks=$((checks + 1)); [ "$rc" = 0 ] || fail "show of a comment-only file: exit $rc: $(head -c 300 "$T/show.out")"

# 2. Header lines are compared whole.
printf ":ir \n$rec" >"$T/header-blank.proftext"
printf ":IR\n$rec" >"$T/header-case.proftext"
printf ":ir\r\n${rec//\\n/\\r\\n}" >"$T/header-crlf.proftext"
for n in header-blank header-case header-crlf; do same "$n"; done

# 3. Value-site targets with an empty name.
site() { printf ":ir\nfoo\n10\n1\n5\n1\n%s\n1\n2\n%s\n%s\n" "$1" "$2" "$3"; }
site 0 "bar:3" ":10" >"$T/empty-icall.proftext"
site 0 ":10" "bar:3" >"$T/empty-icall-first.proftext"
site 0 "bar:3" "baz:10" >"$T/named-icall.proftext"
site 1 "8:3" ":10" >"$T/empty-memop.proftext"
for n in empty-icall empty-icall-first named-icall empty-memop; do same "$n"; done
"$PB" merge "$T/empty-icall.proftext" -o "$T/x.profdata" >"$T/err" 2>&1
checks=$((checks + 1))
grep -q "name is empty" "$T/err" || fail "the empty-name error does not say what LLVM says: $(head -c 300 "$T/err")"

# 4. A record named by a number after a record without value data: LLVM's
#    reader takes that line for the earlier record's number of value kinds, so
#    the file llvm-profdata --text writes does not read back (the oracle shows
#    it); ours refuses to write it, naming the record (fuzz_text_readback find).
#    After a record with value data the same name is read as a name.
printf ':ir\n7\n0x10\n1\n5\n\n1x\n0x11\n1\n3\n' >"$T/digits.proftext"
printf ':ir\n7\n0x10\n1\n5\n\n1x\n0x11\n1\n3\n1\n1\n1\n1\n8:2\n' >"$T/digits-values.proftext"
lv="${tools[-1]}"
checks=$((checks + 1))
if "llvm-profdata-$lv" merge --text "$T/digits.proftext" -o "$T/llvm-digits.proftext" >/dev/null 2>&1 &&
   ! "llvm-profdata-$lv" show "$T/llvm-digits.proftext" >/dev/null 2>&1; then :; else
  fail "llvm-profdata-$lv no longer writes an unreadable text file for a number-named record: revisit the refusal"
fi
rm -f "$T/pb-digits.proftext"
"$PB" merge --text "$T/digits.proftext" -o "$T/pb-digits.proftext" >"$T/err" 2>&1; rc=$?
checks=$((checks + 1))
if [ "$rc" = 0 ] || [ -e "$T/pb-digits.proftext" ] || ! grep -q 'the name "7" cannot be written as text' "$T/err"; then
  fail "a number-named record after one without value data: exit $rc, output $( [ -e "$T/pb-digits.proftext" ] && echo written || echo none): $(head -c 300 "$T/err")"
fi
same digits-values
"$PB" merge --text "$T/digits-values.proftext" -o "$T/pb-digits.proftext" >"$T/err" 2>&1; rc=$?
checks=$((checks + 1))
[ "$rc" = 0 ] && "llvm-profdata-$lv" show "$T/pb-digits.proftext" >/dev/null 2>&1 ||
  fail "after a record with value data a number-named record must be written and read back (exit $rc)"

echo "text_quirks.sh: $checks checks against llvm-profdata ${tools[*]}, $failures failed"
[ "$failures" -eq 0 ]
