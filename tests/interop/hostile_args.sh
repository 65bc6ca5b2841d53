#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# hostile_args.sh -- issue 23, @response files with no end: the expansion has
# bounds of its own (llvm_args.h: PBC_RESPONSE_MAX_WORDS, _BYTES, _FILES), a
# usage error (exit 2) past them, for profbridge and its llvm-profdata-N
# personality (exit 1, as its other @file errors), where llvm-profdata-19
# runs until memory or patience ends:
#  - 23 files of a few bytes that each name the next twice (2^22 words:
#    before, 54 s and 789 MB);
#  - @/dev/zero (before: 2.1 GB);
#  - one file of 1.1M words;
#  - merge -f /dev/zero: lists and remapping files get 64 MiB unless
#    --max-input-size says otherwise (before: 4 GiB, over a minute).
# Takes about 3 s.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
cd "$T"
mkdir bin && ln -s "$(readlink -f "$PB")" bin/llvm-profdata-19
printf 'foo\n# Func Hash:\n10\n# Num Counters:\n1\n# Counter Values:\n1\n\n' >a.proftext
for i in $(seq 0 21); do printf '@r%d @r%d\n' $((i + 1)) $((i + 1)) >r$i; done
echo a.proftext >r22

for tool in "$PB" bin/llvm-profdata-19; do
  want=2; [ "$tool" = "$PB" ] || want=1
  name=$(basename "$tool")
  run timeout 20 "$tool" merge @r0 -o x.profdata
  expect_rc "$want" "$name merge @r0 <files naming the next twice> (124: no bound)"
  expect_grep "$T/err" "response files expand to more than 16384 files \(at 'r[0-9]+'\)" "$name: the files bound"
  run timeout 20 "$tool" merge @/dev/zero -o x.profdata
  expect_rc "$want" "$name merge @/dev/zero"
  expect_grep "$T/err" "response files expand to more than 67108864 bytes \(at '/dev/zero'\)" "$name: the bytes bound"
done
/usr/bin/python3 -c 'import sys; sys.stdout.write("a.proftext\n" * 1100000)' >many
run timeout 20 "$PB" merge @many -o x.profdata
expect_rc 2 "merge @<1.1M words>"
expect_grep "$T/err" "response files expand to more than 1048576 words \(at 'many'\)" "the words bound"
[ ! -e x.profdata ] && ok || fail "a refused command wrote its output"
# merge's -f list: without --max-input-size, 64 MiB (the 4 GiB of profiles: a minute and 4 GB)
for tool in "$PB" bin/llvm-profdata-19; do
  want=2; [ "$tool" = "$PB" ] || want=1
  run timeout 20 "$tool" merge -f /dev/zero -o x.profdata
  expect_rc "$want" "$(basename "$tool") merge -f /dev/zero"
  expect_grep "$T/err" "/dev/zero: byte 0x4000000: the input is bigger than the size limit of 67108864 bytes \(raise it with --max-input-size" \
    "$(basename "$tool") merge -f /dev/zero: the words"
done
# within the bounds: as before (16k files of one word each is fine)
for i in $(seq 0 9); do printf '@s%d @s%d\n' $((i + 1)) $((i + 1)) >s$i; done
echo a.proftext >s10
run timeout 20 "$PB" merge @s0 -o x.profdata
expect_rc 0 "merge @s0 <1024 words from 2047 files>"
finish
