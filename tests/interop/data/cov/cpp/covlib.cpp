// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// covlib.cpp -- built as libcovlib.so (-shared -fPIC) with coverage.
#include "covlib.h"

Counter::Counter(int start) : total_(start) {}

void Counter::add(int v)
{
    total_ += v > 100 ? 100 : v;
}

bool Counter::big() const
{
    return total_ > 50 && total_ < 1000;
}

int lib_entry(int n)
{
    Counter c(n);
    for (int i = 0; i < n; i++)
        c.add(twice(i));
    return c.big() ? c.value() : -1;
}

int lib_unused(int n)
{
    return twice(n) + 1;
}
