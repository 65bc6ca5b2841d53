# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""partial_dups.py DIR SEED N -- writes N small text profiles whose one
indirect-call site holds a value several times (unnamed targets, written
'** External Symbol **' as llvm-profdata writes them, which read back as
value 0; and named targets repeated), listed by count, descending, as
llvm-profdata writes a site; prints 'W,PATH' (weights 1..4) one a line, for
merge_partial.sh's split cases (docs/distributed-merge.md: such entries are
paired in order by llvm-profdata's merge, which a partial must follow)."""
import os
import random
import sys

out, seed, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
names = ["** External Symbol **"] * 3 + ["fa", "fb"]
os.makedirs(out, exist_ok=True)
for i in range(n):
    vals = [(rng.choice(names), rng.randint(0, 60)) for _ in range(rng.randint(0, 5))]
    vals.sort(key=lambda v: -v[1])
    path = os.path.join(out, "dups%d.proftext" % i)
    with open(path, "w") as f:
        f.write("# IR level Instrumentation Flag\n:ir\ncaller\n# Func Hash:\n7\n# Num Counters:\n1\n"
                "# Counter Values:\n10\n# Num Value Kinds:\n1\n# ValueKind = IPVK_IndirectCallTarget:\n0\n"
                "# NumValueSites:\n1\n%d\n" % len(vals))
        for name, count in vals:
            f.write("%s:%d\n" % (name, count))
        for fn in ("fa", "fb"):
            f.write("\n%s\n# Func Hash:\n9\n# Num Counters:\n1\n# Counter Values:\n1\n" % fn)
    print("%d,%s" % (rng.randint(1, 4), path))
