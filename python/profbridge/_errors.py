# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ProfbridgeError and the heap pb_error each call fills."""
import ctypes

from ._lib import lib, PB_NO_OFFSET

CODE_NAMES = {0: "ok", -1: "EINVAL", -2: "ENOMEM", -3: "EIO", -4: "EFORMAT", -5: "ETRUNC",
              -6: "EVERSION", -7: "EUNSUPPORTED", -8: "ENOTFOUND", -9: "EEXIST", -10: "ELIMIT"}


def _text(b):
    return b.decode("utf-8", "replace") if b else ""


class ProfbridgeError(Exception):
    """A profbridge error: where (file, byte offset or JSON path, line and
    column) and what (expected, found, message). str() is the one-line form
    the CLI prints ("big.profraw: byte 0x28 (header.NumCounters): ...")."""

    def __init__(self, code, text, file="", offset=None, path="", line=0, column=0,
                 expected="", found="", message=""):
        super().__init__(text)
        self.code = code
        self.code_name = CODE_NAMES.get(code, str(code))
        self.file = file
        self.offset = offset
        self.path = path
        self.line = line
        self.column = column
        self.expected = expected
        self.found = found
        self.message = message

    @classmethod
    def _from_c(cls, e, code=None):
        c = lib.pb_error_code(e) or code or -1
        n = lib.pb_error_format(e, None, 0)
        buf = ctypes.create_string_buffer(n + 1)
        lib.pb_error_format(e, buf, n + 1)
        off = lib.pb_error_offset(e)
        return cls(c, _text(buf.value) or _text(lib.pb_strerror(c)),
                   file=_text(lib.pb_error_source(e)),
                   offset=None if off == PB_NO_OFFSET else off,
                   path=_text(lib.pb_error_path(e)),
                   line=lib.pb_error_line(e), column=lib.pb_error_column(e),
                   expected=_text(lib.pb_error_expected(e)), found=_text(lib.pb_error_found(e)),
                   message=_text(lib.pb_error_message(e)))


class Err:
    """A pb_error on the heap for one call: `with Err() as e: e.check(lib.f(..., e.ptr))`."""

    def __init__(self):
        self.ptr = lib.pb_error_new()
        if not self.ptr:
            raise MemoryError("profbridge: cannot allocate an error")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        lib.pb_error_free(self.ptr)
        self.ptr = None
        return False

    def check(self, rc):
        if rc != 0:
            raise ProfbridgeError._from_c(self.ptr, rc)
        return rc

    def error(self):
        """The error held now (for callbacks)."""
        return ProfbridgeError._from_c(self.ptr)


def error_from_ptr(ptr):
    """A ProfbridgeError from a pb_error* a callback got (valid during the call only)."""
    return ProfbridgeError._from_c(ptr)
