# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""coverage(): llvm-cov export/report over the library's coverage.h.

The text (JSON, lcov, report) is the library's, byte for byte what
`profbridge cov export|report` prints; the Python objects (files, lines,
branches, summaries) are read back from that text, so there is one
evaluation and one set of numbers.
"""
import ctypes
import json
import os

from ._errors import Err
from ._lib import lib, cpath, cstr
from ._options import Options, key_of
from ._profile import Diagnostics


def _profiles(profiles):
    """(paths, weights) of profiles given as paths or (weight, path) tuples."""
    paths, weights = [], []
    for item in profiles:
        weight, path = item if isinstance(item, tuple) else (1, item)
        paths.append(cpath(path))
        weights.append(int(weight))
    return paths, weights


def _strings(items):
    arr = (ctypes.c_char_p * max(len(items), 1))(*items)
    return arr


class CoverageFile:
    """One source file: its name, line counts ({line: count} of the lines
    that have code, as lcov's DA records), branches (llvm-cov JSON's branch
    arrays: line, column, end line, end column, true count, false count, file
    id, expanded file id, kind) and summary (llvm-cov JSON's summary: lines,
    functions, instantiations, regions, branches[, mcdc], each a dict)."""

    def __init__(self, name, lines, branches, summary):
        self.name = name
        self.lines = lines
        self.branches = branches
        self.summary = summary

    def __repr__(self):
        s = self.summary.get("lines", {})
        return f"CoverageFile({self.name!r}, lines {s.get('covered')}/{s.get('count')})"


class Coverage:
    """Coverage of some objects under some profiles (pb_coverage)."""

    def __init__(self, ptr, diagnostics, llvm_version):
        self._ptr = ptr
        self.diagnostics = diagnostics
        self.llvm_version = llvm_version
        self._json = None
        self._lcov = None

    def _text(self, kind, items):
        """The library's export or report text for options `items`."""
        new = getattr(lib, f"pb_cov_{kind}_options_new")
        setter = getattr(lib, f"pb_cov_{kind}_options_set")
        free = getattr(lib, f"pb_cov_{kind}_options_free")
        run = lib.pb_coverage_export if kind == "export" else lib.pb_coverage_report
        opts = ctypes.c_void_p()
        sink = ctypes.c_void_p()
        with Err() as e:
            e.check(new(ctypes.byref(opts), e.ptr))
            try:
                for k, v in items:
                    if v is None:
                        continue
                    v = "1" if v is True else "0" if v is False else str(v)
                    e.check(setter(opts, cstr(key_of(k)), cstr(v), e.ptr))
                e.check(lib.pb_sink_open_memory(ctypes.byref(sink), e.ptr))
                e.check(run(self._ptr, opts, sink, e.ptr))
                n = ctypes.c_size_t()
                data = lib.pb_sink_memory(sink, ctypes.byref(n))
                return ctypes.string_at(data, n.value).decode("utf-8", "surrogateescape") if n.value else ""
            finally:
                if sink:
                    lib.pb_sink_free(sink)
                free(opts)

    def export(self, format="text", **flags):
        """llvm-cov export's output: format "text" (JSON) or "lcov"; flags
        are export's options (summary_only=True, skip_functions=True, ...)."""
        return self._text("export", [("format", format)] + list(flags.items()))

    def lcov(self, **flags):
        return self.export("lcov", **flags)

    def report(self, **flags):
        """llvm-cov report's table; flags are report's options
        (show_functions=True, show_branch_summary=False, ...)."""
        return self._text("report", list(flags.items()))

    def json(self):
        """The JSON export, parsed (a dict)."""
        if self._json is None:
            self._json = json.loads(self.export())
        return self._json

    @property
    def totals(self):
        return self.json()["data"][0]["totals"]

    @property
    def files(self):
        """The source files, in llvm-cov's order."""
        if self._lcov is None:
            self._lcov = self.lcov()
        lines = {}
        current = None
        for text in self._lcov.splitlines():
            if text.startswith("SF:"):
                current = lines.setdefault(text[3:], {})
            elif text.startswith("DA:") and current is not None:
                line, count = text[3:].split(",")[:2]
                current[int(line)] = int(count)
        out = []
        for f in self.json()["data"][0]["files"]:
            out.append(CoverageFile(f["filename"], lines.get(f["filename"], {}), f.get("branches", []),
                                    f.get("summary", {})))
        return out

    def __del__(self):
        if getattr(self, "_ptr", None):
            lib.pb_coverage_free(self._ptr)
            self._ptr = None


def coverage(objects, profiles=(), llvm_version=None, **options):
    """Coverage of `objects` (a path or a list of paths: executables and
    shared objects built with clang -fprofile-instr-generate
    -fcoverage-mapping) under `profiles` (paths of raw, indexed or text
    profiles of any version, or (weight, path) tuples; several are merged as
    llvm-profdata merge merges them), as llvm-cov of release `llvm_version`
    (13..24; None: 19) computes it. Options are llvm-cov's
    (compilation_dir=, path_equivalence="from,to", name=[...],
    ignore_filename_regex=[...], empty_profile=True, ...); list options take
    a list. Raises ProfbridgeError."""
    if isinstance(objects, (str, bytes, os.PathLike)):
        objects = [objects]
    objs = [cpath(o) for o in objects]
    paths, weights = _profiles(profiles)
    co = Options("cov", [("llvm-version", llvm_version)])
    for k, v in options.items():
        for item in (v if isinstance(v, (list, tuple)) else [v]):
            co.set(key_of(k), item)
    diag = Diagnostics()
    lib.pb_cov_options_set_diag(co.ptr, diag.fn, None)
    out = ctypes.c_void_p()
    warr = (ctypes.c_uint64 * max(len(weights), 1))(*weights)
    with Err() as e:
        e.check(lib.pb_coverage_load(ctypes.byref(out), _strings(objs), len(objs), _strings(paths), warr,
                                     len(paths), co.ptr, e.ptr))
    return Coverage(out, diag.items, llvm_version)
