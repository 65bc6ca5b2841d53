# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Hostile names for the output-injection tests (issue 23): every byte
0x00-0x1f and 0x7f, <script>, ]]>, quotes and (LLVM text only) invalid
UTF-8, in an iprof with sampling profiles and in an LLVM .proftext.
  hostile_names.py iprof OUT      -- types/methods named with them
  hostile_names.py proftext OUT [SALT]  -- functions named with them
  hostile_names.py check-term FILE  -- fails if FILE has a control byte other than \\n, \\t
  hostile_names.py check-xml FILE   -- fails unless FILE is well-formed XML"""
import json
import sys

PIECES = ["".join(chr(c) for c in range(0x00, 0x20)) + "\x7f", "<script>alert(1)</script>", "]]>", "\"'",
          "\x1b[31mred\x1b]0;title\x07", "\r\roverwritten"]


def iprof(out):
    types = [{"id": 1, "name": "void"}, {"id": 2, "name": "int"}]
    methods = []
    for i, p in enumerate(PIECES):
        types.append({"id": 10 + i, "name": "K" + p})
        methods.append({"id": 100 + i, "name": "m" + p, "signature": [10 + i, 1]})
    samples = [{"ctx": "%d:1<%d:2" % (100 + i, 100 + (i + 1) % len(PIECES)), "records": [i + 1]}
               for i in range(len(PIECES))]
    counts = [{"ctx": "%d:0" % (100 + i), "records": [i + 3]} for i in range(len(PIECES))]
    doc = {"version": "1.1.0", "types": types, "methods": methods, "callCountProfiles": counts,
           "conditionalProfiles": [], "virtualInvokeProfiles": [], "monitorProfiles": [],
           "samplingProfiles": samples, "instanceOfProfiles": []}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f)


def proftext(out, salt):
    names = [p.replace("\n", "").replace("\x00", "") for p in PIECES]  # one name per line, C strings
    names = [n.encode("utf-8") for n in names] + [b"bad\xff\xfe\xc3utf8", b"c1\xc2\x9b31m"]
    with open(out, "wb") as f:
        f.write(b":ir\n")
        for i, n in enumerate(names):
            f.write(b"f%d_%s\n%d\n1\n%d\n\n" % (i, n, i + 1, i + 1 + salt))


def check_term(path):
    data = open(path, "rb").read()
    bad = sorted({b for b in data if (b < 0x20 and b not in (0x0a, 0x09)) or b == 0x7f})
    if bad or b"\xc2\x9b" in data:
        sys.exit(f"{path}: raw control bytes {[hex(b) for b in bad]} reach the terminal")


def check_xml(path):
    import xml.dom.minidom
    xml.dom.minidom.parse(path)


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "iprof":
        iprof(sys.argv[2])
    elif cmd == "proftext":
        proftext(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    elif cmd == "check-term":
        check_term(sys.argv[2])
    elif cmd == "check-xml":
        check_xml(sys.argv[2])
