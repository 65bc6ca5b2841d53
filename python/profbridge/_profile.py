# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Profile, Record and the Java views, read through access.h by index."""
import contextlib
import ctypes
import os
import threading

from ._errors import Err, ProfbridgeError, error_from_ptr
from ._lib import lib, string_at, cpath, cstr, DIAG_FN, PB_NONE
from ._options import Options, key_of

VALUE_KINDS = ("indirect_call", "memop_size", "vtable")
RECORD_KINDS = ("function", "java_call_count", "java_branch", "java_virtual_invoke",
                "java_instanceof", "java_monitor", "java_sample")
SEVERITIES = ("notice", "warning", "error")


def _decode(b):
    return b.decode("utf-8", "surrogateescape")


class Diagnostics:
    """Collects the notices and warnings of one call as (severity, message)."""

    def __init__(self):
        self.items = []
        self.fn = DIAG_FN(self._on)

    def _on(self, _ctx, severity, err):
        sev = SEVERITIES[severity] if 0 <= severity < len(SEVERITIES) else str(severity)
        self.items.append((sev, str(error_from_ptr(err))))


def _plugin_items(options):
    return [(key_of(k), v) for k, v in options.items()]


def read(source, format=None, lenient=False, **plugin_options):
    """Reads a profile from a path, bytes or a binary file object; the format
    is detected by content as the CLI does unless `format` names it.
    Plugin options are the CLI's (llvm_version=14, binary_file="a.out")."""
    ro = Options("read", [("format", format), ("lenient", bool(lenient))] + _plugin_items(plugin_options))
    diag = Diagnostics()
    lib.pb_read_options_set_diag(ro.ptr, diag.fn, None)
    out = ctypes.c_void_p()
    with Err() as e:
        if isinstance(source, (str, os.PathLike)):
            e.check(lib.pb_read_file(ctypes.byref(out), cpath(source), ro.ptr, e.ptr))
        else:
            name = None
            if isinstance(source, (bytes, bytearray, memoryview)):
                data = bytes(source)
            else:
                data = source.read()
                if not isinstance(data, (bytes, bytearray)):
                    raise TypeError("profbridge.read: the file object must be opened in binary mode")
                data = bytes(data)
                n = getattr(source, "name", None)
                if isinstance(n, str):
                    name = cpath(n)
            buf = ctypes.create_string_buffer(data, len(data))
            src = ctypes.c_void_p()
            e.check(lib.pb_source_open_memory(ctypes.byref(src), buf, len(data), name, e.ptr))
            try:
                e.check(lib.pb_read(ctypes.byref(out), src, ro.ptr, e.ptr))
            finally:
                lib.pb_source_free(src)
    prof = Profile._own(out)
    prof.diagnostics = diag.items
    return prof


def _format_ptr(format, path):
    if format is not None:
        f = lib.pb_format_lookup(cstr(format))
        if not f:
            raise ProfbridgeError(-1, f"unknown format '{format}'", path="format",
                                  expected="the name of a format plugin", found=format)
        return f
    if path is None:
        raise ProfbridgeError(-1, "writing to memory needs a format (format='indexed', ...)", path="format")
    f = lib.pb_format_for_path(cpath(path))
    if not f:
        raise ProfbridgeError(-1, f"{os.fsdecode(path)}: no format writes this extension; give format=",
                              file=os.fsdecode(path), path="format")
    return f


class Profile:
    """A profile in memory (pb_profile). Records are reached by index."""

    def __init__(self):
        raise TypeError("use profbridge.read() or profbridge.merge()")

    @classmethod
    def _own(cls, ptr):
        self = object.__new__(cls)
        self._ptr = ptr
        self._guard = threading.Lock()
        self._users = 0  # calls into the library using _ptr right now
        self._closing = False
        self.diagnostics = []
        return self

    @contextlib.contextmanager
    def _held(self):
        """The pointer, kept alive until the block ends: close() from another
        thread meanwhile frees it only when the last such block ends (the
        library is called without the GIL, so a free during a read would be a
        use-after-free)."""
        with self._guard:
            if not self._ptr or self._closing:
                raise ValueError("profbridge: the profile was closed")
            self._users += 1
            ptr = self._ptr
        try:
            yield ptr
        finally:
            with self._guard:
                self._users -= 1
                last = self._closing and self._users == 0
                if last:
                    ptr, self._ptr = self._ptr, None
            if last:
                lib.pb_profile_free(ptr)

    def close(self):
        """Frees the profile (records taken from it must not be used after);
        a read running in another thread finishes first."""
        guard = getattr(self, "_guard", None)
        if guard is None or not getattr(self, "_ptr", None):
            return
        with guard:
            if not self._ptr or self._closing:
                return
            self._closing = True
            if self._users:
                return  # the last reader frees it
            ptr, self._ptr = self._ptr, None
        lib.pb_profile_free(ptr)

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @property
    def ptr(self):
        """The pointer, for one call whose profile the caller keeps open
        (the package itself goes through _held)."""
        if not self._ptr or self._closing:
            raise ValueError("profbridge: the profile was closed")
        return self._ptr

    @property
    def format(self):
        """The format it was read from ("raw", "indexed", "text", "iprof", "json"; "" when merged)."""
        with self._held() as pp:
            return lib.pb_profile_origin_format(pp).decode()

    @property
    def version(self):
        with self._held() as pp:
            return lib.pb_profile_origin_version(pp)

    @property
    def flags(self):
        """LLVM's variant bits (PB_VARIANT_* of profile.h)."""
        with self._held() as pp:
            return lib.pb_profile_flags(pp)

    @property
    def binary_ids(self):
        n = ctypes.c_size_t()
        out = []
        with self._held() as pp:
            for i in range(lib.pb_profile_binary_id_count(pp)):
                p = lib.pb_profile_binary_id(pp, i, ctypes.byref(n))
                out.append(string_at(p, n.value))
        return out

    def __len__(self):
        with self._held() as pp:
            return lib.pb_profile_record_count(pp)

    @property
    def records(self):
        """Every record, in the model's order."""
        return [Record(self, i) for i in range(len(self))]

    def __iter__(self):
        return iter(self.records)

    @property
    def java_entries(self):
        """The iprof entries (records of a Java kind), with their contexts."""
        return [r for r in self.records if r.kind != "function"]

    @property
    def methods(self):
        """The Java methods of an iprof profile (Method: .name, .text)."""
        with self._held() as pp:
            return [Method(self, i) for i in range(lib.pb_profile_method_count(pp))]

    def write(self, path=None, format=None, llvm_version=None, **plugin_options):
        """Writes the profile to `path` (format by extension unless given;
        ".gz" compresses) or, without a path, returns the bytes of `format`.
        llvm_version=N writes what release N writes (the CLI's --llvm-version);
        other plugin options are the CLI's (raw_version=8, iprof_version="1.0.0")."""
        f = _format_ptr(format, path)
        wo = Options("write", [("llvm-version", llvm_version)] + _plugin_items(plugin_options))
        diag = Diagnostics()
        lib.pb_write_options_set_diag(wo.ptr, diag.fn, None)
        with Err() as e, self._held() as pp:
            if path is not None:
                try:
                    e.check(lib.pb_write_file(pp, cpath(path), f, wo.ptr, e.ptr))
                finally:
                    self.diagnostics.extend(diag.items)
                return None
            sink = ctypes.c_void_p()
            e.check(lib.pb_sink_open_memory(ctypes.byref(sink), e.ptr))
            try:
                e.check(lib.pb_write(pp, sink, f, wo.ptr, e.ptr))
                e.check(lib.pb_sink_commit(sink, e.ptr))
                n = ctypes.c_size_t()
                p = lib.pb_sink_memory(sink, ctypes.byref(n))
                return string_at(p, n.value)
            finally:
                lib.pb_sink_free(sink)
                self.diagnostics.extend(diag.items)


    def write_merged(self, path, merge_output):
        """Writes the profile as a merge's output (merge_output: the
        Options("merge_output") of _ops._merge_output)."""
        wo = Options("write", [])
        diag = Diagnostics()
        lib.pb_write_options_set_diag(wo.ptr, diag.fn, None)
        with Err() as e, self._held() as pp:
            try:
                e.check(lib.pb_merge_write_file(pp, cpath(path), merge_output.ptr, wo.ptr, e.ptr))
            finally:
                self.diagnostics.extend(diag.items)


class Method:
    """A Java method of an iprof profile."""

    def __init__(self, profile, index):
        self.profile = profile
        self.index = index

    @property
    def name(self):
        """The simple name, or None for a placeholder."""
        n = ctypes.c_size_t()
        with self.profile._held() as pp:
            p = lib.pb_method_name(pp, self.index, ctypes.byref(n))
            return _decode(string_at(p, n.value)) if p else None

    @property
    def text(self):
        """Readable form "Decl.name(P1,P2)Ret" ("<method id N>" for a placeholder)."""
        with self.profile._held() as pp:
            n = lib.pb_method_format(pp, self.index, None, 0)
            buf = ctypes.create_string_buffer(n + 1)
            lib.pb_method_format(pp, self.index, buf, n + 1)
        return _decode(buf.raw[:n])

    def __repr__(self):
        return f"Method({self.text!r})"


class Frame:
    """One frame of an inlining context (callee first): method and bytecode index."""

    def __init__(self, method, bci):
        self.method = method
        self.bci = bci

    def __repr__(self):
        return f"{self.method.text}:{self.bci}"


class Record:
    """One record: an LLVM function, or an iprof entry (kind says which section)."""

    def __init__(self, profile, index):
        self.profile = profile
        self.index = index

    def _name(self):
        p, n, h = ctypes.c_void_p(), ctypes.c_size_t(), ctypes.c_uint64()
        with Err() as e, self.profile._held() as pp:
            e.check(lib.pb_record_name(pp, self.index, ctypes.byref(p), ctypes.byref(n),
                                       ctypes.byref(h), e.ptr))
            return string_at(p.value, n.value), h.value

    @property
    def name_bytes(self):
        """The LLVM name as bytes (Java entries: rendered from the context)."""
        return self._name()[0]

    @property
    def name(self):
        return _decode(self._name()[0])

    @property
    def hash(self):
        return self._name()[1]

    @property
    def kind(self):
        with self.profile._held() as pp:
            k = lib.pb_record_kind(pp, self.index)
        return RECORD_KINDS[k] if 0 <= k < len(RECORD_KINDS) else str(k)

    @property
    def counters(self):
        n = ctypes.c_size_t()
        with self.profile._held() as pp:
            p = lib.pb_record_counters(pp, self.index, ctypes.byref(n))
            return list((ctypes.c_uint64 * n.value).from_address(p)) if p else []

    @property
    def bitmap(self):
        n = ctypes.c_size_t()
        with self.profile._held() as pp:
            p = lib.pb_record_bitmap(pp, self.index, ctypes.byref(n))
            return string_at(p, n.value)

    @property
    def value_sites(self):
        """{kind: [[(value, count, name or None), ...] per site]} for the three
        kinds "indirect_call", "memop_size", "vtable" (empty lists included)."""
        with self.profile._held() as pp:
            return self._value_sites(pp)

    def _value_sites(self, pp):
        v, c, nm, nl = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_void_p(), ctypes.c_size_t()
        out = {}
        for k, kname in enumerate(VALUE_KINDS):
            sites = []
            for s in range(lib.pb_record_site_count(pp, self.index, k)):
                vals = []
                for j in range(lib.pb_record_site_value_count(pp, self.index, k, s)):
                    lib.pb_record_site_value(pp, self.index, k, s, j, ctypes.byref(v), ctypes.byref(c),
                                             ctypes.byref(nm), ctypes.byref(nl))
                    name = _decode(string_at(nm.value, nl.value)) if nm.value else None
                    vals.append((v.value, c.value, name))
                sites.append(vals)
            out[kname] = sites
        return out

    @property
    def context(self):
        """Java entries: the inlining context as Frames, callee first ([] if none)."""
        with self.profile._held() as pp:
            return self._context(pp)

    def _context(self, pp):
        ctx = lib.pb_record_context(pp, self.index)
        if ctx == PB_NONE:
            return []
        m, b = ctypes.c_uint32(), ctypes.c_int32()
        frames = []
        for k in range(lib.pb_context_frame_count(pp, ctx)):
            lib.pb_context_frame(pp, ctx, k, ctypes.byref(m), ctypes.byref(b))
            frames.append(Frame(Method(self.profile, m.value), b.value))
        return frames

    @property
    def layout(self):
        """Branch entries: [(successor bci, index), ...]."""
        n = ctypes.c_size_t()
        with self.profile._held() as pp:
            p = lib.pb_record_layout(pp, self.index, ctypes.byref(n))
            flat = list((ctypes.c_int32 * n.value).from_address(p)) if p else []
        return list(zip(flat[0::2], flat[1::2]))

    def __repr__(self):
        return f"Record({self.name!r}, hash={self.hash:#x}, counters={self.counters})"
