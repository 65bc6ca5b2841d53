# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# lint-grep.bash -- the one loop of the lints that forbid a pattern in the
# sources (lint_grow.sh, lint_library_streams.sh, lint_format_names.sh).

# lint_grep FAIL_MSG OK_MSG PATTERN SKIP GLOB...
# Every file git tracks under GLOB... (outside git: every file under src/
# and formats/) whose path does not match the extended glob SKIP ('' = none)
# is searched for the extended regex PATTERN. A match prints FAIL_MSG and
# every matching line with its file, and exits 1; none prints OK_MSG.
lint_grep() {
  local fail_msg=$1 ok_msg=$2 pattern=$3 skip=$4 files f h hits=""
  shift 4
  files=$(git ls-files "$@" 2>/dev/null) || files=$(find src formats -type f)
  for f in $files; do
    if [ -n "$skip" ] && [[ $f == $skip ]]; then continue; fi
    h=$(grep -nE "$pattern" "$f" || true)
    [ -z "$h" ] || hits+="$f: $h"$'\n'
  done
  if [ -n "$hits" ]; then
    echo "$fail_msg"
    printf '%s' "$hits"
    exit 1
  fi
  echo "$ok_msg"
}
