# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
import json, sys, random
# iprof_second_run.py IN OUT SEED: a "second run": some counts changed, some entries dropped,
# virtual-invoke receiver counts changed. Deterministic per seed.
d = json.load(open(sys.argv[1]))
r = random.Random(int(sys.argv[3]))
for sec in ("callCountProfiles", "samplingProfiles"):
    if sec in d:
        d[sec] = [e for e in d[sec] if r.random() > 0.1]
        for e in d[sec]:
            e["records"] = [c * r.choice([0, 1, 1, 2, 3]) for c in e["records"]]
if "conditionalProfiles" in d:
    for e in d["conditionalProfiles"]:
        rec = e["records"]
        for i in range(1, len(rec), 3):
            rec[i + 1] = rec[i + 1] * r.choice([1, 1, 2]) + r.choice([0, 0, 5])
for sec in ("virtualInvokeProfiles", "monitorProfiles"):
    if sec in d:
        for e in d[sec]:
            rec = e["records"]
            for i in range(1, len(rec), 2):
                rec[i] = rec[i] * r.choice([1, 2, 3])
json.dump(d, open(sys.argv[2], "w"))
