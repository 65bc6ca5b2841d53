#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# docs_commands.sh -- every subcommand in src/cli/commands.h is documented:
# a ".SS name" section in the man page, a "- **name**" entry in README.md's
# usage list, and a line in `profbridge --help`; and every option a command
# takes (as `profbridge --complete-words CMD` lists them from its table, the
# plugins' options included) is named in the man page.
set -euo pipefail
: "${PB:?} ${PB_SOURCE_DIR:?}"
cmds=$(sed -n 's/^PBC_COMMAND(\([a-z_]*\),.*/\1/p' "$PB_SOURCE_DIR/src/cli/commands.h")
[ -n "$cmds" ] || { echo "FAIL: no PBC_COMMAND lines found in commands.h"; exit 1; }
help=$("$PB" --help)
bad=0
for c in $cmds; do
  grep -qx "\.SS $c" "$PB_SOURCE_DIR/docs/profbridge.1" || { echo "FAIL: man page has no '.SS $c'"; bad=1; }
  grep -q "^- \*\*$c\*\*" "$PB_SOURCE_DIR/README.md" || { echo "FAIL: README.md usage has no '- **$c**'"; bad=1; }
  grep -qE "^ +$c +" <<<"$help" || { echo "FAIL: profbridge --help does not list $c"; bad=1; }
done
opts=0
for c in $cmds; do
  words=$("$PB" --complete-words "$c" | cut -d' ' -f1 | grep '^--') \
    || { echo "FAIL: profbridge --complete-words $c lists no options"; bad=1; continue; }
  for w in $words; do
    opts=$((opts + 1))
    # roff writes "--order" as "\-\-order"
    pat=$(sed 's/-/\\\\-/g' <<<"$w")
    grep -q -- "$pat\b" "$PB_SOURCE_DIR/docs/profbridge.1" || grep -q -- "$w\b" "$PB_SOURCE_DIR/docs/profbridge.1" \
      || { echo "FAIL: $c takes $w, the man page does not name it"; bad=1; }
  done
done
[ $bad = 0 ] && echo "ok: $(wc -w <<<"$cmds") commands and their $opts options documented"
exit $bad
