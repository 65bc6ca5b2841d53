# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Sets the evaluator's view (cov_eval_json) beside llvm-cov export's own:
every file's segments, branches and summary. Prints the differences and
exits 1 when there are some.

    cov_eval_compare.py EXPORT.json OURS.json
"""
import json
import sys


def main():
    theirs = json.load(open(sys.argv[1]))["data"][0]["files"]
    root = json.load(open(sys.argv[2]))
    ours = {f["filename"]: f for f in root["files"]}
    bad = 0
    for f in theirs:
        name = f["filename"]
        o = ours.get(name)
        if o is None:
            print(f"{name}: missing from ours")
            bad += 1
            continue
        if f["segments"] != o["segments"]:
            bad += 1
            print(f"{name}: segments differ")
            for i, (a, b) in enumerate(zip(f["segments"], o["segments"])):
                if a != b:
                    print(f"  first at {i}: llvm {a} ours {b}")
                    break
            print(f"  llvm {len(f['segments'])} ours {len(o['segments'])}")
        if "mcdc_records" in o and "mcdc_records" in f:
            def split(m):
                """[ls, cs, le, ce, (true, false,)? file, exp, kind, conds, (vectors)?]"""
                ci = next(i for i, x in enumerate(m) if isinstance(x, list))
                vec = m[ci + 1] if len(m) > ci + 1 else None
                dec = m[4:6] if ci == 9 else None
                return m[:4], m[ci], vec, dec

            theirs_m = [split(m) for m in f["mcdc_records"]]
            ours_m = [(m["loc"][:4], m["conditions"], m["test_vectors"], m["decisions"]) for m in o["mcdc_records"]]
            ours_m = [(a, b, c if t[2] is not None else None, d if t[3] is not None else None)
                      for (a, b, c, d), t in zip(ours_m, theirs_m)] + ours_m[len(theirs_m):]
            if theirs_m != ours_m:
                bad += 1
                print(f"{name}: mcdc records differ: llvm {theirs_m} ours {ours_m}")
        if "branches" in f and f["branches"] != o["branches"]:
            bad += 1
            print(f"{name}: branches differ (llvm {len(f['branches'])}, ours {len(o['branches'])})")
        for k, v in f["summary"].items():
            if not isinstance(v, dict) or "count" not in v:
                continue
            w = o["summary"].get(k)
            if (v["count"], v["covered"]) != (w["count"], w["covered"]):
                bad += 1
                print(f"{name}: summary {k}: llvm {v['count']}/{v['covered']} ours {w['count']}/{w['covered']}")
    if "functions" in root:
        tf = json.load(open(sys.argv[1]))["data"][0].get("functions", [])
        of = root["functions"]
        if len(tf) != len(of):
            bad += 1
            print(f"functions: llvm {len(tf)} ours {len(of)}")
        for a, b in zip(tf, of):
            for k in ("name", "count", "regions", "branches", "filenames"):
                if a.get(k) != b.get(k):
                    bad += 1
                    print(f"function {a['name']}: {k} differs: llvm {str(a.get(k))[:200]} ours {str(b.get(k))[:200]}")
    sys.exit(1 if bad else 0)


main()
