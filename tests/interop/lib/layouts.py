# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""layouts.py -- field offsets of raw and indexed files for the tests, read
from the one source of truth (formats/raw/raw_layout.h,
formats/indexed/indexed_layout.h) rather than written down again."""
import os
import re
import struct

ROOT = os.environ.get("PB_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..", "..")


def _rows(path, macro):
    text = open(os.path.join(ROOT, path)).read()
    start = text.index("#define " + macro + "(X)")
    body = []
    for line in text[start:].splitlines()[1:]:
        if not line.strip().startswith("X("):
            break
        body.append(line.strip())
    rows = []
    for line in body:
        args = [a.strip() for a in line[2:line.index(", \"")].split(",")]
        rows.append(args)
    return rows


def _since_until(args, i):
    until = args[i + 1]
    return int(args[i]), 255 if not until.isdigit() else int(until)


def raw_header_offsets(version):
    """{field: byte offset} of a raw header of `version`."""
    out, off = {}, 0
    for args in _rows("formats/raw/raw_layout.h", "PBI_RAW_HEADER"):
        since, until = _since_until(args, 1)
        if since <= version <= until:
            out[args[0]] = off
            off += 8
    out["_size"] = off
    return out


def raw_record_offsets(version, ptr=8):
    """{field: (offset, element size, count)} of a raw data record; '_size'."""
    size = {"PBI_T_U64": 8, "PBI_T_PTR": ptr, "PBI_T_U32": 4, "PBI_T_U16": 2}
    out, off = {}, 0
    for args in _rows("formats/raw/raw_layout.h", "PBI_RAW_RECORD"):
        since, until = _since_until(args, 3)
        if not since <= version <= until:
            continue
        el, n = size[args[1]], int(args[2])
        off = (off + el - 1) // el * el
        out[args[0]] = (off, el, n)
        off += el * n
    out["_size"] = (off + 7) // 8 * 8
    return out


def idx_header_offsets(version):
    out, off = {}, 0
    for args in _rows("formats/indexed/indexed_layout.h", "PBI_IDX_HEADER"):
        if int(args[1]) <= version:
            out[args[0]] = off
            off += 8
    out["_size"] = off
    return out


def u64(b, off):
    return struct.unpack_from("<Q", b, off)[0]


def put(b, off, value, size=8):
    fmt = {1: "<B", 2: "<H", 4: "<I", 8: "<Q"}[size]
    struct.pack_into(fmt, b, off, value & ((1 << (8 * size)) - 1))


def idx_table(b):
    """(version, hash table offset, number of buckets) of an indexed file."""
    version = u64(b, 8) & 0xFFFFFFFF
    h = idx_header_offsets(version)
    t = u64(b, h["hash_offset"])
    return version, t, u64(b, t)
