#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# consistency_convert.sh -- show --llvm, overlap and diff see the same records
# of a file and of each of its conversions (docs/overlap-diff.md, "What LLVM
# sees"). For every real file of shared/testdata (llvm-real, a sample of
# llvm-profparser, iprof-real), spec/examples/fib-doc.iprof and
# testdata/samples, the file is converted to each other format (iprof,
# .profdata, .proftext, .profraw where the raw writer can) and then:
#   (a) `profbridge diff` exits 0 for every form against the original (both
#       ways) and against the iprof form, but for a form whose writer said it
#       lost data;
#   (b) `profbridge show --llvm FLAGS FORM` prints what `llvm-profdata-19 show
#       FLAGS` prints for the LLVM form of FORM (the form itself for raw,
#       indexed and text; `profbridge convert FORM -o X.profdata` for iprof),
#       same stdout and exit status; once more with --llvm-version 23 against
#       llvm-profdata-23 (the iprof converted with --llvm-version 23);
#   (c) `profbridge overlap A B` prints (but for the lines naming the files)
#       what `llvm-profdata-19 overlap` prints for the LLVM forms of A and B;
#   (d) for pairs of different files (mixed formats), the functions show --llvm
#       lists on one side only are diff's "only in A/B", and overlap's "only in
#       test_profile" count agrees with them.
# Oracles: the real llvm-profdata-N only. A file llvm-profdata-19 refuses (raw
# files of other releases) is checked as above with the first installed release
# R that reads it: every form written with --llvm-version R, our show and
# overlap with --llvm-version R, llvm-profdata-R as the oracle. Inputs no
# installed release reads (or profbridge refuses) are skipped and counted; so
# are comparisons a release refuses.
set -uo pipefail
: "${PB:?}" "${PB_SOURCE_DIR:?}"
source "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
pb_need_llvm 19
SHARED="${PB_SHARED_DIR:-/work/shared}"
if [ ! -d "$SHARED/testdata" ]; then
  echo "SKIP: $SHARED/testdata is absent (the real profiles live in the shared directory; set PB_SHARED_DIR)"
  exit 77
fi
RELEASES="$(pb_llvm_releases)"
SECOND=""
command -v llvm-profdata-23 >/dev/null 2>&1 && SECOND=23
[ -n "$SECOND" ] || echo "note: llvm-profdata-23 not on PATH ($(pb_llvm_how 23)): only release 19 is compared"
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
TD="$SHARED/testdata"

# ---- the inputs ----------------------------------------------------------------
inputs=()
while IFS= read -r f; do inputs+=("$f"); done < <(
  find "$TD/llvm-real" -type f \( -name '*.profraw' -o -name '*.profdata' -o -name '*.proftext' \) | sort)
# llvm-profparser, each content once (lib/distinct.bash: its 88 profdata and
# profraw files hold 44 contents, versions 11-19; its 483 proftext 71, mostly
# one shape each): every 6th of the first, every 8th of the texts. Broad, and
# the script stays near 3 minutes of CPU on the CI's machines, where every
# process start costs tens of milliseconds (PB_TEST_FULL=1: every 3rd and 4th).
. "$PB_SOURCE_DIR/tests/interop/lib/distinct.bash"
while IFS= read -r f; do inputs+=("$f"); done < <(
  find "$TD/llvm-profparser" -type f \( -name '*.profraw' -o -name '*.profdata' \) | sort | pb_distinct |
    awk -v k="$([ "${PB_TEST_FULL:-0}" = 1 ] && echo 3 || echo 6)" 'NR % k == 1')
while IFS= read -r f; do inputs+=("$f"); done < <(
  find "$TD/llvm-profparser" -type f -name '*.proftext' | sort | pb_distinct |
    awk -v k="$([ "${PB_TEST_FULL:-0}" = 1 ] && echo 4 || echo 8)" 'NR % k == 1')
for f in "$TD"/iprof-real/*.iprof "$SHARED/spec/examples/fib-doc.iprof" "$PB_SOURCE_DIR"/testdata/samples/*; do
  [ -f "$f" ] && inputs+=("$f")
done

# ---- one input: its forms and the three checks -----------------------------------
# Writes "check", "fail: ...", "skip: ..." lines to $W/log.
one() {
  local src="$1" W="$2" big=0
  mkdir -p "$W"; cd "$W" || return
  : >log
  local ext="${src##*.}"
  [ "$(stat -c %s "$src")" -gt 1000000 ] && big=1
  cp "$src" "orig.$ext"
  # The oracle: llvm-profdata-19, or for a file 19 refuses (raw files of
  # other releases) the first installed release that reads it; every form is
  # then written for that release (convert --llvm-version R) and our show and
  # overlap behave as that release.
  local R=19 r
  if [ "$ext" != iprof ] && ! llvm-profdata-19 show "orig.$ext" >/dev/null 2>&1; then
    R=""
    for r in $RELEASES; do
      if "llvm-profdata-$r" show "orig.$ext" >/dev/null 2>&1; then R=$r; break; fi
    done
    if [ -z "$R" ]; then echo "skip-input: no installed llvm-profdata reads $src" >>log; return; fi
  fi
  local V=(--llvm-version "$R")
  # an iprof the strict reader refuses (elidemin-jspy: dangling method ids):
  # its --lenient repair is the original
  if [ "$ext" = iprof ] && ! "$PB" validate "orig.$ext" >/dev/null 2>&1 &&
     "$PB" convert --lenient "orig.$ext" -o fixed.iprof >/dev/null 2>&1; then
    mv fixed.iprof "orig.$ext"; echo "skip: $src repaired with --lenient first" >>log
  fi
  if ! "$PB" convert "${V[@]}" "orig.$ext" -o c.profdata >/dev/null 2>conv.err; then
    echo "skip-input: profbridge cannot read $src: $(head -c 200 conv.err)" >>log; return
  fi
  local forms=("orig.$ext") f lost lossy=" "
  for f in iprof profdata proftext profraw; do
    [ "$f" = "$ext" ] && [ "$f" = iprof ] && continue
    # the 4 MB iprof files: their .profdata only (each run reads 4 MB of JSON)
    [ "$big" = 1 ] && [ "$f" != profdata ] && continue
    if ! "$PB" convert "${V[@]}" "orig.$ext" -o "c.$f" >/dev/null 2>conv.err; then
      echo "skip: convert to $f: $(head -c 200 conv.err)" >>log; continue
    fi
    forms+=("c.$f")
    # a writer that says it lost data (raw: call targets that are no function
    # of the profile; text: unnamed vtables) made a form that is not equal
    lost=$(grep 'note:' conv.err | grep -v 'written as methods of type')
    [ -n "$lost" ] && { lossy+=" c.$f "; echo "skip: diff of c.$f (the writer said: $lost)" >>log; }
  done
  # LLVM form of each: what llvm-profdata reads for it
  declare -A lR l23
  for f in "${forms[@]}"; do
    case "$f" in
      *.iprof)
        "$PB" convert "${V[@]}" "$f" -o "$f.$R.profdata" 2>/dev/null; lR[$f]="$f.$R.profdata"
        if [ -n "$SECOND" ] && [ "$R" = 19 ]; then
          "$PB" convert --llvm-version "$SECOND" "$f" -o "$f.$SECOND.profdata" 2>/dev/null
          l23[$f]="$f.$SECOND.profdata"
        fi ;;
      *) lR[$f]="$f"; l23[$f]="$f" ;;
    esac
  done
  local a b o rl rp
  # (a) diff: every form against the original both ways, other pairs one way
  local n=${#forms[@]} i j
  for ((i = 0; i < n; i++)); do for ((j = 0; j < n; j++)); do
    a=${forms[i]}; b=${forms[j]}
    [ "$i" = "$j" ] && continue
    # other pairs: the iprof form against the others, one way
    [ "$i" != 0 ] && [ "$j" != 0 ] && { [ "$big" = 1 ] || [ "$i" -gt "$j" ] || [ "$a" != c.iprof ]; } && continue
    [[ "$lossy" == *" $a "* || "$lossy" == *" $b "* ]] && continue
    echo check >>log
    "$PB" diff "$a" "$b" >d.out 2>d.err; rp=$?
    [ "$rp" = 0 ] || echo "fail: diff $a $b exit $rp ($src): $(head -c 600 d.out d.err)" >>log
  done; done
  # (b) show
  local flagsets
  for f in "${forms[@]}"; do
    flagsets=("" "--all-functions --counts --ic-targets --memop-sizes")
    [[ "$f" == *.iprof ]] && flagsets+=("--detailed-summary --topn=3")
    [ "$big" = 1 ] && flagsets=("")
    for o in "${flagsets[@]}"; do
      "llvm-profdata-$R" show $o "${lR[$f]}" >l.out 2>l.err; rl=$?
      if [ "$rl" != 0 ] && [ "$f" != "orig.$ext" ]; then
        echo "skip: llvm-profdata-$R show $o of the ${lR[$f]} made from $src: $(head -c 200 l.err)" >>log; continue
      fi
      echo check >>log
      "$PB" show --llvm "${V[@]}" $o "$f" >p.out 2>p.err; rp=$?
      if [ "$rl" != "$rp" ] || ! cmp -s l.out p.out; then
        echo "fail: show --llvm ${V[*]} $o $f (exit $rp) vs llvm-profdata-$R show of ${lR[$f]} (exit $rl) ($src): $(diff l.out p.out | head -n 8)" >>log
      fi
    done
    [ -n "$SECOND" ] && [ "$big" = 0 ] && [ "$R" = 19 ] || continue
    pb_cell 2 "${W##*/}" || continue # the second release on every other input
    o="--all-functions --counts --ic-targets --memop-sizes"
    if ! "llvm-profdata-$SECOND" show $o "${l23[$f]}" >l.out 2>l.err; then
      echo "skip: llvm-profdata-$SECOND cannot read ${l23[$f]} ($src)" >>log; continue
    fi
    echo check >>log
    "$PB" show --llvm --llvm-version "$SECOND" $o "$f" >p.out 2>p.err; rp=$?
    if [ "$rp" != 0 ] || ! cmp -s l.out p.out; then
      echo "fail: show --llvm --llvm-version $SECOND $o $f (exit $rp) vs llvm-profdata-$SECOND show of ${l23[$f]} ($src): $(diff l.out p.out | head -n 8)" >>log
    fi
  done
  # (c) overlap: every form against the original both ways, the iprof form
  # against every other form both ways; on every other input (pb_cell: the
  # inputs run two at a time and each start costs tens of ms on the CI's
  # machines; PB_TEST_FULL=1: on all)
  pb_cell 2 "${W##*/}" || return 0
  local pairs=() x
  for x in "${forms[@]:1}"; do pairs+=("orig.$ext $x" "$x orig.$ext"); done
  if [ "$big" = 0 ]; then
    for x in "${forms[@]:1}"; do
      [ "$x" = c.iprof ] && continue
      [ -f c.iprof ] && pairs+=("c.iprof $x" "$x c.iprof")
    done
  fi
  for x in "${pairs[@]}"; do
    set -- $x; a=$1; b=$2
    for o in "" "--value-cutoff=0"; do
      [ -n "$o" ] && { [ "$big" = 1 ] || [ "$a" != "orig.$ext" ] || [ "$b" != c.iprof ]; } && continue
      "llvm-profdata-$R" overlap $o "${lR[$a]}" "${lR[$b]}" >l.raw 2>l.err; rl=$?
      if [ "$rl" != 0 ]; then
        echo "skip: llvm-profdata-$R overlap ${lR[$a]} ${lR[$b]} ($src): $(head -c 200 l.err)" >>log; continue
      fi
      echo check >>log
      "$PB" overlap "${V[@]}" $o "$a" "$b" >p.raw 2>p.err; rp=$?
      # the lines naming the files (the first, and the function-level ones)
      grep -v '^Profile overlap info' l.raw >l.out; grep -v '^Profile overlap info' p.raw >p.out
      if [ "$rp" != 0 ] || ! cmp -s l.out p.out; then
        echo "fail: overlap ${V[*]} $o $a $b (exit $rp) vs llvm-profdata-$R overlap ${lR[$a]} ${lR[$b]} ($src): $(diff l.out p.out | head -n 8)" >>log
      fi
    done
  done
}

# two inputs at a time (the machine has two cores)
i=0
for src in "${inputs[@]}"; do
  i=$((i + 1))
  # the LLVM files on one input in three (pb_cell; PB_TEST_FULL=1: all):
  # llvm-real's 76 are a few programs in many builds
  case "$src" in "$TD"/llvm-*) pb_cell 3 "$i" || continue ;; esac
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n; done
  ( one "$src" "$T/$i" ) &
done
wait

# ---- two different files: diff, overlap and show agree on which functions exist ----
# For A != B: the (name, hash) pairs show --llvm --all-functions lists for A and
# not for B are diff's "only in A" (and the other way round), and overlap's
# "# of functions only in test_profile" counts the records of B whose name A
# lacks. The pairs mix formats; fib2 is a second run of fib-doc
# (data/iprof_second_run.py: counts changed, entries dropped).
differing() {
  local W="$T/differ"; mkdir -p "$W"; cd "$W" || return
  : >log
  command -v python3 >/dev/null || { echo "skip: python3 missing: no differing pairs" >>log; return; }
  local L14="$TD/llvm-real/llvm14" L19="$TD/llvm-real/llvm19" FIB="$SHARED/spec/examples/fib-doc.iprof"
  python3 "$PB_SOURCE_DIR/tests/interop/data/iprof_second_run.py" "$FIB" fib2.iprof 7
  "$PB" convert "$L19/many-ir.profdata" -o many.iprof 2>/dev/null
  "$PB" convert "$L14/cs-merged.profdata" -o cs14.iprof 2>/dev/null
  "$PB" convert fib2.iprof -o fib2.proftext 2>/dev/null
  local pairs=("$FIB fib2.iprof" "fib2.proftext $FIB" "$L19/basic-ir.profdata many.iprof"
               "cs14.iprof $L19/cs-merged.proftext" "$L19/cs-merged.profdata cs14.iprof" "$FIB $L19/vtable-ir.profraw")
  local x a b
  for x in "${pairs[@]}"; do
    set -- $x; a=$1; b=$2
    [ -f "$a" ] && [ -f "$b" ] || { echo "skip: differing pair $a $b: a file is missing" >>log; continue; }
    echo check >>log
    "$PB" show --llvm --all-functions "$a" >sa.out 2>/dev/null
    "$PB" show --llvm --all-functions "$b" >sb.out 2>/dev/null
    "$PB" diff --json "$a" "$b" >d.json 2>/dev/null
    "$PB" overlap "$a" "$b" >o.out 2>/dev/null
    python3 - sa.out sb.out d.json o.out "$a" "$b" >>log <<'PY'
import json, re, sys
def funcs(path):
    out, name = set(), None
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        if line.startswith("  ") and not line.startswith("    ") and line.rstrip().endswith(":"):
            name = line[2:].rstrip()[:-1]
        elif name is not None and line.startswith("    Hash: "):
            out.add((name, int(line.split()[1], 16))); name = None
    return out
sa, sb = funcs(sys.argv[1]), funcs(sys.argv[2])
d = json.load(open(sys.argv[3]))
only = {s: {(r["name"], r["hash"]) for r in d["records"] if r["status"] == s} for s in ("only-in-a", "only-in-b")}
m = re.search(r"# of functions only in test_profile: (\d+)", open(sys.argv[4]).read())
unique = int(m.group(1)) if m else 0
names_a = {n for n, _ in sa}
want = sum(1 for n, _ in sb - sa if n not in names_a)
errs = []
if only["only-in-a"] != sa - sb: errs.append("diff's only-in-a %d != show's %d" % (len(only["only-in-a"]), len(sa - sb)))
if only["only-in-b"] != sb - sa: errs.append("diff's only-in-b %d != show's %d" % (len(only["only-in-b"]), len(sb - sa)))
if unique != want: errs.append("overlap's only in test_profile %d != %d by show" % (unique, want))
if not sa or not sb: errs.append("show listed no function")
if errs: print("fail: differing pair %s %s: %s" % (sys.argv[5], sys.argv[6], "; ".join(errs)))
PY
  done
}
( differing )

cat "$T"/*/log >"$T/all.log"
checks=$(grep -c '^check' "$T/all.log")
fails=$(grep -c '^fail' "$T/all.log")
skipped_inputs=$(grep -c '^skip-input' "$T/all.log")
skipped=$(grep -c '^skip:' "$T/all.log")
grep '^fail' "$T/all.log" | head -n 60
[ -n "${VERBOSE:-}" ] && grep '^skip' "$T/all.log"
echo "consistency_convert.sh: ${#inputs[@]} inputs ($skipped_inputs skipped: no installed llvm-profdata or profbridge reads them), $checks comparisons, $fails failed, $skipped comparisons/conversions skipped"
[ "$fails" -eq 0 ] && [ "$checks" -gt 0 ]
