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
    ours = {f["filename"]: f for f in json.load(open(sys.argv[2]))["files"]}
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
    sys.exit(1 if bad else 0)


main()
