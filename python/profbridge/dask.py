# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A fleet's profiles merged on a Dask cluster: the same bytes as one flat
`profbridge merge` of the same inputs in the same order.

    from dask.distributed import Client
    import profbridge.dask
    client = Client("tcp://scheduler:8786")            # or LocalCluster()
    inputs = profbridge.dask.merge(paths, "merged.profdata", client=client)
    [i for i in inputs if i.status == "failed"]        # the provenance

How: the inputs (paths, fsspec URLs, (weight, path) or "W,path" as
llvm-profdata's --weighted-input) are cut into contiguous partitions (a
list) or taken as a dask.bag's partitions; each partition is read on a
worker into a profbridge.Partial in input order; partials are merged
pairwise in a tree that keeps contiguous order (Bag.reduction with
split_every=2 groups neighbours: partition 0+1, 2+3, ..., then their
results, and so on); the last one comes back to the caller, who writes it.
A worker holds at most two partials and one input at a time.

Faults: every task is a pure function of its inputs, so a worker lost in
the middle (its partials with it) is survived by Dask recomputing what it
held on another worker; nothing is counted twice because a combined
partial is a new value built from its two parts (the first part is merged
into in place, and that object is the input of that task only: a task is
re-run only after its worker died, and its inputs then come back from
their producers). An input that cannot be read is a failed input in the
provenance; the failure mode ("any", "all", "warn") decides at the end,
over all inputs, whether the merge fails.

Needs dask and distributed (Debian: python3-dask, python3-distributed; run
with /usr/bin/python3 — a pyenv python3 earlier on PATH does not see
Debian's packages). The rest of profbridge does not import them.
"""
import functools
import os
import re

import dask.bag as db

from ._errors import ProfbridgeError
from ._partial import Partial

__all__ = ["merge", "partial", "normalize"]

_WEIGHTED = re.compile(r"^([0-9]+),(.+)$", re.S)


def normalize(item, weight=None):
    """(weight, name) of one input: a path or URL (weight 1), "W,path" (as
    llvm-profdata's --weighted-input; a path that itself starts with digits
    and a comma must be given as a tuple), (weight, path) or (path, weight)."""
    if isinstance(item, tuple) and len(item) == 2:
        a, b = item
        w, name = (a, b) if isinstance(a, int) and not isinstance(b, int) else (b, a)
    elif isinstance(item, str) and _WEIGHTED.match(item):
        m = _WEIGHTED.match(item)
        w, name = int(m.group(1)), m.group(2)
    else:
        w, name = 1, item
    if weight is not None:
        w = weight
    w = int(w)
    if w < 1:
        raise ValueError(f"profbridge.dask: weight {w} of {name!r}: weights are >= 1")
    return w, os.fsdecode(name) if isinstance(name, (bytes, os.PathLike)) else name


def _add(p, weight, name):
    """Reads one input on this worker into p (a URL through fsspec)."""
    if "://" not in name:
        p.add(name, weight)
        return
    try:
        import fsspec
        with fsspec.open(name, "rb") as f:
            data = f.read()
    except Exception:  # unreadable: recorded as failed by the library (it cannot open the URL as a file)
        p.add(name, weight)
        return
    p.add_bytes(name, data, weight)


def _read_partition(items, rules):
    p = Partial.empty(**rules)
    for weight, name in items:
        _add(p, weight, name)
    return p


def _combine(partials, fault=None):
    """Merges partials (neighbours, in input order) into the first."""
    partials = list(partials)
    if fault and not os.path.exists(fault):  # fault injection for the tests: die once, holding partials
        with open(fault, "w") as f:
            f.write(str(os.getpid()))
        os._exit(17)
    acc = partials[0]
    for q in partials[1:]:
        acc.merge(q)
    return acc


def _rules(format, llvm_version, failure_mode, output, kw):
    if format is None and output is not None:
        from ._ops import _out_format_name
        format = _out_format_name(output, None)
    return dict(format=format, llvm_version=llvm_version, failure_mode=failure_mode, **kw)


def partial(inputs, client=None, partitions=None, weights=None, format=None, llvm_version=None,
            failure_mode="any", split_every=2, output=None, _fault=None, **rules):
    """The merged Partial of all inputs (a list or a dask.bag; see merge()),
    computed on `client` (None: dask's default scheduler, the current
    distributed Client when there is one)."""
    if split_every < 2:
        raise ValueError("profbridge.dask: split_every must be >= 2")
    r = _rules(format, llvm_version, failure_mode, output, rules)
    if isinstance(inputs, db.Bag):
        if weights is not None:
            raise ValueError("profbridge.dask: give a bag's weights in its items ((weight, path))")
        bag = inputs.map(normalize)
    else:
        items = list(inputs)
        if weights is not None:
            weights = list(weights)
            if len(weights) != len(items):
                raise ValueError(f"profbridge.dask: {len(weights)} weights for {len(items)} inputs")
            items = [normalize(x, w) for x, w in zip(items, weights)]
        else:
            items = [normalize(x) for x in items]
        if partitions is None:
            workers = len(client.scheduler_info().get("workers", {})) if client is not None else 0
            partitions = max(1, min(len(items), 4 * (workers or os.cpu_count() or 1)))
        bag = db.from_sequence(items or [], npartitions=max(1, min(int(partitions), max(1, len(items)))))
    item = bag.reduction(functools.partial(_read_partition, rules=r),
                         functools.partial(_combine, fault=_fault), split_every=split_every,
                         name="profbridge-merge")
    if client is not None:
        return client.compute(item).result()
    return item.compute()


def merge(inputs, output, client=None, partitions=None, weights=None, format=None, llvm_version=None,
          failure_mode="any", split_every=2, sparse=False, keep_vtable_symbols=True, _fault=None, **rules):
    """Merges inputs on a Dask cluster and writes `output` with the bytes
    `profbridge merge` of the same inputs in the same order writes.

    inputs: a list of paths / fsspec URLs / (weight, path) / "W,path", or
    a dask.bag of them (its partitions are the partitions); weights: one
    per input instead. partitions: how many contiguous runs a list is cut
    into (default: 4 per worker). format (default: by output's extension),
    llvm_version, failure_mode, max_count, keep_all_values, keep_functions,
    drop_functions, lenient, sparse, keep_vtable_symbols: as
    profbridge.merge. Returns the provenance: one profbridge.Input per
    input, in input order. When the failure mode fails the merge, raises
    the first failed input's ProfbridgeError with .inputs set (and output
    is not written)."""
    p = partial(inputs, client=client, partitions=partitions, weights=weights, format=format,
                llvm_version=llvm_version, failure_mode=failure_mode, split_every=split_every, output=output,
                _fault=_fault, **rules)
    try:
        p.write(output, format=format, llvm_version=llvm_version, sparse=sparse,
                keep_vtable_symbols=keep_vtable_symbols, keep=False)
    except ProfbridgeError as e:
        if not hasattr(e, "inputs"):
            e.inputs = p.inputs
        raise
    return p.inputs
