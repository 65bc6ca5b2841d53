# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""elf_header_cases.py BIN OUTDIR -- writes copies of the ELF64 little-endian
binary BIN whose section header table llvm-cov's ELFFile::sections refuses
(or, e_shoff 0, finds no section in), one file per case, for
tests/interop/cov_elf_header.sh. Prints the case names."""
import struct
import sys

d = bytes(open(sys.argv[1], "rb").read())
out = sys.argv[2]
assert d[:4] == b"\x7fELF" and d[4] == 2 and d[5] == 1, "an ELF64 little-endian binary"
shoff = struct.unpack_from("<Q", d, 0x28)[0]
shnum = struct.unpack_from("<H", d, 0x3C)[0]
end_of_table = shoff + shnum * 64


def case(name, patch=None, size=None):
    x = bytearray(d if size is None else d[:size])
    if patch:
        patch(x)
    open(f"{out}/{name}", "wb").write(x)
    print(name)


def null_count(n):
    def p(x):
        struct.pack_into("<H", x, 0x3C, 0)
        struct.pack_into("<Q", x, shoff + 32, n)  # sh_size of the NULL section
    return p


case("cut-in-header", size=200)                       # e_shoff beyond the end
case("cut-in-table", size=end_of_table - 100)         # the table's end beyond it
case("cut-at-table", size=shoff + 10)                 # not one header left
case("shentsize", lambda x: struct.pack_into("<H", x, 0x3A, 65))
case("shoff-huge", lambda x: struct.pack_into("<Q", x, 0x28, (1 << 64) - 8))
case("shoff-plus-one", lambda x: struct.pack_into("<Q", x, 0x28, shoff + 1))
case("shoff-zero", lambda x: struct.pack_into("<Q", x, 0x28, 0))
case("null-count-big", null_count(1 << 63))
case("null-count-wraps", null_count((1 << 58) - 1))
case("null-count-past", null_count(1000))
