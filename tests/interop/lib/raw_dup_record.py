# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""raw_dup_record.py IN FROM TO OUT: copies the 16 bytes at FROM (a data
record's NameRef and FuncHash, adjacent in every raw version) over those at
TO, so that two data records of one profile share a (name, hash) pair, as
llvm-profdata show lists twice. Offsets in hex (from `profbridge dump`)."""
import sys

src, frm, to, out = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16), sys.argv[4]
b = bytearray(open(src, "rb").read())
b[to:to + 16] = b[frm:frm + 16]
open(out, "wb").write(b)
