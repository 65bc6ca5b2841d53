# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The differential fuzzer's corpus: profiles made by each installed clang-N
and llvm-profdata-N, cached like the coverage corpus.

For every release N with clang-N and llvm-profdata-N on PATH, CORPUS/N/ holds
raw profiles of small programs built several ways (IR and front-end, value
profiling, temporal traces, MC/DC, block/entry coverage, loop entries, cs,
vtables, a shared library), indexed and text profiles llvm-profdata-N made of
them, hand-written text profiles with counters up to 2^64-1, a truncated raw
and an empty file. A flavour this clang cannot build is left out (the
generator only draws files that exist). CORPUS/N/FILES lists them and
CORPUS/N/options-SUB.json holds llvm-profdata-N SUB's own options
(options.py).

Cache: keyed by this file, the program sources below and the versions of the
tools; as root it lives in /var/cache/profbridge-difffuzz/corpus-KEY,
otherwise in the directory asked for. The programs and flavours are data
here, not code elsewhere, so changing them changes the key."""
import hashlib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RELEASES = [13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]
CACHE_ROOT = "/var/cache/profbridge-difffuzz"

PROG_C = r"""
#include <string.h>
static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }
extern int lib_f(int);
int (*pick(int i))(int) { return (i & 1) ? twice : thrice; }
int main(int argc, char **argv) {
  char a[64], b[64]; int s = 0; (void)argv;
  memset(b, argc, sizeof b);
  for (int i = 0; i < argc + 5; i++) {
    s += pick(i)(i);
    memcpy(a, b, (size_t)(i % 7) * 8 + 1);
    switch (i % 3) { case 0: s += a[0]; break; case 1: s -= 1; break; default: break; }
    if (i > 2 && (s & 1)) s++;
  }
  s += lib_f(argc);
  return s == -1;
}
"""
LIB_C = r"""
int lib_f(int x) { int r = 0; for (int i = 0; i < x + 2; i++) r += (i & 1) ? i : -i; return r; }
"""
PROG_CPP = r"""
struct B { virtual int f() { return 1; } virtual ~B() {} };
struct D : B { int f() override { return 2; } };
int main(int argc, char **) { B b; D d; int s = 0;
  for (int i = 0; i < argc + 4; i++) { B *p = (i & 1) ? &b : &d; s += p->f(); } return s == -1; }
"""

# flavour: (name, compiler flags, how the lib is built: 'static' object in the
# program, 'shared' library, or None), -mllvm flags a release may lack fail the build.
IR = ["-fprofile-generate"]
FE = ["-fprofile-instr-generate"]
FLAVOURS = [
    ("ir", IR, "static"),
    ("fe", FE, "static"),
    ("cov", FE + ["-fcoverage-mapping"], "static"),
    ("mcdc", FE + ["-fcoverage-mapping", "-fcoverage-mcdc"], "static"),
    ("novp", IR + ["-mllvm", "-disable-vp"], "static"),
    ("tmp", IR + ["-mllvm", "-pgo-temporal-instrumentation"], "static"),
    ("ef", IR + ["-mllvm", "-pgo-instrument-entry"], "static"),
    ("ec", IR + ["-mllvm", "-pgo-function-entry-coverage"], "static"),
    ("bc", IR + ["-mllvm", "-pgo-block-coverage"], "static"),
    ("le", IR + ["-mllvm", "-pgo-instrument-loop-entries"], "static"),
    ("so", IR, "shared"),
]
TEXT_HUGE = """# IR level Instrumentation Flag
:ir
main
# Func Hash:
1234
# Num Counters:
3
# Counter Values:
18446744073709551615
9223372036854775808
1

twice
# Func Hash:
99
# Num Counters:
1
# Counter Values:
18446744073709551614

"""
TEXT_FE = """twice
1
2
5
18446744073709551615

main
7
1
3

"""


def tool_version(tool):
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out


def releases_present():
    return [n for n in RELEASES if shutil.which("clang-%d" % n) and shutil.which("llvm-profdata-%d" % n)]


def corpus_key(releases):
    h = hashlib.sha256()
    for f in ("corpus.py", "options.py"):
        with open(os.path.join(HERE, f), "rb") as fh:
            h.update(fh.read())
    for n in releases:
        h.update(("%d:%s%s" % (n, tool_version("clang-%d" % n), tool_version("llvm-profdata-%d" % n))).encode())
    return h.hexdigest()[:16]


def _run(cmd, cwd, env=None, log=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    if log is not None:
        log.write("$ %s\n%s%s" % (" ".join(cmd), p.stdout, p.stderr))
    return p.returncode == 0


def build_release(n, d):
    """Builds CORPUS/N: returns the list of files made."""
    os.makedirs(d, exist_ok=True)
    for name, text in (("p.c", PROG_C), ("lib.c", LIB_C), ("v.cpp", PROG_CPP),
                       ("huge.proftext", TEXT_HUGE), ("fe-huge.proftext", TEXT_FE)):
        with open(os.path.join(d, name), "w") as fh:
            fh.write(text)
    cc, cxx, pd = "clang-%d" % n, "clang++-%d" % n, "llvm-profdata-%d" % n
    made = ["huge.proftext", "fe-huge.proftext"]
    log = open(os.path.join(d, "build.log"), "w")

    def run_prog(exe, raw, args=()):
        env = dict(os.environ, LLVM_PROFILE_FILE=os.path.join(d, raw))
        env.pop("LLVM_PROFILE_FILE_IGNORE", None)
        return _run(["./" + exe] + list(args), d, env, log) and os.path.exists(os.path.join(d, raw))

    for name, flags, lib in FLAVOURS:
        exe = "p-" + name
        if lib == "shared":
            if not _run([cc, "-O0", "-shared", "-fPIC"] + flags + ["-o", "lib%s.so" % name, "lib.c"], d, log=log):
                continue
            ok = _run([cc, "-O0"] + flags + ["-o", exe, "p.c", "-L.", "-l" + name, "-Wl,-rpath," + d], d, log=log)
        else:
            ok = _run([cc, "-O0"] + flags + ["-o", exe, "p.c", "lib.c"], d, log=log)
        if not ok:
            continue
        if run_prog(exe, name + ".profraw"):
            made.append(name + ".profraw")
        if name in ("ir", "fe", "tmp") and run_prog(exe, name + "2.profraw", ["x", "y"]):
            made.append(name + "2.profraw")
    # context-sensitive: built with an IR profile in use
    if "ir.profraw" in made and _run([pd, "merge", "-o", "ir.profdata", "ir.profraw"], d, log=log):
        made.append("ir.profdata")
        # (-O2: the context-sensitive pass runs after inlining, not at -O0)
        if _run([cc, "-O2", "-fprofile-use=ir.profdata", "-fcs-profile-generate", "-o", "p-cs", "p.c", "lib.c"], d, log=log) \
                and run_prog("p-cs", "cs.profraw"):
            made.append("cs.profraw")
    if _run([cxx, "-O0", "-fprofile-generate", "-mllvm", "-enable-vtable-value-profiling", "-o", "p-vt", "v.cpp"], d, log=log) \
            and run_prog("p-vt", "vt.profraw"):
        made.append("vt.profraw")
    # indexed and text made by this release
    for raw in ("fe", "cov", "mcdc", "tmp", "bc", "ec", "cs", "vt", "so"):
        if raw + ".profraw" not in made:
            continue
        if _run([pd, "merge", "-o", raw + ".profdata", raw + ".profraw"], d, log=log):
            made.append(raw + ".profdata")
    for raw in ("ir", "fe", "tmp", "cs", "vt"):
        if raw + ".profraw" in made and _run([pd, "merge", "--text", "-o", raw + ".proftext", raw + ".profraw"], d, log=log):
            made.append(raw + ".proftext")
    if "tmp.proftext" in made:
        # seven distinct traces, a stream of 9: the reservoir's random draws show
        import itertools
        lines = open(os.path.join(d, "tmp.proftext")).read().split("\n")
        if "# Num Temporal Profile Traces:" in lines:
            i = lines.index("# Num Temporal Profile Traces:")
            j = i + 4
            while j < len(lines) and (lines[j].startswith("# Weight") or lines[j][:1].isdigit() or lines[j].endswith(",")):
                j += 1
            names = ["main", "pick", "p.c;thrice", "p.c;twice", "lib_f"]
            out = lines[:i] + ["# Num Temporal Profile Traces:", "7", "# Temporal Profile Trace Stream Size:", "9"]
            for k, perm in enumerate(list(itertools.permutations(names))[:7]):
                out += ["# Weight:", str(k + 1), ",".join(perm) + ","]
            with open(os.path.join(d, "traces7.proftext"), "w") as fh:
                fh.write("\n".join(out + lines[j:]))
            made.append("traces7.proftext")
    if "ir.profraw" in made and _run([pd, "merge", "--sparse", "-o", "irs.profdata", "ir.profraw", "ir2.profraw"], d, log=log):
        made.append("irs.profdata")
    if "ir.profraw" in made:
        with open(os.path.join(d, "ir.profraw"), "rb") as fh:
            data = fh.read()
        with open(os.path.join(d, "cut.profraw"), "wb") as fh:
            fh.write(data[:len(data) // 2])
        made.append("cut.profraw")
    if "so.profraw" in made:
        # two profiles (program and library), the second cut inside its sections
        with open(os.path.join(d, "so.profraw"), "rb") as fh:
            data = fh.read()
        with open(os.path.join(d, "cut2.profraw"), "wb") as fh:
            fh.write(data[:len(data) - 150])
        made.append("cut2.profraw")
    if "ir.profdata" in made:
        with open(os.path.join(d, "ir.profdata"), "rb") as fh:
            data = fh.read()
        with open(os.path.join(d, "cut.profdata"), "wb") as fh:
            fh.write(data[:len(data) * 2 // 3])
        made.append("cut.profdata")
    open(os.path.join(d, "empty.profraw"), "w").close()
    made.append("empty.profraw")
    with open(os.path.join(d, "FILES"), "w") as fh:
        fh.write("\n".join(made) + "\n")
    # the option lists of this release (options.py)
    import options
    for sub in options.SUBCOMMANDS:
        opts = options.parse_release(n, sub)
        with open(os.path.join(d, "options-%s.json" % sub), "w") as fh:
            json.dump(opts, fh, indent=0, sort_keys=True)
    log.close()
    return made


def ensure(outdir=None, releases=None, rebuild=False):
    """Returns the corpus directory, built when its key changed."""
    releases = releases or releases_present()
    key = corpus_key(releases)
    if os.geteuid() == 0 and outdir is None:
        os.makedirs(CACHE_ROOT, exist_ok=True)
        root = os.path.join(CACHE_ROOT, "corpus-" + key)
    else:
        root = outdir or os.path.join(os.getcwd(), "difffuzz-corpus")
    if not rebuild and os.path.exists(os.path.join(root, "KEY")):
        with open(os.path.join(root, "KEY")) as fh:
            if fh.read().strip() == key:
                return root
    tmp = root + ".tmp%d" % os.getpid()
    shutil.rmtree(tmp, ignore_errors=True)
    for n in releases:
        # programs record their own directory (rpath): built in place under the final name
        build_release(n, os.path.join(tmp, str(n)))
    with open(os.path.join(tmp, "KEY"), "w") as fh:
        fh.write(key + "\n")
    shutil.rmtree(root, ignore_errors=True)
    os.rename(tmp, root)
    return root


def files(root, n):
    try:
        with open(os.path.join(root, str(n), "FILES")) as fh:
            return [l for l in fh.read().split() if l]
    except OSError:
        return []


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    print(ensure(sys.argv[1] if len(sys.argv) > 1 else None))
