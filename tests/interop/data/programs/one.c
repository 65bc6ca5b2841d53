/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* With two.c: a static `helper` in each file; also built as a shared library (from raw_clang_more.sh). */
static int helper(int x) { return x + 1; }
int from_one(int n) { int s = 0; for (int i = 0; i < n; i++) s += helper(i); return s; }
