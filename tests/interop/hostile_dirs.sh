#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# hostile_dirs.sh -- issue 23, `merge DIR` on hostile directory trees:
#  - two symlinks to "." inside DIR: llvm-profdata never ends; profbridge (and
#    its llvm-profdata-N personality) enters each directory once, by device
#    and inode, so it ends and merges each file once (before: a hang);
#  - one symlink to ".": each file once (llvm-profdata: 41 times; a
#    deliberate difference, docs/llvm-profdata.md);
#  - an unreadable subdirectory (run as an unprivileged user, root ignores
#    permissions): skipped silently, the rest merged, exit 0, the profdata
#    llvm-profdata-19 writes (before: "out of memory", exit 2); the input
#    directory itself unreadable: llvm-profdata-19's line and exit status.
# Takes about 1 s.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
. "$(dirname "$0")/lib/llvm-tools.bash"
pb_need_llvm 19
cd "$T"
mkdir bin && ln -s "$(readlink -f "$PB")" bin/llvm-profdata-19
printf 'foo\n# Func Hash:\n10\n# Num Counters:\n2\n# Counter Values:\n1\n2\n\n' >a.proftext
printf 'bar\n# Func Hash:\n11\n# Num Counters:\n1\n# Counter Values:\n5\n\n' >b.proftext
mkdir -p d/sub
llvm-profdata-19 merge a.proftext -o d/a.profdata
llvm-profdata-19 merge b.proftext -o d/sub/b.profdata
llvm-profdata-19 merge d -o want.profdata  # each file once: no links yet

# --- symlinks to "." ------------------------------------------------------------
ln -s . d/self
for tool in "$PB" bin/llvm-profdata-19; do
  run timeout 20 "$tool" merge d -o got.profdata
  expect_rc 0 "$(basename "$tool") merge <DIR with a symlink to .>"
  cmp -s want.profdata got.profdata && ok ||
    fail "$(basename "$tool") merge <DIR with a symlink to .>: not each file once: $(llvm-profdata-19 show --all-functions --counts got.profdata | grep -m2 Block)"
done
ln -s . d/self2
ln -s .. d/sub/up
for tool in "$PB" bin/llvm-profdata-19; do
  run timeout 20 "$tool" merge d -o got.profdata
  expect_rc 0 "$(basename "$tool") merge <DIR with two symlinks to . and one to ..> (124: a hang)"
  cmp -s want.profdata got.profdata && ok || fail "$(basename "$tool") merge <DIR with self-links>: not each file once"
done

# --- an unreadable subdirectory (as an unprivileged user) --------------------------
as_user=()
if [ "$(id -u)" = 0 ]; then
  if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
    as_user=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups)
  else
    echo "SKIP (part): running as root without setpriv/nobody: the unreadable-directory checks need an unprivileged user"
    finish
    exit $?
  fi
fi
rm d/self d/self2 d/sub/up
mkdir d/locked && cp d/a.profdata d/locked/c.profdata && chmod 000 d/locked
mkdir w && chmod 777 w && chmod 755 "$T" bin
if "${as_user[@]}" test -r "$PB"; then
  "${as_user[@]}" llvm-profdata-19 merge d -o w/want2.profdata
  cmp -s want.profdata w/want2.profdata || fail "llvm-profdata-19 no longer skips an unreadable subdirectory"
  for tool in "$PB" bin/llvm-profdata-19; do
    run "${as_user[@]}" timeout 20 "$tool" merge d -o w/got.profdata
    expect_rc 0 "$(basename "$tool") merge <DIR with an unreadable subdirectory>"
    [ -s "$T/err" ] && fail "$(basename "$tool") merge <DIR with an unreadable subdirectory> said: $(head -c 300 "$T/err")" || ok
    cmp -s w/want2.profdata w/got.profdata && ok || fail "unreadable subdirectory: not llvm-profdata-19's profdata"
  done
  set +e
  "${as_user[@]}" llvm-profdata-19 merge d/locked -o w/x.profdata >/dev/null 2>want.err
  want_rc=$?
  set -e
  run "${as_user[@]}" bin/llvm-profdata-19 merge d/locked -o w/x.profdata
  expect_rc "$want_rc" "llvm-profdata-19 merge <an unreadable DIR>"
  cmp -s want.err "$T/err" && ok || fail "unreadable DIR: $(diff want.err "$T/err")"
  run "${as_user[@]}" "$PB" merge d/locked -o w/x.profdata
  expect_rc 2 "profbridge merge <an unreadable DIR>" # an input it cannot read: I/O, as a missing one (README)
  expect_grep "$T/err" "d/locked: cannot read the directory: Permission denied" "unreadable DIR: the words"
else
  echo "note: $PB is not readable by nobody: the unreadable-directory checks are skipped"
fi
chmod 755 d/locked
finish
