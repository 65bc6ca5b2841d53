# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gen_value_sites.py SEED OUT -- an IR text profile of 6 functions with 3
memop-size value sites each, for tests/interop/merge_value_sites.sh: sites of
0..40 small values (0..12, so inputs share values), counts with many ties,
and in about a third of the sites a value given twice (the merge then sorts
as LLVM's std::sort or stable sort does; else each value is distinct)."""
import random
import sys


def main():
    rnd = random.Random(int(sys.argv[1]))
    lines = [":ir"]
    for f in range(6):
        lines += [f"f{f}", "# Func Hash:", "7", "# Num Counters:", "1", "# Counter Values:",
                  str(rnd.randint(1, 100)), "# Num Value Kinds:", "1", "# ValueKind = IPVK_MemOPSize:", "1",
                  "# NumValueSites:", "3"]
        for _ in range(3):
            n = rnd.choice([0, 1, 2, 3, 5, 8, 20, 40])
            vals = []
            for _ in range(n):
                v = rnd.randint(0, 12) if rnd.random() < 0.9 else rnd.randint(0, 3)
                vals.append((v, rnd.choice([1, 2, 3, 5, 5, 5, 10])))
            if rnd.random() < 0.7:
                first = {}
                for v, c in vals:
                    first.setdefault(v, c)
                vals = list(first.items())
            lines.append(str(len(vals)))
            lines += [f"{v}:{c}" for v, c in vals]
    with open(sys.argv[2], "w", encoding="ascii") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
