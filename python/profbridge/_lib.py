# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Loads libprofbridge and declares the C functions the package calls.

Only opaque pointers, integers and byte buffers cross the boundary
(include/profbridge/access.h): no C struct layout is copied here, so a new
library release with grown structs does not break the package.
"""
import ctypes
import ctypes.util
import os

_P = ctypes.c_void_p
_SZ = ctypes.c_size_t
_U64 = ctypes.c_uint64
_U32 = ctypes.c_uint32
_I32 = ctypes.c_int32
_INT = ctypes.c_int
_STR = ctypes.c_char_p
_POUT = ctypes.POINTER

DIAG_FN = ctypes.CFUNCTYPE(None, _P, _INT, _P)
FAILED_FN = ctypes.CFUNCTYPE(None, _P, _SZ, _STR, _P)

PB_NONE = 0xFFFFFFFF
PB_NO_OFFSET = 0xFFFFFFFFFFFFFFFF
SIZE_MAX = ctypes.c_size_t(-1).value


def _candidates():
    env = os.environ.get("PROFBRIDGE_LIB")
    if env:
        yield os.path.join(env, "libprofbridge.so.0") if os.path.isdir(env) else env
        return
    try:  # written by `cmake --install`: where the library went
        from . import _install
        yield os.path.normpath(os.path.join(os.path.dirname(__file__), _install.LIBRARY))
    except ImportError:
        pass
    yield "libprofbridge.so.0"  # LD_LIBRARY_PATH, ldconfig's cache
    found = ctypes.util.find_library("profbridge")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path}: {e}")
    raise ImportError("profbridge: cannot load libprofbridge.so.0 (set PROFBRIDGE_LIB to its path): "
                      + "; ".join(tried))


lib = _load()

# name: (restype, argtypes)
_PROTOS = {
    "pb_version": (_STR, []),
    "pb_strerror": (_STR, [_INT]),
    # errors
    "pb_error_new": (_P, []),
    "pb_error_free": (None, [_P]),
    "pb_error_clear": (None, [_P]),
    "pb_error_code": (_INT, [_P]),
    "pb_error_source": (_STR, [_P]),
    "pb_error_offset": (_U64, [_P]),
    "pb_error_path": (_STR, [_P]),
    "pb_error_line": (_INT, [_P]),
    "pb_error_column": (_INT, [_P]),
    "pb_error_expected": (_STR, [_P]),
    "pb_error_found": (_STR, [_P]),
    "pb_error_message": (_STR, [_P]),
    "pb_error_format": (_SZ, [_P, _STR, _SZ]),
    # options
    "pb_read_options_new": (_INT, [_POUT(_P), _P]),
    "pb_read_options_set": (_INT, [_P, _STR, _STR, _P]),
    "pb_read_options_set_diag": (None, [_P, DIAG_FN, _P]),
    "pb_read_options_free": (None, [_P]),
    "pb_write_options_new": (_INT, [_POUT(_P), _P]),
    "pb_write_options_set": (_INT, [_P, _STR, _STR, _P]),
    "pb_write_options_set_diag": (None, [_P, DIAG_FN, _P]),
    "pb_write_options_free": (None, [_P]),
    "pb_merger_options_new": (_INT, [_POUT(_P), _P]),
    "pb_merger_options_set": (_INT, [_P, _STR, _STR, _P]),
    "pb_merger_options_set_read": (None, [_P, _P]),
    "pb_merger_options_set_diag": (None, [_P, DIAG_FN, _P]),
    "pb_merger_options_set_failed": (None, [_P, FAILED_FN, _P]),
    "pb_merger_options_free": (None, [_P]),
    # formats, sources, sinks
    "pb_format_lookup": (_P, [_STR]),
    "pb_format_for_path": (_P, [_STR]),
    "pb_read_file": (_INT, [_POUT(_P), _STR, _P, _P]),
    "pb_read": (_INT, [_POUT(_P), _P, _P, _P]),
    "pb_write": (_INT, [_P, _P, _P, _P, _P]),
    "pb_write_file": (_INT, [_P, _STR, _P, _P, _P]),
    "pb_source_open_memory": (_INT, [_POUT(_P), _P, _SZ, _STR, _P]),
    "pb_source_free": (None, [_P]),
    "pb_sink_open_memory": (_INT, [_POUT(_P), _P]),
    "pb_sink_commit": (_INT, [_P, _P]),
    "pb_sink_memory": (_P, [_P, _POUT(_SZ)]),
    "pb_sink_free": (None, [_P]),
    # profiles and records
    "pb_profile_free": (None, [_P]),
    "pb_profile_flags": (_U64, [_P]),
    "pb_profile_origin_format": (_STR, [_P]),
    "pb_profile_origin_version": (_U64, [_P]),
    "pb_profile_record_count": (_SZ, [_P]),
    "pb_profile_method_count": (_SZ, [_P]),
    "pb_profile_binary_id_count": (_SZ, [_P]),
    "pb_profile_binary_id": (_P, [_P, _SZ, _POUT(_SZ)]),
    "pb_record_kind": (_INT, [_P, _SZ]),
    "pb_record_name": (_INT, [_P, _SZ, _POUT(_P), _POUT(_SZ), _POUT(_U64), _P]),
    "pb_record_counters": (_P, [_P, _SZ, _POUT(_SZ)]),
    "pb_record_bitmap": (_P, [_P, _SZ, _POUT(_SZ)]),
    "pb_record_site_count": (_SZ, [_P, _SZ, _INT]),
    "pb_record_site_value_count": (_SZ, [_P, _SZ, _INT, _SZ]),
    "pb_record_site_value": (_INT, [_P, _SZ, _INT, _SZ, _SZ, _POUT(_U64), _POUT(_U64), _POUT(_P), _POUT(_SZ)]),
    "pb_record_context": (_U32, [_P, _SZ]),
    "pb_record_layout": (_P, [_P, _SZ, _POUT(_SZ)]),
    "pb_context_frame_count": (_SZ, [_P, _U32]),
    "pb_context_frame": (_INT, [_P, _U32, _SZ, _POUT(_U32), _POUT(_I32)]),
    "pb_method_name": (_P, [_P, _U32, _POUT(_SZ)]),
    "pb_method_format": (_SZ, [_P, _U32, _STR, _SZ]),
    # merge
    "pb_merger_new": (_INT, [_POUT(_P), _P, _P]),
    "pb_merger_add_file": (_INT, [_P, _STR, _U64, _P]),
    "pb_merger_run": (_INT, [_P, _POUT(_P), _P]),
    "pb_merger_free": (None, [_P]),
    "pb_merge_output_options_new": (_INT, [_POUT(_P), _P]),
    "pb_merge_output_options_set": (_INT, [_P, _STR, _STR, _P]),
    "pb_merge_output_options_free": (None, [_P]),
    "pb_merge_output_rules": (_INT, [_P, _P]),
    "pb_merge_write_file": (_INT, [_P, _STR, _P, _P, _P]),
    # compare
    "pb_overlap_options_new": (_INT, [_POUT(_P), _P]),
    "pb_overlap_options_set": (_INT, [_P, _STR, _STR, _P]),
    "pb_overlap_options_free": (None, [_P]),
    "pb_profile_overlap": (_INT, [_P, _P, _P, _P, _P]),
    "pb_profile_diff": (_INT, [_P, _P, _POUT(_P), _P]),
    "pb_diff_count": (_SZ, [_P]),
    "pb_diff_same_count": (_SZ, [_P]),
    "pb_diff_entry_get": (_INT, [_P, _SZ, _POUT(_INT), _POUT(_P), _POUT(_SZ), _POUT(_U64), _POUT(_SZ),
                                 _POUT(_SZ), _POUT(_U64)]),
    "pb_diff_write": (_INT, [_P, _P, _P, _STR, _STR, _INT, _P, _P]),
    "pb_diff_free": (None, [_P]),
    # coverage
    "pb_cov_options_new": (_INT, [_POUT(_P), _P]),
    "pb_cov_options_set": (_INT, [_P, _STR, _STR, _P]),
    "pb_cov_options_set_read": (None, [_P, _P]),
    "pb_cov_options_set_diag": (None, [_P, DIAG_FN, _P]),
    "pb_cov_options_free": (None, [_P]),
    "pb_cov_export_options_new": (_INT, [_POUT(_P), _P]),
    "pb_cov_export_options_set": (_INT, [_P, _STR, _STR, _P]),
    "pb_cov_export_options_free": (None, [_P]),
    "pb_cov_report_options_new": (_INT, [_POUT(_P), _P]),
    "pb_cov_report_options_set": (_INT, [_P, _STR, _STR, _P]),
    "pb_cov_report_options_free": (None, [_P]),
    "pb_coverage_load": (_INT, [_POUT(_P), _P, _SZ, _P, _POUT(_U64), _SZ, _P, _P]),
    "pb_coverage_export": (_INT, [_P, _P, _P, _P]),
    "pb_coverage_report": (_INT, [_P, _P, _P, _P]),
    "pb_coverage_free": (None, [_P]),
}

for _name, (_res, _args) in _PROTOS.items():
    _fn = getattr(lib, _name)
    _fn.restype = _res
    _fn.argtypes = _args


def cpath(path):
    """A path (str, bytes or os.PathLike) as the bytes the C library takes;
    an embedded NUL would silently cut it to another file's name, so it
    raises ValueError as Python's own open() does."""
    b = os.fsencode(path)
    if b"\0" in b:
        raise ValueError("embedded null byte")
    return b


def cstr(text):
    """A str as C bytes (UTF-8); an embedded NUL raises ValueError (see cpath)."""
    b = text.encode()
    if b"\0" in b:
        raise ValueError("embedded null byte")
    return b


def string_at(ptr, n):
    """The n bytes at ptr (b"" for NULL)."""
    return ctypes.string_at(ptr, n) if ptr and n else b""


def declare(protos):
    """Declares more C functions ({name: (restype, argtypes)}) for a module
    of the package that adds them (keeps each module's prototypes with it)."""
    for name, (res, args) in protos.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
