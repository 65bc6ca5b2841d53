#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Lists the longest C functions, longest first: "lines name file".
#   scripts/largest-functions.sh [N] [DIR...]   (N = how many, default 25;
#   DIRs default to src formats)
# A function starts at a line at column 0 that names it and opens its body
# ("static int name(args...) {", or a signature continued over several lines
# whose last line ends in "{") and ends at the next line that is exactly "}".
# It counts the lines from the signature's first line to that "}" inclusive.
# That is this codebase's style (the opening brace ends the signature line);
# a brace on a line of its own after the signature is accepted too.
set -eu
n=${1:-25}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- src formats
find "$@" -name '*.c' -print | sort | while read -r f; do
  awk -v file="$f" '
    # a line at column 0 that is not a comment, a directive or a brace
    function sigstart(l) { return l ~ /^[A-Za-z_]/ && l !~ /^(typedef|struct [A-Za-z_0-9]+ *\{|enum|union)/ }
    infn == 0 && sigstart($0) && $0 ~ /\(/ { pend = $0; start = NR; pending = 1 }
    pending && infn == 0 {
      if ($0 ~ /;[ \t]*$/ && $0 !~ /\{/) { pending = 0; next }   # a prototype
      if ($0 ~ /\{[ \t]*$/ || $0 ~ /^\{/) {
        name = pend; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
        infn = 1; pending = 0; next
      }
      if (NR - start > 8) pending = 0
    }
    infn && $0 ~ /^\}/ { print NR - start + 1, name, file; infn = 0 }
  ' "$f"
done | sort -k1,1nr | head -n "$n"
