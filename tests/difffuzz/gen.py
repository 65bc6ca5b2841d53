# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Random yet plausible llvm-profdata-N command lines, drawn from release N's
own option lists (options.py) over the corpus (corpus.py).

A case is a dict: release, argv (after the program name) and files (name ->
text, written to the shared input directory before running: -f lists,
response files, remapping files). Paths in argv are templates: {corpus} is
the corpus root, {in} the input directory; outputs are relative to the
working directory each tool runs in."""
import json
import os
import random

NUMBERS = ["0", "1", "2", "3", "7", "10", "100", "1000", "65536", "4294967296",
           "18446744073709551615", "18446744073709551616", "-1", "abc", "", "0x10", "1e3"]
WEIGHTS = ["1", "2", "3", "10", "1000", "4294967297", "9223372036854775808",
           "18446744073709551615", "0", "-1", "x", ""]
FILTERS = ["main", "twice", "thrice", "lib_f", "pick", "t", "^t.*", "i", "nomatch", "[", ""]
BOOLS = ["true", "false", "1", "0", "True", "FALSE", "yes", ""]
SAMPLE_ONLY = {
    "sample", "extbinary", "gcc", "compress-all-sections", "drop-profile-symbol-list", "gen-partial-profile",
    "prof-sym-list", "convert-sample-profile-layout", "sample-frame-depth-for-cold-context",
    "sample-merge-cold-context", "sample-trim-cold-context", "split-layout", "suppl-min-size-threshold",
    "supplement-instr-with-sample", "instr-prof-cold-threshold", "use-md5", "zero-counter-threshold",
    "profiled-binary", "memprof-full-schema", "memprof-random-hotness", "memprof-random-hotness-seed",
    "memprof-version", "show-prof-sym-list", "show-sec-info-only", "show-composite-info-only", "memory",
    "similarity-cutoff", "gen-cs-nested-profile"}
OUT_NAMES = ["out.profdata", "out.proftext", "out.json", "out.profraw", "out.iprof", "out", "out.txt"]


class Gen:
    def __init__(self, rng, corpus_root, releases, options):
        self.rng = rng
        self.root = corpus_root
        self.releases = releases
        self.options = options          # {(n, sub): {name: opt}}
        self.files = {}
        for n in releases:
            with open(os.path.join(corpus_root, str(n), "FILES")) as fh:
                self.files[n] = [l for l in fh.read().split() if l]

    def corpus_file(self, n, pattern=None):
        r = self.rng
        m = n if r.random() < 0.88 else r.choice(self.releases)
        choices = self.files[m]
        if pattern:
            sel = [f for f in choices if pattern in f]
            choices = sel or choices
        return "{corpus}/%d/%s" % (m, r.choice(choices))

    def value(self, n, sub, o, case):
        r = self.rng
        name, ph = o["name"], (o.get("placeholder") or "")
        if o["kind"] == "enum":
            return r.choice(o["values"] + (["bogus"] if r.random() < 0.1 else []))
        if ph in ("uint", "int", "ulong", "number", "long") or name in ("j", "num-threads"):
            if name in ("j", "num-threads"):
                return r.choice(["1", "2", "3", "0", "1", "2", "x"])
            return r.choice(NUMBERS)
        if name in ("function", "no-function"):
            return r.choice(FILTERS)
        if name == "detailed-summary-cutoffs":
            return r.choice(["", "500000", "800000,900000", "990000,1000000", "1000001", "x", "0"])
        if name in ("remapping-file", "r"):
            case["files"]["remap.txt"] = r.choice(["twice double\n", "# c\n\nmain entry\n", "bad\n", "a b c\n"])
            return "{in}/remap.txt"
        if name in ("input-files", "f"):
            lines = []
            for _ in range(r.randint(0, 3)):
                f = self.corpus_file(n)
                lines.append(f if r.random() < 0.5 else "%s,%s" % (r.choice(WEIGHTS), f))
            case["files"]["list.txt"] = "\n".join(lines) + ("\n" if r.random() < 0.8 else "")
            return "{in}/list.txt"
        if name in ("binary-file", "debug-info", "profiled-binary"):
            return r.choice(["{corpus}/%d/p-ir" % n, "{corpus}/%d/p-cov" % n, "{in}/missing", self.corpus_file(n)])
        if name in ("output", "o"):
            return r.choice(OUT_NAMES)
        if name == "weighted-input":
            return "%s,%s" % (r.choice(WEIGHTS), self.corpus_file(n))
        return r.choice(["{in}/missing", self.corpus_file(n), "x"])

    def option_args(self, n, sub, o, case):
        r = self.rng
        name, dash = o["name"], o["dash"]
        if len(name) > 1 and r.random() < 0.15:
            dash = "-" if dash == "--" else "--"
        if o["kind"] == "flag" and not o.get("alias_of"):
            if r.random() < 0.1:
                return ["%s%s=%s" % (dash, name, r.choice(BOOLS))]
            return [dash + name]
        target = o
        if o.get("alias_of"):
            target = self.options[(n, sub)].get(o["alias_of"], o)
        v = self.value(n, sub, target, case)
        if target["kind"] == "flag":
            return [dash + name]
        if len(name) == 1 and r.random() < 0.5:
            return [dash + name, v] if r.random() < 0.7 else [dash + name + v]
        return ["%s%s=%s" % (dash, name, v)] if r.random() < 0.6 else [dash + name, v]

    def case(self, n):
        r = self.rng
        sub = r.choices(["merge", "show", "overlap", "order"], [6, 3, 1, 1])[0]
        opts = self.options.get((n, sub)) or {}
        if not opts:
            sub = "merge"
            opts = self.options.get((n, sub)) or {}
        case = {"release": n, "argv": [sub], "files": {}}
        args = []
        k = {"merge": r.choice([1, 1, 2, 2, 3, 4]), "show": 1, "overlap": 2, "order": 1}[sub]
        if r.random() < 0.05:
            k += r.choice([-1, 1])
        for _ in range(max(k, 0)):
            pattern = "tmp" if sub == "order" and r.random() < 0.7 else None
            args.append(self.corpus_file(n, pattern))
        names = [x for x in sorted(opts) if x not in ("help",)]
        # sample and MemProf options are refused at once: drawn seldom
        weights = [0.08 if x in SAMPLE_ONLY else 1.0 for x in names]
        for _ in range(r.choice([0, 1, 1, 2, 2, 3, 4])):
            if names:
                o = opts[r.choices(names, weights)[0]]
                args[r.randint(0, len(args)):0] = self.option_args(n, sub, o, case)
        if sub == "merge" and r.random() < 0.85 or sub != "merge" and r.random() < 0.3:
            out = r.choice(OUT_NAMES)
            form = r.random()
            args += (["-o", out] if form < 0.7 else ["--output=" + out] if form < 0.9 else ["-o" + out])
        if r.random() < 0.07 and args:
            # a response file holding some of the words
            cut = r.randint(0, len(args))
            case["files"]["resp.txt"] = "\n".join(args[cut:]) + "\n"
            args = args[:cut] + ["@{in}/resp.txt"]
        case["argv"] += args
        return case


def load_options(root, releases):
    from options import SUBCOMMANDS
    out = {}
    for n in releases:
        for sub in SUBCOMMANDS:
            p = os.path.join(root, str(n), "options-%s.json" % sub)
            if os.path.exists(p):
                with open(p) as fh:
                    o = json.load(fh)
                if o:
                    out[(n, sub)] = o
    return out
