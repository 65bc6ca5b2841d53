/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* util.h -- the C coverage program's header: an inline function defined in a
 * header (its regions belong to this file, included by two files). */
#ifndef COV_UTIL_H
#define COV_UTIL_H

static inline int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

int classify(int x);
int never_called(int x);

#endif
