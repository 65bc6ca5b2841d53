#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cov_llvm.sh -- `profbridge cov export|report` against the real llvm-cov-N,
# byte for byte, on the real programs of scripts/build-cov-corpus.sh (C, C
# MC/DC, C++ with a shared library, Debian's zlib, Rust) built by every
# clang-N.
#
# For every llvm-cov-M on PATH and every corpus unit (release N, program P):
#   N == M: export (JSON), export -format=lcov, -summary-only (both formats),
#           -skip-expansions, -skip-functions, -ignore-filename-regex, -name,
#           report, report -show-functions SOURCES, -show-branch-summary,
#           -show-region-summary=false, -show-instantiation-summary,
#           -show-mcdc-summary, -ignore-filename-regex, -name, and two errors
#           (a missing profile, an unknown option); an option is used only
#           where that llvm-cov-M's -help lists it;
#   N != M: (cross-release: llvm-cov-M on another clang's binaries, with
#           llvm-profdata-N's profile and, where llvm-profdata-M reads N's raw
#           files, with llvm-profdata-M's merge of them, and with the profile
#           of M's own build of the program) export and report of
#           c, export of c-mcdc, report of cpp -- where M cannot read them,
#           its error is what ours must print (see PB_COV_REFUSED).
# Each case runs the real `llvm-cov-M CMD ...` and ours as
#   `profbridge --llvm-version M cov CMD ...`                   (always)
#   `llvm-cov-M CMD ...`, a link named llvm-cov-M to profbridge (basic cases)
#   ours with the .profraw as -instr-profile (basic cases of one-raw units)
# and compares stdout bytes, stderr (program names and profile paths
# replaced by PROG / PROFILE) and the exit status. One line per difference
# with a diff excerpt, then "N passed, N failed"; exit 1 on any difference.
# Exit 77 (skip) when no llvm-cov-N is installed or the corpus cannot be built.
#
# Environment (ctest sets PB, PB_SOURCE_DIR, PB_BINARY_DIR):
#   PB_COV_CORPUS    the corpus (default: $PB_BINARY_DIR/cov-corpus, built or
#                    reused from the cache by scripts/build-cov-corpus.sh)
#   PB_COV_OURS      the command under test, {N} = the release, {CMD} = export
#                    or report (else it comes after the template)
#                    (default: "$PB --llvm-version {N} cov"; when profbridge
#                    refuses --llvm-version before the command, a NOTE and
#                    "$PB cov {CMD} --llvm-version {N}")
#   PB_COV_LINK      what the llvm-cov-N links point to, {N} = the release, a
#                    bare name is looked up on PATH; "none": no link runs
#                    (default: $PB)
#   PB_COV_RAW       0: no .profraw runs (the real tool reads no .profraw)
#   PB_COV_RELEASES  the llvm-cov-M to use (default: all on PATH)
#   PB_COV_CROSS     0: no cross-release cases (else one (M, N, program)
#                    in three; PB_TEST_FULL=1: all)
#   PB_COV_JOBS      comparisons run at once (default 2)
#   PB_COV_REFUSED   where llvm-cov-M refuses another release's files (a
#                    cross-release case it exits non-zero on), ours must
#                    either: print the same or succeed (exit 0, some output)
#                            (default; profbridge cov reads clang-18+ files
#                            as llvm-cov-13..17 and says so on stderr)
#                    exact:  print the same
#                    succeed: succeed
#   PB_COV_KEEP      a directory: keep every case's outputs there
#   PB_COV_LIST      1: print the cases (label, variants) and run nothing
#   PB_COV_EXCERPTS  diff excerpts of the first N failures only (default 60)
#   PB_COV_CRASH_OK  1: where the real tool crashes, ours may too (self-check);
#                    otherwise ours must not crash there (nothing else compared)
# Self-check with the real tool in place of ours (must pass; lib/cov-real-standin.sh
# also takes the .profraw and the llvm-cov-N link, see there):
#   PB_COV_OURS='llvm-cov-{N}' PB_COV_LINK='llvm-cov-{N}' PB_COV_RAW=0 PB_COV_CRASH_OK=1 \
#     bash cov_llvm.sh
set -euo pipefail

# ------------------------------------------------------------ one comparison
# compare_case LINE: LINE = label<TAB>M<TAB>unitdir<TAB>variants<TAB>args; the
# result goes to $PB_COV_T/res/<label with / replaced> as PASS/FAIL lines.
compare_case() {
  local label m dir variants args
  IFS=$'\t' read -r label m dir variants args <<<"$1"
  local t="$PB_COV_T" id="${label//[\/ =]/_}"
  local w="$t/work/$id"
  mkdir -p "$w"
  local objs=() srcs=() a
  mapfile -t objs < "$dir/OBJECTS"
  [ -f "$dir/SOURCES" ] && mapfile -t srcs < "$dir/SOURCES"
  local bin=("$dir/${objs[0]}") o
  for o in "${objs[@]:1}"; do bin+=(-object "$dir/$o"); done
  # args: words; @PROFILE, @BIN, @SOURCES, @NAME are expanded here
  # variants may name another profile (prof=PATH: a cross-release merge)
  local prof="$dir/cov.profdata" v
  for v in ${variants//,/ }; do
    case "$v" in prof=*) prof="${v#prof=}" ;; esac
  done
  local argv=() prof_arg="-instr-profile=$prof" words=()
  read -r -a words <<<"$args"
  if [ ${#words[@]} -eq 0 ] || [ -z "$m" ] || [ ! -d "$dir" ]; then
    echo "FAIL $label: the harness read no arguments from its case line" > "$t/res/$id"
    return 0
  fi
  for a in "${words[@]}"; do
    case "$a" in
      @PROFILE) argv+=("@PROFILE") ;;
      @BIN) argv+=("${bin[@]}") ;;
      @SOURCES) argv+=("${srcs[@]}") ;;
      -name=@NAME) argv+=("-name=$(cat "$dir/NAME")") ;;
      *) argv+=("$a") ;;
    esac
  done
  # run WHO PROFILE-ARG SKIP CMD...: runs CMD and the case's arguments but the
  # first SKIP (1: the subcommand is already in CMD) in the unit's directory
  # with a time limit.
  run() {
    local who="$1" parg="$2" skip="$3"; shift 3
    local full=() x
    for x in "$@"; do full+=("$x"); done
    local final=() y
    for y in "${argv[@]:$skip}"; do
      if [ "$y" = @PROFILE ]; then final+=("$parg"); else final+=("$y"); fi
    done
    set +e
    # (braces: the shell's own "Segmentation fault" line stays out of the log)
    { (cd "$dir" && timeout 120 "${full[@]}" "${final[@]}") >"$w/$who.out" 2>"$w/$who.err"; } 2>/dev/null
    echo $? > "$w/$who.rc"
    set -e
    # program names and profile paths are what may differ on stderr
    # (the corpus path is set aside first: it may hold "profbridge" itself)
    sed -E -e "s#$prof|$dir/cov\\.profraw|/nonexistent/missing\\.profdata#PROFILE#g" \
      -e "s#$PB_COV_CORPUS_DIR#@CORPUS@#g" -e "s#$PB_COV_NORM_RE#PROG#g" -e "s#@CORPUS@#$PB_COV_CORPUS_DIR#g" \
      -e "s#(^|[[:space:]'\"\`])profbridge( --llvm-version [0-9]+)?( cov)?(:|[[:space:]]|\$)#\\1PROG\\4#g" \
      "$w/$who.err" > "$w/$who.nerr"
    # profbridge's own notes (each mismatched function, a binary llvm-cov-N
    # would refuse, an error's detail) are additions under its own name
    # (docs/coverage.md); the llvm-cov-N link prints llvm-cov's lines alone
    if [ "$who" = ours ]; then
      grep -v '^PROG: note: ' "$w/$who.nerr" > "$w/$who.nerr2" || true
      mv "$w/$who.nerr2" "$w/$who.nerr"
    fi
  }
  local real cmd
  real="llvm-cov-$m"
  # ours: the template with {N} the release and, when it has {CMD}, the subcommand
  local tpl="${PB_COV_OURS//\{N\}/$m}" skip=0
  if [[ "$tpl" == *"{CMD}"* ]]; then tpl="${tpl//\{CMD\}/${argv[0]}}"; skip=1; fi
  read -r -a cmd <<<"$tpl"
  run real "$prof_arg" 0 "$real"
  local results=()
  check() {  # check WHO: compares WHO's outputs with the real tool's
    local who="$1" what="" x
    cmp -s "$w/real.out" "$w/$who.out" || what="stdout"
    cmp -s "$w/real.nerr" "$w/$who.nerr" || what="${what:+$what, }stderr"
    [ "$(cat "$w/real.rc")" = "$(cat "$w/$who.rc")" ] || what="${what:+$what, }exit $(cat "$w/$who.rc") (real $(cat "$w/real.rc"))"
    if [ "$(cat "$w/real.rc")" -ge 124 ] || grep -q '^Stack dump:' "$w/real.err"; then
      # the real tool crashed (llvm-cov-24 on an 18 MC/DC binary with another
      # build's bitmap): nothing to compare but that ours does not crash
      if [ "${PB_COV_CRASH_OK:-0}" = 1 ] || { [ "$(cat "$w/$who.rc")" -lt 124 ] && ! grep -qE '^Stack dump:|AddressSanitizer|runtime error' "$w/$who.err"; }; then
        results+=("PASS $label [$who, real crashed, ours exit $(cat "$w/$who.rc")]")
      else
        results+=("FAIL $label [$who]: crashed like the real tool (exit $(cat "$w/$who.rc")): $(grep -m1 -E 'ERROR|runtime error|Stack dump' "$w/$who.err" | cut -c1-200)")
      fi
    elif [ "${PB_COV_REFUSED:-either}" != exact ] && [[ "$label" == */on-* ]] && [ "$(cat "$w/real.rc")" != 0 ] \
         && { [ "${PB_COV_REFUSED:-either}" = succeed ] || [ -n "$what" ]; }; then
      # the real tool cannot read another release's files and ours printed
      # something else: then ours must read them (profbridge cov reads every
      # mapping version whatever it mimics) and succeed
      if [ "$(cat "$w/$who.rc")" = 0 ] && [ -s "$w/$who.out" ]; then
        results+=("PASS $label [$who, real refused, ours succeeded]")
      else
        results+=("FAIL $label [$who]: llvm-cov-$m refused and ours neither printed the same nor succeeded (exit $(cat "$w/$who.rc")): $(head -c 200 "$w/$who.err")")
      fi
    elif [ -z "$what" ]; then
      results+=("PASS $label [$who]")
    else
      local ex="" at
      if [[ "$what" == stdout* ]]; then
        # the first differing byte with some context: JSON is one long line
        at="$(cmp "$w/real.out" "$w/$who.out" 2>&1 | sed -n 's/.*differ: byte \([0-9]*\).*/\1/p; s/.*EOF on \([^ ]*\).*/EOF of \1/p' || true)"
        if [[ "$at" =~ ^[0-9]+$ ]]; then
          local from=$(( at > 80 ? at - 80 : 1 ))
          ex="first difference at byte $at"$'\n'"real: $(tail -c +"$from" "$w/real.out" | head -c 160 | tr '\n' '~' || true)"
          ex="$ex"$'\n'"ours: $(tail -c +"$from" "$w/$who.out" | head -c 160 | tr '\n' '~' || true)"
        else
          ex="stdout: one is a prefix of the other (${at:-?}; ~ is a newline)"
        fi
        if [ "$(wc -l < "$w/real.out")" -gt 1 ]; then
          ex="$ex"$'\n'"$(diff -u "$w/real.out" "$w/$who.out" | sed -n '3,12p' | cut -c1-200 || true)"
        fi
      fi
      if [[ "$what" == *stderr* ]]; then
        ex="$ex${ex:+$'\n'}$(diff -u "$w/real.nerr" "$w/$who.nerr" | sed -n '3,8p' | cut -c1-200 || true)"
      fi
      results+=("FAIL $label [$who]: $what differ (in $dir)")
      while IFS= read -r x; do results+=("    $x"); done <<<"$ex"
    fi
  }
  run ours "$prof_arg" "$skip" "${cmd[@]}"; check ours
  for v in ${variants//,/ }; do
    case "$v" in
      link) run link "$prof_arg" 0 "$PB_COV_T/links/$m/llvm-cov-$m"; check link ;;
      raw) run raw "-instr-profile=$dir/$(cat "$dir/RAW")" "$skip" "${cmd[@]}"; check raw ;;
      link-raw) run link-raw "-instr-profile=$dir/$(cat "$dir/RAW")" 0 "$PB_COV_T/links/$m/llvm-cov-$m"; check link-raw ;;
    esac
  done
  printf '%s\n' "${results[@]}" > "$t/res/$id"
  echo "$(cat "$w/real.rc") ${words[0]}" > "$t/res/$id.real"   # the real tool's exit status
  if [ -n "${PB_COV_KEEP:-}" ]; then mkdir -p "$PB_COV_KEEP"; cp -r "$w" "$PB_COV_KEEP/"; fi
  rm -rf "$w"
}
if [ "${1:-}" = --case ]; then
  # a case that stops half-way (set -e) still leaves a result that names it
  set +e
  (set -e; compare_case "$2")
  rc=$?
  IFS=$'\t' read -r label _ <<<"$2"
  id="${label//[\/ =]/_}"
  if [ ! -f "$PB_COV_T/res/$id" ]; then
    echo "FAIL $label: the harness stopped in this case (exit $rc; outputs in $PB_COV_T/work/$id)" > "$PB_COV_T/res/$id"
  fi
  exit 0
fi

# ------------------------------------------------------------ setup
: "${PB_SOURCE_DIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
self="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
releases=()
for m in ${PB_COV_RELEASES:-13 14 15 16 17 18 19 20 21 22 23 24}; do
  command -v "llvm-cov-$m" >/dev/null 2>&1 && releases+=("$m")
done
if [ ${#releases[@]} -eq 0 ]; then
  echo "SKIP: no llvm-cov-N on PATH (scripts/install-deps.sh installs 13-16 and 19, scripts/fetch-llvm.sh --clang the others)"
  exit 77
fi

ours_tpl="${PB_COV_OURS:-}"
PB_COV_OURS_SET="$ours_tpl"
if [ -z "$ours_tpl" ]; then
  if [ -z "${PB:-}" ] || [ ! -x "${PB:-}" ]; then
    echo "FAIL: the command under test is missing: PB (the profbridge binary) is '${PB:-unset}', not an executable"
    echo "0 passed, 1 failed"
    exit 1
  fi
  ours_tpl="$PB --llvm-version {N} cov"
fi
link_tpl="${PB_COV_LINK:-${PB:-none}}"

corpus="${PB_COV_CORPUS:-}"
if [ -z "$corpus" ]; then
  corpus="${PB_BINARY_DIR:-$PB_SOURCE_DIR/build}/cov-corpus"
  if ! bash "$PB_SOURCE_DIR/scripts/build-cov-corpus.sh" "$corpus" >"${TMPDIR:-/tmp}/cov-corpus.$$.log" 2>&1; then
    echo "SKIP: scripts/build-cov-corpus.sh could not build the corpus: $(tail -3 "${TMPDIR:-/tmp}/cov-corpus.$$.log")"
    rm -f "${TMPDIR:-/tmp}/cov-corpus.$$.log"
    exit 77
  fi
  rm -f "${TMPDIR:-/tmp}/cov-corpus.$$.log"
fi
if [ ! -s "$corpus/INDEX" ]; then
  echo "SKIP: no corpus in $corpus (scripts/build-cov-corpus.sh DIR, then PB_COV_CORPUS=DIR)"
  exit 77
fi
corpus="$(cd "$corpus" && pwd -P)"
PB_COV_CORPUS_DIR="$corpus"
export PB_COV_CORPUS_DIR

T="$(mktemp -d)"
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/res" "$T/work" "$T/links" "$T/help"
export PB_COV_T="$T" PB_COV_OURS="$ours_tpl" PB_COV_KEEP="${PB_COV_KEEP:-}"

# the names a program may call itself on stderr, as one regex
norm=()
re_quote() { printf '%s' "$1" | sed -e 's/[][\.*^$+?(){}|#]/\\&/g'; }
for m in "${releases[@]}"; do
  mkdir -p "$T/links/$m"
  if [ "$link_tpl" != none ]; then
    target="${link_tpl//\{N\}/$m}"
    case "$target" in */*) ;; *) target="$(command -v "$target" || echo "$target")" ;; esac
    ln -s "$target" "$T/links/$m/llvm-cov-$m"
  fi
  real_path="$(command -v "llvm-cov-$m")"
  norm+=("$(re_quote "$T/links/$m/llvm-cov-$m")" "$(re_quote "$(readlink -f "$real_path")")" "$(re_quote "$real_path")")
done
[ -n "${PB:-}" ] && norm+=("$(re_quote "$PB")")
norm+=("llvm-cov-[0-9]+" "llvm-cov")
PB_COV_NORM_RE="$(IFS='|'; echo "${norm[*]}")"
export PB_COV_NORM_RE

# has M CMD OPTION: whether llvm-cov-M CMD -help lists OPTION
has() {
  local f="$T/help/$1-$2"
  [ -f "$f" ] || "llvm-cov-$1" "$2" -help > "$f" 2>&1 || true
  grep -qE -- "^ *-?$3([= ]|$)" "$f"   # -opt (13-15) or --opt
}

# ------------------------------------------------------------ the cases
cases="$T/cases"
: > "$cases"
# shellcheck disable=SC1091 # pb_cell
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
add_no=0
add() {  # add LABEL M DIR VARIANTS ARGS...
  local label="$1" m="$2" dir="$3" variants="$4"; shift 4
  # the cases of ours only (no link, no .profraw variant): one in three,
  # the others on the next releases (PB_TEST_FULL=1: all)
  if [ -z "$variants" ]; then
    add_no=$((add_no + 1))
    pb_cell 3 "$add_no" "$m" || return 0
  fi
  # (tabs are IFS white space: read would merge an empty field away, so "-")
  printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$m" "$dir" "${variants:--}" "$*" >> "$cases"
}
ignore_re='(util|covlib|gz)'
while IFS=$'\t' read -r n p; do
  dir="$corpus/$n/$p"
  basic=link
  if [ "${PB_COV_RAW:-1}" != 0 ] && [ -f "$dir/RAW" ]; then basic="link,raw"; fi
  [ "$link_tpl" = none ] && basic="${basic/link/}"
  for m in "${releases[@]}"; do
    if [ "$m" = "$n" ]; then
      l="$m/$p"
      add "$l export" "$m" "$dir" "$basic" export @PROFILE @BIN
      add "$l export -format=lcov" "$m" "$dir" "$basic" export -format=lcov @PROFILE @BIN
      add "$l export -summary-only" "$m" "$dir" "" export -summary-only @PROFILE @BIN
      add "$l export -format=lcov -summary-only" "$m" "$dir" "" export -format=lcov -summary-only @PROFILE @BIN
      add "$l export -skip-expansions" "$m" "$dir" "" export -skip-expansions @PROFILE @BIN
      if has "$m" export -skip-functions; then
        add "$l export -skip-functions" "$m" "$dir" "" export -skip-functions @PROFILE @BIN
        add "$l export -format=lcov -skip-functions" "$m" "$dir" "" export -format=lcov -skip-functions @PROFILE @BIN
      fi
      add "$l export -ignore-filename-regex" "$m" "$dir" "" export "-ignore-filename-regex=$ignore_re" @PROFILE @BIN
      add "$l export -name" "$m" "$dir" "" export -name=@NAME @PROFILE @BIN
      rep="$basic"; [[ "$basic" == *raw* ]] && rep="$basic,link-raw"
      add "$l report" "$m" "$dir" "$rep" report @PROFILE @BIN
      add "$l report -show-functions" "$m" "$dir" "$basic" report -show-functions @PROFILE @BIN @SOURCES
      if has "$m" report -show-branch-summary; then
        add "$l report -show-branch-summary=false" "$m" "$dir" "" report -show-branch-summary=false @PROFILE @BIN
      fi
      if has "$m" report -show-region-summary; then
        add "$l report -show-region-summary=false" "$m" "$dir" "" report -show-region-summary=false @PROFILE @BIN
      fi
      if has "$m" report -show-instantiation-summary; then
        add "$l report -show-instantiation-summary" "$m" "$dir" "" report -show-instantiation-summary @PROFILE @BIN
      fi
      if has "$m" report -show-mcdc-summary; then
        add "$l report -show-mcdc-summary" "$m" "$dir" "" report -show-mcdc-summary @PROFILE @BIN
        add "$l report -show-functions -show-mcdc-summary" "$m" "$dir" "" report -show-functions -show-mcdc-summary @PROFILE @BIN @SOURCES
      fi
      add "$l report -ignore-filename-regex" "$m" "$dir" "" report "-ignore-filename-regex=$ignore_re" @PROFILE @BIN
      add "$l report -name" "$m" "$dir" "" report -name=@NAME @PROFILE @BIN
      add "$l export missing profile" "$m" "$dir" "${basic/raw/}" export -instr-profile=/nonexistent/missing.profdata @BIN
      if [ "$p" = c ] && [ -f "$corpus/$n/cpp/cov.profdata" ] && has "$m" report -check-binary-ids; then
        add "$l report -check-binary-ids, the profile of another program" "$m" "$dir" "link,prof=$corpus/$n/cpp/cov.profdata" \
          report -check-binary-ids @PROFILE @BIN
      fi
      add "$l report unknown option" "$m" "$dir" "" report -no-such-option @PROFILE @BIN
    elif [ "${PB_COV_CROSS:-1}" != 0 ]; then
      case "$p" in c) pi=0 ;; c-mcdc) pi=1 ;; cpp) pi=2 ;; *) continue ;; esac
      # one (M, N, program) in three: each llvm-cov-M still reads every
      # other clang's files, the program changing with the pair (PB_TEST_FULL=1: all)
      pb_cell 3 "$m" "$n" "$pi" || continue
      # N's own profile (M may refuse its version), and where llvm-profdata-M
      # reads N's raw file, M's merge of it (then M reads N's mapping itself)
      profs=("")
      x="$T/xprof/$m-$n-$p.profdata"
      mkdir -p "$T/xprof"
      if command -v "llvm-profdata-$m" >/dev/null 2>&1 \
         && "llvm-profdata-$m" merge -o "$x" "$dir"/*.profraw >/dev/null 2>&1; then
        profs+=("prof=$x")
      fi
      # and M's own build's profile of the same program: names match, hashes
      # may not (mismatched data), and M reaches N's mapping even where it
      # reads no profile of N (13-17 refusing clang-18+'s mapping version 7)
      if [ -f "$corpus/$m/$p/cov.profdata" ]; then profs+=("prof=$corpus/$m/$p/cov.profdata"); fi
      for pv in "${profs[@]}"; do
        case "$pv" in
          "") l="$m/on-$n/$p" ;;
          prof=$corpus/*) l="$m/on-$n/$p/profile-of-$m-build" ;;
          *) l="$m/on-$n/$p/profdata-$m-merge" ;;
        esac
        case "$p" in
          c) add "$l export" "$m" "$dir" "$pv" export @PROFILE @BIN
             add "$l report" "$m" "$dir" "$pv" report @PROFILE @BIN ;;
          c-mcdc) add "$l export" "$m" "$dir" "$pv" export @PROFILE @BIN ;;
          cpp) add "$l report" "$m" "$dir" "$pv" report @PROFILE @BIN ;;
        esac
      done
    fi
  done
done < "$corpus/INDEX"

if [ "${PB_COV_LIST:-0}" = 1 ]; then cut -f1,4 "$cases"; exit 0; fi

# ------------------------------------------------------------ the command exists?
# One plain export first, ours and the real tool's: when the real one works
# and ours prints nothing and fails (no `cov` command yet, no --llvm-version
# before it, not found), that is one clear failure, not a thousand.
first="$(head -1 "$cases")"
IFS=$'\t' read -r _ m0 dir0 _ _ <<<"$first"
probe=("-instr-profile=$dir0/cov.profdata" "$dir0/$(head -1 "$dir0/OBJECTS")")
# try_ours TEMPLATE: the probe through TEMPLATE; sets cmd0 and rc0
try_ours() {
  local tpl="${1//\{N\}/$m0}"
  if [[ "$tpl" == *"{CMD}"* ]]; then read -r -a cmd0 <<<"${tpl//\{CMD\}/export}"; else read -r -a cmd0 <<<"$tpl export"; fi
  (cd "$dir0" && timeout 120 "${cmd0[@]}" "${probe[@]}") >"$T/probe.out" 2>"$T/probe.err"
  rc0=$?
}
set +e
try_ours "$ours_tpl"
if [ -z "${PB_COV_OURS_SET:-}" ] && [ "$rc0" -ne 0 ] && grep -q "unknown option '--llvm-version'" "$T/probe.err"; then
  # profbridge takes --llvm-version after the command only: say so, use that form
  echo "NOTE: '$PB --llvm-version N cov' is refused ($(head -1 "$T/probe.err")); using '$PB cov CMD --llvm-version N'"
  ours_tpl="$PB cov {CMD} --llvm-version {N}"
  export PB_COV_OURS="$ours_tpl"
  try_ours "$ours_tpl"
fi
(cd "$dir0" && "llvm-cov-$m0" export "${probe[@]}") >/dev/null 2>&1
rc_real=$?
set -e
if [ "$rc_real" -eq 0 ] && [ "$rc0" -ne 0 ] && [ ! -s "$T/probe.out" ]; then
  echo "FAIL: the command under test is missing or broken: '${cmd0[*]} ${probe[*]}' exited $rc0 with no output (llvm-cov-$m0 exits 0): $(head -c 300 "$T/probe.err")"
  echo "0 passed, 1 failed"
  exit 1
fi

# ------------------------------------------------------------ run them
total_cases=$(wc -l < "$cases")
echo "cov_llvm: $total_cases cases, llvm-cov ${releases[*]}, corpus $corpus ($(wc -l < "$corpus/INDEX") units)"
tr '\n' '\0' < "$cases" | xargs -0 -P "${PB_COV_JOBS:-2}" -n1 bash "$self" --case || true
passed=0
failed=0
while IFS= read -r line; do
  case "$line" in
    PASS*) passed=$((passed + 1)) ;;
    FAIL*) failed=$((failed + 1)); echo "$line"
           if [ "$failed" -eq "${PB_COV_EXCERPTS:-60}" ]; then echo "(from here on without diff excerpts: PB_COV_EXCERPTS=N shows more)"; fi ;;
    "    "*) if [ "$failed" -lt "${PB_COV_EXCERPTS:-60}" ]; then echo "$line"; fi ;;
  esac
done < <(find "$T/res" -type f ! -name '*.real' -print0 | LC_ALL=C sort -z -V | xargs -0 -r cat)
missing=$(( total_cases - $(find "$T/res" -type f ! -name '*.real' | wc -l) ))
# a guard against comparing nothing: how often did the real tool succeed?
real_ok=$(find "$T/res" -name '*.real' -exec cat {} + 2>/dev/null | grep -c '^0 ' || true)
echo "cov_llvm: the real llvm-cov exited 0 in $real_ok of $total_cases cases (the others are errors to match)"
if [ "$real_ok" -lt $(( total_cases / 2 )) ]; then
  echo "FAIL: the real llvm-cov failed in most cases: the harness passes it wrong arguments?"
  failed=$((failed + 1))
fi
if [ "$missing" -gt 0 ]; then
  echo "FAIL: $missing cases left no result (the harness itself failed)"
  failed=$((failed + missing))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
