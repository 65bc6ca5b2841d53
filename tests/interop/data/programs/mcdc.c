/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Plain counters, a loop and an MC/DC decision (from raw_clang_more.sh). */
#include <stdio.h>
int decide(int a, int b, int c) { if ((a && b) || c) return 1; return 0; }
int main(int argc, char **argv) {
    (void)argv;
    int s = 0;
    for (int i = 0; i < 8; i++) s += decide(i & 1, i & 2, argc > 5);
    printf("%d\n", s);
    return 0;
}
