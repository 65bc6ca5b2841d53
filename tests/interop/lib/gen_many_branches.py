# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gen_many_branches.py N NAME -- prints a C function NAME(int) with N if
statements (about N counters under instrumentation), for show_big_record.sh."""
import sys

n, name = int(sys.argv[1]), sys.argv[2]
print(f"int {name}(int x) {{\n  int s = 0;")
for i in range(n):
    print(f"  if (x > {i % 97}) s += {i};")
print("  return s;\n}")
