# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""show: llvm-profdata's `show` report (and the Java view of an iprof
profile) from the library's printer (profbridge/show.h), the bytes
`profbridge show` prints for the same flags."""
import ctypes

from ._errors import Err
from ._lib import lib, cpath, declare
from ._options import Options, key_of
from ._profile import Diagnostics

_P = ctypes.c_void_p
declare({
    "pb_show_options_new": (ctypes.c_int, [ctypes.POINTER(_P), _P]),
    "pb_show_options_set": (ctypes.c_int, [_P, ctypes.c_char_p, ctypes.c_char_p, _P]),
    "pb_show_options_free": (None, [_P]),
    "pb_show_file": (ctypes.c_int, [_P, _P, _P, _P, _P]),
    "pb_source_open_file": (ctypes.c_int, [ctypes.POINTER(_P), ctypes.c_char_p, _P]),
})


def show(source, output=None, llvm_version=None, format=None, lenient=False, **flags):
    """Returns what `profbridge show SOURCE` prints (bytes) for the same
    flags, given as llvm-profdata show's words with underscores:
    all_functions=True, counts=True, function="main", topn=10,
    detailed_summary=True, text=True, json=True (profbridge's JSON view),
    llvm=True (the LLVM view of an iprof profile)... llvm_version=N prints as
    llvm-profdata-N show (13..24; default 19) and reads as that release
    reads. Writes the bytes to `output` too when given. Raises
    ProfbridgeError when the input cannot be read."""
    so = Options("show", [(key_of(k), v) for k, v in flags.items()] + [("llvm-version", llvm_version)])
    ro = Options("read", [("format", format), ("lenient", bool(lenient)), ("llvm-version", llvm_version)])
    diag = Diagnostics()
    lib.pb_read_options_set_diag(ro.ptr, diag.fn, None)
    src, sink = _P(), _P()
    with Err() as e:
        e.check(lib.pb_source_open_file(ctypes.byref(src), cpath(source), e.ptr))
        try:
            e.check(lib.pb_sink_open_memory(ctypes.byref(sink), e.ptr))
            e.check(lib.pb_show_file(sink, src, ro.ptr, so.ptr, e.ptr))
            n = ctypes.c_size_t()
            ptr = lib.pb_sink_memory(sink, ctypes.byref(n))
            data = ctypes.string_at(ptr, n.value) if n.value else b""
        finally:
            lib.pb_sink_free(sink)
            lib.pb_source_free(src)
    if output is not None:
        with open(output, "wb") as f:
            f.write(data)
    return data
