# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The library's rooms and the rule that keeps them layered (docs/architecture.md).

Reads src/, formats/, include/ and the fuzz harnesses (tests/fuzz/) and
builds one graph of modules (a .c with its same-named .h is one module):
  * an edge for every quoted #include, resolved against the including file's
    folder, then src/, then include/; a public header is a module of the
    room PUBLIC gives it: the lowest room whose types it carries (its
    functions may be defined higher: calling them is a call edge), so a room
    that includes a higher room's public header goes up as surely as one
    that includes its internal header;
  * an edge for every call of a pb_/pbi_ function whose definition lives in
    another module, because a public or shared header (profbridge/format.h,
    bridge/bridge.h) hides who implements what: the circle registry ->
    bridge -> registry was visible only that way.
Then fails on (1) any circle between modules, (2) any edge that goes up
the room order below, (3) an include of a room-private header (PRIVATE)
from outside its folder, (4) a fuzz harness outside tests/fuzz/ (a harness
is a test: beside a plugin's code it called the registry from the plugin's
room) and (5) a way of the CLI into a library room (an internal header, a
pbi_ call; util aside) that CLI_DEBT does not list, or one it lists that is
gone. Prints each circle and each offending edge with the
line that makes it.

Usage: layers.py SOURCE_DIR
"""
import os
import re
import sys

# Lower rooms first; a module may use its own room and any room before it.
# Globs are matched against the path under the source tree; the first wins.
ROOMS = [
    ("util", ["src/util/"]),
    ("model", ["src/model/"]),
    ("llvm", ["src/llvm/"]),
    ("stream", ["src/io/"]),
    ("merge", ["src/merge/"]),
    ("bridge", ["src/bridge/"]),
    ("formats", ["formats/"]),
    ("registry", ["src/registry/"]),
    ("merger", ["src/merger/"]),
    ("coverage", ["src/coverage/"]),
    ("analysis", ["src/analysis/"]),
    ("access", ["src/access/"]),
    ("cli", ["src/cli/"]),
    # the fuzz harnesses drive any room; nothing of the library may use them
    ("harness", ["tests/fuzz/"]),
]

# The room of each public header (include/profbridge/): the lowest room whose
# types it carries. format.h and its sys/ part carry the options, pb_kv and
# pb_diag every plugin and writer is handed, so they stand with the model
# though the registry defines their reading and writing functions.
PUBLIC = {
    "include/profbridge/error.h": "util",
    "include/profbridge/release.h": "util",
    "include/profbridge/io.h": "model",
    "include/profbridge/profile.h": "model",
    "include/profbridge/format.h": "model",
    "include/profbridge/sys/format.h": "model",
    "include/profbridge/indexed.h": "formats",
    "include/profbridge/merge.h": "merger",
    "include/profbridge/partial.h": "merger",
    "include/profbridge/coverage.h": "coverage",
    "include/profbridge/compare.h": "analysis",
    "include/profbridge/correlate.h": "analysis",
    "include/profbridge/order.h": "analysis",
    "include/profbridge/flame.h": "analysis",
    "include/profbridge/show.h": "analysis",
    "include/profbridge/types.h": "analysis",
    "include/profbridge/access.h": "access",
    # the umbrella names every header: only the tool and the harnesses use it
    "include/profbridge/profbridge.h": "access",
}

# Room-private headers: included only from the folder given (the model's
# struct: the rooms above use profile.h and the model's room-level headers).
PRIVATE = {
    "src/model/profile_internal.h": "src/model/",
}

# The tool's remaining ways into library rooms other than util (issue 21 item
# 4: the CLI should reach the library through include/profbridge/ alone, as
# bsdtar through libarchive_fe/): an internal header it includes or a pbi_
# function it calls, per CLI module. This list may only shrink.
CLI_DEBT = set()  # s30: types (types.h) and the correlation (correlate.h) went public: none left

HARNESS = re.compile(r"_fuzz\.c$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
CALL = re.compile(r"\b(pb[iu]?_[A-Za-z0-9_]+)\s*\(")
# A definition: at column 0, a type then the name and its parameters, then a
# body ({ after the closing parenthesis, maybe after an attribute macro).
DEF = re.compile(r"^(?!static\b)[A-Za-z_][\w \t\*]*?\b(pb[iu]?_[A-Za-z0-9_]+)\s*\(([^;{}]*?)\)\s*(?:PB_\w+\s*)?\{",
                 re.M | re.S)


ROOM_INDEX = {name: i for i, (name, _) in enumerate(ROOMS)}


def room_of(path):
    for header, name in PUBLIC.items():
        if path == os.path.splitext(header)[0]:
            return ROOM_INDEX[name], name
    for i, (name, prefixes) in enumerate(ROOMS):
        if any(path.startswith(p) for p in prefixes):
            return i, name
    return None, None


def module_of(path):
    return os.path.splitext(path)[0]


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def depth_at(text):
    """The brace depth before each character (strings hold no braces here that matter)."""
    out, d = [], 0
    for ch in text:
        out.append(d)
        if ch == "{":
            d += 1
        elif ch == "}":
            d = max(0, d - 1)
    return out


def main():
    root = sys.argv[1]
    files = []
    for top in ("src", "formats", "include", "tests/fuzz"):
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith((".c", ".h")):
                    files.append(os.path.relpath(os.path.join(d, n), root))
    files.sort()
    status = 0
    for f in files:
        if HARNESS.search(f) and not f.startswith("tests/fuzz/"):
            print(f"{f}: a fuzz harness outside tests/fuzz/ (move it there; CMake and scripts/fuzz-run.sh take it from there)")
            status = 1
        if f.startswith("include/") and f not in PUBLIC:
            print(f"{f}: a public header without a room in PUBLIC of tests/tools/layers.py")
            status = 1
    fileset = set(files)
    text = {}
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            text[f] = strip_comments(fh.read())

    defined = {}  # function -> module
    for f in files:
        if f.endswith(".c"):
            for m in DEF.finditer(text[f]):
                defined.setdefault(m.group(1), module_of(f))

    edges = {}  # (from module, to module) -> reason

    def add(a, b, why):
        if a != b:
            edges.setdefault((a, b), why)

    private_hits = []
    cli_reach = {}  # (cli module, library module) -> why: an internal header included or a pbi_ called

    def reach(f, target, why):
        if room_of(f)[1] == "cli" and room_of(target)[1] not in ("cli", "util", None) \
                and not target.startswith("include/"):
            cli_reach.setdefault((module_of(f), target), why)

    for f in files:
        here = os.path.dirname(f)
        for m in INCLUDE.finditer(text[f]):
            inc = m.group(1)
            for base in (here, "src", "include"):
                cand = os.path.normpath(os.path.join(base, inc))
                if cand in fileset:
                    add(module_of(f), module_of(cand), f'{f}: #include "{inc}"')
                    reach(f, module_of(cand), f'#include "{inc}"')
                    if cand in PRIVATE and not f.startswith(PRIVATE[cand]):
                        print(f'{f}: #include "{inc}": private to {PRIVATE[cand]} (use the room-level headers beside it)')
                        private_hits.append(f)
                    break
        if f.startswith("include/"):
            continue  # a public header declares (inside extern "C" { }), it calls nothing
        depth = depth_at(text[f])
        for m in CALL.finditer(text[f]):
            target = defined.get(m.group(1))
            # only calls inside a body: a prototype names a function, it uses nothing
            if target and depth[m.start()] > 0:
                line = text[f].count("\n", 0, m.start()) + 1
                add(module_of(f), target, f"{f}:{line}: calls {m.group(1)}")
                if m.group(1).startswith("pbi_"):
                    reach(f, target, f"{f}:{line}: calls {m.group(1)}")

    if private_hits:
        status = 1

    # (5) the tool reaches the library through include/profbridge/ and util/
    # only (issue 21 item 4); CLI_DEBT lists the edges into library rooms it
    # still has, and may only shrink: a new one fails, and so does a listed
    # one that is gone (strike it).
    cli_now = set(cli_reach)
    for a, b in sorted(cli_now - CLI_DEBT):
        print(f"cli reaches a library room: {a} -> {b}: {cli_reach[(a, b)]} "
              "(use include/profbridge/, or make it a public call)")
        status = 1
    for a, b in sorted(CLI_DEBT - cli_now):
        print(f"CLI_DEBT of tests/tools/layers.py lists {a} -> {b}, which is gone: strike it")
        status = 1
    modules = sorted({module_of(f) for f in files})
    for mod in modules:
        if room_of(mod)[0] is None:
            print(f"{mod}: in no room of tests/tools/layers.py (add it to ROOMS)")
            status = 1

    # (2) edges up the room order
    for (a, b), why in sorted(edges.items()):
        ra, rb = room_of(a), room_of(b)
        if ra[0] is not None and rb[0] is not None and rb[0] > ra[0]:
            print(f"up the layers: {a} ({ra[1]}) -> {b} ({rb[1]}): {why}")
            status = 1

    # (1) circles: Tarjan's strongly connected components, then one circle each
    succ = {m: [] for m in modules}
    for a, b in edges:
        if a in succ and b in succ:
            succ[a].append(b)
    index, low, stack, on, comps = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for m in modules:
        if m not in index:
            visit(m)
    for comp in comps:
        members = set(comp)
        # a shortest way back to the start, through the component only
        start = comp[0]
        prev, frontier, seen = {}, [start], {start}
        found = None
        while frontier and not found:
            nxt = []
            for v in frontier:
                for w in succ[v]:
                    if w == start:
                        found = v
                        break
                    if w in members and w not in seen:
                        seen.add(w)
                        prev[w] = v
                        nxt.append(w)
                if found:
                    break
            frontier = nxt
        path = [found]
        while path[-1] != start:
            path.append(prev[path[-1]])
        path.reverse()
        path.append(start)
        print(f"circle of {len(comp)} modules ({', '.join(comp)}):")
        for a, b in zip(path, path[1:]):
            print(f"  {a} -> {b}   ({edges[(a, b)]})")
        status = 1

    if status == 0:
        print(f"ok: {len(modules)} modules, {len(edges)} edges, no circle, none goes up "
              f"{' < '.join(n for n, _ in ROOMS)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
