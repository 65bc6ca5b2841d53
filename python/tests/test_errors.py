# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ProfbridgeError carries file, byte offset, JSON path, line and column;
profiles stay usable after an error. Expected positions are worked out by
hand from the formats' layouts."""
import struct

import pytest

import profbridge
from conftest import real

HEADER_V10 = 16 * 8  # raw v10 header: 16 uint64 fields (InstrProfData.inc)
DATA_V10 = 64         # one v10 __llvm_profile_data record


def test_raw_cut_inside_the_header(tmp_path):
    cut = tmp_path / "cut.profraw"
    cut.write_bytes(open(real("basic-ir.profraw"), "rb").read()[:40])
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.read(str(cut))
    err = e.value
    assert err.file == str(cut)
    assert err.offset == 0 and err.path == "header"
    assert err.code_name in ("ETRUNC", "EFORMAT")
    assert str(err).startswith(f"{cut}: byte 0x0 (header): ")
    assert "128" in str(err)  # the header size it needs


def test_raw_cut_after_the_header(tmp_path):
    data = open(real("basic-ir.profraw"), "rb").read()
    binary_ids, num_data = struct.unpack_from("<QQ", data, 16)
    cut = data[:200]
    # the data records start after the header and the binary ids and run past byte 200
    start = HEADER_V10 + binary_ids
    assert start + num_data * DATA_V10 > len(cut)
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.read(cut)
    err = e.value
    assert err.file == "<memory>"
    assert err.offset == 0x18 and err.path == "header.NumData"  # the field that promises too much
    assert f"{num_data * DATA_V10:#x} bytes from byte {start:#x}" in str(err)


def test_iprof_json_path_line_and_column(tmp_path):
    bad = tmp_path / "b.iprof"
    bad.write_text('{"version":"1.1.0","types":[{"id":0,"name":"A"}],'
                   '"methods":[{"id":1,"name":"m","signature":[0,0]}],'
                   '"callCountProfiles":[{"ctx":"1:0","records":[1,2]}]}')
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.read(str(bad))
    err = e.value
    assert err.file == str(bad) and err.offset is None
    assert err.path == "callCountProfiles[0].records"  # a call count has exactly one record
    assert err.found and err.expected
    syntax = tmp_path / "c.iprof"
    syntax.write_text('{"version":"1.1.0",\n  "types": [}\n')
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.read(str(syntax))
    assert (e.value.line, e.value.column) == (2, 13)  # the '}' is the 13th character of line 2
    assert str(e.value).startswith(f"{syntax}:2:13: ")


def test_missing_file():
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.read("/nonexistent/x.profraw")
    assert e.value.code_name == "EIO" and e.value.file == "/nonexistent/x.profraw"


def test_profile_reused_after_errors(tmp_path):
    p = profbridge.read(real("basic-ir.profraw"))
    before = [(r.name, r.counters) for r in p.records]
    with pytest.raises(profbridge.ProfbridgeError):
        profbridge.read(b"\x81rfforpl" + b"\0" * 8)
    with pytest.raises(profbridge.ProfbridgeError):
        p.write(str(tmp_path / "no-such-dir" / "a.profdata"))
    with pytest.raises(profbridge.ProfbridgeError):
        p.write(format="indexed", llvm_version="x")
    assert [(r.name, r.counters) for r in p.records] == before
    again = profbridge.read(p.write(format="indexed"))
    assert sorted((r.name, r.counters) for r in again.records) == sorted(before)
    p.close()
    with pytest.raises(ValueError):
        len(p)
