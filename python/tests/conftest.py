# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Fixtures: the source tree, ../shared's real profiles, the real LLVM tools
(the oracles; a test that needs a missing one is skipped) and the CLI."""
import os
import shutil
import subprocess

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.environ.get("PB_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
SHARED_DIR = os.environ.get("PB_SHARED_DIR") or os.path.join(os.path.dirname(SOURCE_DIR), "shared")
LLVM19 = os.path.join(SHARED_DIR, "testdata", "llvm-real", "llvm19")
SAMPLES = os.path.join(SOURCE_DIR, "testdata", "samples")


def tool(name):
    path = shutil.which(name)
    if not path:
        pytest.skip(f"{name} is not installed (the oracle of this test)")
    return path


def run(*args, **kw):
    """Runs a command; returns its stdout (bytes), failing the test on a non-zero exit."""
    p = subprocess.run([str(a) for a in args], capture_output=True, **kw)
    assert p.returncode == 0, f"{args}: exit {p.returncode}: {p.stderr.decode(errors='replace')}"
    return p.stdout


@pytest.fixture
def llvm_profdata():
    return tool("llvm-profdata-19")


@pytest.fixture
def cli():
    pb = os.environ.get("PB")
    if not pb or not os.access(pb, os.X_OK):
        pytest.skip("PB (the profbridge CLI of this build) is not set")
    return pb


def real(name):
    path = os.path.join(LLVM19, name)
    if not os.path.exists(path):
        pytest.skip(f"{path} is missing (../shared/testdata)")
    return path


def parse_llvm_text(text):
    """LLVM's text profile format (`llvm-profdata show --text`) as
    {(name, hash): {"counters": [...], "bitmap": bytes, "sites": {kind: [[(value_or_name, count)]]}}}."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    i = 0
    while i < len(lines) and lines[i].startswith(":"):
        i += 1
    out = {}
    while i < len(lines) and not lines[i].startswith(":"):
        name = lines[i]
        h, n = int(lines[i + 1]), int(lines[i + 2])
        counters = [int(x) for x in lines[i + 3:i + 3 + n]]
        i += 3 + n
        bitmap = b""
        if i < len(lines) and lines[i].startswith("$"):
            nb = int(lines[i][1:])
            bitmap = bytes(int(x, 16) for x in lines[i + 1:i + 1 + nb])
            i += 1 + nb
        sites = {}
        if i < len(lines) and lines[i].isdigit():
            nk = int(lines[i])
            i += 1
            for _ in range(nk):
                kind, ns = int(lines[i]), int(lines[i + 1])
                i += 2
                kind_sites = []
                for _ in range(ns):
                    nv = int(lines[i])
                    i += 1
                    vals = []
                    for v in lines[i:i + nv]:
                        key, cnt = v.rsplit(":", 1)
                        vals.append((key, int(cnt)))
                    i += nv
                    kind_sites.append(vals)
                sites[kind] = kind_sites
        out[(name, h)] = {"counters": counters, "bitmap": bitmap, "sites": sites}
    return out


def sites_as_sets(parsed):
    """parse_llvm_text's result with each site's values sorted: LLVM's
    indexed writer orders a site by count, a raw file keeps the program's order."""
    for rec in parsed.values():
        rec["sites"] = {k: [sorted(site) for site in s] for k, s in rec["sites"].items()}
    return parsed
