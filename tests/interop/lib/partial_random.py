# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""partial_random.py -- tests/interop/merge_partial.sh's randomized part: N
random merges (seeded) of real inputs of llvm-real/llvm19 (IR or front-end),
the iprof sample, a cut raw file and an empty one, random weights, failure
modes, releases and output formats, each against the same inputs split
into random contiguous shards (`merge --partial`) merged once more: the
same exit status and, on success, the same bytes.

usage: partial_random.py PB SHARED_DIR SOURCE_DIR WORKDIR SEED N
Inputs holding one value twice in a site are left out of weights above 1
(the stated limit of docs/distributed-merge.md).
"""
import glob
import os
import random
import subprocess
import sys


def main():
    pb, shared, source, work, seed, count = sys.argv[1:7]
    d = os.path.join(shared, "testdata/llvm-real/llvm19")
    skip = ("fentry", "entry-ir", "cs-merged")
    ir = sorted(f for f in glob.glob(d + "/*-ir.prof*") if not f.endswith(".txt") and not any(s in f for s in skip))
    fe = sorted(f for f in glob.glob(d + "/*-fe.prof*") if not f.endswith(".txt"))
    cut = os.path.join(work, "rnd-cut.profraw")
    empty = os.path.join(work, "rnd-empty.profraw")
    open(cut, "wb").write(open(d + "/many-ir.profraw", "rb").read()[:300])
    open(empty, "wb").close()
    extra = [os.path.join(source, "testdata/samples/fib-doc.iprof"), cut, empty]
    rng = random.Random(int(seed))
    bad = 0
    for _ in range(int(count)):
        pool = rng.choice([ir, fe]) + extra
        n = rng.randint(2, 6)
        ins = []
        for _ in range(n):
            p = rng.choice(pool)
            w = 1 if p.endswith("vtable-ir.proftext") else rng.choice([1, 1, 2, 3, 5])
            ins.append((w, p))
        args = ["--weighted-input=%d,%s" % x for x in ins]
        out = rng.choice(["o.profdata", "o.proftext", "o.iprof", "o.json"])
        opts = ["--failure-mode", rng.choice(["any", "all", "warn"])]
        if rng.random() < 0.3:
            opts += ["--llvm-version", rng.choice(["13", "14", "18", "21", "23"])]
            if opts[-1] in ("13", "14"):
                opts[1] = rng.choice(["any", "all"])
        pf = ["--partial-for", "iprof"] if out.endswith(".iprof") else []
        flat = os.path.join(work, "rnd-flat-" + out)
        f = subprocess.run([pb, "merge"] + opts + ["-o", flat] + args, capture_output=True)
        cuts = sorted(rng.sample(range(1, n), rng.randint(0, n - 1)))
        b = [0] + cuts + [n]
        shards = []
        for i in range(len(b) - 1):
            sp = os.path.join(work, "rnd-s%d.pbpart" % i)
            r = subprocess.run([pb, "merge", "--partial"] + pf + opts + ["-o", sp] + args[b[i]:b[i + 1]],
                               capture_output=True)
            if r.returncode:
                print("shard failed:", ins, r.stderr.decode(errors="replace")[:300])
                bad += 1
                break
            shards.append(sp)
        else:
            fin = os.path.join(work, "rnd-final-" + out)
            if os.path.exists(fin):
                os.unlink(fin)
            r = subprocess.run([pb, "merge"] + opts + ["-o", fin] + shards, capture_output=True)
            if r.returncode != f.returncode or (f.returncode == 0 and open(fin, "rb").read() != open(flat, "rb").read()):
                bad += 1
                print("differs:", opts, out, "cuts", cuts, [(w, os.path.basename(p)) for w, p in ins],
                      "exit", f.returncode, r.returncode, r.stderr.decode(errors="replace")[:300])
    print("%s random merges, %d differ" % (count, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
