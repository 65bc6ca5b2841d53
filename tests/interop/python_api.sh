#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# python_api.sh -- the Python package's pytest tests (python/tests) against
# this build's libprofbridge.so.0 (PROFBRIDGE_LIB), with Debian's python3
# (/usr/bin/python3: python3-pytest is installed for it, a pyenv python3 on
# PATH may have no pytest). Oracles: llvm-profdata-19 and hand-computed values.
set -euo pipefail
: "${PB_SOURCE_DIR:?} ${PB_BINARY_DIR:?}"
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: $py is missing"; exit 77; }
"$py" -c 'import pytest' 2>/dev/null || { echo "SKIP: python3-pytest is not installed for $py (scripts/install-deps.sh)"; exit 77; }
lib="$PB_BINARY_DIR/libprofbridge.so.0"
[ -e "$lib" ] || { echo "FAIL: $lib was not built"; exit 1; }
export PROFBRIDGE_LIB="$lib" PYTHONPATH="$PB_SOURCE_DIR/python${PYTHONPATH:+:$PYTHONPATH}"
# An ASan/UBSan build's library can only be loaded into python3 with the
# sanitizer runtimes loaded first; python3 itself leaks by design.
# (no `ldd | grep -q` under pipefail: grep quitting early fails the pipe with SIGPIPE)
case "$(ldd "$lib")" in *libasan*)
  cc="$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$PB_BINARY_DIR/CMakeCache.txt")"
  rt=""
  for r in libasan.so libubsan.so; do
    f="$("${cc:-cc}" -print-file-name=$r)"
    [ -e "$f" ] && rt="${rt:+$rt:}$f"
  done
  export LD_PRELOAD="$rt" ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" ;;
esac
cd "$PB_SOURCE_DIR/python"
[ $# -gt 0 ] || set -- tests --ignore=tests/fleet   # the Dask tests: python_dask.sh
exec "$py" -m pytest -q -p no:cacheprovider "$@"
