/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* main.c -- the C coverage program: macros (with conditions inside, nested),
 * loops of every kind, ternaries, short-circuit conditions of up to five
 * terms (MC/DC when built with -fcoverage-mcdc), a static function, a branch
 * that never runs, and calls into util.c and util.h's inline function. */
#include <stdio.h>
#include <string.h>
#include "util.h"

#define SQUARE(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define CHECK_RANGE(v, lo, hi) ((v) >= (lo) && (v) <= (hi))
#define BIGGEST(a, b, c) MAX(MAX(a, b), c)

static int helper(int a, int b, int c)
{
    if ((a > 0 && b > 0) || c == 7)
        return 1;
    if (a < 0 || (b < 0 && c < 0) || a + b + c == 100)
        return 2;
    return 0;
}

static int five(int a, int b, int c, int d, int e)
{
    return (a && b) || (c && d && e);
}

int main(int argc, char **argv)
{
    int total = 0;
    for (int i = 0; i < 10; i++) {
        total += classify(i - 2);
        if (CHECK_RANGE(i, 3, 6))
            total += SQUARE(i);
        else
            total -= BIGGEST(i, 2, 4);
    }
    int j = 0;
    while (j < 5 && total > 0) {
        total = j % 2 ? total - j : total + helper(j - 1, j - 2, j + 5);
        j++;
    }
    do {
        total += clamp(j, 0, 3);
        j--;
    } while (j > 0);
    for (int k = 0; k < 32; k++)
        total += five(k & 1, k & 2, k & 4, k & 8, k & 16);
    if (argc > 5) {
        /* never runs: the program is run with no arguments */
        total += never_called(argc);
        puts(argv[1]);
    }
    if (argc > 1 && strcmp(argv[1], "x") == 0)
        goto out;
    printf("%d\n", total);
out:
    return 0;
}
