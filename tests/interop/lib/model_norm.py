#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""model_norm.py -- prints profbridge's JSON model view (`convert --to json`)
in a canonical form, for comparing the models of two files in a round trip:
origin dropped, records sorted by (name, hash), values of a site sorted by
(count desc, value), symbol indices replaced by names, symbols as a sorted
set. Options drop what a format on the path cannot carry:
  --no-binary-ids, --no-entry-only-flag, --only-referenced-symbols,
  --unnamed-targets-zero (text writes a target without a name as
  "** External Symbol **", which reads back as value 0)
Usage: model_norm.py [options] MODEL.json"""
import json
import sys

ENTRY_ONLY = 1 << 61
MEMPROF = 1 << 62


def main():
    args = sys.argv[1:]
    path = args[-1]
    opts = set(args[:-1])
    with open(path, encoding="utf-8") as f:
        m = json.load(f)
    flags = int(m["flags"]["word"], 16) & ~MEMPROF  # no writer has a MemProf section
    if "--no-entry-only-flag" in opts:
        flags &= ~ENTRY_ONLY
    out = {"flags": hex(flags), "properties": m.get("properties", []),
           "temporal": m.get("temporal")}
    if "--no-binary-ids" not in opts:
        out["binaryIds"] = sorted(set(m.get("binaryIds", [])))
    referenced = set()
    records = []
    for r in m["records"]:
        r = dict(r)
        sites = r.get("valueSites", {})
        norm = {}
        for kind, ss in sites.items():
            nss = []
            for site in ss:
                vals = []
                for v in site:
                    v = dict(v)
                    v.pop("symbol", None)
                    if kind == "vtable" and v.get("target"):
                        referenced.add(v["target"])
                    if ("--unnamed-targets-zero" in opts and kind in ("indirectCall", "vtable")
                            and not v.get("target")):
                        v["value"] = "0x0000000000000000"
                    vals.append(v)
                vals.sort(key=lambda v: (-int(v["count"]), str(v["value"])))
                nss.append(vals)
            norm[kind] = nss
        if norm:
            r["valueSites"] = norm
        records.append(r)
    records.sort(key=lambda r: (r.get("name", ""), r.get("hash", "")))
    out["records"] = records
    syms = sorted(s.get("name", "") for s in m.get("symbols", []))
    if "--only-referenced-symbols" in opts:
        syms = sorted(s for s in syms if s in referenced)
    out["symbols"] = syms
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
