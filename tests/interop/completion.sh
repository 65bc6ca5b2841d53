#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# completion.sh -- the bash completion (completion/profbridge.bash) called as
# bash calls it (COMP_WORDS / COMP_CWORD) on partial command lines, against
# hand-written expectations; every option that a command's --help lists must
# be completed (so an option added without completion fails here); the zsh
# completion (completion/_profbridge) through stand-ins of zsh's compadd and
# _files, and loaded by compinit, when zsh is installed.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"

bin="$T/bin"
mkdir -p "$bin" "$T/cwd"
ln -s "$PB" "$bin/profbridge"
: >"$T/cwd/run1.profdata"
: >"$T/cwd/run2.iprof"
export PATH="$bin:$PATH"
cd "$T/cwd"

# complete WORD...: COMPREPLY for the command line WORD... (the last word is
# the one being completed), sorted, one line
complete_bash() {
  bash -c '. "$1/completion/profbridge.bash"; shift
           COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _profbridge
           printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$PB_SOURCE_DIR" "$@"
}
sorted() { printf '%s\n' "$@" | sort | tr '\n' ' '; }

# expect_words "WANT..." WORD...: the completion is exactly WANT
expect_words() {
  local want; want=$(sorted $1); shift
  local got; got=$(complete_bash "$@")
  if [ "$got" = "$want" ]; then ok; else fail "bash: '$*': got '$got', expected '$want'"; fi
}
# expect_has "WANT..." WORD...: the completion has every word of WANT (and $3... not)
expect_has() {
  local want=$1; shift
  local got; got=" $(complete_bash "$@")"
  for w in $want; do
    case "$got" in *" $w "*) ok ;; *) fail "bash: '$*': '$w' missing from '$got'" ;; esac
  done
}
expect_not() {
  local bad=$1; shift
  local got; got=" $(complete_bash "$@")"
  for w in $bad; do
    case "$got" in *" $w "*) fail "bash: '$*': '$w' offered (it should not be)" ;; *) ok ;; esac
  done
}

commands="convert show validate dump merge types flame overlap diff order cov"
releases="13 14 15 16 17 18 19 20 21 22 23 24"
formats="indexed iprof json raw text"

expect_words "$commands help" profbridge ""
expect_words "convert" profbridge con
expect_words "diff dump" profbridge d
expect_words "--help --version" profbridge --
expect_words "$commands help" profbridge help ""
expect_has "--output --to --from --lenient --llvm-version --progress --quiet --help \
            --max-input-size --max-inflation --raw-version --indexed-version --iprof-version --sparse" \
  profbridge convert --
expect_words "$formats" profbridge convert --to ""
expect_words "iprof indexed" profbridge convert --to i
expect_words "$formats" profbridge convert --to = ""          # --to=<TAB>: bash splits at '='
expect_words "$formats" profbridge convert --from ""
expect_words "$releases" profbridge convert --llvm-version ""
expect_words "$releases" profbridge merge in.profraw --llvm-version ""
expect_words "warn any all" profbridge merge --failure-mode ""
expect_words "warn" profbridge merge --failure-mode = w
expect_words "--raw-version" profbridge convert --raw-v
expect_words "5 7 8 9 10 11" profbridge convert --raw-version ""
expect_words "le be" profbridge convert in.iprof --raw-byte-order ""
expect_words "text json yaml" profbridge show --show-format ""
expect_words "run1.profdata run2.iprof" profbridge convert -o ""   # a file
expect_words "run1.profdata" profbridge merge --output run1
expect_has "-o -q" profbridge convert -
expect_words "run1.profdata run2.iprof" profbridge convert --lenient ""  # a switch: then IN
expect_words "" profbridge show --topn ""                           # a number: nothing to offer
expect_has "--all-functions --counts --topn --progress --quiet --llvm --json" profbridge show --
expect_has "--quiet -q --json" profbridge diff -
expect_not "--progress" profbridge diff --     # diff reads two small files; its --quiet is its own
expect_not "--sample --gcc --extbinary" profbridge merge --   # refused: sample profiles
expect_words "" profbridge nosuchcommand --
# cov: its subcommands, then the subcommand's options (llvm-cov's table)
expect_words "export report" profbridge cov ""
expect_has "--instr-profile --object --format --skip-functions --llvm-version --weighted-instr-profile" \
  profbridge cov export --
expect_has "--show-functions --instr-profile" profbridge cov report --
expect_not "--skip-functions --polly" profbridge cov report --
expect_words "text html lcov" profbridge cov export --format ""

# --- every option of every command's --help is completed -------------------------------
for c in ${commands/cov/} cov:export cov:report; do # cov's options are its subcommands'
  offered=" $(complete_bash profbridge ${c/:/ } -)"
  "$PB" ${c/:/ } --help >"$T/help.$c"
  # option lines: "  -o, --output OUT   ..." or "      --from FORMAT  ..."
  listed=$(sed -nE 's/^ +((-[A-Za-z]), )?(--[a-z][a-z0-9-]*).*/\2 \3/p' "$T/help.$c")
  n=0
  for w in $listed; do
    n=$((n + 1))
    case "$offered" in *" $w "*) ok ;; *) fail "$c --help lists $w, its completion does not offer it" ;; esac
  done
  [ "$n" -ge 3 ] || fail "$c --help: only $n option lines found; the help format changed?"
  # options of every command, named in the top-level --help
  for w in --max-input-size --max-inflation --help; do
    case "$offered" in *" $w "*) ok ;; *) fail "$c: $w is not completed" ;; esac
  done
done
# the commands of the top-level --help
top=$("$PB" --help | sed -nE '/^Commands:/,/^$/s/^  ([a-z]+) .*/\1/p' | sort | tr '\n' ' ')
want=$(sorted $commands)
[ "$top" = "$want" ] && ok || fail "profbridge --help lists '$top', the test knows '$want'"

# --- zsh --------------------------------------------------------------------------------------
if command -v zsh >/dev/null 2>&1; then
  cat >"$T/zt.zsh" <<'ZSH'
# stand-ins for compsys: record what would be offered
compadd() { [[ $1 == -- ]] && shift; offered+=("$@") }
_files() { offered+=("<files>") }
_message() { offered+=("<message>") }
_call_program() { shift; "$@" }
compset() {
  if [[ $1 == -P && $PREFIX == *=* ]]; then IPREFIX=${PREFIX%%=*}=; PREFIX=${PREFIX#*=}; return 0; fi
  return 1
}
t() {
  words=("$@"); CURRENT=${#words}; PREFIX=${words[CURRENT]}; IPREFIX=""; offered=()
  source "$SRC/completion/_profbridge"
  print -r -- "${offered[*]}"
}
t profbridge ""
t profbridge convert --to ""
t profbridge convert --to=i
t profbridge merge --failure-mode ""
t profbridge convert --llvm-version ""
t profbridge convert -o ""
t profbridge show --topn ""
t profbridge convert --
ZSH
  SRC="$PB_SOURCE_DIR" zsh -f "$T/zt.zsh" >"$T/zsh.out" 2>"$T/zsh.err" || fail "zsh: $(cat "$T/zsh.err")"
  mapfile -t z < <(while read -r line; do sorted $line | sed 's/ $//'; echo; done <"$T/zsh.out")
  [ "${z[0]:-}" = "$(sorted $commands help | sed 's/ $//')" ] && ok || fail "zsh: 'profbridge ': ${z[0]:-}"
  [ "${z[1]:-}" = "$(sorted $formats | sed 's/ $//')" ] && ok || fail "zsh: 'convert --to ': ${z[1]:-}"
  [ "${z[2]:-}" = "$(sorted $formats | sed 's/ $//')" ] && ok || fail "zsh: 'convert --to=i': ${z[2]:-}"
  [ "${z[3]:-}" = "all any warn" ] && ok || fail "zsh: 'merge --failure-mode ': ${z[3]:-}"
  [ "${z[4]:-}" = "$(sorted $releases | sed 's/ $//')" ] && ok || fail "zsh: 'convert --llvm-version ': ${z[4]:-}"
  [ "${z[5]:-}" = "<files>" ] && ok || fail "zsh: 'convert -o ': ${z[5]:-}"
  [ "${z[6]:-}" = "<message>" ] && ok || fail "zsh: 'show --topn ': ${z[6]:-}"
  case " ${z[7]:-} " in *" --raw-version "*" --to "*) ok ;; *) fail "zsh: 'convert --': ${z[7]:-}" ;; esac
  # compinit finds it by its #compdef line
  mkdir -p "$T/fpath"
  cp "$PB_SOURCE_DIR/completion/_profbridge" "$T/fpath/"
  got=$(HOME="$T" zsh -fc 'fpath=("$1" $fpath); autoload -U compinit; compinit -D -u; print -r -- ${_comps[profbridge]}' _ "$T/fpath")
  [ "$got" = "_profbridge" ] && ok || fail "zsh: compinit does not bind _profbridge to profbridge (got '$got')"
else
  echo "note: zsh is not installed; the zsh completion is not checked"
fi

echo "completion.sh: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
