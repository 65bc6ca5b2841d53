#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# hostile_outputs.sh -- issue 23, "Wrong words, injection": names holding
# every byte 0x00-0x1f and 0x7f, invalid UTF-8, <script>, ]]> and quotes
# (tests/interop/lib/hostile_names.py) through every command that prints
# names. Our own listings (show of an iprof, dump, diff, types, validate and
# the error lines) reach the terminal with no raw control byte; the flame SVG
# stays well-formed XML whatever the input file's name and --title hold; the
# JSON reports stay strict JSON. The llvm-profdata-identical listing (`show`
# of an LLVM profile) prints exactly the bytes llvm-profdata-19 prints.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
. "$(dirname "$0")/lib/llvm-tools.bash"
require_iprof
py=/usr/bin/python3
H="$PB_SOURCE_DIR/tests/interop/lib/hostile_names.py"
"$py" "$H" iprof "$T/h.iprof"
"$py" "$H" proftext "$T/a.proftext"
"$py" "$H" proftext "$T/b.proftext" 5
run "$PB" convert --from text "$T/a.proftext" -o "$T/a.profdata"; expect_rc 0 "convert a"
run "$PB" convert --from text "$T/b.proftext" -o "$T/b.profdata"; expect_rc 0 "convert b"

# term WHAT RC CMD...: CMD exits RC and neither its stdout nor stderr holds a raw control byte
term() {
  local what="$1" want="$2"
  shift 2
  run "$@"
  expect_rc "$want" "$what"
  for f in out err; do
    if "$py" "$H" check-term "$T/$f" 2>"$T/why"; then ok; else fail "$what ($f): $(cat "$T/why")"; fi
  done
}
term "show iprof" 0 "$PB" show "$T/h.iprof"
term "show iprof --topn" 0 "$PB" show "$T/h.iprof" --topn 3
term "types" 0 "$PB" types "$T/h.iprof"
term "dump indexed" 0 "$PB" dump "$T/a.profdata"
term "diff" 1 "$PB" diff "$T/a.profdata" "$T/b.profdata"
# validate's "found" excerpts and every error line: bytes from the input
printf ':ir\nf\n1\n1\n1\033[2J\007\r\n' >"$T/bad.proftext"
term "validate found" 1 "$PB" validate --from text "$T/bad.proftext"
grep -qF 'found '"'"'1\x1B[2J\x07'"'" "$T/out" && ok || fail "validate's excerpt not as \\xNN: $(cat -v "$T/out")"
term "convert error" 1 "$PB" convert --from text "$T/bad.proftext" -o "$T/m.profdata"
bad_name="$T/$(printf 'in\033[31m\007<x>]]>')"
cp "$T/h.iprof" "$bad_name.iprof"
term "error naming a hostile file" 2 "$PB" show "$bad_name.missing"

# JSON reports: strict JSON, strict UTF-8
for c in "diff --json $T/a.profdata $T/b.profdata" "show --json $T/h.iprof" "dump --json $T/a.profdata"; do
  run $PB $c
  if "$py" -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$T/out" 2>"$T/why"; then ok
  else fail "$c: not strict JSON: $(tail -1 "$T/why")"; fi
done

# flame SVG: the names, the input file's name and --title with control bytes
title="$(printf 't\001\033\177]]><script>"x')"
run "$PB" flame "$bad_name.iprof" --format svg -o "$T/f.svg" --title "$title"
expect_rc 0 "flame svg"
"$py" "$H" check-xml "$T/f.svg" 2>"$T/why" && ok || fail "flame svg is not well-formed XML: $(tail -1 "$T/why")"
run "$PB" flame "$bad_name.iprof" --format svg -o "$T/g.svg"
"$py" "$H" check-xml "$T/g.svg" 2>"$T/why" && ok || fail "flame svg (default title) ill-formed: $(tail -1 "$T/why")"
grep -q '<script>alert' "$T/f.svg" && fail "a name's <script> reached the SVG unescaped" || ok

# speedscope JSON names the profile after the input file: any bytes (the
# CLI names it "profile" then; the writer itself takes any bytes since the
# report-writer fuzz target found it trusted them to be UTF-8)
cp "$T/h.iprof" "$T/$(printf 'n\377\376\033.iprof')"
run "$PB" flame "$T/$(printf 'n\377\376\033.iprof')" --format speedscope -o "$T/s.json"
expect_rc 0 "flame speedscope"
if "$py" -c 'import json,sys; json.loads(open(sys.argv[1],"rb").read().decode("utf-8"))' "$T/s.json" 2>"$T/why"; then ok
else fail "flame speedscope: not strict JSON: $(tail -1 "$T/why")"; fi

# the llvm-profdata-identical listing prints what llvm-profdata-19 prints
if command -v llvm-profdata-19 >/dev/null; then
  llvm-profdata-19 show --all-functions --counts "$T/a.profdata" >"$T/want" 2>&1 || true
  "$PB" show --all-functions --counts "$T/a.profdata" >"$T/got" 2>&1 || true
  cmp -s "$T/want" "$T/got" && ok || fail "show of an LLVM profile differs from llvm-profdata-19: $(diff <(cat -v "$T/want") <(cat -v "$T/got") | head)"
fi
finish
