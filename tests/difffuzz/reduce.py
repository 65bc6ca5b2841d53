# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Reduces a differing case to a small one that still differs the same way:
the same parts differ (exit status, stdout, stderr, files) and it is still
not a documented difference. Words are dropped one at a time (an option
with its value as one), inputs are replaced by the simplest corpus file of
the same kind, and files the command line no longer names are dropped."""
import copy
import re

import known
import runner


def signature(real, ours, diff):
    kinds = sorted(set("file" if d.startswith("file:") else d for d in diff))
    first = runner.first_line(ours["stderr"]) + " | " + runner.first_line(real["stderr"])
    first = re.sub(r"[0-9]+", "N", first)
    first = re.sub(r"\{corpus\}/N/[^ :']*", "FILE", first)
    return " ".join(kinds) + " :: " + first


def still(case, corpus, pb, sig):
    real, ours, diff = runner.run_case(case, corpus, pb)
    if not diff or known.classify(case, real, ours, diff):
        return False
    return signature(real, ours, diff) == sig


def _prune_files(case):
    used = " ".join(case["argv"]) + " ".join(case["files"].values())
    for name in list(case["files"]):
        if "{in}/" + name not in used:
            del case["files"][name]


def reduce(case, corpus, pb, sig, budget=80):
    case = copy.deepcopy(case)
    tries = 0
    changed = True
    while changed and tries < budget:
        changed = False
        # drop two words (an option and its value), then one
        for width in (2, 1):
            i = 1
            while i < len(case["argv"]) and tries < budget:
                cand = copy.deepcopy(case)
                del cand["argv"][i:i + width]
                _prune_files(cand)
                tries += 1
                if still(cand, corpus, pb, sig):
                    case, changed = cand, True
                else:
                    i += 1
        # simpler inputs
        for i, a in enumerate(case["argv"]):
            m = re.match(r"^(.*\{corpus\}/)([0-9]+)/([a-z0-9-]+)\.(profraw|profdata|proftext)$", a)
            if not m or m.group(3) == "ir" or tries >= budget:
                continue
            cand = copy.deepcopy(case)
            cand["argv"][i] = "%s%s/ir.%s" % (m.group(1), m.group(2), m.group(4))
            tries += 1
            if still(cand, corpus, pb, sig):
                case, changed = cand, True
    _prune_files(case)
    return case
