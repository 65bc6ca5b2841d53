/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* overlap_prog.c -- a program for overlap/diff tests: indirect calls and
 * memcpy sizes depend on argv, so two runs give different value profiles.
 * With -DVARIANT one function gets another CFG (another structural hash). */
#include <stdlib.h>
#include <string.h>

static int add(int a, int b) { return a + b; }
static int mul(int a, int b) { return a * b; }
static int sub(int a, int b) { return a - b; }

int shape(int x) {
#ifdef VARIANT
    if (x > 10) return x * 2;
    if (x > 5) return x + 1;
    return x;
#else
    return x > 10 ? x * 2 : x;
#endif
}

int only_in_run2(int x) { return x * 3; }

int main(int argc, char **argv) {
    int (*ops[3])(int, int) = {add, mul, sub};
    int n = argc > 1 ? atoi(argv[1]) : 10, acc = 0;
    char src[256], dst[256];
    memset(src, 1, sizeof src);
    for (int i = 0; i < n; i++) {
        acc = ops[(i * (argc + 1)) % 3](acc, i);
        memcpy(dst, src, (size_t)((i * 7 * argc) % 200 + 1));
        acc += shape(i) + dst[0];
    }
    if (argc > 2) acc += only_in_run2(acc);
    return acc == 42;
}
