#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cli_cov_args.sh -- the command lines of llvm-cov-N export and report
# (docs/coverage.md): for every installed llvm-cov-N, a table of command
# lines that fail or finish before any coverage is computed (unknown and
# misspelled options, options of other releases, bad values, repeated
# -instr-profile, missing arguments, -dump-collected-objects, the top
# level's subcommands) runs through the real llvm-cov-N and through a link
# llvm-cov-N to profbridge; stdout, stderr and the exit status must be the
# same. Both are started with argv[0] "llvm-cov-N", so the messages name the
# same program. The profile named is one that does not exist: llvm-cov
# 15+ fail on it before reading anything; lines that would reach the reading
# are left out for 13-14 (they read the object first). Then profbridge's
# own rules: show/gcov refused in one line, libLLVM's options refused by
# name, the release's table (profbridge --llvm-options cov-export) against
# the release's --help-hidden.
set -uo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?}"

releases=""
for n in 13 14 15 16 17 18 19 20 21 22 23 24; do
  command -v "llvm-cov-$n" >/dev/null 2>&1 && releases="$releases $n"
done
[ -n "$releases" ] || { echo "SKIP: no llvm-cov-N on PATH (scripts/install-deps.sh, scripts/fetch-llvm.sh)"; exit 77; }

. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash" # pb_cell
work="$T"
failures=0 cases=0
mkdir -p "$work/bin" "$work/real" "$work/ours"
pb="$(readlink -f "$PB")"
printf -- '-instr-profile=nonexist.profdata\n-bogus2\n' >"$work/rsp"

# same N ARGS...: llvm-cov-N ARGS through both, compared. llvm-cov's error()
# colours its line when ViewOpts.Colors is set, which 21 reads before it sets
# it (uninitialised: the colour codes come and go from run to run), so the
# colour codes are dropped from both stderrs before comparing.
# same_tie: the same, without the "Did you mean" lines (the nearest option
# when several are as near: LLVM takes the first in its StringMap's hash
# order, which profbridge does not copy).
tie=0
same_tie() { tie=1; same "$@"; tie=0; }
# Each release runs one line of the table in five, the next releases the
# others (pb_cell; PB_TEST_FULL=1: all on every release).
seen=0 sampled=0
same() {
  local n="$1"
  shift
  seen=$((seen + 1))
  pb_cell 5 "$seen" "$n" || { sampled=$((sampled + 1)); return 0; }
  cases=$((cases + 1))
  local real
  real="$(command -v "llvm-cov-$n")"
  (cd "$work/real" && (exec -a "llvm-cov-$n" "$real" "$@") >stdout 2>stderr; echo $? >status)
  (cd "$work/ours" && (exec -a "llvm-cov-$n" "$work/bin/llvm-cov-$n" "$@") >stdout 2>stderr; echo $? >status)
  local f d
  for d in real ours; do
    sed -i -e 's/\x1b\[0;31m//g' -e 's/\x1b\[0m//g' "$work/$d/stderr"
    [ $tie = 0 ] || sed -i '/: Did you mean /d' "$work/$d/stderr"
  done
  for f in status stdout stderr; do
    if ! cmp -s "$work/real/$f" "$work/ours/$f"; then
      fail "llvm-cov-$n $*: $f differs"
      diff "$work/real/$f" "$work/ours/$f" | head -8 >&2
    fi
  done
}

P=-instr-profile=nonexist.profdata
for n in $releases; do
  seen=0 # the line's number in the table, the same on every release
  ln -sf "$pb" "$work/bin/llvm-cov-$n"
  # the top level: no command, an unknown one, help
  same "$n"
  same "$n" foo
  same "$n" foo -instr-profile=x
  same "$n" --help
  same "$n" -help
  for c in export report; do
    same "$n" $c
    same "$n" $c x
    same "$n" $c "$P"
    same "$n" $c -summary-onyl x
    same "$n" $c -instr-profle=nonexist.profdata x
    same "$n" $c --instr-profile
    same "$n" $c "$P" -object
    same "$n" $c -skip-functions=maybe x
    same "$n" $c -use-color=maybe "$P" x
    same "$n" $c -summary-only=maybe "$P" x
    same "$n" $c -j=x "$P" x
    same "$n" $c -num-threads=-1 "$P" x
    same "$n" $c -format=bogus "$P" x
    same "$n" $c -format=html "$P" x
    same "$n" $c -arch=foo "$P" x
    same "$n" $c -arch=x86_64 -arch=aarch64 "$P" x
    same "$n" $c "$P" -dump-collected-objects a b -object c -object=d,e
    same "$n" $c "$P" -dump-collected-objects -sources a b
    same "$n" $c "$P" -dump-collected-objects a -sources=b c
    same "$n" $c "$P" -dump-collected-objects -- -a b
    same "$n" $c "$P" -dump-collected-objects - b
    same "$n" $c @"$work/rsp" x
    same "$n" $c -empty-profile "$P" x
    same "$n" $c -show-mcdc-summary=maybe "$P" x
    same "$n" $c -check-binary-ids=maybe "$P" x
    same "$n" $c -include-filename-regex "$P" x
    same "$n" $c -name-whitelist "$P" x
    same "$n" $c -sources "$P"
    if [ "$n" -ge 15 ]; then # 13-14 read the object before the profile
      same "$n" $c "$P" x
      same "$n" $c -instr-profile nonexist.profdata x y z
      same "$n" $c -instr-profile=a "$P" x
      same "$n" $c -format=lcov "$P" x
      same "$n" $c -use-color -format=lcov "$P" x
      same "$n" $c -path-equivalence=a "$P" x
      same "$n" $c -path-equivalence=a,b "$P" x
      same "$n" $c -show-region-summary=false -show-branch-summary=0 -show-instantiation-summary "$P" x
      same "$n" $c -compilation-dir=/tmp -num-threads 2 "$P" x
      same "$n" $c -name=main -name-regex='m.*' -ignore-filename-regex=x "$P" x
    else
      same "$n" $c -instr-profile=a "$P" x
      same "$n" $c -skip-functions -skip-functions "$P" x
      same "$n" $c -summary-only -summary-only "$P" x
      same "$n" $c -format=lcov -format=text "$P" x
    fi
  done
  same "$n" export -show-functions "$P" x
  same "$n" report -skip-functions "$P" x
  same_tie "$n" report -skip-branches "$P" x
  same_tie "$n" report -unify-instantiations "$P" x
  same "$n" report -format=lcov "$P" x
  if [ "$n" -ge 15 ]; then
    for o in skip-expansions skip-functions skip-branches unify-instantiations show-mcdc-non-executed-vectors; do
      same_tie "$n" export -$o "$P" x
      same_tie "$n" export --$o=false "$P" x
    done
    same "$n" report -show-functions "$P" x
    same "$n" report -show-functions=true -show-mcdc-summary "$P" x
  fi

  # profbridge's own rules (no real tool to compare with)
  for c in show gcov; do
    cases=$((cases + 1))
    out="$(exec -a "llvm-cov-$n" "$work/bin/llvm-cov-$n" $c x 2>&1)"; rc=$?
    [ $rc = 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && [[ $out == *"export and report only"*"llvm-cov-$n"* ]] ||
      fail "llvm-cov-$n $c: want one line naming export/report and llvm-cov-$n, exit 1; got $rc: $out"
  done
  for v in "--version" "export --version" "report -bogus --version"; do
    cases=$((cases + 1))
    out="$(exec -a "llvm-cov-$n" "$work/bin/llvm-cov-$n" $v 2>/dev/null)"; rc=$?
    [ $rc = 0 ] && [[ $out == *"acting as llvm-cov of LLVM $n"*"LLVM version $n.0.0"* ]] ||
      fail "llvm-cov-$n $v: want profbridge's version naming LLVM $n, exit 0; got $rc: $out"
  done
  cases=$((cases + 1))
  out="$(exec -a "llvm-cov-$n" "$work/bin/llvm-cov-$n" export -polly "$P" x 2>&1)"; rc=$?
  [ $rc = 1 ] && [[ $out == *"-polly"*libLLVM* ]] || fail "llvm-cov-$n export -polly: want a refusal naming it; got $rc: $out"
  # the table's options are the release's (llvm-cov's own, not libLLVM's)
  for c in export report; do
    cases=$((cases + 1))
    "llvm-cov-$n" $c --help-hidden | sed -nE 's/^  --?([A-Za-z0-9_.][A-Za-z0-9_.-]*).*/\1/p' | sort -u >"$work/real.names"
    "$PB" --llvm-options cov-$c | awk -v n="$n" '($5 == 0 || n >= $5) && ($6 == 0 || n <= $6) { print $1; if ($2 != "-") print $2 }' |
      grep -vx -e print-options -e print-all-options | sort -u >"$work/ours.names"
    missing="$(comm -13 "$work/real.names" "$work/ours.names" | tr '\n' ' ')"
    [ -z "$missing" ] || fail "llvm-cov-$n $c: profbridge's table has options the release does not list: $missing"
    # and every option the release lists is in the table or among libLLVM's
    "$PB" --llvm-options cov-globals | awk -v b=$((n - 13)) '{ if (int($2 / 2 ^ b) % 2) print $1 }' |
      cat - "$work/ours.names" | sort -u >"$work/known.names"
    unknown="$(comm -23 "$work/real.names" "$work/known.names" | grep -vx -e help -e help-hidden -e help-list \
      -e help-list-hidden -e print-options -e print-all-options | tr '\n' ' ')"
    # an option of llvm-cov's own tables is never taken for libLLVM's
    cases=$((cases + 1))
    both="$("$PB" --llvm-options cov-globals | cut -d' ' -f1 | sort -u | comm -12 - <("$PB" --llvm-options cov-$c |
      cut -d' ' -f1 | sort -u) | tr '\n' ' ')"
    [ -z "$both" ] || fail "llvm-cov's own options among libLLVM's: $both"
    [ -z "$unknown" ] || fail "llvm-cov-$n $c --help-hidden lists options profbridge does not know: $unknown"
  done
done

# profbridge's name: several profiles, the release's rules
cases=$((cases + 1))
"$PB" cov export -instr-profile=a -instr-profile=b --weighted-instr-profile=2,c -dump-collected-objects x >"$work/o" 2>&1 ||
  fail "profbridge cov export with several profiles: $(cat "$work/o")"
cases=$((cases + 1))
"$PB" cov export --weighted-instr-profile=0,c x >"$work/o" 2>&1
[ $? = 2 ] && grep -q "positive integer" "$work/o" || fail "a zero weight is a usage error: $(cat "$work/o")"
# --llvm-version N: llvm-cov-N's own command line and words (13 has no -sources)
cases=$((cases + 1))
"$PB" cov export --llvm-version 13 -sources a -instr-profile=p x >"$work/o" 2>&1
[ $? = 1 ] && grep -q "Unknown command line argument '-sources'" "$work/o" ||
  fail "--llvm-version 13 -sources: $(cat "$work/o")"
cases=$((cases + 1))
"$PB" cov export --llvm-version 14 -instr-profile=a -instr-profile=b x >"$work/o" 2>&1
[ $? = 1 ] && grep -q "must occur exactly one time" "$work/o" ||
  fail "--llvm-version 14 takes one -instr-profile: $(cat "$work/o")"
cases=$((cases + 1))
"$PB" cov export --llvm-version 19 --weighted-instr-profile=2,c x >"$work/o" 2>&1
[ $? = 1 ] && grep -q "Unknown command line argument '--weighted-instr-profile=2,c'" "$work/o" ||
  fail "--llvm-version 19 has no weights: $(cat "$work/o")"
cases=$((cases + 1))
"$PB" cov export -instr-profle=p x >"$work/o" 2>&1
[ $? = 2 ] && grep -q "did you mean '--instr-profile'" "$work/o" || fail "misspelled option: $(cat "$work/o")"

echo "cli_cov_args.sh: $cases cases, $failures failures (releases:$releases; $sampled table lines left to other releases)"
[ "$failures" = 0 ]
