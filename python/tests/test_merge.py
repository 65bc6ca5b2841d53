# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""profbridge.merge: the bytes llvm-profdata-N merge writes for the same
weighted inputs, whatever the thread count; failed inputs as llvm-profdata
treats them."""
import os

import pytest

import profbridge
from conftest import LLVM19, real, run, tool

INPUTS = ["basic-ir.profraw", "many-ir.profraw", "static-ir.profraw", "vtable-ir.profraw", "basic-ir.profdata"]


@pytest.mark.parametrize("threads", [1, 3])
def test_weighted_merge_is_llvm_profdata_19s_bytes(tmp_path, llvm_profdata, threads):
    paths = [real(n) for n in INPUTS]
    inputs = [paths[0], (3, paths[1]), paths[2], (2, paths[3]), (5, paths[4])]
    out = tmp_path / "ours.profdata"
    merged = profbridge.merge(inputs, output=str(out), threads=threads, keep_vtable_symbols=False)
    run(llvm_profdata, "merge", "-o", tmp_path / "llvm.profdata", paths[0], f"-weighted-input=3,{paths[1]}",
        paths[2], f"-weighted-input=2,{paths[3]}", f"-weighted-input=5,{paths[4]}")
    assert out.read_bytes() == (tmp_path / "llvm.profdata").read_bytes()
    assert merged.failures == []
    # the returned profile is the merge: main of basic-ir x1 plus x5
    main = [r for r in merged.records if r.name == "main" and r.hash == 1031170505987388510]
    assert main and main[0].counters == [c * 6 for c in [66, 34, 1, 0, 10, 50]]


def test_vtable_names_kept_by_default_as_the_cli(tmp_path, llvm_profdata, cli):
    """One default for profbridge merge and Python: keep (= --keep-vtable-symbols)."""
    vt = real("vtable-ir.profraw")
    profbridge.merge([vt], output=str(tmp_path / "py.profdata"))
    run(cli, "merge", vt, "-o", tmp_path / "cli.profdata")
    run(llvm_profdata, "merge", "--keep-vtable-symbols", "-o", tmp_path / "keep.profdata", vt)
    assert (tmp_path / "py.profdata").read_bytes() == (tmp_path / "keep.profdata").read_bytes()
    assert (tmp_path / "py.profdata").read_bytes() == (tmp_path / "cli.profdata").read_bytes()
    profbridge.merge([vt], output=str(tmp_path / "drop.profdata"), keep_vtable_symbols=False)
    run(llvm_profdata, "merge", "-o", tmp_path / "llvm.profdata", vt)
    assert (tmp_path / "drop.profdata").read_bytes() == (tmp_path / "llvm.profdata").read_bytes()


def test_merge_to_text_and_for_llvm_14(tmp_path):
    llvm14 = tool("llvm-profdata-14")
    paths = [real("basic-ir.profraw"), real("many-ir.profraw")]
    profbridge.merge([paths[0], (2, paths[1])], output=str(tmp_path / "ours.proftext"))
    run(tool("llvm-profdata-19"), "merge", "--text", "-o", tmp_path / "llvm.proftext", paths[0],
        f"-weighted-input=2,{paths[1]}")
    assert (tmp_path / "ours.proftext").read_bytes() == (tmp_path / "llvm.proftext").read_bytes()
    # llvm-profdata-14 cannot read clang-19's raw v10: it merges our text
    # instead, and llvm_version=14 must give its bytes
    profbridge.merge([str(tmp_path / "ours.proftext")], output=str(tmp_path / "ours14.profdata"), llvm_version=14)
    run(llvm14, "merge", "-o", tmp_path / "llvm14.profdata", tmp_path / "ours.proftext")
    assert (tmp_path / "ours14.profdata").read_bytes() == (tmp_path / "llvm14.profdata").read_bytes()


def test_bad_input_failure_modes(tmp_path, llvm_profdata):
    good = real("basic-ir.profraw")
    bad = tmp_path / "bad.profraw"
    bad.write_bytes(open(good, "rb").read()[:40])
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.merge([good, str(bad)], output=str(tmp_path / "x.profdata"))
    assert e.value.path == "merge.inputs"
    assert [(i, os.path.basename(p)) for i, p, _ in e.value.failures] == [(1, "bad.profraw")]
    assert e.value.failures[0][2].file.endswith("bad.profraw")
    assert not (tmp_path / "x.profdata").exists()
    # "all" and "warn" merge what could be read, as llvm-profdata does
    for mode in ("all", "warn"):
        m = profbridge.merge([good, str(bad)], output=str(tmp_path / f"{mode}.profdata"), failure_mode=mode)
        assert [i for i, _, _ in m.failures] == [1]
        run(llvm_profdata, "merge", f"--failure-mode={mode}", "-o", tmp_path / f"llvm-{mode}.profdata", good, bad)
        assert (tmp_path / f"{mode}.profdata").read_bytes() == (tmp_path / f"llvm-{mode}.profdata").read_bytes()


def test_bad_options():
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.merge([real("basic-ir.profraw")], failure_mode="sometimes")
    assert e.value.path == "failure-mode" and e.value.code_name == "EINVAL"
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.merge([real("basic-ir.profraw")], llvm_version=12)
    assert e.value.path == "llvm-version"
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.merge([(0, real("basic-ir.profraw"))])
    assert e.value.code_name == "EINVAL"


def test_cli_and_python_merge_every_real_raw_alike(tmp_path, cli):
    """Issue 21: `profbridge merge F -o X` and profbridge.merge([F], output=X)
    write the same bytes for every raw file of ../shared/testdata/llvm-real
    (or both refuse it)."""
    import subprocess
    top = os.path.dirname(LLVM19)
    raws = sorted(os.path.join(d, f) for d, _, fs in os.walk(top) for f in fs if f.endswith(".profraw"))
    if not raws:
        pytest.skip(f"no raw profiles under {top} (../shared/testdata is absent)")
    for i, raw in enumerate(raws):
        py, cl = tmp_path / f"py{i}.profdata", tmp_path / f"cli{i}.profdata"
        try:
            profbridge.merge([raw], output=str(py))
            py_ok = True
        except profbridge.ProfbridgeError:
            py_ok = False
        p = subprocess.run([cli, "merge", raw, "-o", str(cl)], capture_output=True)
        assert py_ok == (p.returncode == 0), f"{raw}: Python {'wrote' if py_ok else 'refused'}, CLI exit {p.returncode}"
        if py_ok:
            assert py.read_bytes() == cl.read_bytes(), f"{raw}: the CLI's and Python's merges differ"


def test_writer_contexts_follow_llvm_profdatas_threads(tmp_path):
    """writer_contexts=True: llvm-profdata's per-thread writers, hand-computed:
    input i into writer i % T, then writer I takes I + T/2; so foo's three
    hashes come 10, 12, 11 on two threads, in input order without it."""
    paths = []
    for h, c in ((10, 1), (11, 2), (12, 3)):
        p = tmp_path / f"h{h}.proftext"
        p.write_text(f":ir\nfoo\n{h}\n1\n{c}\n")
        paths.append(str(p))

    def hashes(**kw):
        return [r.hash for r in profbridge.merge(paths, threads=2, llvm_version=19, **kw).records]

    assert hashes() == [10, 11, 12]
    assert hashes(writer_contexts=True) == [10, 12, 11]
    # one front-end text on two threads: the idle writer's empty kind conflicts (16+)
    fe = tmp_path / "fe.proftext"
    fe.write_text(":fe\nfoo\n10\n1\n1\n")
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.merge([str(fe)], threads=2, llvm_version=19, writer_contexts=True)
    assert "unsupported instrumentation profile format version" in str(e.value)
