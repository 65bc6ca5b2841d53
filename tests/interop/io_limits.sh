#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# io_limits.sh -- bounded inputs (issue 12, item 3, the I/O part): an
# endless input (/dev/zero as a file, as stdin, as a merge -f list) and a
# gzip bomb stop with a clear error (file, offset, which limit, the option
# that raises it) instead of growing until the machine dies; the limits are
# --max-input-size (default 4 GiB) and --max-inflation (default 250:1 past
# 64 MiB) on every command that reads; gzip errors give the compressed offset.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
D="$PB_SHARED_DIR/testdata/llvm-real/llvm19"
[ -f "$D/basic-fe.profdata" ] || { echo "SKIP: $D/basic-fe.profdata is missing"; exit 77; }
w="$T/w"; mkdir -p "$w"; cd "$w"
cp "$D/basic-fe.profdata" a.profdata   # 1056 bytes
cp "$D/basic-fe.profraw" a.profraw

# expect_limit WHAT: the last run stopped with exit 2 and a limit message
expect_limit() {
  expect_rc 2 "$1"
  expect_grep "$T/err" "$2" "$1: the message"
}

# Endless inputs, with a small limit so the test is quick (before: no end).
run timeout 60 "$PB" show --from raw /dev/zero --max-input-size 8M
expect_limit "show --from raw /dev/zero" "^profbridge: /dev/zero: byte 0x800000: the input is bigger than the size limit of 8388608 bytes \(raise it with --max-input-size"
run timeout 60 "$PB" convert --from text - -o x.profdata --max-input-size=4M </dev/zero
expect_limit "convert - </dev/zero" "^profbridge: <stdin>: byte 0x400000: .*size limit of 4194304 bytes"
run timeout 60 "$PB" merge -f /dev/zero -o x.profdata --max-input-size 2M
expect_limit "merge -f /dev/zero" "^profbridge: /dev/zero: .*size limit"
run timeout 60 "$PB" validate --from raw /dev/zero -max-input-size 1M
expect_rc 2 "validate /dev/zero"
expect_grep "$T/err" "size limit of 1048576 bytes" "validate /dev/zero: the message"
[ ! -e x.profdata ] && ok || fail "a failed command left an output"

# The default limit (4 GiB): a sparse 5 GiB file is refused before a byte is read.
cp a.profdata huge.profdata; truncate -s 5G huge.profdata
run timeout 60 "$PB" show huge.profdata
expect_limit "show <5 GiB file>" "size limit of 4294967296 bytes"
run timeout 60 "$PB" merge huge.profdata -o x.profdata
expect_limit "merge <5 GiB file>" "huge.profdata: .*size limit of 4294967296 bytes"
rm -f huge.profdata

# Every command that reads takes the option.
for cmd in "show a.profdata" "convert a.profdata -o x.proftext" "dump a.profdata" "validate a.profdata" \
           "types a.profdata" "flame a.profdata -o x.folded" "merge a.profdata -o x.profdata" \
           "overlap a.profdata a.profdata" "diff a.profdata a.profdata"; do
  # shellcheck disable=SC2086
  run timeout 60 "$PB" $cmd --max-input-size 1000
  [ "$rc" -eq 2 ] && grep -q "a.profdata: byte 0x3e8: the input is bigger than the size limit of 1000 bytes" "$T/err" \
    && ok || fail "$cmd --max-input-size 1000: exit $rc: $(head -c 300 "$T/err")"
done
run "$PB" show a.profdata --max-input-size 1056; expect_rc 0 "a limit of exactly the file's size"
run "$PB" show a.profdata --max-input-size 0; expect_rc 0 "--max-input-size 0 (no limit)"
run "$PB" show a.profdata --max-input-size 1K; expect_rc 2 "--max-input-size 1K"
run "$PB" show a.profdata --max-input-size 2KiB; expect_rc 0 "--max-input-size 2KiB"
run "$PB" show a.profdata --max-input-size lots; expect_rc 2 "--max-input-size lots"
expect_grep "$T/err" "max-input-size wants a size" "a bad size names the option"
run "$PB" show a.profdata --max-inflation; expect_rc 2 "--max-inflation without a value"

# gzip bombs: 300 MB of zeros in 0.3 MB (1000:1), as a raw profile and as an
# iprof with one huge array (before: 3.1 GB and 7.1 GB of memory).
head -c 300000000 /dev/zero | gzip -9 >zeros.profraw.gz
run timeout 120 "$PB" show zeros.profraw.gz --from raw
expect_limit "show <gzip bomb>" "^profbridge: zeros.profraw.gz: byte 0x[0-9a-f]+ \(compressed\): the gzip data inflates more than 250:1 .*--max-inflation"
{ printf '{"version":"1.0.0","types":[],"methods":[],"callCountProfiles":[{"ctx":"0:0","records":['
  head -c 150000000 /dev/zero | tr '\0' '0' | sed 's/0/0,/g'; printf '0]}]}'; } | gzip -9 >bomb.iprof.gz
run timeout 120 "$PB" convert bomb.iprof.gz -o x.profdata
expect_limit "convert <iprof gzip bomb>" "bomb.iprof.gz: byte 0x[0-9a-f]+ \(compressed\): the gzip data inflates more than 250:1"
run timeout 120 "$PB" merge a.profdata bomb.iprof.gz -o x.profdata
expect_limit "merge <gzip bomb>" "bomb.iprof.gz: .*inflates more than 250:1"
# a lower ratio catches a real profile; 0 lifts the limit
gzip -9c a.profdata >a.profdata.gz
run "$PB" show a.profdata.gz --max-inflation 0; expect_rc 0 "--max-inflation 0"
run "$PB" show a.profdata.gz; expect_rc 0 "a small gzip input is under the 64 MiB floor"

# gzip errors name the offset in the compressed file.
printf '\037\213\010\000\000\000\000\000\000\003garbage-garbage' >bad.gz
run "$PB" show bad.gz
expect_rc 1 "show <broken gzip>"
expect_grep "$T/err" "^profbridge: bad.gz: byte 0xb \(compressed\): broken gzip data: invalid block type" "broken gzip: compressed offset"
head -c 3000 a.profdata >cut.profdata; gzip -9c cut.profdata | head -c 200 >cut.gz
run "$PB" show cut.gz --from indexed
expect_rc 1 "show <truncated gzip>"
expect_grep "$T/err" "^profbridge: cut.gz: byte 0xc8 \(compressed\): gzip stream ends early" "truncated gzip: compressed offset"
finish
