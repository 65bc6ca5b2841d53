#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# io_inputs.sh -- inputs read once (issue 12, item 2): every command reads
# each input through one descriptor, so a FIFO, /dev/stdin, a process
# substitution <(...) and a pipe ('-') give what the regular file gives, for
# every format (raw, indexed, text, iprof, json, and gzip of each). Before,
# `show FIFO` hung (the input was opened again by name) and `show <(...)` of
# a raw profile said "empty raw profile file". Every run has a timeout: a
# hang is a failure, not a stuck test.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
require_iprof
D="$PB_SHARED_DIR/testdata/llvm-real/llvm19"
[ -f "$D/basic-fe.profraw" ] || { echo "SKIP: $D/basic-fe.profraw is missing"; exit 77; }
w="$T/w"; mkdir -p "$w"; cd "$w"
TO="timeout 20"
cp "$D/basic-fe.profraw" a.profraw
cp "$D/many-ir.profraw" b.profraw
cp "$D/basic-fe.profdata" a.profdata
cp a.profdata base.profdata
cp "$FIB" a.iprof
"$PB" convert a.profdata -o a.proftext
"$PB" convert a.iprof -o a.json --to json
# a raw file holding two profiles back to back (show lists each: read_raw_parts)
cat a.profraw b.profraw >two.profraw
inputs="a.profraw two.profraw a.profdata a.proftext a.iprof a.json"
for f in a.profraw a.profdata a.iprof; do gzip -c "$f" >"$f.gz"; inputs="$inputs $f.gz"; done

# same_as KIND FILE WHAT CMD...: CMD with FILE given as KIND (fifo, procsub,
# devstdin, dash) must print what CMD with the regular FILE prints.
same_as() {
  local kind="$1" file="$2" what="$3"; shift 3
  local args=() a
  for a in "$@"; do [ "$a" = IN ] && args+=("$file") || args+=("$a"); done
  set +e
  $TO "$PB" "${args[@]}" >want.out 2>want.err; local want_rc=$?
  args=()
  case "$kind" in
    fifo)
      rm -f in.fifo; mkfifo in.fifo
      (timeout 20 cat "$file" >in.fifo 2>/dev/null &)
      for a in "$@"; do [ "$a" = IN ] && args+=(in.fifo) || args+=("$a"); done
      $TO "$PB" "${args[@]}" >got.out 2>got.err ;;
    procsub)
      local cmd=("$@")
      for a in "${cmd[@]}"; do [ "$a" = IN ] && args+=(PROCSUB) || args+=("$a"); done
      # bash: one <(...) per run, substituted where IN was
      local i; for i in "${!args[@]}"; do [ "${args[$i]}" = PROCSUB ] && break; done
      $TO "$PB" "${args[@]:0:$i}" <(cat "$file") "${args[@]:$((i + 1))}" >got.out 2>got.err ;;
    devstdin)
      for a in "$@"; do [ "$a" = IN ] && args+=(/dev/stdin) || args+=("$a"); done
      cat "$file" | $TO "$PB" "${args[@]}" >got.out 2>got.err ;;
    dash)
      for a in "$@"; do [ "$a" = IN ] && args+=(-) || args+=("$a"); done
      cat "$file" | $TO "$PB" "${args[@]}" >got.out 2>got.err ;;
  esac
  local got_rc=$?
  set -e
  if [ "$got_rc" = 124 ]; then fail "$what ($kind $file): hangs"; return; fi
  # names differ (the FIFO's, /dev/fd/N, <stdin>): compare without them
  sed -e "s#$file#IN#g" want.out >want.n; sed -e "s#in.fifo#IN#g; s#/dev/fd/[0-9]*#IN#g; s#/dev/stdin#IN#g; s#<stdin>#IN#g; s#^B: -\$#B: IN#; s#test_profile: -\$#test_profile: IN#" got.out >got.n
  if [ "$got_rc" != "$want_rc" ]; then
    fail "$what ($kind $file): exit $got_rc, the regular file gives $want_rc: $(head -c 300 got.err)"
  elif ! cmp -s want.n got.n; then
    fail "$what ($kind $file): output differs from the regular file's: $(diff want.n got.n | head -5)"
  else ok; fi
}

for kind in fifo procsub devstdin dash; do
  for f in $inputs; do
    same_as $kind "$f" "show" show IN
    same_as $kind "$f" "show --counts" show IN --counts --all-functions
    same_as $kind "$f" "convert to text" convert IN -o - --to text
    same_as $kind "$f" "validate" validate IN
    same_as $kind "$f" "dump" dump IN
    same_as $kind "$f" "types" types IN
    same_as $kind "$f" "merge" merge IN -o - --text
    same_as $kind "$f" "overlap" overlap base.profdata IN
    same_as $kind "$f" "diff" diff base.profdata IN
  done
done
# two streams at once, and a merge of a stream with threads
for f in a.profraw a.proftext a.iprof.gz; do
  set +e
  $TO "$PB" merge "$f" "$f" -o want.txt --text --num-threads 2; want_rc=$?
  $TO "$PB" merge <(cat "$f") <(cat "$f") -o got.txt --text --num-threads 2; got_rc=$?
  set -e
  [ "$got_rc" = "$want_rc" ] && cmp -s want.txt got.txt && ok || fail "merge <($f) <($f) --num-threads 2 (exit $got_rc)"
  set +e; $TO "$PB" diff <(cat "$f") <(cat "$f") >/dev/null; got_rc=$?; set -e
  [ "$got_rc" = 0 ] && ok || fail "diff <($f) <($f): exit $got_rc"
done
# a broken input that is a stream: merge cannot read it a second time (it
# reads a failed regular file again through the same descriptor, rewound),
# so it reports the first error; it must not hang (before: it opened the
# FIFO again by name and waited for a writer forever)
head -c 300 a.profraw >broken.profraw
for n in 1 2; do
  for first in yes no; do
    rm -f in.fifo; mkfifo in.fifo; (timeout 20 cat broken.profraw >in.fifo 2>/dev/null &)
    if [ $first = yes ]; then set -- in.fifo a.profdata; else set -- a.profdata in.fifo; fi
    run timeout 20 "$PB" merge "$@" -o got.txt --text --failure-mode warn --num-threads $n
    [ "$rc" = 0 ] && grep -q "in.fifo" "$T/err" && ok \
      || fail "merge $* --failure-mode warn --num-threads $n: exit $rc: $(head -c 300 "$T/err")"
  done
done
# merge -f LIST from a pipe
printf 'a.profdata\n2,a.profraw\n' >list.txt
set +e
$TO "$PB" merge -f list.txt -o want.txt --text; want_rc=$?
$TO "$PB" merge -f <(cat list.txt) -o got.txt --text; got_rc=$?
set -e
[ "$got_rc" = "$want_rc" ] && cmp -s want.txt got.txt && ok || fail "merge -f <(LIST) (exit $got_rc)"
finish
