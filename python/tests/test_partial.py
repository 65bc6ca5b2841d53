# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Partial (a merge of a contiguous run of inputs), Profile.merge and the
pickling of both. Oracles: `profbridge merge` of the same inputs in the
same order (the flat merge, itself checked against llvm-profdata in the
merge tests) and each profile's own bytes."""
import glob
import os
import pickle

import pytest

import profbridge
from profbridge import Partial
from conftest import SHARED_DIR, LLVM19, run

TESTDATA = os.path.join(SHARED_DIR, "testdata")
NOT_PROFILES = (".txt", ".md", ".c", ".cc", ".cpp", ".h", ".rs", ".sh", ".py", ".toml", ".lock", ".ll")


def _profiles():
    """Every file of ../shared/testdata that profbridge reads as a profile."""
    if not os.path.isdir(TESTDATA):
        return []
    out = []
    for root, _dirs, files in os.walk(TESTDATA):
        for f in sorted(files):
            if not f.endswith(NOT_PROFILES):
                out.append(os.path.join(root, f))
    return sorted(out)


PROFILES = _profiles()


def _read(path):
    try:
        return profbridge.read(path)
    except profbridge.ProfbridgeError:
        return None


@pytest.mark.skipif(not PROFILES, reason="../shared/testdata is missing")
def test_pickle_every_shared_profile_writes_the_same_bytes():
    """pickle.loads(pickle.dumps(p)) writes what p writes, in p's own
    format (a raw input as indexed: raw writing needs one release's layout)
    and as JSON (every field of the model)."""
    seen = 0
    for path in PROFILES:
        p = _read(path)
        if p is None:
            continue
        q = pickle.loads(pickle.dumps(p))
        fmt = p.format if p.format in ("indexed", "text", "iprof", "json") else "indexed"
        for f in (fmt, "json"):
            try:
                want = p.write(format=f)
            except profbridge.ProfbridgeError:
                continue  # this profile cannot be written so (an iprof as text, ...): nothing to compare
            assert q.write(format=f) == want, f"{path}: {f} after pickle differs"
        seen += 1
    assert seen > 50, f"only {seen} profiles read from {TESTDATA}"


@pytest.mark.skipif(not PROFILES, reason="../shared/testdata is missing")
def test_partial_pickle_every_shared_profile():
    seen = 0
    for path in PROFILES:
        if _read(path) is None:
            continue
        fmt = "iprof" if path.endswith(".iprof") else "indexed"
        a = Partial.empty(format=fmt)
        a.add(path, weight=2)
        b = pickle.loads(pickle.dumps(a))
        assert b.inputs == a.inputs
        try:
            want = a.write(format=fmt, keep=False)
        except profbridge.ProfbridgeError:
            continue
        assert b.write(format=fmt, keep=False) == want, path
        seen += 1
    assert seen > 20


# clang-19 raw files that merge with each other (IR, not entry-first): with
# values, MC/DC-free, temporal traces, vtables, context-sensitive records
MERGEABLE = ("basic-ir", "concat-ir", "many-ir", "simple-ir", "static-ir", "temporal-ir", "vtable-ir", "cs-ir")


def _raws():
    ps = [os.path.join(LLVM19, n + ".profraw") for n in MERGEABLE]
    if not all(os.path.exists(p) for p in ps):
        pytest.skip("../shared/testdata/llvm-real/llvm19 is missing")
    return ps


@pytest.mark.parametrize("cut", [0, 1, 3])
def test_partial_merge_is_the_flat_merge(cli, tmp_path, cut):
    """Partials of contiguous runs merged in order write the flat merge's
    bytes; the provenance lists every input in order."""
    raws = _raws()
    inputs = [(1 + i % 4, p) for i, p in enumerate(raws)]
    args = [f"--weighted-input={w},{p}" for w, p in inputs]
    run(cli, "merge", "-o", tmp_path / "flat.profdata", *args)
    a, b = Partial.empty(), Partial.empty()
    for w, p in inputs[:cut]:
        a.add(p, w)
    for w, p in inputs[cut:]:
        b.add(p, w)
    a.merge(pickle.loads(pickle.dumps(b)))
    assert a.write(format="indexed") == (tmp_path / "flat.profdata").read_bytes()
    assert [(i.weight, i.name) for i in a.inputs] == inputs
    assert all(i.status == "merged" and len(i.sha256) == 64 for i in a.inputs)
    a.write(tmp_path / "out.proftext")
    run(cli, "merge", "--text", "-o", tmp_path / "flat.proftext", *args)
    assert (tmp_path / "out.proftext").read_bytes() == (tmp_path / "flat.proftext").read_bytes()


def test_partial_failed_input_is_in_the_provenance(tmp_path):
    raws = _raws()
    bad = tmp_path / "bad.profraw"
    bad.write_bytes(open(raws[0], "rb").read()[:100])
    p = Partial.empty(failure_mode="warn")
    p.add(raws[0]).add(str(bad)).add(str(tmp_path / "missing.profraw"))
    st = [i.status for i in p.inputs]
    assert st == ["merged", "failed", "failed"]
    assert p.inputs[1].error.file.endswith("bad.profraw") and p.inputs[1].size == 100
    assert p.inputs[2].error is not None and p.inputs[2].sha256 == ""
    p.write(format="indexed")  # warn: written
    q = Partial.empty()  # any: the first failure fails the result
    q.add(raws[0]).add(str(bad))
    with pytest.raises(profbridge.ProfbridgeError) as e:
        q.profile()
    assert [i.status for i in e.value.inputs] == ["merged", "failed"]


def test_partial_rules_must_match():
    a, b = Partial.empty(llvm_version=19), Partial.empty(llvm_version=14)
    with pytest.raises(profbridge.ProfbridgeError):
        a.merge(b)
    with pytest.raises(ValueError):
        Partial.empty(format="indexed").write(format="iprof")


def test_profile_merge_in_place_is_a_flat_merge(cli, tmp_path):
    raws = _raws()
    a, b = profbridge.read(raws[0]), profbridge.read(raws[1])
    a.merge(b, weight=3)
    run(cli, "merge", "-o", tmp_path / "flat.profdata", raws[0], f"--weighted-input=3,{raws[1]}")
    out = a.write(format="indexed", keep_vtable_symbols=True, order="llvm")
    assert out == (tmp_path / "flat.profdata").read_bytes()
    with pytest.raises(TypeError):
        a.merge(raws[1])
