// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// main.cpp -- the C++ coverage program: a template instantiated twice (int,
// double), a class, a lambda, a template shared with libcovlib.so (twice<int>
// in both objects) and calls into the library.
#include <cstdio>
#include "covlib.h"

template <typename T> T pick(T a, T b, bool first)
{
    return first ? a : b;
}

class Shape {
public:
    explicit Shape(int sides) : sides_(sides) {}
    const char *name() const
    {
        switch (sides_) {
        case 3:
            return "triangle";
        case 4:
            return "square";
        default:
            return "polygon";
        }
    }

private:
    int sides_;
};

int main()
{
    int acc = 0;
    auto step = [&acc](int v) {
        if (v % 3 == 0)
            acc += v;
        else if (v % 3 == 1 && v > 4)
            acc -= 1;
    };
    for (int i = 0; i < 12; i++)
        step(i);
    double d = pick(1.5, 2.5, acc > 3);
    int n = pick(3, 4, false);
    Shape s(n);
    Counter c(1);
    c.add(twice(n));
    std::printf("%s %g %d %d %d\n", s.name(), d, acc, c.value(), lib_entry(9));
    return 0;
}
