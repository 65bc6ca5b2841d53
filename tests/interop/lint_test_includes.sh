#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lint_test_includes.sh -- no test compiles a source file into itself: a test
# that #includes a .c file sees its static functions and can copy what it
# lacks, so it tests a private copy instead of what the tool links (the CLI's
# printers and parsers are reachable through src/cli/*.h and the internal
# library pb_cli_objects). Also checks that scripts/largest-functions.sh,
# which measures the functions' sizes, still finds functions in both styles.
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
bad=0
# #include "...c" (any path), in every C file under tests/
hits=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*\.c"' "$PB_SOURCE_DIR/tests" --include='*.c' --include='*.h' || true)
if [ -n "$hits" ]; then
  echo "FAIL: tests include .c files (declare what they need in a header instead):"
  echo "$hits" | sed "s,^$PB_SOURCE_DIR/,  ,"
  bad=1
fi
# the scan: a hand-made file with known lengths (brace ending the signature,
# a signature over two lines, a brace on its own line, a prototype)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/src"
cat >"$T/src/x.c" <<'C'
static int proto(int a);
static int one(int a) {
    return a;
}
int two(int a,
        int b) {
    if (a) {
        return b;
    }
    return a;
}
static void three(void)
{
}
C
got=$(cd "$T" && sh "$PB_SOURCE_DIR/scripts/largest-functions.sh" 10 src | tr '\n' ';')
want="7 two src/x.c;3 one src/x.c;3 three src/x.c;"
if [ "$got" != "$want" ]; then
  echo "FAIL: largest-functions.sh printed '$got', expected '$want'"
  bad=1
fi
[ $bad = 0 ] && echo "ok: no test includes a .c file; largest-functions.sh measures 3 of 3 functions"
exit $bad
