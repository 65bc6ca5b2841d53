# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""merge, overlap and diff over the library's pb_merger and compare.h."""
import ctypes
import os
import re

from ._errors import Err, error_from_ptr
from ._lib import lib, string_at, cpath, cstr, FAILED_FN, SIZE_MAX
from ._options import Options, key_of
from ._profile import Diagnostics, Profile, _decode, _format_ptr, _plugin_items, read


def _inputs(inputs):
    for item in inputs:
        if isinstance(item, tuple):
            weight, path = item
        else:
            weight, path = 1, item
        yield int(weight), cpath(path)


def _merge_output(fmt_name, llvm_version, sparse, keep_vtable_symbols, plugin):
    """How the merge is written: the library's rules (merge.h pb_merge_output),
    the ones `profbridge merge` uses, so both write the same bytes."""
    return Options("merge_output", [("format", fmt_name), ("llvm-version", llvm_version),
                                    ("sparse", bool(sparse)),
                                    ("keep-vtable-symbols", bool(keep_vtable_symbols))] + plugin)


def _out_format_name(output, format):
    """The CLI's choice: format=, else the output's extension, else indexed."""
    if format:
        return format
    if output is not None:
        for name in ("indexed", "text", "raw", "iprof", "json"):
            if lib.pb_format_for_path(cpath(output)) == lib.pb_format_lookup(name.encode()):
                return name
    return "indexed"


def merge(inputs, output=None, format=None, threads=0, failure_mode="any", llvm_version=None,
          lenient=False, sparse=False, max_count=None, keep_all_values=None, keep_functions=None,
          drop_functions=None, keep_vtable_symbols=True, writer_contexts=False, **plugin_options):
    """Merges inputs (paths, or (weight, path) tuples) as `profbridge merge`
    does; writes `output` when given (format by extension, else indexed) and
    returns the merged Profile. Inputs that fail are listed in the result's
    .failures as (index, path, ProfbridgeError); whether the merge itself
    fails is failure_mode's ("any", "all", "warn"). Vtable names are kept,
    as `profbridge merge` keeps them; keep_vtable_symbols=False drops them,
    as llvm-profdata merge does by default (docs/llvm-profdata.md).
    writer_contexts=True merges as llvm-profdata of llvm_version does on
    `threads` threads (per-thread writers merged pairwise at the end), so
    the bytes depend on the thread count as that tool's do (docs/indexed.md,
    "Merge and its threads"); by default they never do."""
    fmt_name = _out_format_name(output, format)
    plugin = _plugin_items(plugin_options)
    out_opts = _merge_output(fmt_name, llvm_version, sparse, keep_vtable_symbols, plugin)
    ro = Options("read", [("lenient", bool(lenient)), ("llvm-version", llvm_version)] + plugin)
    mo = Options("merger", [("threads", threads), ("failure-mode", failure_mode),
                            ("llvm-version", llvm_version)])
    # the output's rules (an iprof output: Java counts, every type kept), then the caller's
    if lib.pb_merge_output_rules(out_opts.ptr, mo.ptr):
        raise ValueError("merge output rules refused")
    for k, v in (("max-count", max_count), ("keep-all-values", keep_all_values),
                 ("keep-functions", keep_functions), ("drop-functions", drop_functions),
                 ("writer-contexts", writer_contexts or None)):
        mo.set(k, v)
    lib.pb_merger_options_set_read(mo.ptr, ro.ptr)
    diag = Diagnostics()
    failures = []

    def on_failed(_ctx, index, name, err):
        failures.append((index, os.fsdecode(name), error_from_ptr(err)))

    failed_fn = FAILED_FN(on_failed)
    lib.pb_merger_options_set_diag(mo.ptr, diag.fn, None)
    lib.pb_merger_options_set_failed(mo.ptr, failed_fn, None)
    m = ctypes.c_void_p()
    out = ctypes.c_void_p()
    with Err() as e:
        e.check(lib.pb_merger_new(ctypes.byref(m), mo.ptr, e.ptr))
        try:
            for weight, path in _inputs(inputs):
                e.check(lib.pb_merger_add_file(m, path, weight, e.ptr))
            rc = lib.pb_merger_run(m, ctypes.byref(out), e.ptr)
            if rc:
                err = e.error()
                err.failures = failures
                raise err
        finally:
            lib.pb_merger_free(m)
    prof = Profile._own(out)
    prof.diagnostics = diag.items
    prof.failures = failures
    if output is not None:
        prof.write_merged(output, out_opts)
    return prof


def _profile(x):
    return x if isinstance(x, Profile) else read(x)


def _number(text):
    text = text.strip()
    if text.endswith("%"):
        return float(text[:-1])
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


class OverlapReport:
    """llvm-profdata overlap's report (`text`, byte for byte) and its
    program-level numbers (`program`: {"functions_overlap": 5,
    "edge_profile_overlap": 100.0 (percent), ...})."""

    def __init__(self, text):
        self.text = text
        self.program = {}
        section = None
        for line in text.splitlines():
            if line.endswith(":") and not line.startswith(" "):
                section = line[:-1]
                continue
            if section == "Program level" and ":" in line:
                k, v = line.rsplit(":", 1)
                key = re.sub(r"[^a-z0-9]+", "_", k.strip().lower().replace("# of ", "")).strip("_")
                self.program[key] = _number(v)

    def __getitem__(self, key):
        return self.program[key]

    def __str__(self):
        return self.text


def overlap(base, test, function=None, value_cutoff=None, cs=False, llvm_version=None,
            base_name=None, test_name=None):
    """llvm-profdata overlap BASE TEST: base and test are Profiles, paths or bytes."""
    b, t = _profile(base), _profile(test)
    def shown(x, given):
        if given is not None:
            return given
        return os.fsdecode(x) if isinstance(x, (str, os.PathLike)) else ""
    oo = Options("overlap", [("base-name", shown(base, base_name)), ("test-name", shown(test, test_name)),
                             ("function", function), ("value-cutoff", value_cutoff), ("cs", bool(cs)),
                             ("llvm-version", llvm_version)])
    sink = ctypes.c_void_p()
    with Err() as e, b._held() as bp, t._held() as tp:
        e.check(lib.pb_sink_open_memory(ctypes.byref(sink), e.ptr))
        try:
            e.check(lib.pb_profile_overlap(bp, tp, oo.ptr, sink, e.ptr))
            e.check(lib.pb_sink_commit(sink, e.ptr))
            n = ctypes.c_size_t()
            text = string_at(lib.pb_sink_memory(sink, ctypes.byref(n)), n.value)
        finally:
            lib.pb_sink_free(sink)
    return OverlapReport(_decode(text))


DIFF_STATUS = {1: "only_a", 2: "only_b", 3: "changed"}


class DiffEntry:
    def __init__(self, status, name, hash, record_a, record_b, impact):
        self.status, self.name, self.hash = status, name, hash
        self.record_a, self.record_b, self.impact = record_a, record_b, impact

    def __repr__(self):
        return f"DiffEntry({self.status}, {self.name!r}, hash={self.hash:#x}, impact={self.impact})"


class Diff:
    """Records that differ between A and B, largest impact first (compare.h)."""

    def __init__(self, a, b, ptr):
        self.a, self.b, self._ptr = a, b, ptr
        self.same = lib.pb_diff_same_count(ptr)
        st, nm, nl = ctypes.c_int(), ctypes.c_void_p(), ctypes.c_size_t()
        h, ra, rb, imp = ctypes.c_uint64(), ctypes.c_size_t(), ctypes.c_size_t(), ctypes.c_uint64()
        self.entries = []
        for i in range(lib.pb_diff_count(ptr)):
            lib.pb_diff_entry_get(ptr, i, ctypes.byref(st), ctypes.byref(nm), ctypes.byref(nl), ctypes.byref(h),
                                  ctypes.byref(ra), ctypes.byref(rb), ctypes.byref(imp))
            self.entries.append(DiffEntry(DIFF_STATUS.get(st.value, str(st.value)),
                                          _decode(string_at(nm.value, nl.value)), h.value,
                                          None if ra.value == SIZE_MAX else ra.value,
                                          None if rb.value == SIZE_MAX else rb.value, imp.value))

    def __len__(self):
        return len(self.entries)

    def __iter__(self):
        return iter(self.entries)

    def text(self, a_name="A", b_name="B", json=False):
        """The report `profbridge diff` prints (json=True: its JSON document)."""
        sink = ctypes.c_void_p()
        with Err() as e, self.a._held() as ap, self.b._held() as bp:
            e.check(lib.pb_sink_open_memory(ctypes.byref(sink), e.ptr))
            try:
                e.check(lib.pb_diff_write(self._ptr, ap, bp, cstr(a_name), cstr(b_name),
                                          1 if json else 0, sink, e.ptr))
                e.check(lib.pb_sink_commit(sink, e.ptr))
                n = ctypes.c_size_t()
                return _decode(string_at(lib.pb_sink_memory(sink, ctypes.byref(n)), n.value))
            finally:
                lib.pb_sink_free(sink)

    def __del__(self):
        if getattr(self, "_ptr", None):
            lib.pb_diff_free(self._ptr)
            self._ptr = None


def diff(a, b):
    """Record-by-record differences of A and B (Profiles, paths or bytes)."""
    pa, pb = _profile(a), _profile(b)
    out = ctypes.c_void_p()
    with Err() as e, pa._held() as ap, pb._held() as bp:
        e.check(lib.pb_profile_diff(ap, bp, ctypes.byref(out), e.ptr))
    return Diff(pa, pb, out)
