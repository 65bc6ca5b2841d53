/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* util.c -- the C coverage program's second file: a switch with fallthrough
 * and a default, and a function nobody calls. */
#include "util.h"

int classify(int x)
{
    int r = 0;
    switch (clamp(x, -1, 5)) {
    case -1:
        r = -10;
        break;
    case 0:
    case 1:
        r = 1;
        /* fallthrough */
    case 2:
        r += 2;
        break;
    case 4:
        return 44;
    default:
        r = x * 3;
    }
    return r;
}

int never_called(int x)
{
    if (x > 0 && x < 10)
        return x;
    return -x;
}
