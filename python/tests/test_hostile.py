# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Issue 23, Python: close() while another thread reads the same profile is
safe (the free waits for the last reader), and a path with an embedded NUL
raises ValueError as Python's own open() does, for every path argument,
instead of being cut to another file's name."""
import os
import pathlib
import threading

import pytest

import profbridge

HAND = b"""# a hand-written IR profile
:ir
foo
# Func Hash:
1234
# Num Counters:
3
# Counter Values:
1
2
3

"""


def many_records(n):
    out = [b":ir\n"]
    for i in range(n):
        out.append(b"f%d\n%d\n2\n%d\n%d\n\n" % (i, i + 1, i, i * 2))
    return b"".join(out)


def test_close_while_another_thread_reads():
    # Before: close() freed the model while a reader was inside the library
    # (which runs without the GIL): a heap use-after-free under ASan.
    for _ in range(20):
        p = profbridge.read(many_records(400))
        errors = []
        started = threading.Event()

        def reader():
            try:
                started.set()
                for r in p.records:
                    assert r.counters == [int(r.name[1:]), int(r.name[1:]) * 2]
                    _ = r.hash, r.kind, r.value_sites, r.bitmap
            except ValueError as e:  # the profile was closed: the one allowed outcome
                assert "closed" in str(e)
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)

        threads = [threading.Thread(target=reader) for _ in range(3)]
        for t in threads:
            t.start()
        started.wait()
        p.close()
        p.close()  # twice is harmless
        for t in threads:
            t.join()
        assert not errors
        with pytest.raises(ValueError):
            len(p)


def test_closed_profile_refuses_use():
    p = profbridge.read(HAND)
    r = p.records[0]
    p.close()
    with pytest.raises(ValueError):
        r.counters
    with pytest.raises(ValueError):
        p.write(format="text")


@pytest.fixture
def files(tmp_path):
    good = tmp_path / "a.proftext"
    good.write_bytes(HAND)
    # the name a NUL would cut "a.proftext\0x" to exists: the cut call would succeed
    return tmp_path, str(good)


def test_nul_in_read_path(files):
    _, good = files
    with pytest.raises(ValueError):
        open(good + "\0x")  # Python's own behaviour, the model
    # (bytes given to read() are a profile's content, not a path)
    for bad in (good + "\0x", good + "\0", pathlib.Path(good + "\0x")):
        with pytest.raises(ValueError):
            profbridge.read(bad)


def test_nul_in_write_path(files):
    tmp, good = files
    p = profbridge.read(good)
    target = str(tmp / "out.proftext")
    with pytest.raises(ValueError):
        p.write(target + "\0.profdata", format="text")
    with pytest.raises(ValueError):
        p.write(target + "\0")
    assert not os.path.exists(target)


def test_nul_in_merge_paths(files):
    tmp, good = files
    out = str(tmp / "m.profdata")
    with pytest.raises(ValueError):
        profbridge.merge([good + "\0junk"])
    with pytest.raises(ValueError):
        profbridge.merge([(2, good + "\0junk")])
    with pytest.raises(ValueError):
        profbridge.merge([good], output=out + "\0x")
    assert not os.path.exists(out)


def test_nul_in_compare_and_coverage_paths(files):
    _, good = files
    with pytest.raises(ValueError):
        profbridge.diff(good, good + "\0x")
    with pytest.raises(ValueError):
        profbridge.overlap(good + "\0x", good)
    with pytest.raises(ValueError):
        profbridge.coverage(good + "\0obj", good)
    with pytest.raises(ValueError):
        profbridge.coverage("/bin/true", good + "\0x")


def test_nul_in_path_options(files):
    _, good = files
    # a plugin option naming a file (--binary-file) is a path argument too
    with pytest.raises(ValueError):
        profbridge.read(good, binary_file="/bin/true\0x")
