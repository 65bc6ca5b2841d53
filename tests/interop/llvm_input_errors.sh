#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# llvm_input_errors.sh -- as llvm-profdata-N (a link to $PB so named, started
# by name on PATH as the real one), an input that cannot be read is reported
# in LLVM's words: damaged raw, indexed and text profiles (truncated at
# header fields and inside the data, bad magic, bad version, size fields too
# large, malformed text lines) through merge, show, overlap and order of
# every installed release, real tool against ours. Compared: the exit status
# and stderr without our detail lines ("  (profbridge: ...)"), which must
# follow every LLVM line we print. A raw base file is used only with the
# releases that read it undamaged (profbridge reads every raw version, LLVM
# only its own). Prints how many comparisons agree; fails on any other
# difference than the known ones below. Each release runs a third of the
# (file, command) cases, the next releases the others (pb_cell,
# lib/llvm-tools.bash; PB_TEST_FULL=1 runs all on every release).
set -uo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?}"
: "${PB_SHARED_DIR:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
pb_need_llvm 19
work="$(mktemp -d)"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work" || exit 2

# Known differences: "FILE" (every release and command) or "FILE@CMD".
#  idx-trunc-{24,40,64}: llvm-profdata 13-24 read past the end of an
#    indexed header cut between 24 and its 72 bytes and crash (a stack dump);
#    we report the cut.
#  idx-trunc-100/616/half, idx-trunc-last: LLVM's words depend on which
#    table its reader reaches first ("corrupted binary ids", "file header is
#    corrupt", "truncated profile data" -- and merge and show of one file
#    differ); profbridge checks every offset against the file size first and
#    prints its own line.
#  txt-*@overlap, txt-*@order, raw*-tail-*@overlap, raw*-tail-*@order:
#    llvm-profdata's overlap and order stop at a record they cannot read
#    without a word and exit 0 (the reader's error is never checked; merge
#    and show report it); profbridge refuses the input.
known_re='^(idx-trunc-(24|40|64|100|616|half|last)\.profdata|(txt-[a-z-]*\.proftext|raw[0-9]+-tail-[0-9]\.profraw)@(overlap|order))(@.*)?$'
# The files the real tools crash on are not given to them: each crash is a
# copy running to the end of the heap, 3-12 s of page faults on the CI's
# machines (a third of this test's time). Ours must refuse them (exit 1).
crash_re='^idx-trunc-(24|40|64)\.profdata$'

mkdir bin corpus
for n in $(pb_llvm_releases); do ln -s "$PB" "bin/llvm-profdata-$n"; done

# --- the corpus -------------------------------------------------------------
cut_to() { head -c "$3" "$2" > "$1"; }
poke() { printf "\\x$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
# raw bases: v8 (clang-14) and v10 (clang-19); their header is 0x50 / 0x78 bytes
make_raw() { # tag file
  local t="$1" f="$2" s n
  s=$(stat -c %s "$f")
  for n in 1 7 8 16 24 32 40 48 64 80 96 120 128 200; do
    [ "$n" -lt "$s" ] && cut_to "corpus/raw$t-trunc-$n.profraw" "$f" "$n"
  done
  # inside the last record's value data
  cut_to "corpus/raw$t-tail-8.profraw" "$f" $((s - 8))
  cut_to "corpus/raw$t-tail-1.profraw" "$f" $((s - 1))
  cp "$f" "corpus/raw$t-badmagic.profraw"; chmod u+w "corpus/raw$t-badmagic.profraw"
  poke "corpus/raw$t-badmagic.profraw" 0 00
  cp "$f" "corpus/raw$t-badversion.profraw"; chmod u+w "corpus/raw$t-badversion.profraw"
  poke "corpus/raw$t-badversion.profraw" 8 63
  cp "$f" "corpus/raw$t-bignumdata.profraw"; chmod u+w "corpus/raw$t-bignumdata.profraw"
  poke "corpus/raw$t-bignumdata.profraw" 25 ff   # header.NumData's second byte
}
make_raw 8 "$PB_SHARED_DIR/testdata/llvm-real/llvm14/basic-ir.profraw"
make_raw 10 "$PB_SHARED_DIR/testdata/llvm-real/llvm19/basic-ir.profraw"
idx="$PB_SHARED_DIR/testdata/llvm-real/llvm14/basic-ir.profdata"   # indexed v7: 13-24 read it
s=$(stat -c %s "$idx")
for n in 1 8 16 23 24 40 64 100; do cut_to "corpus/idx-trunc-$n.profdata" "$idx" "$n"; done
cut_to corpus/idx-trunc-half.profdata "$idx" $((s / 2))
cut_to corpus/idx-trunc-last.profdata "$idx" $((s - 1))
cp "$idx" corpus/idx-badversion.profdata; chmod u+w corpus/idx-badversion.profdata
poke corpus/idx-badversion.profdata 8 63
cp "$idx" corpus/idx-badmagic.profdata; chmod u+w corpus/idx-badmagic.profdata
poke corpus/idx-badmagic.profdata 7 00
printf 'hello world\n' > corpus/txt-oneline.proftext
printf 'main\n' > corpus/txt-nameonly.proftext
printf 'main\nnotahash\n1\n5\n' > corpus/txt-badhash.proftext
printf 'main\n0x1\nzz\n5\n' > corpus/txt-badnum.proftext
printf 'main\n0x1\n2\n5\n' > corpus/txt-short.proftext
printf 'main\n0x1\n1\nxx\n' > corpus/txt-badcount.proftext
printf ':bogus\nmain\n0x1\n1\n5\n' > corpus/txt-badheader.proftext
printf ':ir\nmain\n0x1\n1\nxx\n' > corpus/txt-ir-badcount.proftext
printf ':ir\nmain\n0x1\n2\n5\n' > corpus/txt-ir-short.proftext
printf ':ir\nmain\n0x1\n1\n5\n' > ok.proftext

# --- one release: every case, real vs ours ---------------------------------
strip_ours() { grep -v '^  (profbridge: ' "$1"; }
one_release() { # N -> results/N: "agree|known|differ CASE"
  local n="$1" f c base res=()
  local tool="llvm-profdata-$n" d="r$n" reads8=0 reads10=0 i=0 ic
  mkdir -p "$d"
  local cmds=("merge -o $d/out.profdata" "show" "overlap ok.proftext")
  pb_llvm_has_order "$n" && cmds+=("order")
  "$tool" show "$PB_SHARED_DIR/testdata/llvm-real/llvm14/basic-ir.profraw" >/dev/null 2>&1 && reads8=1
  "$tool" show "$PB_SHARED_DIR/testdata/llvm-real/llvm19/basic-ir.profraw" >/dev/null 2>&1 && reads10=1
  for f in corpus/*; do
    base="${f#corpus/}"
    i=$((i + 1)) # the file's number, the same on every release
    case "$base" in
      raw8-*) [ "$reads8" = 1 ] || continue ;;
      raw10-*) [ "$reads10" = 1 ] || continue ;;
    esac
    for ic in "${!cmds[@]}"; do
      c="${cmds[$ic]}"
      # a third of the cases on each release, the rest on the next (pb_cell)
      pb_cell 3 "$i" "$ic" "$n" || continue
      local word="${c%% *}"
      if [[ "$base" =~ $crash_re ]]; then
        # shellcheck disable=SC2086
        PATH="$work/bin:$PATH" "$tool" $c "$f" >/dev/null 2>"$d/ours.err"; local ro=$?
        if [ "$ro" = 1 ] && [ -s "$d/ours.err" ]; then echo "known $n $word $base"; else
          echo "differ $n $word $base"; echo "  ours ($ro), where 1 and a message were due: $(tr '\n' '|' < "$d/ours.err" | cut -c1-300)"
        fi
        continue
      fi
      # shellcheck disable=SC2086
      ("$tool" $c "$f" >/dev/null 2>"$d/real.err") 2>/dev/null; local rr=$?
      # shellcheck disable=SC2086
      PATH="$work/bin:$PATH" "$tool" $c "$f" >/dev/null 2>"$d/ours.err"; local ro=$?
      local verdict=differ
      if [ "$rr" = "$ro" ] && [ "$(cat "$d/real.err")" = "$(strip_ours "$d/ours.err")" ]; then
        verdict=agree
      elif [[ "$base" =~ $known_re ]] || [[ "$base@$word" =~ $known_re ]]; then
        verdict=known
      fi
      # every LLVM-worded line of ours about the file is followed by our detail
      if [ "$verdict" = agree ] && grep -q "^\(warning\|error\): .*$base: \(invalid\|unrecognized\|unsupported\|raw profile\|truncated\|too much\|malformed\)" "$d/ours.err" &&
        ! grep -q '^  (profbridge: ' "$d/ours.err"; then
        verdict=differ
      fi
      echo "$verdict $n $word $base"
      if [ "$verdict" = differ ]; then
        echo "  real ($rr): $(tr '\n' '|' < "$d/real.err" | cut -c1-300)"
        echo "  ours ($ro): $(tr '\n' '|' < "$d/ours.err" | cut -c1-300)"
      fi
    done
  done > "results.$n"
}
pb_llvm_has_order() { [ "$1" -ge 17 ]; }

pids=()
for n in $(pb_llvm_releases); do one_release "$n" & pids+=($!); done
for p in "${pids[@]}"; do wait "$p"; done

agree=$(cat results.* | grep -c '^agree ')
known=$(cat results.* | grep -c '^known ')
differ=$(cat results.* | grep -c '^differ ')
cat results.* | grep -A2 '^differ ' >&2
echo "llvm_input_errors.sh: $agree agree, $known known differences, $differ differ ($(pb_llvm_releases | wc -w) releases)"
[ "$differ" -eq 0 ] || { echo "llvm_input_errors.sh: FAIL" >&2; exit 1; }
[ "$agree" -gt 0 ] || { echo "llvm_input_errors.sh: FAIL: nothing compared" >&2; exit 1; }
exit 0
