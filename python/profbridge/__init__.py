# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""profbridge: read, write, merge and compare PGO profiles (GraalVM iprof,
LLVM .profraw/.profdata/.proftext) through libprofbridge's public C API.

    import profbridge
    p = profbridge.read("default.profraw")
    for r in p.records:
        print(r.name, hex(r.hash), r.counters)
    p.write("default.profdata", llvm_version=14)
    profbridge.merge(["a.profraw", (3, "b.profraw")], output="merged.profdata", threads=2)
    cov = profbridge.coverage("./prog", ["default.profraw"], llvm_version=14)
    print(cov.lcov())
    a = profbridge.Partial.empty(); a.add("a.profraw"); a.merge(other)  # a fleet merge's pieces
    # profbridge.dask.merge(paths, "merged.profdata", client=client)   # the same on a Dask cluster
"""
from ._coverage import Coverage, CoverageFile, coverage
from ._errors import ProfbridgeError
from ._lib import lib as _clib
from ._ops import Diff, DiffEntry, OverlapReport, diff, merge, overlap
from ._partial import Input, Partial
from ._profile import Frame, Method, Profile, Record, read
from ._show import show

__all__ = ["ProfbridgeError", "Profile", "Record", "Method", "Frame", "OverlapReport", "Diff", "DiffEntry",
           "Coverage", "CoverageFile", "Partial", "Input", "read", "merge", "overlap", "diff", "coverage", "show", "library_version"]
__version__ = "0.1.0"


def library_version():
    """The loaded libprofbridge's version string."""
    return _clib.pb_version().decode()
