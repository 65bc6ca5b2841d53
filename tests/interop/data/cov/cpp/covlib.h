// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// covlib.h -- the C++ coverage program's shared library: a class whose
// methods live in libcovlib.so, and a template used from both objects.
#ifndef COVLIB_H
#define COVLIB_H

class Counter {
public:
    explicit Counter(int start);
    void add(int v);
    int value() const { return total_; }
    bool big() const;

private:
    int total_;
};

template <typename T> T twice(T v)
{
    if (v < T(0))
        return -v * 2;
    return v + v;
}

int lib_entry(int n);
int lib_unused(int n);

#endif
