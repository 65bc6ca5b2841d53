# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Options objects built by key (access.h): the CLI's words, no struct layout."""
import ctypes

from ._errors import Err
from ._lib import lib, cstr


def _value(v):
    if v is True:
        return "1"
    if v is False:
        return "0"
    return str(v)


def key_of(name):
    """Python keyword to the CLI's word: llvm_version -> llvm-version."""
    return name.replace("_", "-")


class Options:
    """Owns one options handle of `kind` ("read", "write", "merger", "overlap")."""

    def __init__(self, kind, items=()):
        self._free = getattr(lib, f"pb_{kind}_options_free")
        self._set = getattr(lib, f"pb_{kind}_options_set")
        ptr = ctypes.c_void_p()
        with Err() as e:
            e.check(getattr(lib, f"pb_{kind}_options_new")(ctypes.byref(ptr), e.ptr))
        self.ptr = ptr
        for k, v in items:
            self.set(k, v)

    def set(self, key, value):
        if value is None:
            return
        with Err() as e:
            e.check(self._set(self.ptr, cstr(key), cstr(_value(value)), e.ptr))

    def __del__(self):
        if getattr(self, "ptr", None):
            self._free(self.ptr)
            self.ptr = None
