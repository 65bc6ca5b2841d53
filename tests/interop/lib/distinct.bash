# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# distinct.bash -- each test input once (sourced, not a test).
#
#   pb_distinct   reads paths, one a line, on stdin; prints, in the same
#                 order, each path whose (contents, extension) no earlier
#                 path had
#
# Why: shared/testdata/llvm-profparser holds 563 profiles but only 108
# distinct ones (483 .proftext files with 71 contents, 47 .profdata with 14,
# 41 .profraw with 30): the same bytes under the names of several releases'
# test cases. A tool reads a file by its contents, so a second copy checks
# nothing the first did not, and each costs a start of the real tool and of
# ours (tens of milliseconds of page faults on the CI's virtual machines).
# The extension stays in the key because the scripts choose their checks by
# it. One md5sum run for the whole list, not one a file.
pb_distinct() {
  tr '\n' '\0' | xargs -0 -r md5sum -z -- | awk 'BEGIN { RS = "\0" }
    { path = substr($0, 35); n = split(path, part, ".")
      if (!seen[substr($0, 1, 32) "." part[n]]++) print path }'
}
