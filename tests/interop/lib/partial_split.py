# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""partial_split.py -- tests/interop/merge_partial.sh's engine: one flat
`profbridge merge` of some inputs against the same inputs split into
contiguous shards (`merge --partial`), shards combined into steps (again
`--partial`, whose inputs are partials) and one final merge of the steps:
the final bytes must be the flat merge's.

usage: partial_split.py PB WORKDIR SEED MAXSPLITS [--sampled-traces] -o OUT [merge options] -- [W,]INPUT...
--sampled-traces (a text OUT): the temporal traces kept may differ (a
reservoir smaller than the traces: docs/distributed-merge.md), their number,
the stream size and everything else may not.
Prints one line per split that differs and exits 1 then; else prints how
many splits matched.
"""
import itertools
import os
import random
import subprocess
import sys


def run(pb, args):
    p = subprocess.run([pb, "merge"] + args, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def inputs_args(inputs):
    out = []
    for w, path in inputs:
        out += [path] if w == 1 else ["--weighted-input=%d,%s" % (w, path)]
    return out


def order_ok(inputs):
    # --weighted-input inputs go after the positional ones: keep a shard's
    # order as the flat one by weighting every input explicitly
    return ["--weighted-input=%d,%s" % (w, p) for w, p in inputs]


def splits(n, maxsplits, rng):
    """Cut points of contiguous partitions: every one for small n, else a sample."""
    cuts = list(range(1, n))
    allc = []
    if n <= 7:
        for k in range(0, n):
            for c in itertools.combinations(cuts, k):
                allc.append(list(c))
    else:
        allc.append([])
        allc.append(cuts)
        while len(allc) < maxsplits:
            k = rng.randint(1, n - 1)
            allc.append(sorted(rng.sample(cuts, k)))
    if len(allc) > maxsplits:
        allc = [allc[0], allc[-1]] + rng.sample(allc[1:-1], maxsplits - 2)
    return allc


def without_traces(text):
    """A text profile without its traces' weights and functions (each trace is
    "# Weight:", its weight and its list of names)."""
    lines = text.split(b"\n")
    out, skip = [], 0
    for line in lines:
        if skip:
            skip -= 1
            continue
        if line == b"# Weight:":
            skip = 2
            continue
        out.append(line)
    return out


def main():
    pb, work, seed, maxsplits = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rest = sys.argv[5:]
    sampled = rest[:1] == ["--sampled-traces"]
    if sampled:
        rest = rest[1:]
    sep = rest.index("--")
    opts, raw_inputs = rest[:sep], rest[sep + 1:]
    oi = opts.index("-o")
    out_name = opts[oi + 1]
    opts = opts[:oi] + opts[oi + 2:]
    # the final format's rules for the shards
    partial_for = []
    if out_name.endswith(".iprof"):
        partial_for = ["--partial-for", "iprof"]
    # the options every node of the tree must share (the merge's rules)
    rule_opts = ("--llvm-version", "--failure-mode", "--temporal-profile-trace-reservoir-size",
                 "--temporal-profile-max-trace-length", "--function", "--no-function", "--remapping-file")
    rules = []
    for i, o in enumerate(opts):
        if o in rule_opts:
            rules += [o, opts[i + 1]]
        elif o.split("=", 1)[0] in rule_opts:
            rules.append(o)
    inputs = []
    for a in raw_inputs:
        if "," in a and a.split(",", 1)[0].isdigit():
            w, p = a.split(",", 1)
            inputs.append((int(w), p))
        else:
            inputs.append((1, a))
    rng = random.Random(seed)
    flat = os.path.join(work, "flat-" + out_name)
    rc, _, err = run(pb, opts + ["-o", flat] + order_ok(inputs))
    flat_bytes = open(flat, "rb").read() if rc == 0 else None
    bad = 0
    count = 0
    for cut in splits(len(inputs), maxsplits, rng):
        bounds = [0] + cut + [len(inputs)]
        shards = []
        for i in range(len(bounds) - 1):
            sp = os.path.join(work, "shard%d.pbpart" % i)
            src, _, serr = run(pb, ["--partial"] + partial_for + rules + ["-o", sp] +
                               order_ok(inputs[bounds[i]:bounds[i + 1]]))
            if src != 0:
                print("split %s: shard %d failed: %s" % (cut, i, serr.decode(errors="replace")[:300]))
                bad += 1
                break
            shards.append(sp)
        else:
            # steps: pairs of shards combined into one partial (a tree)
            level = shards
            depth = 0
            while len(level) > 2:
                nxt = []
                for j in range(0, len(level), 2):
                    if j + 1 == len(level):
                        nxt.append(level[j])
                        continue
                    st = os.path.join(work, "step%d-%d.pbpart" % (depth, j))
                    s_rc, _, s_err = run(pb, ["--partial"] + partial_for + rules + ["-o", st, level[j], level[j + 1]])
                    if s_rc != 0:
                        print("split %s: step failed: %s" % (cut, s_err.decode(errors="replace")[:300]))
                        bad += 1
                        nxt = None
                        break
                    nxt.append(st)
                if nxt is None:
                    break
                level = nxt
                depth += 1
            else:
                final = os.path.join(work, "final-" + out_name)
                if os.path.exists(final):
                    os.unlink(final)
                frc, _, ferr = run(pb, opts + ["-o", final] + level)
                if frc != rc:
                    print("split %s: exit %d, the flat merge's %d: %s / %s" %
                          (cut, frc, rc, ferr.decode(errors="replace")[:300], err.decode(errors="replace")[:300]))
                    bad += 1
                elif rc == 0 and sampled and without_traces(open(final, "rb").read()) != without_traces(flat_bytes):
                    print("split %s: the final differs from the flat merge's beyond the sampled traces" % cut)
                    bad += 1
                elif rc == 0 and not sampled and open(final, "rb").read() != flat_bytes:
                    print("split %s: the final bytes differ from the flat merge's (%s)" % (cut, out_name))
                    bad += 1
        count += 1
    print("%d splits, %d differ" % (count, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
