/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Indirect calls through a table and memcpy of variable sizes: value sites of both kinds (from raw_clang.sh). */
#include <stdio.h>
#include <string.h>
static int helper(int x) { return x * 3; }
int add(int a, int b) { return a + b; }
int sub(int a, int b) { return a - b; }
int mul(int a, int b) { return a * b; }
typedef int (*op)(int, int);
int main(int argc, char **argv) {
    (void)argv;
    op ops[3] = {add, sub, mul};
    char src[600], dst[600];
    memset(src, argc, sizeof src);
    int acc = 0;
    for (int i = 0; i < 100; i++) {
        acc += ops[(i * 7 + argc) % 3](acc, i);
        memcpy(dst, src, (size_t)(i * 13 % 600));
        if (i % 10 == 0) acc ^= helper(i);
    }
    printf("%d %d\n", acc, dst[0]);
    return 0;
}
