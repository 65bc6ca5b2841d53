#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Differential fuzzer: llvm-profdata-N against the llvm-profdata-N link to
profbridge (issue 22).

  difffuzz.py corpus                      build (or find) the cached corpus
  difffuzz.py replay [--cases DIR]        every stored case: one that must
                                          agree still agrees, one that is a
                                          documented difference is still it
  difffuzz.py run --seed S --count N      a fixed-seed run: fails on any
                                          difference the docs do not state
  difffuzz.py campaign [--time SEC]       a fresh seed for SEC seconds (or
                                          --count N); each new difference
                                          reduced and stored in --found DIR
                                          (default tests/difffuzz/found/)
Common options: --pb PATH (default $PB or build/profbridge), --releases
"19 24", --weights "19=3,22=3,23=3,24=3", --corpus DIR, --log FILE.
Exit status: 0 all agreed (or only documented differences), 1 a finding,
77 no llvm-profdata-N with its clang-N installed."""
import argparse
import collections
import glob
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import corpus as corpus_mod  # noqa: E402
import gen  # noqa: E402
import known  # noqa: E402
import reduce as reduce_mod  # noqa: E402
import runner  # noqa: E402


def pb_path(a):
    p = a.pb or os.environ.get("PB") or os.path.join(SOURCE, "build", "profbridge")
    if not os.access(p, os.X_OK):
        sys.exit("difffuzz: no profbridge at %s (--pb PATH)" % p)
    return os.path.abspath(p)


def releases(a):
    have = corpus_mod.releases_present()
    if a.releases:
        want = [int(x) for x in a.releases.replace(",", " ").split()]
        have = [n for n in want if n in have]
    return have


def check_docs():
    bad = [name for name, phrase, _ in known.KNOWN if known.docs_line(SOURCE, phrase) is None]
    if bad:
        print("difffuzz: documented differences whose words are not in %s: %s" % (known.DOCS, ", ".join(bad)))
        return False
    return True


def log_line(fh, text):
    if fh:
        fh.write(text + "\n")
        fh.flush()


def fuzz(a, seed, count, seconds, store):
    rels = releases(a)
    if not rels:
        print("SKIP: no llvm-profdata-N with its clang-N on PATH")
        return 77
    root = corpus_mod.ensure(a.corpus, None)
    pb = pb_path(a)
    weights = {n: 1.0 for n in rels}
    for part in (a.weights or "").split(","):
        if "=" in part:
            k, v = part.split("=")
            if int(k) in weights:
                weights[int(k)] = float(v)
    rng = random.Random(seed)
    g = gen.Gen(rng, root, rels, gen.load_options(root, rels))
    tried = collections.Counter()
    classes = collections.Counter()
    findings = {}
    logf = open(a.log, "a") if a.log else None
    log_line(logf, "# seed %s, releases %s, pb %s" % (seed, rels, pb))
    start = time.time()
    i = 0
    while (count is None or i < count) and (seconds is None or time.time() - start < seconds):
        i += 1
        n = rng.choices(rels, [weights[x] for x in rels])[0]
        case = g.case(n)
        real, ours, diff = runner.run_case(case, root, pb)
        tried[n] += 1
        if i % 100 == 0:  # progress for a long campaign
            log_line(logf, "# after %d: %s; documented %s; findings %d (%d distinct)" % (
                i, dict(sorted(tried.items())), dict(sorted(classes.items())), classes["finding"], len(findings)))
        if not diff:
            continue
        name = known.classify(case, real, ours, diff)
        if name:
            classes[name] += 1
            continue
        sig = reduce_mod.signature(real, ours, diff)
        classes["finding"] += 1
        log_line(logf, runner.describe(case, real, ours, diff))
        if sig in findings:
            continue
        small = reduce_mod.reduce(case, root, pb, sig) if a.reduce else case
        small["found"] = sig
        small["expect"] = "same"
        findings[sig] = small
        r2, o2, d2 = runner.run_case(small, root, pb)
        print("FINDING %d: %s" % (len(findings), runner.describe(small, r2, o2, d2 or [])))
        sys.stdout.flush()
        if store:
            os.makedirs(store, exist_ok=True)
            path = os.path.join(store, "r%d-%s-%03d.json" % (n, time.strftime("%H%M%S"), len(findings)))
            with open(path, "w") as fh:
                json.dump(small, fh, indent=1, sort_keys=True)
                fh.write("\n")
    summary = "seed %s: %d command lines (%s); documented differences: %s; findings: %d command lines, %d distinct" % (
        seed, sum(tried.values()), ", ".join("%d: %d" % kv for kv in sorted(tried.items())),
        ", ".join("%s %d" % kv for kv in sorted(classes.items()) if kv[0] != "finding") or "none",
        classes["finding"], len(findings))
    print(summary)
    log_line(logf, "# " + summary)
    return 1 if findings else 0


def replay(a):
    rels = releases(a)
    if not rels:
        print("SKIP: no llvm-profdata-N with its clang-N on PATH")
        return 77
    root = corpus_mod.ensure(a.corpus, None)
    pb = pb_path(a)
    bad = total = 0
    for path in sorted(glob.glob(os.path.join(a.cases, "*.json"))):
        with open(path) as fh:
            case = json.load(fh)
        if case["release"] not in rels:
            continue
        total += 1
        real, ours, diff = runner.run_case(case, root, pb)
        expect = case.get("expect", "same")
        got = "same" if not diff else "known:%s" % known.classify(case, real, ours, diff)
        if got != expect and not (expect.startswith("known:") and got == "same"):
            bad += 1
            print("FAIL %s: expected %s, got %s\n%s" % (os.path.basename(path), expect, got,
                                                      runner.describe(case, real, ours, diff or [])))
    print("replayed %d stored cases, %d failed" % (total, bad))
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["corpus", "replay", "run", "campaign"])
    p.add_argument("--pb")
    p.add_argument("--releases")
    p.add_argument("--weights", default="19=3,22=3,23=3,24=3")
    p.add_argument("--corpus")
    p.add_argument("--cases", default=os.path.join(HERE, "cases"))
    p.add_argument("--found", default=os.path.join(HERE, "found"))
    p.add_argument("--seed", type=int)
    p.add_argument("--count", type=int)
    p.add_argument("--time", type=float)
    p.add_argument("--log")
    p.add_argument("--no-reduce", dest="reduce", action="store_false")
    a = p.parse_args()
    if a.what == "corpus":
        print(corpus_mod.ensure(a.corpus, None))
        return 0
    if not check_docs():
        return 1
    if a.what == "replay":
        return replay(a)
    if a.what == "run":
        return fuzz(a, a.seed if a.seed is not None else 1, a.count if a.count else (None if a.time else 200), a.time, None)
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1 << 32)
    return fuzz(a, seed, a.count, a.time if a.time or a.count else 3600, a.found)


if __name__ == "__main__":
    sys.exit(main())
