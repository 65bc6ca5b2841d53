#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gen_iprof.py -- writes a large synthetic GraalVM iprof 1.1.0 profile for benchmarks.

Deterministic for a given --seed and --scale. At scale 1.0 the file has
220,000 methods, 40,000 types and about 1,060,000 profile entries across all
sections (call counts, branches, virtual invokes, instanceof, sampling and
the one monitor entry), contexts 1-15 frames deep for instrumented sections
and up to 30 for sampling stacks, and is about 160 MB. The shape
follows real files (shared/spec/iprof.md): compact JSON, the method table
largest of the tables, ids unique per file, call-count contexts start at
bci 0, branch triples (successorBci, index, count) with a few -5 repeats,
receiver pairs sorted by type id (at most 8), counts log-normal up to ~1e13,
no all-zero entries, no context repeated within a section.

--pretty re-indents the same document (2 spaces, as json.dump indent=2):
the pretty-printed variant that bench/iprof.sh measures next to the compact one.

Usage: gen_iprof.py OUT [--seed N] [--scale F] [--pretty]
"""
import argparse
import json
import math
import random
import sys

PRIMITIVES = ["boolean", "byte", "short", "char", "int", "long", "float", "double", "void"]
ORGS = ["com.acme", "org.example", "io.quarkus", "jdk.internal", "java.util", "java.lang",
        "org.graalvm", "com.oracle.svm.core", "net.shop", "dev.tools", "org.apache.commons"]
AREAS = ["order", "billing", "inventory", "http", "json", "sql", "cache", "auth", "util",
         "concurrent", "stream", "io", "reflect", "graph", "parser", "codec", "metrics", "log"]
NOUNS = ["Order", "Invoice", "Customer", "Request", "Response", "Handler", "Parser", "Buffer",
         "Node", "Tree", "Map", "List", "Entry", "Token", "Stream", "Context", "Session", "Cache",
         "Encoder", "Decoder", "Registry", "Factory", "Builder", "Visitor", "Worker", "Task",
         "Queue", "Lock", "Channel", "Record", "Value", "Field", "Schema", "Index", "Plan"]
SUFFIX = ["", "Impl", "Service", "Manager", "Helper", "Support", "Util", "Adapter", "Provider"]
VERBS = ["get", "set", "is", "has", "compute", "process", "handle", "parse", "write", "read",
         "visit", "apply", "accept", "build", "create", "find", "update", "load", "store",
         "encode", "decode", "resolve", "validate", "merge", "flush", "close", "run", "call"]


def type_names(rng, n):
    names = list(PRIMITIVES) + ["java.lang.Object", "java.lang.String", "java.lang.Class",
                                "[Ljava.lang.String;", "[B", "[I", "[[D"]
    seen = set(names)
    while len(names) < n:
        r = rng.random()
        base = "%s.%s.%s%s%s" % (rng.choice(ORGS), rng.choice(AREAS), rng.choice(NOUNS),
                                 rng.choice(NOUNS) if rng.random() < 0.5 else "", rng.choice(SUFFIX))
        if r < 0.15:
            base += "$" + rng.choice(NOUNS)
        elif r < 0.20:
            base += "$$Lambda/0x%016x" % rng.getrandbits(40)
        elif r < 0.23:
            base = "[L" + base + ";"
        if base not in seen:
            seen.add(base)
            names.append(base)
    return names


def method_name(rng):
    r = rng.random()
    if r < 0.08:
        return "<init>"
    if r < 0.09:
        return "<clinit>"
    if r < 0.14:
        return "lambda$%s%s$%d" % (rng.choice(VERBS), rng.choice(NOUNS), rng.randrange(40))
    return rng.choice(VERBS) + rng.choice(NOUNS) + (rng.choice(NOUNS) if rng.random() < 0.3 else "")


def count(rng, mu=5.0, sigma=3.0):
    """A log-normal execution count, at least 1, at most ~3.4e13."""
    return max(1, min(int(math.exp(rng.gauss(mu, sigma))), 34303903801135))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--pretty", action="store_true")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    s = a.scale
    n_types, n_methods = int(40000 * s), int(220000 * s)
    n_call, n_cond, n_virt = int(340000 * s), int(420000 * s), int(170000 * s)
    n_inst, n_samp = int(45000 * s), int(85000 * s)

    tnames = type_names(rng, max(n_types, 20))
    n_types = len(tnames)
    # Ids are unique per file but not dense: real writers skip numbers.
    type_ids = sorted(rng.sample(range(n_types * 2), n_types))
    class_ids = type_ids[len(PRIMITIVES):]

    out = open(a.out, "w", buffering=1 << 22)
    w = out.write
    w('{"version":"1.1.0","types":[')
    w(",".join('{"id":%d,"name":"%s"}' % (i, n) for i, n in zip(type_ids, tnames)))
    w('],"methods":[')
    method_ids = sorted(rng.sample(range(n_methods * 3), n_methods))
    seen = set()
    parts = []
    for i, mid in enumerate(method_ids):
        while True:
            decl = rng.choice(class_ids)
            name = method_name(rng)
            ret = rng.choice(type_ids) if rng.random() < 0.6 else type_ids[8]  # often void
            params = tuple(rng.choice(type_ids) for _ in range(min(int(rng.expovariate(0.9)), 12)))
            key = (decl, name, ret, params)
            if key not in seen:
                seen.add(key)
                break
        sig = ",".join(str(x) for x in (decl, ret) + params)
        parts.append('{"id":%d,"name":"%s","signature":[%s]}' % (mid, name, sig))
        if len(parts) >= 10000:
            w(",".join(parts) + ("," if i + 1 < n_methods else ""))
            parts = []
    w(",".join(parts) + "]")
    del seen

    # Hot methods get most entries, as in real profiles.
    hot = method_ids[: max(1, n_methods // 3)]

    def frame(bci_lo=-1, bci_hi=400):
        b = rng.randint(0, bci_hi)
        if rng.random() < 0.01:
            b = rng.choice([-1, -4, -5, -6])
        return "%d:%d" % (rng.choice(hot), b)

    def ctx(depth, first_bci=None):
        first = "%d:%d" % (rng.choice(hot), first_bci) if first_bci is not None else frame()
        return "<".join([first] + [frame() for _ in range(depth - 1)])

    def section(name, n, make, max_depth, first_bci=None, full_stacks=False):
        w(',"%s":[' % name)
        used = set()
        buf = []
        for i in range(n):
            while True:
                if full_stacks:  # sampled stacks reach down to the thread entry
                    d = rng.randint(5, max_depth)
                else:  # partial contexts: as deep as inlining went
                    d = 1 + min(int(rng.expovariate(0.1)), max_depth - 1)
                c = ctx(d, first_bci)
                if c not in used:
                    used.add(c)
                    break
            buf.append('{"ctx":"%s","records":[%s]}' % (c, make()))
            if len(buf) >= 5000:
                w(",".join(buf) + ("," if i + 1 < n else ""))
                buf = []
        w(",".join(buf) + "]")

    def call_records():
        return str(count(rng))

    def branch_records():
        k = 2 if rng.random() < 0.9 else rng.randint(3, 16)
        trip = []
        counts = [count(rng, 4, 3) if rng.random() < 0.8 else 0 for _ in range(k)]
        if not any(counts):
            counts[0] = 1
        for idx in range(k):
            trip += [rng.randint(0, 2000), idx, counts[idx]]
            if k > 2 and rng.random() < 0.1:  # switch cases sharing a target
                trip += [-5, idx, 0]
        return ",".join(map(str, trip))

    def type_records():
        ts = sorted(rng.sample(class_ids, rng.randint(1, 8)))
        return ",".join("%d,%d" % (t, count(rng, 4, 2.5)) for t in ts)

    def sample_records():
        return str(count(rng, 2, 2))

    section("callCountProfiles", n_call, call_records, 15, first_bci=0)
    section("conditionalProfiles", n_cond, branch_records, 15)
    section("virtualInvokeProfiles", n_virt, type_records, 15)
    mon = sorted(rng.sample(class_ids, min(500, len(class_ids))))
    w(',"monitorProfiles":[{"ctx":"0:0","records":[%s]}]'
      % ",".join("%d,%d" % (t, count(rng, 3, 2)) for t in mon))
    section("samplingProfiles", n_samp, sample_records, 30, full_stacks=True)
    section("instanceOfProfiles", n_inst, type_records, 15)
    w("}")
    out.close()
    if a.pretty:
        with open(a.out) as f:
            doc = json.load(f)
        with open(a.out, "w", buffering=1 << 22) as f:
            json.dump(doc, f, indent=2)
    total = n_call + n_cond + n_virt + n_inst + n_samp + 1
    print("gen_iprof: %s: %d types, %d methods, %d entries" % (a.out, n_types, n_methods, total),
          file=sys.stderr)


if __name__ == "__main__":
    main()
