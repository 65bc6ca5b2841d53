#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""raw_ref.py -- a tiny reader of LLVM raw profiles (.profraw), independent of
profbridge's C code, written from shared/spec/llvm-instrprof.md §2 alone.

Prints what `llvm-profdata show --all-functions --counts FILE` prints (records
in file order, then the summary lines). Used as the oracle for raw versions no
local llvm-profdata reads (v5, v9): tests/interop/raw_handcheck.sh first checks
this script against llvm-profdata-19/-14/-13 on v10/v8/v7 files, then
profbridge against this script on v5/v9 files.

Covers 64-bit little-endian files, v5 and v7-v10, one or more profiles; exits
3 ("unsupported") for anything else (byte coverage, temporal, 32-bit, BE).

--merge-duplicates: a (name, hash) seen again inside the SAME profile is added
to the first one (counts summed), which is what profbridge's model holds; the
real llvm-profdata show lists such a record twice (a known deviation, see
docs/raw.md). Without the flag the output is llvm-profdata's.
"""
import hashlib
import struct
import sys
import zlib

MAGIC64 = 0xFF6C70726F667281
IR, BYTE_COVERAGE, TEMPORAL = 1 << 56, 1 << 60, 1 << 63

# header words per version, in file order (spec §2.4)
HEADER = {
    5: "Magic Version DataSize PadBefore CountersSize PadAfter NamesSize CountersDelta NamesDelta ValueKindLast",
    7: "Magic Version BinaryIdsSize DataSize PadBefore CountersSize PadAfter NamesSize CountersDelta NamesDelta ValueKindLast",
    9: "Magic Version BinaryIdsSize DataSize PadBefore CountersSize PadAfter NumBitmapBytes PadAfterBitmap "
       "NamesSize CountersDelta BitmapDelta NamesDelta ValueKindLast",
    10: "Magic Version BinaryIdsSize DataSize PadBefore CountersSize PadAfter NumBitmapBytes PadAfterBitmap "
        "NamesSize CountersDelta BitmapDelta NamesDelta NumVTables VNamesSize ValueKindLast",
}
HEADER[8] = HEADER[7]
# data record, 64-bit (spec §2.5): size, offset of NumCounters, of NumValueSites, number of kinds
RECORD = {5: (48, 40, 44, 2), 7: (48, 40, 44, 2), 8: (48, 40, 44, 2), 9: (64, 48, 52, 2), 10: (64, 48, 52, 3)}
VTABLE_SIZE = 24  # u64 hash, u64 pointer, u32 size, padded to 8


def unsupported(why):
    print("unsupported: " + why)
    sys.exit(3)


def pad8(n):
    return (8 - n % 8) % 8


def uleb(d, pos):
    v, sh = 0, 0
    while True:
        b = d[pos]
        pos += 1
        v |= (b & 0x7F) << sh
        sh += 7
        if not b & 0x80:
            return v, pos


def names(blob):
    out, pos = [], 0
    while pos < len(blob):
        if blob[pos] == 0:  # padding between chunks
            pos += 1
            continue
        plain, pos = uleb(blob, pos)
        packed, pos = uleb(blob, pos)
        data = blob[pos:pos + (packed or plain)]
        pos += packed or plain
        text = zlib.decompress(data) if packed else data
        out += text.split(b"\x01")
    return {struct.unpack("<Q", hashlib.md5(n).digest()[:8])[0]: n.decode() for n in out}


def profile(d, start, records, merge):
    magic, version = struct.unpack_from("<QQ", d, start)
    if magic != MAGIC64:
        unsupported("not 64-bit little-endian")
    flags, version = version & ~0xFFFFFFFF, version & 0xFFFFFFFF
    if version not in HEADER:
        unsupported("version %d" % version)
    if flags & (BYTE_COVERAGE | TEMPORAL):
        unsupported("byte coverage or temporal profile")
    fields = HEADER[version].split()
    h = dict(zip(fields, struct.unpack_from("<%dQ" % len(fields), d, start)))
    rsize, o_nc, o_vs, nkinds = RECORD[version]
    data = start + 8 * len(fields) + h.get("BinaryIdsSize", 0)
    cnt = data + h["DataSize"] * rsize + h["PadBefore"]
    pos = cnt + h["CountersSize"] * 8 + h["PadAfter"]
    if version >= 9:
        pos += h["NumBitmapBytes"] + h["PadAfterBitmap"]
    names_at = pos
    by_ref = names(d[names_at:names_at + h["NamesSize"]])
    pos = names_at + h["NamesSize"] + pad8(h["NamesSize"])
    if version >= 10:
        vt = h["NumVTables"] * VTABLE_SIZE
        pos += vt + pad8(vt) + h["VNamesSize"] + pad8(h["VNamesSize"])
    delta = h["CountersDelta"]
    # v5 and LLVM 13's v7: CounterPtr is an absolute address (delta >= 0 there);
    # v8+: relative to the record, CountersDelta shrinking by a record each step (§2.7)
    absolute = version == 5 or (version == 7 and delta < 1 << 63)
    seen = {}
    for i in range(h["DataSize"]):
        r = data + i * rsize
        ref, fhash, cptr = struct.unpack_from("<QQQ", d, r)
        (nc,) = struct.unpack_from("<I", d, r + o_nc)
        sites = struct.unpack_from("<%dH" % nkinds, d, r + o_vs)
        off = (cptr - (delta if absolute else delta - i * rsize)) % (1 << 64)
        counts = struct.unpack_from("<%dQ" % nc, d, cnt + off)
        key = (by_ref[ref], fhash)
        if merge and key in seen:
            c = records[seen[key]][2]
            c[:] = [a + b for a, b in zip(c, counts)]
        else:
            seen[key] = len(records)
            records.append((by_ref[ref], fhash, list(counts)))
        if any(sites):  # value data: skip this record's blob (TotalSize)
            pos += struct.unpack_from("<I", d, pos)[0]
    return flags, pos


def main():
    merge = "--merge-duplicates" in sys.argv[1:]
    d = open([a for a in sys.argv[1:] if not a.startswith("--")][0], "rb").read()
    records, pos, flags = [], 0, 0
    while pos < len(d):
        f, pos = profile(d, pos, records, merge)
        flags |= f
        while pos < len(d) and d[pos] == 0:
            pos += 1
    ir = bool(flags & IR)
    if ir:  # show lists IR records without the context-sensitive bit 60 in their hash (§8)
        records = [r for r in records if not r[1] & (1 << 60)]
    out = ["Counters:"] if records else []
    max_fn = max_internal = 0
    for name, fhash, c in records:
        out += ["  %s:" % name, "    Hash: 0x%016x" % fhash, "    Counters: %d" % len(c)]
        if not ir:
            out.append("    Function count: %d" % c[0])
        out.append("    Block counts: [%s]" % ", ".join(str(x) for x in (c if ir else c[1:])))
        max_fn = max(max_fn, c[0])
        max_internal = max([max_internal] + c[1:])
    out.append("Instrumentation level: " + ("IR  entry_first = %d" % bool(flags & (1 << 58)) if ir else "Front-end"))
    out += ["Functions shown: %d" % len(records), "Total functions: %d" % len(records),
            "Maximum function count: %d" % max_fn, "Maximum internal block count: %d" % max_internal]
    print("\n".join(out))


main()
