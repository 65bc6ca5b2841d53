# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Profile.write: every format, to a path or to bytes, with the CLI's
options; the real llvm-profdata of the target release reads the result and
shows what llvm-profdata-19 shows of the input."""
import os

import pytest

import profbridge
from conftest import SAMPLES, parse_llvm_text, real, run, sites_as_sets, tool


def show(tool_path, path):
    """What the tool shows of every function, order aside (an indexed file
    is in hash order, a raw file in the program's)."""
    return sites_as_sets(parse_llvm_text(run(tool_path, "show", "--all-functions", "--text", path).decode()))


def test_write_bytes_text_read_by_llvm(tmp_path, llvm_profdata):
    src = real("basic-ir.profraw")
    data = profbridge.read(src).write(format="text")
    assert data.startswith(b":ir") or b"\n:ir" in data or data.startswith(b"#")
    (tmp_path / "a.proftext").write_bytes(data)
    assert show(llvm_profdata, tmp_path / "a.proftext") == show(llvm_profdata, src)


@pytest.mark.parametrize("release,version", [(14, 7), (16, 9), (19, 12)])
def test_write_indexed_for_a_release(tmp_path, release, version):
    their = tool(f"llvm-profdata-{release}")
    src = real("basic-ir.profraw")
    out = tmp_path / "a.profdata"
    profbridge.read(src).write(str(out), llvm_version=release)
    got = run(tool("llvm-profdata-19"), "show", "--profile-version", out).decode()
    assert f"Profile version: {version}" in got
    assert show(their, out) == show(tool("llvm-profdata-19"), src)


def test_write_raw_version_8_read_by_llvm_14(tmp_path):
    llvm14 = tool("llvm-profdata-14")
    src = real("basic-ir.profraw")
    raw = profbridge.read(src).write(format="raw", raw_version=8)
    (tmp_path / "old.profraw").write_bytes(raw)
    assert show(llvm14, tmp_path / "old.profraw") == show(tool("llvm-profdata-19"), src)


def test_iprof_round_trip():
    p = profbridge.read(os.path.join(SAMPLES, "fib-doc.iprof"))
    back = profbridge.read(p.write(format="iprof"))
    key = lambda prof: sorted((r.kind, r.name, tuple(r.counters)) for r in prof.records)
    assert key(back) == key(p)


def test_write_needs_a_format(tmp_path):
    p = profbridge.read(real("basic-ir.profraw"))
    with pytest.raises(profbridge.ProfbridgeError):
        p.write()
    with pytest.raises(profbridge.ProfbridgeError):
        p.write(str(tmp_path / "a.unknown-extension"))
    with pytest.raises(profbridge.ProfbridgeError) as e:
        p.write(str(tmp_path / "a.profdata"), llvm_version=99)
    assert "llvm-version" in e.value.path
    assert not (tmp_path / "a.profdata").exists()
