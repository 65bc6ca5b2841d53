#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# llvm_callers.sh -- profbridge as the llvm-profdata that build and coverage
# tools run (issue 11 item 4). Every command line of
# tests/interop/data/callers.txt (the words cargo-llvm-cov, grcov,
# cargo-pgo, Chromium, OSS-Fuzz, Bazel, CPython, clang's manual, ... pass)
# runs through a link named llvm-profdata-N to $PB and through the real
# llvm-profdata-N, on raw profiles that clang-N's programs wrote (several
# runs: %p-%m names, a %m merge pool, a directory, a list file, stdin).
# Compared: every file left in the directory (bytes), stdout, stderr and the
# exit status. Then what the callers do next: llvm-cov-N report/export/show
# with the merged coverage profile, and clang-N -fprofile-use /
# -fprofile-instr-use with the merged PGO profile (no -Wprofile-instr-*
# warning, the same assembly as with LLVM's profile).
#
# Releases: those with llvm-profdata-N, clang-N and llvm-cov-N on PATH
# (PB_CALLERS_RELEASES="19 23" picks some), two at a time. Each release runs
# one line in five, the next releases the others (pb_cell,
# lib/llvm-tools.bash; PB_TEST_FULL=1 runs every line on every release).
set -uo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"

src="$PB_SOURCE_DIR/tests/interop/data/programs"
lines="$PB_SOURCE_DIR/tests/interop/data/callers.txt"
pb="$(readlink -f "$PB")"

# Differences known and listed in docs/llvm-profdata.md ("Where profbridge
# still differs"): printed as KNOWN, not counted, so the test guards
# everything else; a listed difference no longer seen is printed as GONE (take
# its line out). Each: FIRST-LAST release|what (stderr, or all: status, files,
# stdout, stderr)|glob on the command line|why.
known_differences=(
  "24-24|stderr|*bad.profraw*|a raw file shorter than its header's sizes: LLVM 24 says '(file is incomplete or header is corrupt): profile file size (200 bytes) smaller than expected (at least N bytes: ...)', profbridge 23's '(file header is corrupt)'"
  "13-17|stderr|*show -sparse*|LLVM 13-17 also suggest libLLVM's global options ('Did you mean --stats?'), which profbridge does not know"
  "13-13|stderr|*show -o|LLVM 13 adds 'Not enough positional command line arguments specified!' after the missing value"
  "13-13|stderr|*show --covered*|LLVM 13-17: an option of a later release is an unknown option in LLVM's words"
  "13-13|stderr|*-o mix.profdata*ir-*|LLVM 13 warns once for each input that mixes IR and front-end profiles (in thread order), profbridge for the first (--failure-mode any stops there) with why"
  "17-24|other|*temporal-*|temporal traces of a threaded merge: llvm-profdata gives input i to thread context i mod T and merges the contexts as a tree, so with T = 2 the traces of 3 inputs come out 0, 2, 1 (and order prints another order); profbridge keeps input order (what llvm-profdata -j=1 writes)"
  "17-24|stdout|*temporal-*|(the same: order's output follows the traces)"
  "13-16|stderr|*reservoir-size=2*|LLVM 13-16 have no temporal options: an unknown option in LLVM 13-17's words (above)"
  "13-24|all|*--compress-all-sections*|sample-profile options are refused; llvm-profdata accepts and ignores them on instrumentation profiles"
)

# is_known N WHAT CMD: 0 when the difference WHAT (stderr, or any other
# aspect: status, stdout, files, follow-ups) of CMD is listed for release N.
is_known() {
  local lo hi what pat
  while IFS='|' read -r lo what pat _; do
    hi="${lo#*-}"; lo="${lo%-*}"
    if [ "$1" -lt "$lo" ] || [ "$1" -gt "$hi" ]; then continue; fi
    # shellcheck disable=SC2053 # pat is a glob
    [[ $3 == $pat ]] || continue
    [ "$what" = all ] || [ "$what" = "$2" ] && return 0
  done <<<"$known_differences_text"
  return 1
}

# one_release N WORK: builds, runs and compares for release N; prints one
# "FAIL: ..." line per difference and a last "N: K compared, F failed" line.
one_release() {
  local n="$1" w="$2" fails=0 cases=0 sampled=0 known_seen
  # fail WHAT MESSAGE: a difference (WHAT: stderr or other), unless it is known
  fail() {
    if is_known "$n" "$1" "$cmd"; then echo "KNOWN llvm-$n: $2"; known_seen=1
    else echo "FAIL llvm-$n: $2"; fails=$((fails + 1)); fi
  }
  mkdir -p "$w/bin" "$w/realbin" "$w/base/pgo-data" "$w/prog" || return 1
  ln -s "$pb" "$w/bin/llvm-profdata-$n"
  # Both are started by the name llvm-profdata-N, found on PATH (LLVM's
  # messages name argv[0] as given): ours from $w/bin put first. The bare
  # name llvm-profdata (grcov's --llvm-path DIR, rustup's llvm-tools) is the
  # real llvm-profdata-N and ours with PROFBRIDGE_LLVM_VERSION=N.
  ln -s "$pb" "$w/bin/llvm-profdata"
  ln -s "$(command -v "llvm-profdata-$n")" "$w/realbin/llvm-profdata"
  local real="$w/realbin:$PATH" ours="$w/bin:$PATH"
  export PROFBRIDGE_LLVM_VERSION="$n"
  # The programs (at -O2: the instrumented and the optimised build must see
  # the same IR for -fprofile-use to match its hashes).
  if ! { "clang-$n" -O0 -fprofile-instr-generate -fcoverage-mapping "$src/mcdc.c" -o "$w/prog/cov" 2>"$w/cc.log" &&
         "clang-$n" -O2 -fprofile-generate "$src/ic.c" -o "$w/prog/ir" 2>>"$w/cc.log" &&
         "clang-$n" -O2 -fprofile-instr-generate "$src/ic.c" -o "$w/prog/fe" 2>>"$w/cc.log" &&
         "clang-$n" -O0 -fprofile-generate -fPIC -shared "$src/one.c" -o "$w/prog/libone.so" 2>>"$w/cc.log" &&
         "clang-$n" -O0 -fprofile-generate "$src/two.c" -L"$w/prog" -lone -Wl,-rpath,"$w/prog" -o "$w/prog/so" 2>>"$w/cc.log"; }; then
    echo "FAIL llvm-$n: clang-$n cannot build the programs: $(head -3 "$w/cc.log")"; echo "$n: 0 compared, 1 failed"; return 0
  fi
  # temporal traces for `order` (clang 17 on; before, no temporal-*.profraw)
  "clang-$n" -O0 -fprofile-generate -mllvm -pgo-temporal-instrumentation "$src/ic.c" -o "$w/prog/temporal" 2>/dev/null ||
    rm -f "$w/prog/temporal"
  local a
  # shellcheck disable=SC2086 # $a: the words are the program's arguments
  (cd "$w/base" &&
    for a in "" "x" "x x x x x x"; do
      LLVM_PROFILE_FILE=cov-%p-%m.profraw "$w/prog/cov" $a >/dev/null
      LLVM_PROFILE_FILE=ir-%p.profraw "$w/prog/ir" $a >/dev/null
      LLVM_PROFILE_FILE=pgo-data/default_%m.profraw "$w/prog/ir" $a >/dev/null
      LLVM_PROFILE_FILE=code-%p.profclangr "$w/prog/fe" $a >/dev/null
      # cargo-llvm-cov under nextest: a pool of N files per binary (%Nm)
      LLVM_PROFILE_FILE=cov-nextest-%2m.profraw "$w/prog/cov" $a >/dev/null
      # a program and its shared library, both instrumented: one file, two profiles
      LLVM_PROFILE_FILE=so-%p.profraw "$w/prog/so" $a >/dev/null
      if [ -x "$w/prog/temporal" ]; then LLVM_PROFILE_FILE=temporal-%p.profraw "$w/prog/temporal" $a >/dev/null; fi
    done
    ls cov-*.profraw > cov.list
    sed '1s/^/2,/' cov.list > weights.list
    # shellcheck disable=SC2012 # the names are ours: ir-PID.profraw
    head -c 200 "$(ls ir-*.profraw | head -1)" > bad.profraw
    : > empty.profraw)

  # run SEARCHPATH DIR CMD: CMD in a fresh copy of the inputs at $w/run (the
  # same path for both tools, so messages naming files agree), kept as DIR.
  run() {
    rm -rf "$w/run"; cp -a "$w/base" "$w/run"
    (cd "$w/run" && PATH="$1" LLVM_PROFDATA="llvm-profdata-$n" bash -c "$3" >"$w/$2.out" 2>"$w/$2.err" </dev/null
     echo $? >"$w/$2.rc")
    rm -rf "${w:?}/$2"; mv "$w/run" "$w/$2"
  }
  # same_output WHAT CMD...: CMD's stdout and stderr with LLVM's profile
  # ($w/real) and ours ($w/ours) in place of @P@.
  same_output() {
    local what="$1" k; shift
    for k in real ours; do
      (cd "$w/$k" && "${@//@P@/$w/$k/$prof}" >"$w/f.$k.out" 2>"$w/f.$k.err"; echo $? >"$w/f.$k.rc")
      sed -i "s|$w/$k/|DIR/|g" "$w/f.$k.out" "$w/f.$k.err"
    done
    if ! { cmp -s "$w/f.real.rc" "$w/f.ours.rc" && cmp -s "$w/f.real.out" "$w/f.ours.out" &&
           cmp -s "$w/f.real.err" "$w/f.ours.err"; }; then
      fail other "$cmd; then $what: differs with our profile: $(diff "$w/f.real.out" "$w/f.ours.out" | head -4) $(diff "$w/f.real.err" "$w/f.ours.err" | head -4)"
    fi
  }
  local check cmd prof f followed="" line=0
  while IFS=$'\t' read -r check cmd; do
    case "$check" in '#'*|'') continue ;; esac
    # one line in five on each release, the others on the next (pb_cell)
    line=$((line + 1))
    pb_cell 5 "$line" "$n" || { sampled=$((sampled + 1)); continue; }
    cases=$((cases + 1)); known_seen=""
    run "$real" real "$cmd"; run "$ours" ours "$cmd"
    # our detail after LLVM's line about an unreadable input is no LLVM line
    sed -i '/^  (profbridge: /d' "$w/ours.err"
    [ "$(cat "$w/real.rc")" = "$(cat "$w/ours.rc")" ] || fail other "$cmd: exit status $(cat "$w/ours.rc"), llvm-profdata-$n's $(cat "$w/real.rc")"
    cmp -s "$w/real.out" "$w/ours.out" || fail other "$cmd: stdout differs: $(diff "$w/real.out" "$w/ours.out" | head -6 | tr '\n' '|')"
    cmp -s "$w/real.err" "$w/ours.err" || fail stderr "$cmd: stderr differs: $(diff "$w/real.err" "$w/ours.err" | head -6 | tr '\n' '|')"
    f="$(diff -rq "$w/real" "$w/ours" 2>&1)" || fail other "$cmd: files differ: $(echo "$f" | head -3 | tr '\n' '|')"
    if [ -z "$known_seen" ] && { is_known "$n" stderr "$cmd" || is_known "$n" other "$cmd"; }; then
      echo "GONE llvm-$n: $cmd: listed as a known difference, but none was seen"
    fi
    prof="${check#*:}"
    # the follow-ups compare what LLVM's profile and ours give: for every
    # profile that differs, and once per kind (cov, ir, fe) for identical
    # bytes (then they cannot give anything else: the time goes elsewhere)
    if [ ! -s "$w/real/$prof" ] || [ ! -s "$w/ours/$prof" ]; then continue; fi
    if cmp -s "$w/real/$prof" "$w/ours/$prof"; then
      case " $followed " in *" ${check%%:*} "*) continue ;; esac
      followed="$followed ${check%%:*}"
    fi
    case "$check" in
      cov:*)
        same_output "llvm-cov-$n report" "llvm-cov-$n" report "$w/prog/cov" -instr-profile=@P@
        same_output "llvm-cov-$n export -summary-only" "llvm-cov-$n" export -summary-only "$w/prog/cov" -instr-profile=@P@
        same_output "llvm-cov-$n export --format lcov" "llvm-cov-$n" export "$w/prog/cov" --instr-profile @P@ --format lcov
        same_output "llvm-cov-$n show" "llvm-cov-$n" show "$w/prog/cov" -instr-profile=@P@ -show-line-counts-or-regions ;;
      ir:*|fe:*)
        local use=-fprofile-use=@P@
        [ "${check%%:*}" = fe ] && use=-fprofile-instr-use=@P@
        same_output "clang-$n $use" "clang-$n" -O2 "$use" -Werror=profile-instr-out-of-date \
          -Werror=profile-instr-unprofiled -Wprofile-instr-missing -S -o - "$src/ic.c"
        if grep -q 'profile-instr' "$w/f.ours.err"; then fail other "$cmd; then clang-$n $use: $(head -2 "$w/f.ours.err")"; fi ;;
    esac
  done < "$lines"
  echo "$n: $cases compared, $fails failed ($sampled lines left to other releases; PB_TEST_FULL=1 runs them)"
}

releases="${PB_CALLERS_RELEASES:-}"
if [ -z "$releases" ]; then
  for n in $(pb_llvm_releases clang); do
    command -v "llvm-cov-$n" >/dev/null && releases="$releases $n"
  done
fi
[ -n "${releases// /}" ] || { echo "SKIP: no LLVM release with llvm-profdata-N, clang-N and llvm-cov-N on PATH ($(pb_llvm_how 19))"; exit 77; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export -f one_release is_known pb_cell
export pb src lines
known_differences_text="$(printf '%s\n' "${known_differences[@]}")"
export known_differences_text
# shellcheck disable=SC2086,SC2016 # one release a word; $0 is for the inner bash
printf '%s\n' $releases | xargs -P2 -I{} bash -c 'one_release {} "$0/{}" > "$0/{}.log" 2>&1' "$work"
total=0 failed=0
for n in $releases; do
  cat "$work/$n.log"
  r="$(tail -1 "$work/$n.log")"
  case "$r" in "$n: "*" compared, "*" failed"*) ;; *) failed=$((failed + 1)); continue ;; esac
  read -r _ k _ f _ <<<"$r"; total=$((total + k)); failed=$((failed + f))
done
echo "llvm_callers.sh: $total command lines over releases$releases compared with the real llvm-profdata-N," \
  "$failed failures, $(cat "$work"/*.log | grep -c '^KNOWN') known differences (listed in the script)"
[ "$failed" = 0 ]
