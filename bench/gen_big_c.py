#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gen_big_c.py -- writes a large C program for the LLVM benchmarks.

Usage: gen_big_c.py OUTDIR [--shape value|plain|cxx] [--functions N]
                                [--files K] [--seed S]

Writes K translation units f_<k>.c holding N functions in all, plus main.c.
Each function has a loop and two branches whose outcome depends on its
argument (so counters differ). main calls every function a seeded number of
times, so two runs with different arguments give two different profiles of
the same program. Deterministic for a given seed. Shapes (the profile
they give when built with -fprofile-generate):
  value  (default) every 7th function calls through a function-pointer
         table (indirect-call value sites) and every 11th copies a variable
         number of bytes (memop size sites): heavy in value data
  plain  the same functions without those calls: counters only (main's one
         indirect call is the only value site)
  cxx    C++ (f_<k>.cpp, main.cpp, default 400 files): plain counters, but
         each function lives in nested namespaces with a long name and a
         class-template parameter, so mangled names are ~150 bytes, spread
         over many translation units (big name sections, many distinct
         prefixes)
"""
import argparse
import os
import random

ap = argparse.ArgumentParser()
ap.add_argument("outdir")
ap.add_argument("--functions", type=int, default=100000)
ap.add_argument("--files", type=int, default=None)
ap.add_argument("--seed", type=int, default=1)
ap.add_argument("--shape", choices=("value", "plain", "cxx"), default="value")
a = ap.parse_args()
os.makedirs(a.outdir, exist_ok=True)
rnd = random.Random(a.seed)
n = a.functions
k = a.files or (400 if a.shape == "cxx" else 25)
per = (n + k - 1) // k


def cxx_name(i):
    """Namespace path and function name of function i in the cxx shape."""
    f = i // per
    return (f"profbridge_benchmark_suite::component_group_{f}::implementation_details_{i % 13}",
            f"compute_statistics_for_record_number_{i}")


if a.shape == "cxx":
    acc_t = "RecordAccumulatorWithLongName<unsigned long long, 3>"
    with open(os.path.join(a.outdir, "common.hpp"), "w") as h:
        h.write("template <typename T, int N> struct RecordAccumulatorWithLongName { T value; };\n")
        h.write(f"typedef long (*fp_t)(long, {acc_t} *);\n")
    for f in range(k):
        with open(os.path.join(a.outdir, f"f_{f}.cpp"), "w") as c:
            c.write('#include "common.hpp"\n')
            for i in range(f * per, min(n, (f + 1) * per)):
                ns, name = cxx_name(i)
                m = rnd.randint(2, 9)
                c.write(f"namespace {ns} {{\nlong {name}(long x, {acc_t} *acc) {{\n  long s = 0;\n")
                c.write(f"  for (long j = 0; j < (x % {m}); j++) s += j ^ x;\n")
                c.write(f"  if (x % {m + 1} == 0) s += {i};\n  else if (x & 4) s -= x;\n")
                c.write("  acc->value += (unsigned long long)s;\n  return s;\n}\n}\n")
    with open(os.path.join(a.outdir, "main.cpp"), "w") as c:
        c.write('#include <stdlib.h>\n#include "common.hpp"\n')
        for i in range(n):
            ns, name = cxx_name(i)
            c.write(f"namespace {ns} {{ long {name}(long, {acc_t} *); }}\n")
        c.write("static fp_t all[] = {\n")
        for i in range(n):
            ns, name = cxx_name(i)
            c.write(f"{ns}::{name},\n")
        c.write("};\n")
        c.write("int main(int argc, char **argv) {\n")
        c.write("  long seed = argc > 1 ? atol(argv[1]) : 1, acc = 0;\n")
        c.write(f"  {acc_t} r = {{0}};\n")
        c.write(f"  for (long i = 0; i < {n}; i++) {{\n")
        c.write("    long reps = (i * 2654435761L + seed) % 5;\n")
        c.write("    for (long q = 0; q < reps; q++) acc += all[i](i + q + seed, &r);\n  }\n")
        c.write("  return (int)((acc + (long)r.value) & 1);\n}\n")
    raise SystemExit(0)

with open(os.path.join(a.outdir, "common.h"), "w") as h:
    h.write("#include <string.h>\ntypedef long (*fp_t)(long);\n")
    h.write("extern fp_t pb_table[16];\nextern char pb_src[256], pb_dst[256];\n")
    for i in range(n):
        h.write(f"long f{i}(long);\n")

for f in range(k):
    with open(os.path.join(a.outdir, f"f_{f}.c"), "w") as c:
        c.write('#include "common.h"\n')
        for i in range(f * per, min(n, (f + 1) * per)):
            m = rnd.randint(2, 9)
            c.write(f"long f{i}(long x) {{\n  long s = 0;\n")
            c.write(f"  for (long j = 0; j < (x % {m}); j++) s += j ^ x;\n")
            c.write(f"  if (x % {m + 1} == 0) s += {i};\n  else if (x & 4) s -= x;\n")
            if i % 7 == 0 and a.shape == "value":
                c.write("  s += pb_table[(x + s) & 15](x);\n")
            if i % 11 == 0 and a.shape == "value":
                c.write("  memcpy(pb_dst, pb_src, (unsigned long)(x * 3 + s) & 255);\n")
            c.write("  return s;\n}\n")

with open(os.path.join(a.outdir, "main.c"), "w") as c:
    c.write('#include <stdlib.h>\n#include "common.h"\n')
    c.write("char pb_src[256], pb_dst[256];\n")
    leaves = [i for i in range(n) if i % 7 != 0][:16]
    c.write("fp_t pb_table[16] = {" + ", ".join(f"f{i}" for i in leaves) + "};\n")
    c.write("static fp_t all[] = {\n")
    for i in range(n):
        c.write(f"f{i},\n")
    c.write("};\n")
    c.write("int main(int argc, char **argv) {\n")
    c.write("  long seed = argc > 1 ? atol(argv[1]) : 1, acc = 0;\n")
    c.write(f"  for (long i = 0; i < {n}; i++) {{\n")
    c.write("    long reps = (i * 2654435761L + seed) % 5;\n")
    c.write("    for (long r = 0; r < reps; r++) acc += all[i](i + r + seed);\n  }\n")
    c.write("  return (int)(acc & 1);\n}\n")
