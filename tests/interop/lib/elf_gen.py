# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""elf_gen.py -- small hand-made ELF64 little-endian files for the
correlation tests (correlate_bounds.sh), written byte by byte so a test can
state sizes the compiler never produces:

  binary OUT N [--compress-names RAW_SIZE] [--lie CH_SIZE] [--name-len L]
      a -profile-correlate=binary look-alike: __llvm_prf_cnts (N counters),
      __llvm_covdata (N raw v10 data records) and __llvm_covnames; with
      --compress-names the names section is SHF_COMPRESSED holding RAW_SIZE
      bytes (the names blob padded with zeros), with --lie its Elf64_Chdr
      claims CH_SIZE bytes; with --name-len the names are padded to L bytes.
  dwarf OUT N
      a -profile-correlate=debug-info look-alike: one subprogram holding N
      `__profc_` variables with their DW_TAG_LLVM_annotation children
      (DWARF 4), counters in __llvm_prf_cnts.
  light OUT N [--copies K]
      a lightweight raw v10 profile for either of them: N counters (counter
      i holds i + 1) and no data or names; K such profiles concatenated.
"""
import struct
import sys
import zlib

SHT_PROGBITS, SHT_STRTAB = 1, 3
SHF_WRITE, SHF_ALLOC, SHF_COMPRESSED = 1, 2, 0x800
CNTS_ADDR = 0x10000


def write_elf(path, sections):
    """sections: (name, type, flags, addr, bytes) in order."""
    sections = sections + [(".shstrtab", SHT_STRTAB, 0, 0, None)]
    names, offs = bytearray(b"\0"), []
    for s in sections:
        offs.append(len(names))
        names += s[0].encode() + b"\0"
    body = bytearray(b"\0" * 64)
    headers = [b"\0" * 64]
    for off, (name, typ, flags, addr, data) in zip(offs, sections):
        data = bytes(names) if data is None else data
        while len(body) % 8:
            body.append(0)
        headers.append(struct.pack("<IIQQQQIIQQ", off, typ, flags, addr, len(body), len(data), 0, 0, 8, 0))
        body += data
    while len(body) % 8:
        body.append(0)
    shoff = len(body)
    ident = b"\x7fELF" + bytes([2, 1, 1]) + b"\0" * 9
    body[0:64] = ident + struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, len(headers),
                                     len(headers) - 1)
    with open(path, "wb") as f:
        f.write(bytes(body) + b"".join(headers))


def md5_ref(name):
    import hashlib
    return struct.unpack("<Q", hashlib.md5(name.encode()).digest()[:8])[0]


def fname(i, name_len):
    return ("f%d_" % i).ljust(name_len, "x") if name_len else "f%d" % i


def binary(out, n, compress=None, lie=None, name_len=0):
    cnts = b"\0" * (8 * n)
    recs = bytearray()
    for i in range(n):
        # raw v10 record: NameRef, FuncHash, CounterPtr, BitmapPtr, FunctionPointer,
        # Values, NumCounters, NumValueSites[3], NumBitmapBytes, padding
        recs += struct.pack("<QQQQQQIHHHHI", md5_ref(fname(i, name_len)), i, CNTS_ADDR + 8 * i, 0, 0, 0, 1, 0, 0, 0, 0, 0)
    text = "\x01".join(fname(i, name_len) for i in range(n)).encode()
    blob = uleb(len(text)) + b"\0" + text  # uncompressed length, compressed length 0, the text
    sections = [("__llvm_prf_cnts", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, CNTS_ADDR, cnts),
                ("__llvm_covdata", SHT_PROGBITS, 0, 0, bytes(recs))]
    if compress is None:
        sections.append(("__llvm_covnames", SHT_PROGBITS, 0, 0, blob))
    else:
        raw = blob + b"\0" * max(0, compress - len(blob))
        z = zlib.compress(raw, 9)
        size = lie if lie is not None else len(raw)
        sections.append(("__llvm_covnames", SHT_PROGBITS, SHF_COMPRESSED, 0,
                         struct.pack("<IIQQ", 1, 0, size, 1) + z))
    write_elf(out, sections)


def uleb(v):
    b = bytearray()
    while True:
        c = v & 0x7F
        v >>= 7
        b.append(c | (0x80 if v else 0))
        if not v:
            return bytes(b)


def dwarf(out, n):
    ann = uleb(0x6000)
    abbrev = (b"\x01\x11\x01\x00\x00"                                   # compile_unit, children
              b"\x02\x2e\x01\x03\x08\x11\x01\x00\x00"                   # subprogram: name, low_pc
              b"\x03\x34\x01\x03\x08\x02\x18\x00\x00"                   # variable: name, location
              b"\x04" + ann + b"\x00\x03\x08\x1c\x08\x00\x00"           # annotation: string value
              b"\x05" + ann + b"\x00\x03\x08\x1c\x0f\x00\x00"           # annotation: udata value
              b"\x00")
    die = bytearray(b"\x01" + b"\x02main\0" + struct.pack("<Q", 0x1000))
    for i in range(n):
        die += b"\x03" + b"__profc_f%d\0" % i + b"\x09\x03" + struct.pack("<Q", CNTS_ADDR + 8 * i)
        die += b"\x04Function Name\0" + b"f%d\0" % i
        die += b"\x05CFG Hash\0" + uleb(i)
        die += b"\x05Num Counters\0" + uleb(1)
        die += b"\x00"
    die += b"\x00\x00"
    unit = struct.pack("<HIB", 4, 0, 8) + bytes(die)
    info = struct.pack("<I", len(unit)) + unit
    write_elf(out, [("__llvm_prf_cnts", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, CNTS_ADDR, b"\0" * (8 * n)),
                    (".debug_abbrev", SHT_PROGBITS, 0, 0, abbrev),
                    (".debug_info", SHT_PROGBITS, 0, 0, info)])


def light(out, n, copies=1):
    fields = ["Magic", "Version", "BinaryIdsSize", "NumData", "PaddingBytesBeforeCounters", "NumCounters",
              "PaddingBytesAfterCounters", "NumBitmapBytes", "PaddingBytesAfterBitmapBytes", "NamesSize",
              "CountersDelta", "BitmapDelta", "NamesDelta", "NumVTables", "VNamesSize", "ValueKindLast"]
    v = dict.fromkeys(fields, 0)
    v["Magic"] = 0xFF6C70726F667281
    v["Version"] = 10 | (1 << 56) | (1 << 59)  # IR, correlated
    v["NumCounters"] = n
    v["ValueKindLast"] = 1
    one = b"".join(struct.pack("<Q", v[f]) for f in fields) + b"".join(struct.pack("<Q", i + 1) for i in range(n))
    with open(out, "wb") as f:
        f.write(one * copies)


def main(argv):
    kind, out, n = argv[1], argv[2], int(argv[3])
    if kind == "binary":
        comp = int(argv[argv.index("--compress-names") + 1]) if "--compress-names" in argv else None
        lie = int(argv[argv.index("--lie") + 1]) if "--lie" in argv else None
        name_len = int(argv[argv.index("--name-len") + 1]) if "--name-len" in argv else 0
        binary(out, n, comp, lie, name_len)
    elif kind == "light":
        light(out, n, int(argv[argv.index("--copies") + 1]) if "--copies" in argv else 1)
    elif kind == "dwarf":
        dwarf(out, n)
    else:
        sys.exit("usage: elf_gen.py binary|dwarf OUT N [...]")


if __name__ == "__main__":
    main(sys.argv)
