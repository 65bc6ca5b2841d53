#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli_dump.sh -- `profbridge dump`: runs the detected plugin's dump, or says
# clearly that the plugin has none (exit 2); unreadable input exits 2.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
require_iprof

run "$PB" dump "$FIB"
if [ "$rc" -eq 0 ]; then
  [ -s "$T/out" ] && ok || fail "dump exited 0 but printed nothing"
else
  expect_rc 2 "dump of a plugin without dump"
  expect_grep "$T/err" "the 'iprof' plugin has no dump operation" "dump names the plugin that lacks it"
fi
run "$PB" dump --from iprof "$FIB"
[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] && ok || fail "dump --from iprof: exit $rc"
run "$PB" dump "$T/missing.iprof"; expect_rc 2 "dump of a missing file"
# dump only reads: its help lists the readers' options, none of a writer (issue 11)
run "$PB" dump --help; expect_rc 0 "dump --help"
expect_grep "$T/out" "(raw reader)" "dump --help lists the readers' options"
! grep -q "writer)" "$T/out" && ok || fail "dump --help lists writer options as reader options"
printf 'hello\n' >"$T/hello.txt"
run "$PB" dump "$T/hello.txt"; expect_rc 1 "dump of something no plugin recognises"

# A raw file cut after its header: every header field is explained (the
# faulty size field included), the section table marks what runs past the
# end, and the problem names its byte offset; exit status 1.
head -c 200 "$PB_SOURCE_DIR/testdata/samples/basic-ir.v10.profraw" >"$T/cut.profraw"
run "$PB" dump "$T/cut.profraw"; expect_rc 1 "dump of a raw file cut after its header"
for field in Magic NumData NumCounters NamesSize ValueKindLast; do
  expect_grep "$T/out" "^  0x[0-9a-f]{6}  .* $field " "dump of a cut raw file explains header field $field"
done
expect_grep "$T/out" "data records .*PAST THE END OF THE FILE" "the section table marks the missing data records"
expect_grep "$T/out" "^problem: .*byte 0x18 \\(header.NumData\\)" "the problem names the field and its offset"

finish
