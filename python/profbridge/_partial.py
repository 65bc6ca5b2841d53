# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Partial: a merge of a contiguous run of inputs that merges with the runs
after it (include/profbridge/partial.h), and pickling of Profile.

A fleet merge is a reduction: each worker merges its run of inputs into a
Partial, Partials are merged pairwise in input order, and the last one
writes what one flat `profbridge merge` of all inputs in that order writes.
Partial.empty() is the identity; pickle goes through the library's
serialization (pb_partial_save/_load), so a Partial travels between
processes with its provenance (which inputs it holds, what became of each).
"""
import ctypes
import os
import pickle
import tempfile

from ._errors import Err, ProfbridgeError
from ._lib import lib, declare, cpath, cstr, string_at, FAILED_FN, PB_NO_OFFSET
from ._options import Options
from ._profile import Diagnostics, Profile, _plugin_items

_P, _SZ, _U64, _INT, _STR = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint64, ctypes.c_int, ctypes.c_char_p
_POUT = ctypes.POINTER

declare({
    "pb_partial_new": (_INT, [_POUT(_P), _P, _P]),
    "pb_partial_add_file": (_INT, [_P, _STR, _U64, _P]),
    "pb_partial_add_bytes": (_INT, [_P, _STR, _P, _SZ, _U64, _P]),
    "pb_partial_combine": (_INT, [_P, _P, _P]),
    "pb_partial_input_count": (_SZ, [_P]),
    "pb_partial_input_get": (_INT, [_P, _SZ, _POUT(_P), _POUT(_U64), _POUT(_U64), _POUT(_P), _POUT(_INT),
                                    _POUT(_P)]),
    "pb_partial_finish": (_INT, [_P, _POUT(_P), _P]),
    "pb_partial_save": (_INT, [_P, _POUT(_P), _POUT(_SZ), _P]),
    "pb_partial_load": (_INT, [_POUT(_P), _P, _SZ, _STR, _P, _P]),
    "pb_partial_free": (None, [_P]),
    "pb_profile_save": (_INT, [_P, _POUT(_P), _POUT(_SZ), _P]),
    "pb_profile_load": (_INT, [_POUT(_P), _P, _SZ, _STR, _P]),
    "pb_profile_merge_under": (_INT, [_P, _P, _U64, _P, _P]),
})
# the serializations are malloc'ed by the library, free()d by the caller
_libc_free = ctypes.CDLL(None).free
_libc_free.restype, _libc_free.argtypes = None, [_P]

STATUS = {0: "merged", 1: "skipped_empty", 2: "failed"}


class Input:
    """One input of a merge, as its provenance keeps it: name (the path or
    URL it was added with), weight, size (bytes read), sha256 (hex; "" when
    it could not be read), status ("merged", "skipped_empty", "failed") and
    error (a ProfbridgeError with file and offset for a failed one, else None)."""
    __slots__ = ("name", "weight", "size", "sha256", "status", "error")

    def __init__(self, name, weight, size, sha256, status, error):
        self.name, self.weight, self.size, self.sha256 = name, weight, size, sha256
        self.status, self.error = status, error

    def _key(self):
        return (self.name, self.weight, self.size, self.sha256, self.status,
                str(self.error) if self.error else None)

    def __eq__(self, other):
        return isinstance(other, Input) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        e = f", error={str(self.error)!r}" if self.error else ""
        return f"Input({self.name!r}, weight={self.weight}, size={self.size}, status={self.status!r}{e})"


def _iprof_output(fmt_name):
    return fmt_name == "iprof"


def _take_bytes(fn, ptr):
    """Calls fn(ptr, &bytes, &len, err) and returns the bytes (freed in C)."""
    b, n = ctypes.c_void_p(), ctypes.c_size_t()
    with Err() as e:
        e.check(fn(ptr, ctypes.byref(b), ctypes.byref(n), e.ptr))
    try:
        return string_at(b.value, n.value)
    finally:
        _libc_free(b)


class _Rules:
    """The merger options a partial is made under, with everything their
    pointers reach kept alive (read options, callbacks) for its lifetime."""

    def __init__(self, kw):
        from ._ops import _merge_output
        plugin = _plugin_items(kw.get("plugin_options", {}))
        self.ro = Options("read", [("lenient", bool(kw.get("lenient", False))),
                                   ("llvm-version", kw.get("llvm_version"))] + plugin)
        self.mo = Options("merger", [("failure-mode", kw.get("failure_mode", "any")),
                                     ("llvm-version", kw.get("llvm_version"))])
        # the output's rules (as `profbridge merge`: an iprof output keeps every value, Java's counts)
        out = _merge_output(kw.get("format") or "indexed", kw.get("llvm_version"), False, True, [])
        if lib.pb_merge_output_rules(out.ptr, self.mo.ptr):
            raise ValueError("profbridge: the merge output's rules were refused")
        for k in ("max_count", "keep_all_values", "trace_reservoir", "trace_max_length", "keep_functions",
                  "drop_functions"):
            self.mo.set(k.replace("_", "-"), kw.get(k))
        lib.pb_merger_options_set_read(self.mo.ptr, self.ro.ptr)
        self.diag = Diagnostics()
        lib.pb_merger_options_set_diag(self.mo.ptr, self.diag.fn, None)
        self.failed_fn = FAILED_FN(lambda *_: None)  # failures are read from the provenance
        lib.pb_merger_options_set_failed(self.mo.ptr, self.failed_fn, None)


class Partial:
    """The merge of a contiguous run of inputs, mergeable with the next run.

        a = Partial.empty(format="indexed")       # the identity
        a.add("x.profraw"); a.add("y.profraw", weight=3)
        b = Partial.empty(format="indexed"); b.add_bytes("s3://bkt/z.profraw", data)
        a.merge(b)                                  # in place: b's inputs after a's
        a.write("merged.profdata")                  # == profbridge merge x 3,y z
        [i.status for i in a.inputs]

    The rules are fixed when it is made and travel with it: `format` (the
    final output's format: "iprof" keeps every value and Java's counts, any
    other LLVM's rules), llvm_version, failure_mode ("any", "all", "warn":
    applied when the result is made, over all inputs), max_count,
    keep_all_values, keep_functions/drop_functions, trace options; lenient
    and plugin options say how inputs are read. Only partials of equal rules
    merge. pickle keeps all of it (the library's serialization)."""

    def __init__(self):
        raise TypeError("use Partial.empty(...)")

    @classmethod
    def empty(cls, format=None, llvm_version=None, failure_mode="any", max_count=None, keep_all_values=None,
              keep_functions=None, drop_functions=None, trace_reservoir=None, trace_max_length=None,
              lenient=False, **plugin_options):
        """A partial of no input: the identity of merge()."""
        kw = dict(format=format, llvm_version=llvm_version, failure_mode=failure_mode, max_count=max_count,
                  keep_all_values=keep_all_values, keep_functions=keep_functions, drop_functions=drop_functions,
                  trace_reservoir=trace_reservoir, trace_max_length=trace_max_length, lenient=lenient,
                  plugin_options=plugin_options)
        rules = _Rules(kw)
        ptr = ctypes.c_void_p()
        with Err() as e:
            e.check(lib.pb_partial_new(ctypes.byref(ptr), rules.mo.ptr, e.ptr))
        return cls._own(ptr, rules, kw)

    @classmethod
    def _own(cls, ptr, rules, kw):
        self = object.__new__(cls)
        self._ptr, self._rules, self._kw = ptr, rules, kw
        return self

    @classmethod
    def from_bytes(cls, data, name=None, **read_options):
        """A partial from its serialization (a .pbpart file's bytes). Its
        rules are the file's; read_options (lenient, plugin options) say
        how inputs added later are read."""
        data = bytes(data)
        ptr = ctypes.c_void_p()
        kw = dict(read_options)
        kw.setdefault("plugin_options", {})
        rules = _Rules(kw)
        with Err() as e:
            e.check(lib.pb_partial_load(ctypes.byref(ptr), data, len(data), cstr(name) if name else None,
                                        rules.mo.ptr, e.ptr))
        return cls._own(ptr, rules, kw)

    def _p(self):
        if not self._ptr:
            raise ValueError("profbridge: the partial was closed")
        return self._ptr

    def add(self, path, weight=1):
        """Merges the input at `path` (any format profbridge reads, or a
        .pbpart with weight 1) after the inputs held. An input that cannot
        be read does not raise: it is a failed input in `inputs`."""
        with Err() as e:
            e.check(lib.pb_partial_add_file(self._p(), cpath(path), int(weight), e.ptr))
        return self

    def add_bytes(self, name, data, weight=1):
        """As add(), for an input's bytes (read from an fsspec URL, say);
        `name` is what the provenance records."""
        data = bytes(data)
        with Err() as e:
            e.check(lib.pb_partial_add_bytes(self._p(), cstr(os.fsdecode(name)), data, len(data), int(weight),
                                             e.ptr))
        return self

    def merge(self, other):
        """Merges `other` (the partial of the inputs that come after this
        one's) into this one, in place; other is unchanged. Returns self."""
        if not isinstance(other, Partial):
            raise TypeError("Partial.merge takes a Partial")
        with Err() as e:
            e.check(lib.pb_partial_combine(self._p(), other._p(), e.ptr))
        return self

    @property
    def inputs(self):
        """The provenance: every input merged into it, in input order (Input)."""
        p = self._p()
        nm, w, sz, sha, st, er = (ctypes.c_void_p(), ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_void_p(),
                                  ctypes.c_int(), ctypes.c_void_p())
        out = []
        for i in range(lib.pb_partial_input_count(p)):
            with Err() as e:
                e.check(lib.pb_partial_input_get(p, i, ctypes.byref(nm), ctypes.byref(w), ctypes.byref(sz),
                                                 ctypes.byref(sha), ctypes.byref(st), ctypes.byref(er)))
            err = ProfbridgeError._from_c(er.value) if er.value else None
            out.append(Input(os.fsdecode(ctypes.string_at(nm.value)) if nm.value else "", w.value, sz.value,
                             ctypes.string_at(sha.value).decode() if sha.value else "",
                             STATUS.get(st.value, str(st.value)), err))
        return out

    @property
    def failed(self):
        """The failed inputs (Input), in input order."""
        return [i for i in self.inputs if i.status == "failed"]

    @property
    def diagnostics(self):
        """Notices and warnings of the inputs added in this process, as (severity, message)."""
        return list(self._rules.diag.items)

    def profile(self, keep=True):
        """The merged Profile (the failure mode applied over all inputs:
        raises the first failed input's error when it says the merge fails,
        with .inputs set to the provenance). The library moves the merged
        profile out of the partial: keep=True (the default) finishes a copy
        so this partial stays whole; keep=False saves that copy's memory and
        leaves this partial empty (only its provenance)."""
        if keep:
            return pickle.loads(pickle.dumps(self)).profile(keep=False)
        out = ctypes.c_void_p()
        with Err() as e:
            rc = lib.pb_partial_finish(self._p(), ctypes.byref(out), e.ptr)
            if rc:
                err = e.error()
                err.inputs = self.inputs
                raise err
        prof = Profile._own(out)
        prof.diagnostics = self.diagnostics
        return prof

    def write(self, output=None, format=None, llvm_version=None, sparse=False, keep_vtable_symbols=True,
              keep=True, **plugin_options):
        """Writes what `profbridge merge` of the same inputs in the same
        order writes: to `output` (format by extension unless given), or
        returns the bytes when output is None. format and llvm_version
        default to the partial's; keep: as profile()."""
        from ._ops import _merge_output, _out_format_name
        rules_fmt = self._kw.get("format")
        if format:
            fmt_name = format
        elif output is not None and lib.pb_format_for_path(cpath(output)):
            fmt_name = _out_format_name(output, None)
        else:
            fmt_name = rules_fmt or "indexed"
        if _iprof_output(fmt_name) != _iprof_output(rules_fmt):
            raise ValueError(f"profbridge: a partial made for format={rules_fmt!r} cannot be written as"
                             f" {fmt_name}: the merge rules differ (Partial.empty(format={fmt_name!r}))")
        if llvm_version is None:
            llvm_version = self._kw.get("llvm_version")
        out = _merge_output(fmt_name, llvm_version, sparse, keep_vtable_symbols, _plugin_items(plugin_options))
        prof = self.profile(keep=keep)
        try:
            if output is not None:
                prof.write_merged(output, out)
                return None
            with tempfile.TemporaryDirectory(prefix="profbridge-") as d:
                path = os.path.join(d, "merged")
                prof.write_merged(path, out)
                with open(path, "rb") as f:
                    return f.read()
        finally:
            prof.close()

    def to_bytes(self):
        """The library's serialization (what `profbridge merge --partial` writes)."""
        return _take_bytes(lib.pb_partial_save, self._p())

    def __reduce__(self):
        read_kw = {k: self._kw[k] for k in ("lenient", "plugin_options") if k in self._kw}
        return (_load_partial, (self.to_bytes(), self._kw, read_kw))

    def close(self):
        ptr, self._ptr = getattr(self, "_ptr", None), None
        if ptr:
            lib.pb_partial_free(ptr)

    __del__ = close

    def __len__(self):
        return lib.pb_partial_input_count(self._p())

    def __repr__(self):
        return f"<profbridge.Partial of {len(self)} inputs>"


def _load_partial(data, kw, read_kw):
    p = Partial.from_bytes(data, **read_kw)
    p._kw = dict(kw)
    return p


def _load_profile(data):
    out = ctypes.c_void_p()
    data = bytes(data)
    with Err() as e:
        e.check(lib.pb_profile_load(ctypes.byref(out), data, len(data), None, e.ptr))
    return Profile._own(out)


def profile_to_bytes(prof):
    """A Profile's lossless serialization (pb_profile_save)."""
    with prof._held() as pp:
        return _take_bytes(lib.pb_profile_save, pp)


def profile_merge(dst, src, weight=1, llvm_version=None, max_count=None, keep_all_values=None,
                  trace_reservoir=None, trace_max_length=None):
    """dst.merge(src, weight=...): src merged into dst in place as
    `profbridge merge` merges an input that comes after dst's."""
    if not isinstance(src, Profile):
        raise TypeError("Profile.merge takes a Profile")
    mo = Options("merger", [("llvm-version", llvm_version), ("max-count", max_count),
                            ("keep-all-values", keep_all_values), ("trace-reservoir", trace_reservoir),
                            ("trace-max-length", trace_max_length)])
    diag = Diagnostics()
    lib.pb_merger_options_set_diag(mo.ptr, diag.fn, None)
    with Err() as e, dst._held() as dp, src._held() as sp:
        try:
            e.check(lib.pb_profile_merge_under(dp, sp, int(weight), mo.ptr, e.ptr))
        finally:
            dst.diagnostics.extend(diag.items)
    return dst


def _profile_reduce(prof):
    return (_load_profile, (profile_to_bytes(prof),))


Profile.merge = profile_merge
Profile.__reduce__ = _profile_reduce
Profile.to_bytes = profile_to_bytes
Profile.from_bytes = staticmethod(_load_profile)
