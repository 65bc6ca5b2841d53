/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* With one.c: the program (from raw_clang_more.sh). */
#include <stdio.h>
int from_one(int n);
static int helper(int x) { return x * 2; }
int main(int argc, char **argv) {
    (void)argv;
    int s = 0;
    for (int i = 0; i < 5 + argc; i++) s += from_one(i) + helper(i);
    printf("%d\n", s);
    return 0;
}
