#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli_convert.sh -- `profbridge convert`: output format from the extension or
# --to, '-' for stdin/stdout, clear errors for unknown extensions, and the
# temporary-file + rename rule: a failed conversion (bad input, or a write
# that fails midway) leaves no output file and an existing one untouched.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
require_iprof
BAD="$PB_SOURCE_DIR/testdata/cli/three-problems.iprof"
d="$T/outdir"; mkdir -p "$d"
# Only these names may exist in $d: no temporary file may be left behind.
expect_only() {
  local got; got="$(cd "$d" && ls -A | tr '\n' ' ')"
  [ "$got" = "$* " ] && ok || fail "files in the output directory: '$got', expected '$* '"
}

# Extension detection: .iprof and .iprof.gz.
run "$PB" convert "$FIB" -o "$d/a.iprof"; expect_rc 0 "convert to .iprof"
[ "$(head -c 11 "$d/a.iprof")" = '{"version":' ] && ok || fail ".iprof output is not iprof JSON"
run "$PB" validate "$d/a.iprof"; expect_rc 0 "the .iprof output validates"
run "$PB" convert "$FIB" -o "$d/b.iprof.gz"; expect_rc 0 "convert to .iprof.gz"
[ "$(od -An -tx1 -N2 "$d/b.iprof.gz" | tr -d ' ')" = "1f8b" ] && ok || fail ".iprof.gz output is not gzip"
gzip -dc "$d/b.iprof.gz" | cmp -s - "$d/a.iprof" && ok || fail ".iprof.gz does not hold the same bytes as .iprof"
expect_only a.iprof b.iprof.gz

# --to overrides the extension.
run "$PB" convert "$FIB" -o "$d/c.profdata" --to iprof; expect_rc 0 "--to iprof with a .profdata name"
cmp -s "$d/c.profdata" "$d/a.iprof" && ok || fail "--to iprof did not write iprof into c.profdata"
run "$PB" convert "$FIB" -o "$d/e.json" --to=iprof; expect_rc 0 "--to=iprof spelling"
cmp -s "$d/e.json" "$d/a.iprof" && ok || fail "--to=iprof did not write iprof"
rm -f "$d/c.profdata" "$d/e.json"

# A writer's notice names OUT (the file written), never "<input>": LLVM ->
# iprof says where the native functions went.
NATIVE="$PB_SOURCE_DIR/testdata/samples/basic-ir.v10.profraw"
run "$PB" convert "$NATIVE" -o "$d/n.iprof"; expect_rc 0 "convert a raw profile to iprof"
expect_grep "$T/err" "note: $d/n.iprof: .*llvm:function" "the writer's notice names OUT"
grep -q '<input>' "$T/err" && fail "a notice says <input>: $(head -1 "$T/err")" || ok
rm -f "$d/n.iprof"

# Unknown extension: exit 2, a message naming the file and pointing to --to; nothing written.
run "$PB" convert "$FIB" -o "$d/x.unknownext"; expect_rc 2 "unknown extension"
expect_grep "$T/err" "cannot tell the output format.*x.unknownext" "unknown extension message"
expect_grep "$T/err" "--to" "unknown extension message suggests --to"
expect_only a.iprof b.iprof.gz

# stdin and stdout.
run sh -c "\"$PB\" convert - -o - --to iprof < \"$FIB\" > \"$d/s.iprof\""; expect_rc 0 "convert - -o - --to iprof"
cmp -s "$d/s.iprof" "$d/a.iprof" && ok || fail "stdin -> stdout differs from file -> file"
rm -f "$d/s.iprof"
run sh -c "\"$PB\" convert - -o \"$d/g.iprof.gz\" < \"$FIB\""; expect_rc 0 "stdin to a file"
rm -f "$d/g.iprof.gz"
run "$PB" convert "$FIB" -o -; expect_rc 2 "stdout without --to"
expect_grep "$T/err" "needs --to" "stdout without --to message"
# gzip input is recognised by content, whatever the name.
cp "$d/b.iprof.gz" "$T/zipped.data"
run "$PB" convert "$T/zipped.data" -o "$d/z.iprof"; expect_rc 0 "gzip input under another name"
cmp -s "$d/z.iprof" "$d/a.iprof" && ok || fail "gzip input did not convert to the same bytes"
rm -f "$d/z.iprof"

# Invalid input: exit 1, no output created, an existing output untouched.
run "$PB" convert "$BAD" -o "$d/new.iprof"; expect_rc 1 "convert invalid input"
[ ! -e "$d/new.iprof" ] && ok || fail "a failed conversion created its output"
cp "$d/a.iprof" "$T/a.saved"
run "$PB" convert "$BAD" -o "$d/a.iprof"; expect_rc 1 "convert invalid input over an existing file"
cmp -s "$d/a.iprof" "$T/a.saved" && ok || fail "a failed conversion changed the existing output"
expect_only a.iprof b.iprof.gz

# A write that fails midway (file size limit; SIGXFSZ ignored so write()
# returns EFBIG): exit 2, the old output intact, no temporary file left.
run bash -c "trap '' XFSZ; ulimit -f 1; exec \"$PB\" convert \"$FIB\" -o \"$d/a.iprof\" --to iprof"
expect_rc 2 "convert whose write fails"
[ -s "$T/err" ] && ok || fail "a failed write gave no message"
cmp -s "$d/a.iprof" "$T/a.saved" && ok || fail "a failed write changed the existing output"
run bash -c "trap '' XFSZ; ulimit -f 1; exec \"$PB\" convert \"$FIB\" -o \"$d/big.iprof\""
expect_rc 2 "convert whose write fails, new file"
[ ! -e "$d/big.iprof" ] && ok || fail "a failed write left a (truncated) output file"
expect_only a.iprof b.iprof.gz

# An output directory that does not exist: I/O error, exit 2.
run "$PB" convert "$FIB" -o "$T/no/such/dir/x.iprof"; expect_rc 2 "output in a missing directory"
# A missing input: exit 2.
run "$PB" convert "$T/missing.iprof" -o "$d/m.iprof"; expect_rc 2 "missing input"
expect_grep "$T/err" "missing.iprof" "missing input is named"

# Plugin options: unknown ones are rejected with the list of valid ones.
run "$PB" convert "$FIB" -o "$d/p.iprof" --no-plugin-has-this 1; expect_rc 2 "unknown plugin option"
expect_grep "$T/err" "unknown option '--no-plugin-has-this'" "unknown plugin option message"
[ ! -e "$d/p.iprof" ] && ok || fail "a rejected command wrote output"

# A declared plugin option reaches its plugin (the iprof writer's --iprof-version),
# in both spellings; one the plugins in use do not declare is refused.
run "$PB" convert --help
if grep -q -- "--iprof-version" "$T/out"; then
  run "$PB" convert "$FIB" -o "$d/v.iprof" --iprof-version 1.0.0; expect_rc 0 "--iprof-version 1.0.0"
  expect_grep "$d/v.iprof" '^\{"version":"1\.0\.0"' "--iprof-version 1.0.0 wrote a 1.0.0 file"
  run "$PB" convert "$FIB" -o "$d/w.iprof" --iprof-version=1.0.0; expect_rc 0 "--iprof-version=1.0.0"
  cmp -s "$d/v.iprof" "$d/w.iprof" && ok || fail "--iprof-version=V and --iprof-version V differ"
  rm -f "$d/v.iprof" "$d/w.iprof"
  run "$PB" convert "$FIB" -o "$d/v.iprof" --iprof-version; expect_rc 2 "--iprof-version without a value"
  # dump uses only the reader, which does not declare the writer's option.
  run "$PB" dump "$FIB" --iprof-version 1.0.0; expect_rc 2 "a writer option given to dump"
  expect_grep "$T/err" "'--iprof-version' belongs to no plugin in use" "dump names the misplaced option"
else
  echo "note: no plugin declares --iprof-version; plugin option pass-through not checked"
fi

finish
