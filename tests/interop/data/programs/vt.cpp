/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* Virtual calls through one call site: vtable value profiling (from raw_clang.sh). */
struct Base { virtual int f(int x) = 0; virtual ~Base() {} };
struct A : Base { int f(int x) override { return x + 1; } };
struct B : Base { int f(int x) override { return x * 2; } };
__attribute__((noinline)) int call(Base *b, int x) { return b->f(x); }
int main() { A a; B b; int s = 0; for (int i = 0; i < 10; i++) s += call(i % 3 ? (Base *)&a : (Base *)&b, i); return s & 1; }
