# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Real raw profiles for the fleet tests and bench/fleet.sh: a generated C
program built with clang -fprofile-generate (IR instrumentation: it profiles values by default) (indirect calls and
memcpy of variable sizes, so the profiles carry value sites), run N times
with different arguments, one .profraw per run. Cached: a directory that
already holds the N files of the same program is reused.

    /usr/bin/python3 corpus.py OUTDIR N [FUNCS] [CLANG]
"""
import hashlib
import os
import shutil
import subprocess
import sys


def program(funcs):
    """C source with `funcs` leaf functions reached through a table of
    function pointers (indirect-call sites) and a memcpy whose size comes
    from the argument (memop-size sites)."""
    out = ["#include <stdlib.h>", "#include <string.h>", "static unsigned char src[4096], dst[4096];"]
    for i in range(funcs):
        out.append(f"static unsigned f{i}(unsigned x) {{ if (x % {i % 7 + 2}u) x += {i}u; else x ^= {i * 31 + 1}u;"
                   f" for (unsigned k = 0; k < (x & 3u); k++) x = x * 33u + k; return x; }}")
    # at most 128 targets through the pointer: no value site passes the 255 values a site keeps
    # (past them a tree merge may keep other values than the flat one: docs/distributed-merge.md)
    targets = min(funcs, 128)
    out.append("typedef unsigned (*fn)(unsigned);")
    out.append("static fn table[] = {" + ", ".join(f"f{i}" for i in range(targets)) + "};")
    out.append("static unsigned direct(unsigned x) {" + "".join(f" if ((x >> {i % 8}u) & 1u) x = f{i}(x);"
                                                          for i in range(targets, funcs)) + " return x; }")
    out.append(f"""
int main(int argc, char **argv) {{
    unsigned seed = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1u, acc = seed;
    unsigned calls = 8u + seed % 29u;
    for (unsigned i = 0; i < calls; i++) {{
        fn f = table[(seed * 7u + i * (seed % 5u + 1u)) % {targets}u];
        acc = f(acc);
        if (i == 0u) acc = direct(acc);
        size_t n = (size_t)((seed + i * 13u) % 300u + 1u);
        memcpy(dst, src + (acc & 255u), n);
        src[i & 4095u] = dst[n - 1u];
    }}
    return (int)(acc & 1u) & 0;
}}
""")
    return "\n".join(out) + "\n"


def build(outdir, n, funcs=24, clang="clang-19"):
    """Returns the sorted list of the n .profraw paths in outdir (made now
    unless outdir already holds them for the same program and clang)."""
    src = program(funcs)
    key = hashlib.sha256((src + clang + str(n)).encode()).hexdigest()[:16]
    stamp = os.path.join(outdir, "corpus.stamp")
    paths = [os.path.join(outdir, f"run-{i:05d}.profraw") for i in range(n)]
    if os.path.exists(stamp) and open(stamp).read() == key and all(os.path.exists(p) for p in paths):
        return paths
    if os.path.isdir(outdir):
        shutil.rmtree(outdir)
    os.makedirs(outdir)
    cfile, exe = os.path.join(outdir, "prog.c"), os.path.join(outdir, "prog")
    with open(cfile, "w") as f:
        f.write(src)
    # built where it lies, by its file name: the function names do not depend on outdir
    subprocess.run([clang, "-O0", "-fprofile-generate", "-o", "prog", "prog.c"], check=True, cwd=outdir)
    env = dict(os.environ)
    for i, p in enumerate(paths):
        env["LLVM_PROFILE_FILE"] = p
        subprocess.run([exe, str(i * 2654435761 % 1000003)], env=env, check=True)
    with open(stamp, "w") as f:
        f.write(key)
    return paths


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) < 2:
        sys.exit(__doc__)
    ps = build(a[0], int(a[1]), int(a[2]) if len(a) > 2 else 24, a[3] if len(a) > 3 else "clang-19")
    print(f"{len(ps)} profiles in {a[0]}")
