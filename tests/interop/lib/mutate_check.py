# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""mutate_check.py -- validate as strict as the strictest consumer (issue 12,
item 4). For each input file: truncations at every 8th byte and single-byte
changes (sampled with a fixed seed, at most BUDGET per file). Each mutant that
`profbridge validate` calls valid is given to llvm-profdata-19 show
--all-functions --counts and, for an indexed file with a program source, to
clang-19 -fprofile-use: neither may die of a signal or refuse it. Mutants we
refuse that LLVM reads are counted and listed (reported, not failed: LLVM's
tools read much they should not).

usage: mutate_check.py PB WORKDIR BUDGET SEED FILE[:PROG.c][@N[/BUDGET]] ...
  @N: the consumers are llvm-profdata-N and clang-N (default 19), with their
  own mutant budget. A release whose tools refuse the unchanged file (a
  version it does not read) is not asked about its mutants.
prints one summary line per file; exit 1 when any accepted mutant crashes
or is refused by LLVM."""
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layouts  # noqa: E402


def run(cmd, timeout=20):
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def report(path, desc, tool, rc, err):
    print("FAIL: %s (%s) is valid for profbridge, but %s exits %s: %s"
          % (path, desc, tool, rc, err.strip()[:300].replace("\n", " | ")))


def mutants(data, budget, rng):
    """(description, bytes): truncations at every 8th byte, then byte changes."""
    trunc = [("truncated to %d" % n, data[:n]) for n in range(0, len(data), 8)]
    if len(trunc) > budget // 3:
        trunc = rng.sample(trunc, budget // 3)
    out = list(trunc)
    while len(out) < budget:
        off = rng.randrange(len(data))
        # a flip of one bit, of the whole byte, or a random value
        how = rng.choice(["bit", "ff", "rand"])
        new = data[off] ^ (1 << rng.randrange(8)) if how == "bit" else (
            data[off] ^ 0xFF if how == "ff" else rng.randrange(256))
        if new == data[off]:
            continue
        m = bytearray(data)
        m[off] = new
        out.append(("byte 0x%x: 0x%02x -> 0x%02x" % (off, data[off], new), bytes(m)))
    return out


def table_mutants(data):
    """An indexed file's hash table, damaged the ways that made clang crash
    or lose records while validate said valid: every used bucket offset set
    past the end and to 2^64-1, NumEntries 0 and one less."""
    out = []
    if data[:8] != b"\xfflprofi\x81":
        return out
    _, t, nb = layouts.idx_table(data)
    for b in range(min(nb, 64)):
        at = t + 16 + 8 * b
        if layouts.u64(data, at) == 0:
            continue
        for v, what in ((len(data) + 8, "past the end"), ((1 << 64) - 1, "2^64-1")):
            m = bytearray(data)
            layouts.put(m, at, v)
            out.append(("bucket slot %d at 0x%x %s" % (b, at, what), bytes(m)))
    for n in (0, layouts.u64(data, t + 8) - 1):
        m = bytearray(data)
        layouts.put(m, t + 8, n)
        out.append(("hash_table.NumEntries at 0x%x = %d" % (t + 8, n), bytes(m)))
    return out


def crashed(rc, err):
    """A signal, a hang, or clang's crash handler (which exits 1)."""
    return rc == "timeout" or rc < 0 or rc >= 128 or "Stack dump:" in err


def main():
    pb, work, budget, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    bad = 0
    for spec in sys.argv[5:]:
        spec, _, rel = spec.partition("@")
        release, _, nb = rel.partition("/")
        release = release or "19"
        file_budget = int(nb) if nb else budget
        profdata, clang = "llvm-profdata-" + release, "clang-" + release
        path, _, prog = spec.partition(":")
        data = open(path, "rb").read()
        ext = os.path.splitext(path)[1]
        tried = accepted = crashes = refusals = llvm_only = 0
        llvm_only_list = []
        lrc, lerr = run([profdata, "show", "--all-functions", "--counts", path])
        if lrc != 0:
            print("%s: %s cannot read the unchanged file (exit %s: %s): not checked against it"
                  % (os.path.basename(path), profdata, lrc, lerr.strip()[:200]))
            continue
        for desc, m in table_mutants(data) + mutants(data, file_budget, rng):
            mp = os.path.join(work, "mutant" + ext)
            with open(mp, "wb") as f:
                f.write(m)
            tried += 1
            rc, _ = run([pb, "validate", mp])
            if rc not in (0, 1, 2):
                print("FAIL: %s (%s): profbridge validate exits %s" % (path, desc, rc))
                bad += 1
                continue
            lrc, lerr = run([profdata, "show", "--all-functions", "--counts", mp])
            if rc != 0:
                if lrc == 0:
                    llvm_only += 1
                    llvm_only_list.append(desc)
                continue
            accepted += 1
            if lrc != 0:
                report(path, desc, profdata + " show", lrc, lerr)
                crashes += crashed(lrc, lerr)
                refusals += not crashed(lrc, lerr)
                bad += 1
            if prog and ext == ".profdata":
                crc, cerr = run([clang, "-O1", "-fprofile-use=" + mp, "-c", prog, "-o", os.devnull])
                if crc != 0:
                    report(path, desc, clang + " -fprofile-use", crc, cerr)
                    crashes += crashed(crc, cerr)
                    refusals += not crashed(crc, cerr)
                    bad += 1
        print("%s (LLVM %s): %d mutants, %d valid for profbridge, %d LLVM crashes and %d LLVM refusals of those; "
              "%d refused by us and read by %s show"
              % (os.path.basename(path), release, tried, accepted, crashes, refusals, llvm_only, profdata))
        for d in llvm_only_list[:5]:
            print("  note: %s reads what we refuse: %s" % (profdata, d))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
