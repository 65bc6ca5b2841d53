# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""size_fields.py -- work bounded by the input (issue 12, item 3). Every size
or count field that drives a loop or an allocation, in real small files, is
set to 2^30, 2^32 and 2^64-1 (cut to the field's width), and profbridge
validate, show and a merge of the file with itself must end within `timeout`
seconds with exit 0, or exit 1 or 2 with a message naming a byte offset.

usage: size_fields.py PB WORKDIR TIMEOUT KIND:FILE ...
  KIND raw|indexed|text: the format's size fields (offsets from
    formats/*/…_layout.h through layouts.py; the section starts of a raw file
    from `profbridge dump` of the unchanged file);
  KIND names: the two ULEB128 lengths heading the first chunk of each names
    blob (raw names and vtable names; an indexed file's vtable names, one
    compressed chunk written into the file first), the section keeping its
    size: uncompressed length, compressed length, and the uncompressed
    length with the chunk marked plain (compressed length 0);
  KIND json: every integer of a JSON or iprof file that can stand for a
    count, an id or a size (the first of each JSON path, indices aside:
    temporal.streamSize, ids, placeholders, counters, record values, ...).
    A JSON array has no declared length: its size is what is present, and
    the inflation of a .gz input is io_limits.sh's."""
import json
import os
import re
import zlib
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layouts as L  # noqa: E402

VALUES = [(1 << 30, "2^30"), (1 << 32, "2^32"), ((1 << 64) - 1, "2^64-1")]


def raw_fields(pb, path, b):
    """(name, offset, width) of a raw file's size fields."""
    version = L.u64(b, 8) & 0xFFFFFFFF
    h = L.raw_header_offsets(version)
    out = [("header." + k, h[k], 8) for k in (
        "BinaryIdsSize", "NumData", "PaddingBytesBeforeCounters", "NumCounters", "PaddingBytesAfterCounters",
        "NumBitmapBytes", "PaddingBytesAfterBitmapBytes", "NumUniformCounters", "NamesSize", "NumVTables",
        "VNamesSize", "ValueKindLast") if k in h]
    dump = subprocess.run([pb, "dump", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode()
    sec = {m.group(2).strip(): int(m.group(1), 16)
           for m in re.finditer(r"^  0x([0-9a-f]+) +(binary ids|data records|names|vtable names|value data) ",
                                dump, re.M)}
    if h.get("BinaryIdsSize") is not None and L.u64(b, h["BinaryIdsSize"]):
        out.append(("binary_ids[0].length", sec["binary ids"], 8))
    r = L.raw_record_offsets(version)
    d = sec["data records"]
    for k in ("NumCounters", "NumValueSites01", "NumValueSites2", "NumBitmapBytes"):
        if k in r:
            off, el, n = r[k]
            for i in range(n):
                out.append(("data[0].%s[%d]" % (k, i), d + off + i * el, el))
    if "value data" in sec and L.u64(b, h["NumData"]):
        v = sec["value data"]
        if v + 8 <= len(b):
            out.append(("value_data[0].TotalSize", v, 4))
            out.append(("value_data[0].NumValueKinds", v + 4, 4))
    return out


def idx_fields(b):
    version = L.u64(b, 8) & 0xFFFFFFFF
    h = L.idx_header_offsets(version)
    out = []
    if version >= 4:
        out += [("summary.NumSummaryFields", h["_size"], 8), ("summary.NumCutoffEntries", h["_size"] + 8, 8)]
    _, t, nb = L.idx_table(b)
    out += [("hash_table.NumBuckets", t, 8), ("hash_table.NumEntries", t + 8, 8)]
    payload = h["_size"]
    if version >= 4:
        payload += 16 + 8 * (L.u64(b, payload) + 3 * L.u64(b, payload + 8))
    item = payload + 2
    out += [("bucket[0].Count", payload, 2), ("item[0].KeyLen", item + 8, 8), ("item[0].DataLen", item + 16, 8)]
    data = item + 24 + L.u64(b, item + 8)
    out.append(("record[0].NumCounters", data + 8, 8))
    pos = data + 16 + 8 * L.u64(b, data + 8)
    if version >= 11:
        out.append(("record[0].NumBitmapBytes", pos, 8))
        pos += 8 + 8 * L.u64(b, pos)
    out += [("record[0].ValueProfData.TotalSize", pos, 4), ("record[0].ValueProfData.NumValueKinds", pos + 4, 4)]
    for name, w in (("binary_ids", "binary_id_offset"), ("traces", "temporal_offset"),
                    ("vtable_names", "vtable_names_offset")):
        if w not in h or L.u64(b, h[w]) == 0:
            continue
        s = L.u64(b, h[w])
        if name == "binary_ids":
            out.append(("binary_ids.SectionSize", s, 8))
            if L.u64(b, s):
                out.append(("binary_ids[0].Length", s + 8, 8))
        elif name == "traces" and (L.u64(b, 8) >> 63):
            out += [("traces.NumTraces", s, 8), ("traces.StreamSize", s + 8, 8)]
            if L.u64(b, s):
                out.append(("traces[0].NumFunctions", s + 24, 8))
        elif name == "vtable_names":
            out.append(("vtable_names.Len", s, 8))
    return out


def text_fields(b):
    """(name, line start, None): the number after each count comment."""
    out, seen = [], set()
    lines = b.split(b"\n")
    pos = 0
    for i, line in enumerate(lines):
        key = line.rstrip(b":").decode("latin-1")
        if line.startswith(b"# Num") and key not in seen and i + 1 < len(lines):
            seen.add(key)
            out.append(("text '%s'" % key, pos + len(line) + 1, None))
        pos += len(line) + 1
    return out


def uleb(n):
    out = bytearray()
    while True:
        c, n = n & 0x7F, n >> 7
        out.append(c | (0x80 if n else 0))
        if not n:
            return bytes(out)


def read_uleb(b, p):
    v = shift = 0
    while True:
        c = b[p]
        p += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return v, p


def names_base(pb, path, b):
    """(file bytes, [(section name, offset, length)]) of the names blobs."""
    if b[:8] == b"\xfflprofi\x81":
        # llvm-profdata writes an empty vtable-names blob: put one chunk of
        # two compressed names there (the file ends with it)
        h = L.idx_header_offsets(L.u64(b, 8) & 0xFFFFFFFF)
        if "vtable_names_offset" not in h or not L.u64(b, h["vtable_names_offset"]):
            return b, []
        off = L.u64(b, h["vtable_names_offset"])
        plain = b"_ZTV4Base\x01_ZTV7Derived"
        z = zlib.compress(plain, 9)
        blob = uleb(len(plain)) + uleb(len(z)) + z
        m = bytearray(b[:off])
        m += len(blob).to_bytes(8, "little") + blob + bytes(-len(blob) % 8)
        return bytes(m), [("vtable_names", off + 8, len(blob))]
    dump = subprocess.run([pb, "dump", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode()
    secs = [(m.group(2), int(m.group(1), 16), int(m.group(4), 16) - int(m.group(3), 16))
            for m in re.finditer(r"^  0x([0-9a-f]+) +(names|vtable names) +0x([0-9a-f]+)\.\.0x([0-9a-f]+) ",
                                 dump, re.M)]
    return b, [s for s in secs if s[2] > 0]


def names_fields(pb, path, b):
    """(name, offset, section length, base bytes) of each chunk-header length."""
    base, secs = names_base(pb, path, b)
    out = []
    for sec, off, n in secs:
        for what in ("uncompressed length", "compressed length", "plain length"):
            out.append(("%s chunk[0] %s" % (sec, what), off, n, base))
    return out


def mutate_names(b, off, n, what, value):
    """The chunk header at off rewritten with one length set to value; the
    rest of the section follows (cut or zero-padded to its n bytes)."""
    ulen, p = read_uleb(b, off)
    clen, p = read_uleb(b, p)
    if what.endswith("uncompressed length"):
        # the longer header eats into the data: the compressed length shrinks
        # by as much, so the chunk still fits and the claim itself is judged
        grow = len(uleb(value)) - len(uleb(ulen))
        ulen, clen = value, clen - grow
    elif what.endswith("compressed length"):
        clen = value
    else:
        ulen, clen = value, 0
    sec = (uleb(ulen) + uleb(max(clen, 1)) + b[p:off + n])[:n]
    sec += bytes(n - len(sec))
    return b[:off] + sec + b[off + n:]


def json_fields(b):
    """(JSON path, path as a list) of the first integer of each path pattern."""
    out, seen = [], set()

    def walk(v, path):
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, path + [k])
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, path + [i])
        elif isinstance(v, int) and not isinstance(v, bool):
            pat = "".join("[*]" if isinstance(k, int) else "." + k for k in path)
            if pat not in seen:
                seen.add(pat)
                out.append(("".join("[%d]" % k if isinstance(k, int) else "." + k for k in path), path))
    walk(json.loads(b), [])
    return out


def mutate_json(b, path, value):
    d = json.loads(b)
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return json.dumps(d).encode()


def mutate(b, off, width, value):
    m = bytearray(b)
    if width is None:  # a text line: the number replaced
        end = m.index(b"\n", off)
        m[off:end] = str(value).encode()
    else:
        L.put(m, off, value, width)
    return bytes(m)


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def main():
    pb, work, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
    cases = fails = 0
    for spec in sys.argv[4:]:
        kind, _, path = spec.partition(":")
        b = open(path, "rb").read()
        if kind == "names":
            fields = [(name, off, (n, base)) for name, off, n, base in names_fields(pb, path, b)]
        elif kind == "json":
            fields = [(name, jpath, "json") for name, jpath in json_fields(b)]
        else:
            fields = {"raw": lambda: raw_fields(pb, path, b), "indexed": lambda: idx_fields(b),
                      "text": lambda: text_fields(b)}[kind]()
        ext = os.path.splitext(path)[1]
        if not fields:
            print("FAIL: %s: no %s fields found" % (path, kind))
            fails += 1
        for name, off, width in fields:
            for value, vname in VALUES:
                if isinstance(width, int) and width < 8:
                    value = min(value, (1 << (8 * width)) - 1)
                m = os.path.join(work, "m" + ext)
                if width == "json":
                    data = mutate_json(b, off, value)
                elif isinstance(width, tuple):
                    data = mutate_names(width[1], off, width[0], name, value)
                else:
                    data = mutate(b, off, width, value)
                open(m, "wb").write(data)
                for cmd in (["validate", m], ["show", "--all-functions", "--counts", m],
                            ["merge", m, m, "-o", os.path.join(work, "out.profdata")]):
                    cases += 1
                    rc, err = run([pb] + cmd, timeout)
                    why = None
                    if rc == "timeout":
                        why = "takes more than %gs" % timeout
                    elif rc not in (0, 1, 2):
                        why = "exits %s" % rc
                    elif rc and cmd[0] != "validate" and not re.search(
                            r"byte 0x[0-9a-f]+|:\d+:\d+: |\.(json|iprof): [A-Za-z]\w*(\[\d+\]|\.\w+)*: ", err):
                        why = "exits %s without an offset: %s" % (rc, err.strip()[:200])
                    if why:
                        fails += 1
                        at = "" if width == "json" else " (at 0x%x)" % off
                        print("FAIL: %s, %s = %s%s: %s %s" % (os.path.basename(path), name, vname, at, cmd[0], why))
    print("size_fields: %d runs, %d failures" % (cases, fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
