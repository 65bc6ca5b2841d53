# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs one case through the real llvm-profdata-N and through the
llvm-profdata-N link to profbridge, side by side, and compares exit status,
stdout, the whole stderr and every file left in the working directory
(paths normalised: the corpus root, the input directory and the working
directory each become a fixed word)."""
import os
import re
import shutil
import subprocess
import tempfile

TIMEOUT = 30


def expand(s, subst):
    for k, v in subst.items():
        s = s.replace("{%s}" % k, v)
    return s


def run_one(exe, n, case, corpus, indir, cwd, real_exe):
    subst = {"corpus": corpus, "in": indir}
    argv = ["llvm-profdata-%d" % n] + [expand(a, subst) for a in case["argv"]]
    env = dict(os.environ)
    for k in ("PROFBRIDGE_LLVM_VERSION", "LLVM_PROFILE_FILE"):
        env.pop(k, None)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    try:
        p = subprocess.run(argv, executable=exe, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=TIMEOUT)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = "timeout", e.stdout or b"", e.stderr or b""
    outs = {}
    for root, _, names in os.walk(cwd):
        for name in names:
            path = os.path.join(root, name)
            rel = os.path.relpath(path, cwd)
            try:
                with open(path, "rb") as fh:
                    outs[rel] = fh.read()
            except OSError as e:
                outs[rel] = ("unreadable: %s" % e).encode()

    def norm(b):
        if exe != real_exe:
            # profbridge's detail after LLVM's words: docs/llvm-profdata.md,
            # "Unreadable inputs" (scripts that compare drop these lines)
            b = b"".join(l for l in b.splitlines(True) if not l.startswith(b"  (profbridge: "))
        # the longest first: the input copies live next to the working directory
        for v, word in sorted(((cwd, "{cwd}"), (indir, "{in}"), (corpus, "{corpus}")), key=lambda x: -len(x[0])):
            b = b.replace(v.encode(), word.encode())
        return b
    return {"rc": rc, "stdout": norm(out), "stderr": norm(err), "files": {k: norm(v) for k, v in outs.items()}}


def compare(real, ours):
    """The parts that differ: a list of 'rc', 'stdout', 'stderr', 'file:NAME'."""
    d = [k for k in ("rc", "stdout", "stderr") if real[k] != ours[k]]
    for name in sorted(set(real["files"]) | set(ours["files"])):
        if real["files"].get(name) != ours["files"].get(name):
            d.append("file:" + name)
    return d


CORPUS_REF = re.compile(r"\{corpus\}/([0-9]+/[A-Za-z0-9_.-]+)")


def side_inputs(case, corpus, t, side):
    """A copy of the corpus files and input files the case names, for one
    side: a command line may write over its inputs (a reduced "-o FILE" of
    a corpus file), and neither side may see the other's writes or spoil
    the cached corpus. Returns (corpus copy, input directory)."""
    words = " ".join(case["argv"]) + " " + " ".join(case.get("files", {}).values())
    cdir = os.path.join(t, side + "-corpus")
    for rel in sorted(set(CORPUS_REF.findall(words))):
        src = os.path.join(corpus, rel)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(cdir, rel)), exist_ok=True)
            shutil.copyfile(src, os.path.join(cdir, rel))
    os.makedirs(cdir, exist_ok=True)
    indir = os.path.join(t, side + "-in")
    os.mkdir(indir)
    for name, text in case.get("files", {}).items():
        with open(os.path.join(indir, name), "w") as fh:
            fh.write(expand(text, {"corpus": cdir, "in": indir}))
    return cdir, indir


def run_case(case, corpus, pb):
    """Runs both; returns (real, ours, differing parts)."""
    n = case["release"]
    real_exe = shutil.which("llvm-profdata-%d" % n)
    if real_exe is None:
        return None, None, None
    with tempfile.TemporaryDirectory(prefix="difffuzz.") as t:
        res = []
        for side, exe in (("r", real_exe), ("o", pb)):
            cdir, indir = side_inputs(case, corpus, t, side)
            cwd = os.path.join(t, side)
            os.mkdir(cwd)
            # each side's directories are normalised to the same words
            res.append(run_one(exe, n, case, cdir, indir, cwd, real_exe))
        real, ours = res
    return real, ours, compare(real, ours)


def first_line(b):
    return b.decode("utf-8", "replace").split("\n", 1)[0][:300]


def describe(case, real, ours, diff):
    lines = ["llvm-profdata-%d %s" % (case["release"], " ".join(case["argv"])), "  differs: " + ", ".join(diff)]
    for label, res in (("real", real), ("ours", ours)):
        lines.append("  %s: rc=%s stderr=%r stdout=%d bytes files=%s" % (
            label, res["rc"], res["stderr"].decode("utf-8", "replace")[:400], len(res["stdout"]),
            {k: len(v) for k, v in res["files"].items()}))
    return "\n".join(lines)
