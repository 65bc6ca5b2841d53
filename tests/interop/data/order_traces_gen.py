# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""order_traces_gen.py SEED NFUNCS NTRACES -- a random .proftext with
temporal profile traces, for tests/interop/order_llvm.sh.

The traces look like start-ups of one program: most follow one hidden
function order, dropping some functions and swapping neighbours; the rest
are random samples. Every third seed makes noisier traces instead: any
function may come again later in a trace, and traces weigh 1 to 100
(no release uses the weights; they must not matter). Names mix plain functions, local ones with a file
prefix ("file1.c;f7", LLVM 18+'s form), and names with a colon ("obj:c3",
which LLVM 17 prints as a file prefix). About one function in twenty has no
record, so its NameRef has no name and order prints an empty line.
"""
import random
import sys

seed, nfuncs, ntraces = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
names = []
for i in range(nfuncs):
    k = rng.random()
    if k < 0.3:
        names.append("file%d.c;f%d" % (i % 3, i))
    elif k < 0.35:
        names.append("obj:c%d" % i)
    else:
        names.append("f%d" % i)
out = ["# IR level Instrumentation Flag", ":ir", ":temporal_prof_traces",
       "# Num Temporal Profile Traces:", str(ntraces),
       "# Temporal Profile Trace Stream Size:", str(ntraces)]
hidden = names[:]
rng.shuffle(hidden)
noisy = seed % 3 == 0
for _ in range(ntraces):
    weight = rng.choice([1, 1, 2, 5, 100]) if noisy else 1
    if noisy:
        common = names[: max(1, nfuncs // 2)]
        trace = [rng.choice(common) if rng.random() < 0.5 else rng.choice(names)
                 for _ in range(rng.randint(1, 3 * nfuncs))]
    elif rng.random() < 0.6:
        trace = [n for n in hidden if rng.random() < 0.7]
        for _ in range(len(trace) // 4):
            if len(trace) > 1:
                a = rng.randrange(len(trace) - 1)
                trace[a], trace[a + 1] = trace[a + 1], trace[a]
    else:
        trace = rng.sample(names, rng.randint(1, nfuncs))
    if not trace:
        trace = [names[0]]
    out += ["# Weight:", str(weight), ",".join(trace) + ","]
out.append("")
for i, n in enumerate(names):
    if rng.random() < 0.05:
        continue
    out += [n, "# Func Hash:", str(1000 + i), "# Num Counters:", "1", "# Counter Values:", "1", ""]
print("\n".join(out))
