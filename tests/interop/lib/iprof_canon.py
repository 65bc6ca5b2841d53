#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""iprof_canon.py -- an iprof file with ids resolved to names, as canonical JSON.

The independent oracle of the bridge tests: it reads iprof with Python's json
module only (no profbridge code), so two files that mean the same profile
print the same text whatever their ids and order.

  iprof_canon.py FILE                 canonical JSON on stdout
  iprof_canon.py --no-histograms FILE the same with every type histogram
                                      emptied (what LLVM 14 targets keep)
  iprof_canon.py --sum A B [--weights WA,WB]
                                      the hand-computed merge of two runs
                                      (counts added, times the weights)
"""
import json
import sys

SECTIONS = ["callCountProfiles", "conditionalProfiles", "virtualInvokeProfiles",
            "instanceOfProfiles", "monitorProfiles", "samplingProfiles"]
TYPED = {"virtualInvokeProfiles", "instanceOfProfiles", "monitorProfiles"}


def load(path):
    with open(path, "rb") as f:
        d = json.loads(f.read().decode("utf-8"))
    if "instanceofProfiles" in d:
        d["instanceOfProfiles"] = d.pop("instanceofProfiles")
    types = {t["id"]: t["name"] for t in d["types"]}
    methods = {}
    for m in d["methods"]:
        methods[m["id"]] = (m["name"], tuple(types[s] for s in m["signature"]))
    out = {"version": d["version"], "types": sorted(types.values()),
           "methods": sorted([m[0], list(m[1])] for m in methods.values())}
    for sec in SECTIONS:
        entries = {}
        for e in d.get(sec, []):
            ctx = []
            for frame in e["ctx"].split("<"):
                mid, bci = frame.split(":")
                mid = int(mid)
                ctx.append([list(methods[mid]) if mid in methods else ["?", mid], int(bci)]
                           if sec != "monitorProfiles" else [mid, int(bci)])
            key = json.dumps(ctx, ensure_ascii=False)
            r = e["records"]
            if sec in TYPED:
                val = sorted([types[r[i]], r[i + 1]] for i in range(0, len(r), 2))
            elif sec == "conditionalProfiles":
                val = [r[i:i + 3] for i in range(0, len(r), 3)]
            else:
                val = r
            entries[key] = val
        out[sec] = entries
    extra = sorted(k for k in d if k not in SECTIONS and k not in ("version", "types", "methods"))
    out["extraKeys"] = extra
    return out


def no_histograms(c):
    for sec in TYPED:
        for k in c[sec]:
            c[sec][k] = []
    return c


def add(a, b, wa, wb):
    out = {"version": a["version"], "types": sorted(set(a["types"]) | set(b["types"])),
           "extraKeys": a["extraKeys"]}
    ms = {json.dumps(m, ensure_ascii=False) for m in a["methods"] + b["methods"]}
    out["methods"] = sorted(json.loads(m) for m in ms)
    for sec in SECTIONS:
        res = {}
        for k in set(a[sec]) | set(b[sec]):
            x, y = a[sec].get(k), b[sec].get(k)
            if x is None or y is None:
                v, w = (x, wa) if y is None else (y, wb)
                if sec in TYPED:
                    res[k] = sorted([t, n * w] for t, n in v)
                elif sec == "conditionalProfiles":
                    res[k] = [[s, i, n * w] for s, i, n in v]
                else:
                    res[k] = [n * w for n in v]
                continue
            if sec in TYPED:
                acc = {}
                for t, n in x:
                    acc[t] = acc.get(t, 0) + n * wa
                for t, n in y:
                    acc[t] = acc.get(t, 0) + n * wb
                res[k] = sorted([t, n] for t, n in acc.items())
            elif sec == "conditionalProfiles":
                assert [t[:2] for t in x] == [t[:2] for t in y], k
                res[k] = [[s, i, n * wa + m * wb] for (s, i, n), (_, _, m) in zip(x, y)]
            else:
                res[k] = [n * wa + m * wb for n, m in zip(x, y)]
        out[sec] = res
    return out


def main(argv):
    if argv[:1] == ["--sum"]:
        w = [1, 1]
        if len(argv) > 4 and argv[3] == "--weights":
            w = [int(x) for x in argv[4].split(",")]
        c = add(load(argv[1]), load(argv[2]), w[0], w[1])
    elif argv[:1] == ["--no-histograms"]:
        c = no_histograms(load(argv[1]))
    else:
        c = load(argv[0])
    json.dump(c, sys.stdout, ensure_ascii=False, sort_keys=True, indent=0)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
