# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""overlap: llvm-profdata-19 overlap's report, byte for byte, and its
numbers; diff: hand-computed entries of two hand-written profiles."""
import pytest

import profbridge
from conftest import real, run


def test_overlap_is_llvm_profdata_19s_report(tmp_path, llvm_profdata):
    base = real("basic-ir.profraw")
    test = tmp_path / "test.profdata"
    run(llvm_profdata, "merge", "-o", test, f"-weighted-input=2,{base}", real("static-ir.profraw"))
    rep = profbridge.overlap(base, str(test))
    expected = run(llvm_profdata, "overlap", base, test).decode()
    assert rep.text == expected
    assert rep.program["functions_overlap"] == 5  # basic-ir's five functions are all in test
    assert rep["edge_profile_base_count_sum"] == 361  # 34+56+10+(66+34+1+0+10+50)+(66+34)
    # the same from Profiles read first, with the names given
    rep2 = profbridge.overlap(profbridge.read(base), profbridge.read(str(test)), base_name=base,
                              test_name=str(test))
    assert rep2.text == expected


def test_overlap_of_a_profile_with_itself():
    p = profbridge.read(real("basic-ir.profraw"))
    rep = profbridge.overlap(p, p)
    assert rep["edge_profile_overlap"] == 100.0
    assert rep["edge_profile_base_count_sum"] == rep["edge_profile_test_count_sum"] == 361


A = b""":ir
foo
1
3
10
0
7

bar
2
1
5

qux
3
1
1
"""
B = b""":ir
foo
1
3
12
0
7

baz
4
2
3
4

qux
3
1
1
"""


def test_diff_hand_computed():
    d = profbridge.diff(A, B)
    # baz only in B (3+4), bar only in A (5), foo changed by |12-10|; qux equal
    assert [(e.status, e.name, e.hash, e.impact) for e in d] == [
        ("only_b", "baz", 4, 7), ("only_a", "bar", 2, 5), ("changed", "foo", 1, 2)]
    assert d.same == 1
    foo = d.entries[2]
    assert d.a.records[foo.record_a].counters == [10, 0, 7]
    assert d.b.records[foo.record_b].counters == [12, 0, 7]
    assert d.entries[0].record_a is None
    assert "different: 1 only in A, 1 only in B, 1 changed, 1 same" in d.text()
    assert '"format_version"' in d.text(json=True) or d.text(json=True).lstrip().startswith("{")
