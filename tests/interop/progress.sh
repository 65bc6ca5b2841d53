#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# progress.sh -- the progress line of convert, validate, show, dump and merge
# (src/cli/progress.c): with --progress and stderr in a file, lines whose
# percentages grow and end at 100%; without flags and stderr in a file,
# nothing; on a terminal (util-linux `script` gives the command one) a line
# redrawn with '\r' and erased at the end, none with --quiet. The outputs are
# the same bytes with and without progress. The input is the bundled
# fib-doc.iprof with 24 MiB of JSON whitespace before its last brace: big
# enough for the default's 16 MiB threshold, cheap to read.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"

big="$T/big.iprof"
size=$(stat -c %s "$FIB")
{ head -c $((size - 2)) "$FIB"; head -c $((24 << 20)) /dev/zero | tr '\0' ' '; tail -c 2 "$FIB"; } >"$big"
RAW="$PB_SOURCE_DIR/testdata/samples/basic-ir.v10.profraw"

# percentages FILE: the numbers of 'reading NAME: N%' lines, one per line
percentages() { sed -n 's/^profbridge [a-z]*: reading .*: \([0-9]*\)% .*/\1/p' "$1"; }

# check_forced CMD: stderr ($T/err) holds only progress lines of CMD, >= 3 of them
# for the big input, percentages never falling, the last one 100%
check_forced() {
  local cmd=$1 min=$2
  percentages "$T/err" >"$T/pct"
  local n; n=$(wc -l <"$T/pct")
  if [ "$n" -lt "$min" ]; then fail "$cmd --progress: $n progress lines, expected at least $min: $(head -c 400 "$T/err")"; return; fi
  ok
  if sort -n -c "$T/pct" 2>/dev/null; then ok; else fail "$cmd --progress: percentages fall: $(tr '\n' ' ' <"$T/pct")"; fi
  if [ "$(tail -n1 "$T/pct")" = 100 ]; then ok; else fail "$cmd --progress: the last line is not 100%: $(tail -n1 "$T/err")"; fi
  if grep -vqE "^profbridge $cmd: reading " "$T/err"; then fail "$cmd --progress: other lines on stderr: $(head -c 400 "$T/err")"; else ok; fi
}

# --- convert ----------------------------------------------------------------------
run "$PB" convert "$big" -o "$T/plain.profdata"
expect_rc 0 "convert"
if [ -s "$T/err" ]; then fail "convert without flags, stderr a file: stderr not empty: $(head -c 300 "$T/err")"; else ok; fi

run "$PB" convert "$big" -o "$T/forced.profdata" --progress
expect_rc 0 "convert --progress"
check_forced convert 5
if cmp -s "$T/plain.profdata" "$T/forced.profdata"; then ok; else fail "convert --progress wrote other bytes"; fi
if [ -s "$T/out" ]; then fail "convert --progress wrote to stdout"; else ok; fi

# the last of --progress / --quiet wins
run "$PB" convert "$big" -o "$T/q.profdata" --progress --quiet
expect_rc 0 "convert --progress --quiet"
if [ -s "$T/err" ]; then fail "convert --progress --quiet printed: $(head -c 300 "$T/err")"; else ok; fi

# --- on a terminal ----------------------------------------------------------------
if command -v script >/dev/null 2>&1; then
  # script runs the command on a pseudo-terminal and copies what it printed
  script -qec "'$PB' convert '$big' -o '$T/tty.profdata'" /dev/null >"$T/tty.log" </dev/null
  if grep -q "profbridge convert: reading $big: [0-9]*% " "$T/tty.log"; then ok
  else fail "convert on a terminal, no flags: no progress line: $(head -c 300 "$T/tty.log" | od -c | head -5)"; fi
  # redrawn in place: carriage returns, never a newline
  crs=$(tr -cd '\r' <"$T/tty.log" | wc -c); nls=$(tr -cd '\n' <"$T/tty.log" | wc -c)
  if [ "$crs" -ge 2 ] && [ "$nls" -eq 0 ]; then ok
  else fail "convert on a terminal: $crs carriage returns and $nls newlines; expected a line redrawn in place"; fi
  # erased at the end: the last thing written is CR + erase-to-end-of-line
  if [ "$(tail -c 4 "$T/tty.log" | od -An -c | tr -d ' ')" = '\r033[K' ]; then ok
  else fail "convert on a terminal: the progress line is not erased at the end: $(tail -c 40 "$T/tty.log" | od -c | head -3)"; fi
  if cmp -s "$T/plain.profdata" "$T/tty.profdata"; then ok; else fail "convert on a terminal wrote other bytes"; fi

  script -qec "'$PB' convert '$big' -o '$T/ttyq.profdata' --quiet" /dev/null >"$T/ttyq.log" </dev/null
  if [ -s "$T/ttyq.log" ]; then fail "convert --quiet on a terminal printed: $(head -c 300 "$T/ttyq.log")"; else ok; fi
  if cmp -s "$T/plain.profdata" "$T/ttyq.profdata"; then ok; else fail "convert --quiet on a terminal wrote other bytes"; fi

  # a small input that is read fast: no line on a terminal by default
  script -qec "'$PB' convert '$FIB' -o '$T/small.profdata'" /dev/null >"$T/small.log" </dev/null
  if grep -q "reading" "$T/small.log"; then fail "a small fast input showed progress on a terminal"; else ok; fi
else
  echo "note: util-linux 'script' is not installed; the terminal cases are skipped"
fi

# --- validate, show, dump ---------------------------------------------------------------
run "$PB" validate "$big"
expect_rc 0 "validate"
cp "$T/out" "$T/validate.plain"
if [ -s "$T/err" ]; then fail "validate without flags printed on stderr"; else ok; fi
run "$PB" validate "$big" --progress
expect_rc 0 "validate --progress"
check_forced validate 5
if cmp -s "$T/out" "$T/validate.plain"; then ok; else fail "validate --progress: other report"; fi

run "$PB" show "$big"
expect_rc 0 "show"
cp "$T/out" "$T/show.plain"
if [ -s "$T/err" ]; then fail "show without flags printed on stderr"; else ok; fi
run "$PB" show "$big" --progress
expect_rc 0 "show --progress"
check_forced show 5
if cmp -s "$T/out" "$T/show.plain"; then ok; else fail "show --progress: other report"; fi

# a small raw file: forced progress says 100% once, the dump is the same
run "$PB" dump "$RAW"
expect_rc 0 "dump"
cp "$T/out" "$T/dump.plain"
run "$PB" dump "$RAW" --progress
expect_rc 0 "dump --progress"
check_forced dump 1
if cmp -s "$T/out" "$T/dump.plain"; then ok; else fail "dump --progress: other output"; fi
run "$PB" show "$RAW" -q
expect_rc 0 "show -q"

# --- merge: inputs done ------------------------------------------------------------------
run "$PB" merge "$RAW" "$RAW" "$RAW" -o "$T/m1.profdata"
expect_rc 0 "merge"
if [ -s "$T/err" ]; then fail "merge without flags printed on stderr: $(head -c 300 "$T/err")"; else ok; fi
run "$PB" merge "$RAW" "$RAW" "$RAW" -o "$T/m2.profdata" --progress
expect_rc 0 "merge --progress"
printf 'profbridge merge: %s/3 inputs merged\n' 1 2 3 >"$T/want"
if cmp -s "$T/err" "$T/want"; then ok; else fail "merge --progress: stderr $(cat "$T/err"), expected $(cat "$T/want")"; fi
if cmp -s "$T/m1.profdata" "$T/m2.profdata"; then ok; else fail "merge --progress wrote other bytes"; fi

# --- never under the llvm-profdata personality ----------------------------------------------
ln -s "$PB" "$T/llvm-profdata-19"
run "$T/llvm-profdata-19" show --progress "$RAW"
expect_rc 1 "llvm-profdata-19 show --progress (no such option in LLVM)"
expect_grep "$T/err" "Unknown command line argument '--progress'" "llvm-profdata-19 show --progress"

echo "progress.sh: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
