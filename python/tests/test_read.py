# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Reading: what profbridge.read hands out equals what llvm-profdata-19 shows
of the same file (names, hashes, counters, bitmaps, value sites with names),
hand-computed values of a hand-written .proftext, and the Java view of an
iprof file."""
import gzip
import hashlib
import io
import os

import pytest

import profbridge
from conftest import SAMPLES, parse_llvm_text, real, run

VK = {0: "indirect_call", 1: "memop_size", 2: "vtable"}
# llvm-profdata's text for a target the profile cannot name; ours is name None
UNRESOLVED = "<unresolved>"


def ours(profile):
    out = {}
    for r in profile.records:
        sites = {}
        for k, kname in VK.items():
            s = r.value_sites[kname]
            if s:
                sites[k] = [sorted((name if name is not None else str(v) if k == 1 else UNRESOLVED, c)
                                   for v, c, name in site) for site in s]
        out[(r.name, r.hash)] = {"counters": r.counters, "bitmap": r.bitmap, "sites": sites}
    return out


def theirs(llvm_profdata, path):
    got = parse_llvm_text(run(llvm_profdata, "show", "--all-functions", "--text", path).decode())
    for rec in got.values():
        rec["sites"] = {k: [sorted((UNRESOLVED if v == "** External Symbol **" else v, c) for v, c in site)
                            for site in s] for k, s in rec["sites"].items()}
    return got


@pytest.mark.parametrize("name", ["basic-ir.profraw", "basic-fe.profraw", "vtable-ir.profraw",
                                  "mcdc-fe.profraw", "many-ir.profraw", "static-ir.profraw",
                                  "basic-ir.profdata", "vtable-ir.proftext"])
def test_records_match_llvm_profdata_show(llvm_profdata, name):
    path = real(name)
    p = profbridge.read(path)
    expected = theirs(llvm_profdata, path)
    assert len(expected) > 0
    assert ours(p) == expected
    assert len(p) == len(expected)


def test_value_site_names_resolved():
    p = profbridge.read(real("basic-ir.profraw"))
    main = next(r for r in p.records if r.name == "main")
    ic = main.value_sites["indirect_call"]
    # llvm-profdata-19 show --ic-targets: add 34, sub 56, mul 10 at the one site
    assert sorted((n, c) for _, c, n in ic[0]) == [("add", 34), ("mul", 10), ("sub", 56)]
    # each value is the target's NameRef: the low 8 bytes (little-endian) of its name's MD5
    for v, _, n in ic[0]:
        assert v == int.from_bytes(hashlib.md5(n.encode()).digest()[:8], "little")
    assert all(name is None for _, _, name in main.value_sites["memop_size"][0])


HAND = b"""# a hand-written IR profile
:ir
foo
# Func Hash:
1234
# Num Counters:
3
# Counter Values:
10
0
7
# Num Value Kinds:
1
# ValueKind = IPVK_IndirectCallTarget:
0
# NumValueSites:
2
2
bar:5
baz:3
0

bar
1
1
5

baz
99
2
3
4
"""


def test_hand_written_proftext():
    p = profbridge.read(HAND)
    assert p.format == "text"
    recs = {r.name: r for r in p.records}
    assert sorted(recs) == ["bar", "baz", "foo"]
    foo = recs["foo"]
    assert foo.name_bytes == b"foo"
    assert foo.hash == 1234
    assert foo.counters == [10, 0, 7]
    assert foo.kind == "function"
    assert foo.bitmap == b""
    sites = foo.value_sites["indirect_call"]
    assert len(sites) == 2
    assert sorted((n, c) for _, c, n in sites[0]) == [("bar", 5), ("baz", 3)]
    assert sites[1] == []
    # the value of a named target is its NameRef; bar's record resolves it
    assert {n for _, _, n in sites[0]} == {"bar", "baz"}
    assert recs["bar"].counters == [5] and recs["bar"].hash == 1
    assert recs["baz"].counters == [3, 4] and recs["baz"].hash == 99
    assert foo.value_sites["memop_size"] == [] and foo.value_sites["vtable"] == []


def test_path_bytes_and_file_object_agree():
    path = real("basic-ir.profraw")
    with open(path, "rb") as f:
        data = f.read()
    a = profbridge.read(path)
    b = profbridge.read(data)
    with open(path, "rb") as f:
        c = profbridge.read(f)
    d = profbridge.read(io.BytesIO(data))
    assert ours(a) == ours(b) == ours(c) == ours(d)
    assert a.format == "raw" and a.version == 10
    assert len(a.binary_ids) == 1


def test_format_forced_and_text_file_refused_as_raw():
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.read(HAND, format="raw")
    assert e.value.code_name in ("EFORMAT", "ETRUNC")
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.read(HAND, format="nosuch")
    assert e.value.path == "format" and e.value.code_name == "EINVAL"


def test_iprof_java_entries():
    # fib-doc.iprof (testdata/samples): Fib.fibonacci calls
    # PrintStream.print(String) at bci 34, ten times (the README recipe
    # "merge run1.iprof run2.iprof" relies on the same count)
    p = profbridge.read(os.path.join(SAMPLES, "fib-doc.iprof"))
    assert p.format == "iprof"
    entries = p.java_entries
    assert len(entries) == len(p) and entries
    call = next(r for r in entries if r.kind == "java_call_count" and len(r.context) == 2)
    assert [(f.method.text, f.bci) for f in call.context] == [
        ("java.io.PrintStream.print(java.lang.String)void", 0), ("Fib.fibonacci()void", 34)]
    assert call.context[0].method.name == "print"
    assert call.counters == [10]
    assert call.name == "jcall:java.io.PrintStream.print(java.lang.String)void:0<Fib.fibonacci()void:34"
    branch = next(r for r in entries if r.kind == "java_branch")
    # the branch at Fib.fibonacci bci 11: 11 times in all, 10 to bci 20, once to 53
    assert branch.counters == [11, 10, 1]
    assert branch.layout == [(20, 0), (53, 1)]
    # virtualInvokeProfiles[0]: String.valueOf at bci 11 (inlined into print, into
    # fibonacci) saw java.lang.String 10 times
    vcall = next(r for r in entries if r.kind == "java_virtual_invoke" and r.context[0].method.name == "valueOf")
    assert [(f.method.text, f.bci) for f in vcall.context] == [
        ("java.lang.String.valueOf(java.lang.Object)java.lang.String", 11),
        ("java.io.PrintStream.print(java.lang.String)void", 2), ("Fib.fibonacci()void", 34)]
    assert [(c, n) for _, c, n in vcall.value_sites["vtable"][0]] == [(10, "java.lang.String")]
    assert vcall.counters == [10]


def test_gzip_input_and_methods():
    # gzip is recognised by its magic, as for files (the CLI reads .gz transparently)
    p = profbridge.read(gzip.compress(HAND))
    assert sorted(r.name for r in p.records) == ["bar", "baz", "foo"]
    q = profbridge.read(os.path.join(SAMPLES, "fib-doc.iprof"))
    texts = {m.text for m in q.methods}
    # fib-doc.iprof's methods 19551 (fibonacci) and 19547 (main), by hand from its JSON
    assert {"Fib.fibonacci()void", "Fib.main([Ljava.lang.String;)void"} <= texts
    assert len(q.methods) == 27
