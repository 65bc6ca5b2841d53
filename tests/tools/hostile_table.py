# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""hostile_table.py -- the measurements behind issue 12's closing table.

Real files of each format (iprof, json, raw, indexed, text) are truncated or
changed one byte at a time (a fixed seed), and every mutant goes through every
command (convert, merge, show, validate, dump, overlap, diff, types, flame,
order) with a timeout. Issue 23 added the ELF surfaces: programs built by
clang-19 (with coverage mapping; with binary and debug-info correlation) are
mutated the same way and go through `cov export`, `cov report`, `dump`,
`merge --binary-file`, `merge --debug-info` (also read from a pipe) and
`show --debug-info` (skipped without clang-19 and llvm-profdata-19). Per format and command it counts the runs, how many
mutants were truncations and byte/bit flips, the exit statuses, and what must
never happen:
  crash   a signal, an exit status above 2, or a sanitizer report;
  hang    the timeout reached;
  lost    the input file changed by the run, or a temporary file left behind.
Rounds go format by format so the table stays even; the run stops after
BUDGET seconds. Run it through hostile_table.sh (nice, one process).

usage: hostile_table.py PB SOURCE_DIR SHARED_DIR WORKDIR BUDGET_SECONDS [SEED]
exit 1 when any crash, hang or lost input was seen."""
import os
import random
import subprocess
import sys
import time

PROFILE_COMMANDS = ["convert", "merge", "show", "validate", "dump", "overlap", "diff", "types", "flame", "order"]
ELF_COMMANDS = ["cov-export", "cov-report", "dump", "merge-binary", "merge-binary-pipe", "merge-debug-info",
                "show-debug-info"]
FORMATS = ["iprof", "json", "raw", "indexed", "text", "elf"]
EXT = {"iprof": ".iprof", "json": ".json", "raw": ".profraw", "indexed": ".profdata", "text": ".proftext",
       "elf": ".elf"}
PROG = r"""
int sq(int x) { return x * x; }
int pick(int a, int b) { return a > 3 && b < 9 ? sq(a) : b; }
int main(int argc, char **argv) { (void)argv; int s = 0; for (int i = 0; i < argc + 3; i++) s += pick(i, s); return s > 1000; }
"""


def commands(fmt):
    return ELF_COMMANDS if fmt == "elf" else PROFILE_COMMANDS


def elf_inputs(work):
    """The ELF surfaces' programs and the profiles they wrote: {name: path};
    None without clang-19 and llvm-profdata-19."""
    from shutil import which
    if not which("clang-19") or not which("llvm-profdata-19"):
        return None
    c = os.path.join(work, "prog.c")
    open(c, "w").write(PROG)
    f = {}
    builds = {"cov": ["-fprofile-instr-generate", "-fcoverage-mapping"],
              "bin": ["-fprofile-generate", "-mllvm", "-profile-correlate=binary"],
              "dbg": ["-g", "-fprofile-generate", "-mllvm", "-profile-correlate=debug-info"]}
    for name, flags in builds.items():
        exe = os.path.join(work, name)
        subprocess.run(["clang-19", "-O0"] + flags + [c, "-o", exe], check=True)
        raw = exe + ".profraw"
        subprocess.run([exe], env=dict(os.environ, LLVM_PROFILE_FILE=raw), check=False)
        f[name], f[name + ".profraw"] = exe, raw
    f["cov.profdata"] = os.path.join(work, "cov.profdata")
    subprocess.run(["llvm-profdata-19", "merge", f["cov.profraw"], "-o", f["cov.profdata"]], check=True)
    return f


def inputs(pb, src, shared, work):
    """{format: [paths of real files]}; the JSON files are made by profbridge
    from real iprof and LLVM files (there is no other writer of the model)."""
    llvm = os.path.join(shared, "testdata", "llvm-real", "llvm19")
    iprof = [os.path.join(src, "testdata", "samples", "fib-doc.iprof"),
             os.path.join(src, "testdata", "types", "samples.iprof"),
             os.path.join(src, "testdata", "types", "receivers.iprof")]
    out = {"iprof": iprof, "json": [],
           "raw": [os.path.join(llvm, n + ".profraw") for n in ("vtable-ir", "temporal-ir", "mcdc-fe")],
           "indexed": [os.path.join(llvm, n + ".profdata") for n in ("vtable-ir", "temporal-ir", "mcdc-fe")],
           "text": [os.path.join(llvm, n + ".proftext") for n in ("vtable-ir", "temporal-ir", "mcdc-fe")]}
    for i, s in enumerate([iprof[0], iprof[1], out["indexed"][0]]):
        j = os.path.join(work, "seed%d.json" % i)
        subprocess.run([pb, "convert", s, "-o", j], check=True, stdout=subprocess.DEVNULL)
        out["json"].append(j)
    elf = elf_inputs(work)
    if elf:
        out["elf"] = [elf["cov"], elf["bin"], elf["dbg"]]
        out["elf-files"] = elf
    return out


def mutate(data, rng):
    """(kind, description, bytes): a truncation, a bit flip or a byte change."""
    kind = rng.choice(["trunc", "bit", "byte"])
    if kind == "trunc":
        n = rng.randrange(len(data))
        return kind, "truncated to %d" % n, data[:n]
    off = rng.randrange(len(data))
    m = bytearray(data)
    if kind == "bit":
        m[off] ^= 1 << rng.randrange(8)
    else:
        m[off] = rng.choice([0x00, 0xff, 0x7f, 0x80, rng.randrange(256)])
        if m[off] == data[off]:
            m[off] ^= 0xff
    return kind, "byte 0x%x: 0x%02x -> 0x%02x" % (off, data[off], m[off]), bytes(m)


def elf_argv(cmd, mp, orig, out, elf):
    """(argv, stdin bytes or None) of an ELF command; a mutant of the program
    that `cmd` reads (the coverage one for cov, the correlated ones else)."""
    cov_profile = elf["cov.profdata"]
    raw = {"bin": elf["bin.profraw"], "dbg": elf["dbg.profraw"]}
    kind = os.path.basename(orig)
    return {
        "cov-export": ["cov", "export", "-instr-profile", cov_profile, mp],
        "cov-report": ["cov", "report", "-instr-profile", cov_profile, mp],
        "dump": ["dump", mp, "-o", os.path.join(out, "d.txt")],
        "merge-binary": ["merge", "--binary-file", mp, raw.get(kind, raw["bin"]), "-o", os.path.join(out, "m.profdata")],
        "merge-binary-pipe": ["merge", "--binary-file", "/dev/stdin", raw.get(kind, raw["bin"]),
                              "-o", os.path.join(out, "m.profdata")],
        "merge-debug-info": ["merge", "--debug-info", mp, raw.get(kind, raw["dbg"]), "-o", os.path.join(out, "m.profdata")],
        "show-debug-info": ["show", "--debug-info", mp, "-o", os.path.join(out, "s.txt")],
    }[cmd]


def argv(cmd, mp, orig, out):
    return {
        # iprof and JSON go to LLVM's indexed format (the bridge), LLVM files to the model's JSON
        "convert": ["convert", mp, "-o", os.path.join(out, "c.profdata" if mp.endswith((".iprof", ".json")) else "c.json")],
        "merge": ["merge", mp, mp, "-o", os.path.join(out, "m.profdata")],
        "show": ["show", mp, "-o", os.path.join(out, "s.txt")],
        "validate": ["validate", mp],
        "dump": ["dump", mp, "-o", os.path.join(out, "d.txt")],
        "overlap": ["overlap", orig, mp, "-o", os.path.join(out, "o.txt")],
        "diff": ["diff", orig, mp, "-o", os.path.join(out, "f.txt")],
        "types": ["types", mp, "-o", os.path.join(out, "t.txt")],
        "flame": ["flame", mp, "--format", "folded", "-o", os.path.join(out, "fl.txt")],
        "order": ["order", mp, "-o", os.path.join(out, "or.txt")],
    }[cmd]


def main():
    pb, src, shared, work, budget = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
    rng = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 12)
    files = inputs(pb, src, shared, work)
    formats = [f for f in FORMATS if f in files]
    if "elf" not in files:
        print("hostile_table: no clang-19/llvm-profdata-19: the ELF surfaces are not measured")
    out = os.path.join(work, "out")
    os.makedirs(out, exist_ok=True)
    keys = ("runs", "trunc", "bit", "byte", "exit0", "exit1", "exit2", "crash", "hang", "lost")
    t = {(f, c): dict.fromkeys(keys, 0) for f in formats for c in commands(f)}
    mutants = dict.fromkeys(formats, 0)
    problems = []
    start = time.time()
    rnd = 0
    while time.time() - start < budget:
        for fmt in formats:
            orig = files[fmt][rnd % len(files[fmt])]
            data = open(orig, "rb").read()
            kind, desc, m = mutate(data, rng)
            mp = os.path.join(work, "mutant" + EXT[fmt])
            mutants[fmt] += 1
            for cmd in commands(fmt):
                with open(mp, "wb") as fh:
                    fh.write(m)
                row = t[(fmt, cmd)]
                row["runs"] += 1
                row[kind] += 1
                args = elf_argv(cmd, mp, orig, out, files["elf-files"]) if fmt == "elf" else argv(cmd, mp, orig, out)
                try:
                    p = subprocess.run([pb] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=20,
                                       input=m if cmd.endswith("-pipe") else None)
                    rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
                except subprocess.TimeoutExpired:
                    rc, err = "timeout", ""
                why = None
                if rc == "timeout":
                    row["hang"] += 1
                    why = "hangs"
                elif rc < 0 or rc > 2 or "Sanitizer" in err or "runtime error:" in err:
                    row["crash"] += 1
                    why = "exits %s: %s" % (rc, err.strip()[-300:])
                else:
                    row["exit%d" % rc] += 1
                left = [n for n in os.listdir(out) + os.listdir(work) if "pbtmp" in n]
                if open(mp, "rb").read() != m or left:
                    row["lost"] += 1
                    why = (why + "; " if why else "") + ("left %s" % left if left else "changed its input")
                    for n in left:
                        for d in (out, work):
                            if os.path.exists(os.path.join(d, n)):
                                os.unlink(os.path.join(d, n))
                if why:
                    keep = os.path.join(work, "problem%d%s" % (len(problems), EXT[fmt]))
                    open(keep, "wb").write(m)
                    problems.append("%s %s (%s of %s, kept as %s): %s" % (cmd, fmt, desc, os.path.basename(orig),
                                                                        keep, why))
        rnd += 1
    secs = time.time() - start
    print("hostile_table: %d rounds in %.0f s; mutants per format: %s" % (
        rnd, secs, ", ".join("%s %d" % (f, mutants[f]) for f in formats)))
    print("| format | command | runs | truncations | bit flips | byte changes | exit 0 | exit 1 | exit 2 "
          "| crashes | hangs | lost inputs |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    total = dict.fromkeys(keys, 0)
    for f in formats:
        for c in commands(f):
            r = t[(f, c)]
            for k in keys:
                total[k] += r[k]
            print("| %s | %s | %s |" % (f, c, " | ".join(str(r[k]) for k in keys)))
    print("| all | all | %s |" % " | ".join(str(total[k]) for k in keys))
    for p in problems[:40]:
        print("PROBLEM: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
