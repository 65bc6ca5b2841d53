#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# io_outputs.sh -- outputs that cannot destroy anything (issue 12, item 1;
# docs/architecture.md "Outputs and inputs"). Every command writes through
# one sink: an output that is also an input is written through the
# temporary file (the input survives the read), a symbolic link's target is
# replaced and the link stays, a device or FIFO is written in place, a
# directory or a missing directory is an error naming the OUTPUT, an old
# file's mode and owner are kept, a 254-byte name works, and no temporary
# file survives SIGINT, SIGTERM, SIGHUP, SIGXFSZ; SIGKILL leaves the old
# output whole.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
D="$PB_SHARED_DIR/testdata/llvm-real/llvm19"
[ -f "$D/basic-fe.profdata" ] || { echo "SKIP: $D/basic-fe.profdata is missing"; exit 77; }
TO="timeout 60"
w="$T/w"; mkdir -p "$w"; cd "$w"
cp "$D/basic-fe.profdata" in.profdata
cp "$D/basic-fe.profraw" in.profraw
$TO "$PB" show in.profdata >want-show.txt
$TO "$PB" show in.profdata --counts --all-functions >want-counts.txt
# a profile big enough to take a while (60000 functions, 4.6 MB indexed)
awk 'BEGIN{print ":ir"; for(i=0;i<60000;i++) printf "f%d\n%d\n3\n%d\n%d\n7\n\n", i, i+1, i, 2*i}' >big.proftext
$TO "$PB" convert big.proftext -o big.profdata
# no temporary file ('.pbtmp.') may stay in $w
no_temps() { if ls -A "$w" | grep -q pbtmp; then fail "$1: temporary file left: $(ls -A "$w" | grep pbtmp | tr '\n' ' ')"; ls -A "$w" | grep pbtmp | while read -r f; do rm -f "$w/$f"; done; else ok; fi; }

# 1. A report written over one of its own inputs is refused before anything
#    is read (issue 23: `show IN -o IN` replaced the profile by its listing):
#    exit 2, the message names both, IN stays as it was. A profile written
#    over its input stays allowed (llvm-profdata allows `merge a -o a`): it
#    goes through the temporary file, so the input is read whole first.
ln -sf "$PB" llvm-profdata-19
for cmd in "show same.profdata -o same.profdata" "show same.profdata --counts --all-functions -o alias.profdata" \
           "dump same.profdata -o same.profdata" "types same.profdata -o same.profdata" \
           "overlap in.profdata same.profdata -o same.profdata" "diff in.profdata same.profdata -o alias.profdata" \
           "flame same.profdata --format svg -o same.profdata" "order same.profdata -o same.profdata" \
           "merge same.profdata --json-summary alias.profdata -o merged.profdata"; do
  cp in.profdata same.profdata; ln -sf same.profdata alias.profdata
  # shellcheck disable=SC2086
  run $TO "$PB" $cmd; expect_rc 2 "$cmd (a report over its input)"
  expect_grep "$T/err" "is the input '[a-z.]*' \\(the same file\\): refusing to write a report" "$cmd: the refusal names both"
  cmp -s same.profdata in.profdata && ok || fail "$cmd: the input changed ($(wc -c <same.profdata) bytes)"
done
# through the llvm-profdata-N personality too (LLVM truncates the input, then
# fails: a deliberate difference, docs/llvm-profdata.md)
for cmd in "show same.profdata -o same.profdata" "overlap in.profdata same.profdata -o same.profdata"; do
  cp in.profdata same.profdata
  # shellcheck disable=SC2086
  run $TO ./llvm-profdata-19 $cmd; [ "$rc" -ne 0 ] && ok || fail "llvm-profdata-19 $cmd: exit 0"
  cmp -s same.profdata in.profdata && ok || fail "llvm-profdata-19 $cmd: the input changed"
done
# the same name: llvm-profdata's own check and words (13-24; 24 adds "error: ")
for n in 13 19 24; do
  real=$(command -v "llvm-profdata-$n" || true); [ -n "$real" ] || { echo "note: no llvm-profdata-$n"; continue; }
  ln -sf "$PB" "llvm-profdata-$n"
  cp in.profdata same.profdata; set +e; "$real" show same.profdata -o same.profdata >want.out 2>want.err; wrc=$?
  cp in.profdata same.profdata; ./"llvm-profdata-$n" show same.profdata -o same.profdata >got.out 2>got.err; grc=$?; set -e
  [ "$wrc" = "$grc" ] && cmp -s want.out got.out && cmp -s want.err got.err && ok ||
    fail "llvm-profdata-$n show IN -o IN: exit $grc, stderr '$(cat got.err)'; llvm-profdata-$n: exit $wrc, '$(cat want.err)'"
  cmp -s same.profdata in.profdata && ok || fail "llvm-profdata-$n show IN -o IN: the input changed"
done
cp in.profdata same.profdata; ln -sf same.profdata alias.profdata
run $TO "$PB" merge same.profdata -o alias.profdata; expect_rc 0 "merge IN -o <link to IN>"
run $TO "$PB" merge in.profdata -o ref.profdata; expect_rc 0 "reference merge"
cmp -s same.profdata ref.profdata && ok || fail "merge IN -o <link to IN>: OUT differs from the merge of a copy"
cp in.profdata same.profdata
run $TO ./llvm-profdata-19 merge same.profdata -o same.profdata; expect_rc 0 "llvm-profdata-19 merge IN -o IN"
cmp -s same.profdata ref.profdata && ok || fail "llvm-profdata-19 merge IN -o IN: OUT differs from the merge of a copy"
cp in.profdata same.profdata
run $TO "$PB" convert same.profdata -o same.profdata; expect_rc 0 "convert IN -o IN"
[ -s same.profdata ] && ok || fail "convert IN -o IN: OUT (= IN) is empty"
no_temps "OUT = IN"

# 2. A symbolic link: its target is replaced, the link stays a link (also a
#    link to a link, and a relative link into another directory).
mkdir -p sub; echo old >sub/real.txt; ln -sf sub/real.txt link1.txt; ln -sf link1.txt link2.txt
run $TO "$PB" show in.profdata -o link2.txt; expect_rc 0 "show -o <link to a link>"
[ -L link1.txt ] && [ -L link2.txt ] && ok || fail "-o LINK replaced the link by a file"
[ "$(readlink link2.txt)" = link1.txt ] && ok || fail "-o LINK changed the link"
cmp -s sub/real.txt want-show.txt && ok || fail "-o LINK did not write the link's target"
ln -sf sub/new.txt dangling.txt
run $TO "$PB" show in.profdata -o dangling.txt; expect_rc 0 "show -o <dangling link>"
[ -L dangling.txt ] && cmp -s sub/new.txt want-show.txt && ok || fail "-o <dangling link> did not create its target"
run $TO "$PB" convert in.profdata -o link2.txt --to text; expect_rc 0 "convert -o LINK"
[ -L link2.txt ] && [ -f sub/real.txt ] && ok || fail "convert -o LINK replaced the link"
no_temps "symbolic links"; (cd sub && ls -A | grep -q pbtmp) && fail "temporary file left in sub/" || ok

# 3. A FIFO and a character device are written in place, never replaced.
mkfifo out.fifo
( timeout 30 cat out.fifo >fifo-got.txt ) & reader=$!
run $TO "$PB" show in.profdata -o out.fifo; expect_rc 0 "show -o FIFO"
wait "$reader" || true
[ -p out.fifo ] && ok || fail "-o FIFO replaced the FIFO"
cmp -s fifo-got.txt want-show.txt && ok || fail "-o FIFO: the reader got other bytes"
if [ "$(id -u)" -eq 0 ]; then
  mknod null c 1 3  # a private copy of /dev/null: the real one is never touched
  for cmd in "show in.profdata -o null" "convert in.profdata -o null --to indexed" \
             "merge in.profdata -o null" "dump in.profdata -o null" "types in.profdata -o null"; do
    # shellcheck disable=SC2086
    run $TO "$PB" $cmd; expect_rc 0 "$cmd"
    [ -c null ] && ok || fail "$cmd replaced the character device by a $(stat -c %F null)"
  done
  # a device written in place that is also an input is refused before anything is written
  run $TO "$PB" show null --from text -o null; expect_rc 2 "show DEV -o DEV"
  expect_grep "$T/err" "output 'null' is the input 'null'" "OUT = IN written in place names both"
  rm -f null
else
  echo "note: not root: the character-device case (mknod) is not checked"
fi
run $TO "$PB" merge out.fifo -o out.fifo; expect_rc 2 "merge FIFO -o FIFO"
expect_grep "$T/err" "output 'out.fifo' is the input 'out.fifo'" "FIFO in = out names both"
no_temps "devices"

# 4. A directory, a missing directory: exit 2, the message names OUT.
mkdir -p adir
run $TO "$PB" show in.profdata -o adir; expect_rc 2 "show -o DIR"
expect_grep "$T/err" "^profbridge: adir: .*directory" "-o DIR names the output"
run $TO "$PB" convert in.profdata -o /no/such/dir/x.profdata; expect_rc 2 "convert -o /no/such/dir/x"
expect_grep "$T/err" "^profbridge: /no/such/dir/x.profdata: .*'/no/such/dir' does not exist" "missing dir names the output"
grep -q "in.profdata" "$T/err" && fail "the error blames the input: $(cat "$T/err")" || ok
run $TO "$PB" merge in.profdata in.profdata -o adir/; expect_rc 2 "merge -o DIR/"
expect_grep "$T/err" "adir/: .*directory" "merge -o DIR/ names the output"
[ -d adir ] && [ -z "$(ls -A adir)" ] && ok || fail "-o DIR changed the directory"
if [ "$(id -u)" -ne 0 ]; then
  mkdir -p ro; chmod 555 ro
  run $TO "$PB" show in.profdata -o ro/x.txt; expect_rc 2 "show -o <read-only dir>/x"
  expect_grep "$T/err" "^profbridge: ro/x.txt: .*Permission denied" "read-only dir names the output"
  chmod 755 ro
fi

# 5. Mode and owner of an existing OUT are kept; a new OUT gets the umask's.
echo old >mode.txt; chmod 640 mode.txt
run $TO "$PB" show in.profdata -o mode.txt; expect_rc 0 "show -o <mode 640>"
[ "$(stat -c %a mode.txt)" = 640 ] && ok || fail "mode 640 became $(stat -c %a mode.txt)"
(umask 027; "$PB" show in.profdata -o umask.txt)
[ "$(stat -c %a umask.txt)" = 640 ] && ok || fail "a new OUT under umask 027 has mode $(stat -c %a umask.txt)"
if [ "$(id -u)" -eq 0 ]; then
  echo old >owner.txt; chown 4321:4322 owner.txt; chmod 604 owner.txt
  run $TO "$PB" convert in.profdata -o owner.txt --to text; expect_rc 0 "convert -o <owned by 4321>"
  [ "$(stat -c %u:%g:%a owner.txt)" = 4321:4322:604 ] && ok || fail "owner/mode became $(stat -c %u:%g:%a owner.txt)"
fi

# 5b. Outputs that are not ours to replace (issue 23): an existing OUT is
#     replaced only where the caller could open it for writing, as the shell's
#     `>`; a symbolic link is followed only where fs.protected_symlinks=1
#     would let open(2) follow it, whatever the kernel's setting, at every
#     link of a chain.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  NOB="setpriv --reuid=65534 --regid=65534 --clear-groups"
  o="$(mktemp -d)"; chmod 755 "$o"; mkdir "$o/open"; chmod 777 "$o/open"
  cp in.profdata "$o/in.profdata"; chmod 644 "$o/in.profdata"
  echo theirs >"$o/open/theirs.txt"; chmod 644 "$o/open/theirs.txt"       # root's, in a 0777 directory
  run $TO $NOB "$PB" show "$o/in.profdata" -o "$o/open/theirs.txt"; expect_rc 2 "nobody: show -o <root's 0644 file>"
  expect_grep "$T/err" "theirs.txt: cannot replace the output: Permission denied" "another user's file: the refusal names it"
  [ "$(cat "$o/open/theirs.txt")" = theirs ] && [ "$(stat -c %u "$o/open/theirs.txt")" = 0 ] && ok ||
    fail "nobody replaced root's 0644 file (owner now $(stat -c %u "$o/open/theirs.txt"))"
  $NOB sh -c "echo mine >'$o/open/mine.txt'; chmod 444 '$o/open/mine.txt'"
  run $TO $NOB "$PB" merge "$o/in.profdata" -o "$o/open/mine.txt"; expect_rc 2 "nobody: merge -o <own 0444 file>"
  [ "$(cat "$o/open/mine.txt")" = mine ] && ok || fail "nobody replaced its own 0444 file"
  run $TO $NOB "$PB" convert "$o/in.profdata" --to text -o "$o/open/new.txt"; expect_rc 0 "nobody: -o <new file> in a 0777 dir"
  # another user's link planted in a sticky world-writable directory
  mkdir "$o/tmp"; chmod 1777 "$o/tmp"; echo precious >"$o/precious.txt"
  ln -s "$o/precious.txt" "$o/tmp/planted.txt"; chown -h 4321:4321 "$o/tmp/planted.txt"
  run $TO "$PB" show in.profdata -o "$o/tmp/planted.txt"; expect_rc 2 "root: show -o <another user's link in a sticky dir>"
  expect_grep "$T/err" "refusing to follow the symbolic link .*planted.txt" "the planted link is named"
  [ "$(cat "$o/precious.txt")" = precious ] && ok || fail "root followed a planted link and replaced its target"
  ln -s "$o/tmp/planted.txt" "$o/chain.txt"                                   # our link to the planted one
  run $TO "$PB" show in.profdata -o "$o/chain.txt"; expect_rc 2 "root: -o <our link to a planted link>"
  [ "$(cat "$o/precious.txt")" = precious ] && ok || fail "root followed a chain through a planted link"
  ln -s "$o/precious.txt" "$o/tmp/ours.txt"                                   # root's own link there: followed
  run $TO "$PB" show in.profdata -o "$o/tmp/ours.txt"; expect_rc 0 "root: -o <own link in a sticky dir>"
  cmp -s "$o/precious.txt" want-show.txt && ok || fail "root's own link in a sticky dir was not followed"
  echo precious >"$o/precious.txt"; chown 4321:4321 "$o/tmp"
  run $TO "$PB" show in.profdata -o "$o/tmp/planted.txt"; expect_rc 0 "root: -o <link owned by the sticky dir's owner>"
  rm -rf "$o"
else
  echo "note: not root or no setpriv: the other-user output cases are not checked"
fi

# 6. A 254-byte output name (the temporary name must still fit NAME_MAX).
long=$(printf 'n%.0s' $(seq 254))
run $TO "$PB" show in.profdata -o "$long"; expect_rc 0 "show -o <254-byte name>"
cmp -s "$long" want-show.txt && ok || fail "the 254-byte output is wrong"
run $TO "$PB" merge in.profdata -o "$long"; expect_rc 0 "merge -o <254-byte name>"
rm -f "$long"
no_temps "long name"

# 7. Signals: the temporary file goes. `dump IN -o OUT` opens OUT's sink after
#    the first bytes of IN, then reads the rest: a FIFO whose writer pauses
#    holds it there while the signal comes.
mkfifo in.fifo
for sig in INT TERM HUP; do
  rm -f sig.txt
  ( timeout 10 sh -c '{ head -c 5000 big.profdata; sleep 3; } >in.fifo' 2>/dev/null || true ) & writer=$!
  # (a background job ignores SIGINT unless told otherwise)
  env --default-signal=INT "$PB" dump in.fifo -o sig.txt >/dev/null 2>&1 & pid=$!
  for _ in $(seq 50); do ls -A | grep -q pbtmp && break; sleep 0.05; done
  ls -A | grep -q pbtmp && ok || fail "SIG$sig: no temporary file appeared (the test saw nothing)"
  kill -s "$sig" "$pid" 2>/dev/null || true
  set +e; wait "$pid"; st=$?; set -e
  wait "$writer" 2>/dev/null || true
  [ "$st" -gt 128 ] && ok || fail "SIG$sig: dump exited $st, not killed by the signal"
  no_temps "SIG$sig"
  [ ! -e sig.txt ] && ok || fail "SIG$sig: OUT appeared"
done
# SIGXFSZ: a file-size limit (ulimit -f, 1 KiB blocks) smaller than OUT
echo old >xfsz.txt
set +e; (ulimit -f 20; exec "$PB" show big.profdata --counts --all-functions -o xfsz.txt) >/dev/null 2>&1; st=$?
(ulimit -f 20; exec "$PB" convert big.profdata -o xfsz.profdata) >/dev/null 2>&1; st2=$?; set -e
[ "$st" -ne 0 ] && [ "$st2" -ne 0 ] && ok || fail "SIGXFSZ: a write over the size limit succeeded ($st, $st2)"
[ "$(cat xfsz.txt)" = old ] && ok || fail "SIGXFSZ: the old OUT changed"
[ ! -e xfsz.profdata ] && ok || fail "SIGXFSZ: a partial OUT appeared"
no_temps "SIGXFSZ (exit $st, $st2)"

# 8. SIGKILL during a long merge: OUT is the old file or the whole new one.
$TO "$PB" merge big.profdata big.profdata big.profdata -o new.profdata --num-threads 1
cp in.profdata old.profdata
for delay in 0.2 0.4 0.6 0.8 1.0 1.3 1.6 2.0; do
  cp old.profdata m.profdata
  "$PB" merge big.profdata big.profdata big.profdata -o m.profdata --num-threads 1 >/dev/null 2>&1 & pid=$!
  sleep "$delay"; kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if cmp -s m.profdata old.profdata || cmp -s m.profdata new.profdata; then ok
  else fail "SIGKILL after ${delay}s: OUT is neither the old file nor the new one ($(wc -c <m.profdata) bytes)"; fi
  rm -f .*pbtmp* # SIGKILL cannot be caught: its temporary file may stay (documented)
done
finish
