#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""iprof_gen.py -- iprof files for the bridge tests (no profbridge code).

  iprof_gen.py hostile OUT       an iprof 1.1.0 whose type and method names hold
                                 every character the LLVM name grammar escapes or
                                 must not confuse (space % < > : | , ( ) . ; # etc.,
                                 unicode, empty, all digits), every section, a
                                 300-type histogram and unreferenced methods
  iprof_gen.py run2 IN OUT SEED  "another run" of IN: ids renumbered and shuffled,
                                 every count changed, same entries and types
"""
import json
import random
import sys

HOSTILE = ["", "0", "123", "a b", "100%", "%41", "%_", "%-", "%#7", "<init>", "<clinit>",
           "java.lang.String", "[Ljava.lang.String;", "a:b", "x|y", "p,q", "f(x)", "g)", "h(",
           "#hash", "dots.in.it.", ".lead", "ünïcødé", "日本語", "emoji😀", "tab\there",
           "quote\"back\\slash", "slash/bci", "semi;colon", "lt<gt>", "jcall:x:0",
           "jmeta:types:0:a", "\x7f", "~tilde", "a.b(c)d:0<e.f()g:1"]


def hostile(out):
    rnd = random.Random(5)
    types = [{"id": i + 1, "name": n} for i, n in enumerate(HOSTILE)]
    types += [{"id": 1000 + i, "name": "gen.T%d" % i} for i in range(300)]
    tid = [t["id"] for t in types]
    # LLVM's text reader takes a value line starting with '#' for a comment and
    # refuses an empty name: such types travel in jmeta:types, not in histograms
    vtid = [t["id"] for t in types if t["name"] and not t["name"].startswith("#")]
    methods = []
    mnames = ["<init>", "run", "a.b", "x:y|z", "", "0", "%", "ünï", "m n", "f(x)", "semi;"]
    for i, n in enumerate(mnames * 3):
        k = i // len(mnames)
        sig = [tid[(i + j) % len(HOSTILE)] for j in range(2 + k)]
        methods.append({"id": 10 + i, "name": n, "signature": sig})
    mids = [m["id"] for m in methods]

    def ctx(n):
        return "<".join("%d:%d" % (rnd.choice(mids), rnd.choice([0, 1, 7, -1, 65535])) for _ in range(n))

    def uniq(sec_len, depth, first_zero=False):
        seen, out_ = set(), []
        while len(out_) < sec_len:
            c = ctx(rnd.randint(1, depth))
            if first_zero:
                head, _, rest = c.partition("<")
                c = head.split(":")[0] + ":0" + ("<" + rest if rest else "")
            if c not in seen:
                seen.add(c)
                out_.append(c)
        return out_

    d = {"version": "1.1.0", "types": types, "methods": methods}
    d["callCountProfiles"] = [{"ctx": c, "records": [rnd.randint(0, 10**6)]} for c in uniq(15, 4, True)]
    d["conditionalProfiles"] = []
    for c in uniq(15, 3):
        r = []
        for k in range(rnd.randint(1, 4)):
            r += [rnd.choice([3, 20, -5, -1]), rnd.choice([0, 1, 1, 2]), rnd.randint(0, 5000)]
        d["conditionalProfiles"].append({"ctx": c, "records": r})

    def hist(n):
        ts = rnd.sample(vtid, n)
        r = []
        for t in sorted(ts):
            r += [t, rnd.randint(0, 900)]
        return r
    d["virtualInvokeProfiles"] = [{"ctx": c, "records": hist(rnd.randint(1, 6))} for c in uniq(10, 3)]
    d["virtualInvokeProfiles"][0]["records"] = hist(300)  # more than one LLVM site holds
    d["monitorProfiles"] = [{"ctx": "0:0", "records": hist(12)}]
    d["samplingProfiles"] = [{"ctx": c, "records": [rnd.randint(1, 99)]} for c in uniq(5, 5)]
    d["instanceOfProfiles"] = [{"ctx": c, "records": hist(rnd.randint(1, 4))} for c in uniq(6, 2)]
    with open(out, "w", encoding="utf-8") as f:
        json.dump(d, f, ensure_ascii=False)


def run2(inp, out, seed):
    rnd = random.Random(seed)
    with open(inp, "rb") as f:
        d = json.loads(f.read().decode("utf-8"))
    tmap = {}
    new = rnd.sample(range(1, 10 * len(d["types"]) + 10), len(d["types"]))
    for t, n in zip(d["types"], new):
        tmap[t["id"]] = n
        t["id"] = n
    rnd.shuffle(d["types"])
    mmap = {}
    new = rnd.sample(range(0, 10 * len(d["methods"]) + 10), len(d["methods"]))
    for m, n in zip(d["methods"], new):
        mmap[m["id"]] = n
        m["id"] = n
        m["signature"] = [tmap[s] for s in m["signature"]]
    rnd.shuffle(d["methods"])

    def rectx(c, monitor):
        if monitor:
            return c
        return "<".join("%d:%s" % (mmap[int(f.split(":")[0])], f.split(":")[1]) for f in c.split("<"))

    def count(n):
        return max(0, n * rnd.randint(1, 3) + rnd.randint(-2, 7))
    for sec in ("callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
                "instanceOfProfiles", "instanceofProfiles", "monitorProfiles", "samplingProfiles"):
        for e in d.get(sec, []):
            e["ctx"] = rectx(e["ctx"], sec == "monitorProfiles")
            r = e["records"]
            if sec == "conditionalProfiles":
                for i in range(2, len(r), 3):
                    r[i] = count(r[i])
            elif sec in ("callCountProfiles", "samplingProfiles"):
                e["records"] = [count(x) for x in r]
            else:
                pairs = [[tmap[r[i]], count(r[i + 1])] for i in range(0, len(r), 2)]
                pairs.sort()
                e["records"] = [x for p in pairs for x in p]
        if sec in d:
            rnd.shuffle(d[sec])
    with open(out, "w", encoding="utf-8") as f:
        json.dump(d, f, ensure_ascii=False)


if __name__ == "__main__":
    if sys.argv[1] == "hostile":
        hostile(sys.argv[2])
    else:
        run2(sys.argv[2], sys.argv[3], int(sys.argv[4]))
