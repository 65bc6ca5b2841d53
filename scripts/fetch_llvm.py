# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""fetch_llvm.py -- the work behind scripts/fetch-llvm.sh (read its header).

Provides llvm-profdata-N, llvm-cov-N and (with --clang) clang-N / clang++-N of
LLVM releases that Debian bookworm does not ship, from Debian's own packages:

  17, 18      Debian trixie
  21, 22, 23  Debian sid
  24          Debian experimental (the llvm-toolchain-snapshot packages;
              every other library comes from sid)

Why this way: the binaries need their suite's glibc and libstdc++, so they
cannot be installed with apt on bookworm. Instead the packages are downloaded
from the Debian mirror apt already uses, checked against the SHA256 of the
suite's package index (itself checked against the suite's InRelease, whose
signature gpgv verifies with the system's Debian archive keyring), unpacked
into a private root (nothing of the system is replaced), and the executables
we expose plus libLLVM / libclang-cpp are patched with patchelf: their ELF
interpreter becomes the private root's ld-linux and their DT_RPATH the private
root's library directories. A wrapper script running the tool through the
loader (`ld.so --library-path`) is not enough for clang: clang re-executes
itself and finds its resource directory (headers, the profile runtime) from
/proc/self/exe, which would then be ld.so. libLLVM and libclang-cpp must be
patched too because their own RUNPATH ($ORIGIN/../lib) hides the executable's
RPATH while their dependencies (libxml2, libz3, ...) are searched.

Programs compiled by these clangs are linked by the system's linker against
the system's glibc and libstdc++ (clang finds bookworm's GCC installation), so
they run normally.
"""

import concurrent.futures
import fcntl
import glob
import hashlib
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request

# Release -> suites to look packages up in, in order. For 24, the LLVM
# packages come from experimental and everything else from sid (see pick()).
SUITES = {17: ["trixie"], 18: ["trixie"], 21: ["sid"], 22: ["sid"], 23: ["sid"],
          24: ["experimental", "sid"]}
# The LLVM 24 snapshot the project's facts were established with; a different
# version is installed anyway, with a loud warning.
PINNED = {24: "1:24~++20261025103442+7e3c57157096-1~exp1"}
KEYRING = os.environ.get("PB_DEBIAN_KEYRING", "/usr/share/keyrings/debian-archive-keyring.gpg")
ARCH_TRIPLE = "x86_64-linux-gnu"
PROG = "fetch-llvm"
MIRROR = ""


def say(msg):
    print(f"{PROG}: {msg}", file=sys.stderr, flush=True)


def die(msg):
    say(msg)
    sys.exit(1)


# ---------------------------------------------------------------- the mirror

def apt_sources(etc="/etc/apt"):
    """(uri, suites) pairs of the machine's apt configuration, one-line
    (*.list) and deb822 (*.sources) formats; files apt would ignore are
    ignored too."""
    out = []
    files = []
    if os.path.exists(f"{etc}/sources.list"):
        files.append(f"{etc}/sources.list")
    files += sorted(glob.glob(f"{etc}/sources.list.d/*.list"))
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if not line.startswith("deb "):
                    continue
                words = re.sub(r"\[[^]]*\]", " ", line[4:]).split()
                if len(words) >= 2:
                    out.append((words[0], [words[1]]))
    for path in sorted(glob.glob(f"{etc}/sources.list.d/*.sources")):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for stanza in re.split(r"\n\s*\n", text):
            fields = {}
            for line in stanza.splitlines():
                if line.startswith("#") or ":" not in line or line[0].isspace():
                    continue
                key, val = line.split(":", 1)
                fields[key.strip().lower()] = val.split()
            if "deb" not in fields.get("types", []):
                continue
            if fields.get("enabled", ["yes"])[0].lower() == "no":
                continue
            for uri in fields.get("uris", []):
                out.append((uri, fields.get("suites", [])))
    return out


def find_mirror(etc="/etc/apt", os_release="/etc/os-release"):
    """The URI apt uses for Debian's main archive: the one serving this
    system's own release (e.g. bookworm, not bookworm-security)."""
    env = os.environ.get("PB_DEBIAN_MIRROR")
    if env:
        return env.rstrip("/")
    codename = ""
    try:
        with open(os_release, encoding="utf-8") as f:
            for line in f:
                if line.startswith("VERSION_CODENAME="):
                    codename = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    wanted = {codename} if codename else set()
    wanted |= {"stable", "testing", "unstable", "sid", "trixie", "bookworm"}
    for uri, suites in apt_sources(etc):
        if uri.startswith(("http://", "https://")) and wanted & set(suites):
            return uri.rstrip("/")
    die("cannot find the Debian archive in the apt configuration "
        "(/etc/apt/sources.list*); set PB_DEBIAN_MIRROR to a Debian mirror's URL")


# ---------------------------------------------------------------- downloads

def download(url, dest):
    tmp = f"{dest}.{os.getpid()}.part"  # concurrent runs share the cache
    try:
        with urllib.request.urlopen(url, timeout=120) as r, open(tmp, "wb") as f:
            shutil.copyfileobj(r, f, 1 << 20)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        die(f"cannot download {url}: {e}")
    os.replace(tmp, dest)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch_index(mirror, suite, tmp):
    """{package name: stanza fields} of suite's main amd64 Packages index,
    verified InRelease (gpgv) -> Packages.xz (SHA256)."""
    inrel = os.path.join(tmp, f"{suite}.InRelease")
    download(f"{mirror}/dists/{suite}/InRelease", inrel)
    signed = os.path.join(tmp, f"{suite}.Release")
    r = subprocess.run(["gpgv", "--keyring", KEYRING, "--output", signed, inrel],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        die(f"the signature of {suite}'s InRelease does not verify with {KEYRING}:\n{r.stderr}")
    want = None
    in_sha = False
    with open(signed, encoding="utf-8") as f:
        for line in f:
            if not line[0].isspace():
                in_sha = line.startswith("SHA256:")
                continue
            parts = line.split()
            if in_sha and len(parts) == 3 and parts[2] == "main/binary-amd64/Packages.xz":
                want = parts[0]
    if not want:
        die(f"{suite}'s InRelease lists no main/binary-amd64/Packages.xz")
    xz = os.path.join(tmp, f"{suite}.Packages.xz")
    download(f"{mirror}/dists/{suite}/main/binary-amd64/Packages.xz", xz)
    if sha256(xz) != want:
        die(f"{suite}'s Packages.xz does not match the SHA256 in its signed InRelease")
    with lzma.open(xz, "rt", encoding="utf-8", errors="replace") as f:
        text = f.read()
    index = {}
    provides = {}
    for stanza in text.split("\n\n"):
        fields = {}
        key = None
        for line in stanza.splitlines():
            if line[:1].isspace():
                if key:
                    fields[key] += "\n" + line
                continue
            if ":" in line:
                key, val = line.split(":", 1)
                fields[key] = val.strip()
        name = fields.get("Package")
        if not name or name in index:
            continue
        fields["Suite"] = suite
        index[name] = fields
        for p in split_deps(fields.get("Provides", "")):
            provides.setdefault(p[0], name)
    return index, provides


def split_deps(text):
    """'a (>= 1) | b:any, c' -> [['a', 'b'], ['c']]"""
    groups = []
    for group in text.split(","):
        alts = [re.sub(r"[\s(\[].*$", "", a.strip()).split(":")[0] for a in group.split("|")]
        alts = [a for a in alts if a]
        if alts:
            groups.append(alts)
    return groups


# ---------------------------------------------------------------- resolution

def wanted_llvm_package(name, n):
    """The packages of the LLVM source package we need: the tools, their
    libraries, the resource directory and the runtimes (with or without the
    Debian t64 suffix). Not llvm-N-runtime, -linker-tools, libclang1-N, ..."""
    return re.fullmatch(rf"(llvm-{n}|clang-{n}|libllvm{n}(t64)?|libclang-cpp{n}(t64)?|"
                        rf"libclang-common-{n}-dev|libclang-rt-{n}-dev)", name) is not None


def resolve(n, with_clang, indexes):
    """The package stanzas release n needs: the LLVM packages plus the
    closure of their Depends/Pre-Depends over shared-library packages
    (Debian section libs, so no headers, compilers or linkers: clang uses
    the system's)."""
    suites = SUITES[n]

    def pick(name):
        # LLVM packages from the first suite having them (experimental for 24);
        # everything else from the last (sid for 24), so experimental's other
        # snapshots (glibc, gcc) are not mixed in.
        order = suites if name.startswith(("llvm-", "clang-", "libllvm", "libclang")) \
            else list(reversed(suites))
        for s in order:
            index, provides = indexes[s]
            if name in index:
                return index[name]
            if name in provides:
                return index[provides[name]]
        return None

    roots = [f"llvm-{n}"]
    if with_clang:
        roots += [f"clang-{n}", f"libclang-common-{n}-dev", f"libclang-rt-{n}-dev"]
    chosen = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        st = pick(name)
        if st is None:
            die(f"LLVM {n}: no package {name} in {'/'.join(suites)} of {MIRROR} "
                "(set PB_DEBIAN_MIRROR to a current Debian mirror)")
        pkg = st["Package"]
        if pkg in chosen:
            continue
        src = st.get("Source", pkg).split()[0]
        if src.startswith("llvm-toolchain"):
            if not wanted_llvm_package(pkg, n):
                continue
        elif st.get("Section", "").split("/")[-1] not in ("libs", "oldlibs"):
            continue
        chosen[pkg] = st
        for group in split_deps(st.get("Pre-Depends", "")) + split_deps(st.get("Depends", "")):
            alt = next((a for a in group if pick(a) is not None), None)
            if alt is None:
                die(f"LLVM {n}: {pkg} depends on {' | '.join(group)}, which {'/'.join(suites)} lacks")
            todo.append(alt)
    return chosen


# ---------------------------------------------------------------- install

def tools(n, with_clang):
    t = [(f"llvm-profdata-{n}", "llvm-profdata"), (f"llvm-cov-{n}", "llvm-cov")]
    if with_clang:
        t += [(f"clang-{n}", "clang"), (f"clang++-{n}", "clang")]
    return t


def installed(prefix, n, with_clang):
    """An earlier run installed and checked release n (check() writes the
    stamp) and its tools still run."""
    return os.path.exists(os.path.join(prefix, str(n), "CHECKED")) and works(prefix, n, with_clang)


def works(prefix, n, with_clang):
    for name, _ in tools(n, with_clang):
        exe = os.path.join(prefix, str(n), "bin", name)
        try:
            r = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return False
        if r.returncode != 0 or not re.search(rf"(LLVM|clang) version {n}\.", r.stdout):
            return False
    return True


def patch(path, interp, rpath, executable):
    cmd = ["patchelf"]
    if executable:
        cmd += ["--set-interpreter", interp]
    # DT_RPATH, not RUNPATH: an RPATH also serves the dependencies of the
    # libraries loaded (libxml2 -> libicu), a RUNPATH only direct ones.
    subprocess.run(["patchelf", "--remove-rpath", path], check=True)
    subprocess.run(cmd + ["--force-rpath", "--set-rpath", rpath, path], check=True)


def install(n, with_clang, chosen, debs, prefix):
    final = os.path.join(prefix, str(n))
    new = final + ".new"
    shutil.rmtree(new, ignore_errors=True)
    root_new = os.path.join(new, "root")
    os.makedirs(root_new)
    os.makedirs(os.path.join(new, "bin"))
    for pkg in sorted(chosen):
        subprocess.run(["dpkg-deb", "-x", debs[pkg], root_new], check=True)
    root = os.path.join(final, "root")
    libdirs = [d for d in (f"usr/lib/{ARCH_TRIPLE}", f"lib/{ARCH_TRIPLE}", f"usr/lib/llvm-{n}/lib")
               if os.path.isdir(os.path.join(root_new, d))]
    rpath = ":".join(os.path.join(root, d) for d in libdirs)
    interp = os.path.join(root, f"usr/lib/{ARCH_TRIPLE}/ld-linux-x86-64.so.2")
    if not os.path.exists(os.path.join(root_new, f"usr/lib/{ARCH_TRIPLE}/ld-linux-x86-64.so.2")):
        interp = os.path.join(root, f"lib/{ARCH_TRIPLE}/ld-linux-x86-64.so.2")
    bindir = f"usr/lib/llvm-{n}/bin"
    seen = set()
    for name, real in tools(n, with_clang):
        target = os.path.realpath(os.path.join(root_new, bindir, real))
        if not os.path.isfile(target):
            die(f"LLVM {n}: the packages have no {bindir}/{real}")
        if target not in seen:
            patch(target, interp, rpath, True)
            seen.add(target)
        os.symlink(os.path.join("..", "root", bindir, real), os.path.join(new, "bin", name))
    # libLLVM and libclang-cpp live in usr/lib/<triple> or usr/lib/llvm-N/lib
    # (the other holds a symlink): patch each real file once.
    libs = set()
    for d in (f"usr/lib/{ARCH_TRIPLE}", f"usr/lib/llvm-{n}/lib"):
        for pattern in ("libLLVM*.so*", "libclang-cpp*.so*"):
            for lib in glob.glob(os.path.join(root_new, d, pattern)):
                real = os.path.realpath(lib)
                if os.path.isfile(real) and real.startswith(root_new + os.sep):
                    libs.add(real)
    for lib in sorted(libs):
        patch(lib, interp, rpath, False)
    with open(os.path.join(new, "PACKAGES"), "w", encoding="utf-8") as f:
        f.write("# packages unpacked into root/ by scripts/fetch-llvm.sh\n")
        for pkg in sorted(chosen):
            f.write(f"{pkg} {chosen[pkg]['Version']} {chosen[pkg]['Suite']}\n")
    shutil.rmtree(final, ignore_errors=True)
    os.replace(new, final)
    check(n, with_clang, prefix, interp, root)


def check(n, with_clang, prefix, interp, root):
    """The tools run, load only the private root's libraries, and clang's
    -fprofile-generate links and runs."""
    if not works(prefix, n, with_clang):
        die(f"LLVM {n}: the installed tools do not run (try {prefix}/{n}/bin/llvm-profdata-{n} --version)")
    for name, _ in tools(n, with_clang):
        exe = os.path.realpath(os.path.join(prefix, str(n), "bin", name))
        r = subprocess.run([interp, "--list", exe], capture_output=True, text=True)
        for line in r.stdout.splitlines():
            m = re.search(r"=>\s*(\S+)", line)
            if "not found" in line or (m and not m.group(1).startswith(root)):
                die(f"LLVM {n}: {name} loads a library from outside its root: {line.strip()}")
    if with_clang:
        clang = os.path.join(prefix, str(n), "bin", f"clang-{n}")
        with tempfile.TemporaryDirectory() as t:
            src = os.path.join(t, "t.c")
            with open(src, "w", encoding="utf-8") as f:
                f.write("int main(void) { return 0; }\n")
            r = subprocess.run([clang, "-fprofile-generate", src, "-o", os.path.join(t, "t")],
                               capture_output=True, text=True)
            if r.returncode != 0:
                die(f"LLVM {n}: clang-{n} -fprofile-generate does not link:\n{r.stderr}")
            r = subprocess.run([os.path.join(t, "t")], cwd=t, env={**os.environ, "LLVM_PROFILE_FILE": "t.profraw"})
            if r.returncode != 0 or not os.path.exists(os.path.join(t, "t.profraw")):
                die(f"LLVM {n}: a program compiled by clang-{n} -fprofile-generate does not write its profile")
    with open(os.path.join(prefix, str(n), "CHECKED"), "w", encoding="utf-8") as f:
        f.write("clang\n" if with_clang else "tools\n")


def link(prefix, n, with_clang):
    """/usr/local/bin/<tool>-N -> the installed tool, when root and no such
    tool exists there (a dangling link, e.g. into the old
    /opt/profbridge-llvm17, is replaced; a working one is left alone)."""
    if os.geteuid() != 0:
        return
    for name, _ in tools(n, with_clang):
        dest = os.path.join("/usr/local/bin", name)
        target = os.path.join(prefix, str(n), "bin", name)
        if os.path.islink(dest) and not os.path.exists(dest):
            os.unlink(dest)
        if not os.path.lexists(dest):
            os.symlink(target, dest)


def main(argv):
    with_clang = False
    prefix = "/opt/profbridge-llvm"
    releases = []
    it = iter(argv)
    for a in it:
        if a == "--clang":
            with_clang = True
        elif a == "--prefix":
            prefix = os.path.abspath(next(it, "") or die("--prefix needs a directory"))
        elif a.isdigit() and int(a) in SUITES:
            releases.append(int(a))
        else:
            die(f"usage: fetch-llvm.sh [--clang] [--prefix DIR] N... (N in {' '.join(map(str, SUITES))}); bad argument {a!r}")
    if not releases:
        die(f"usage: fetch-llvm.sh [--clang] [--prefix DIR] N... (N in {' '.join(map(str, SUITES))})")
    releases = sorted(set(releases))
    todo = [n for n in releases if not installed(prefix, n, with_clang)]
    for n in releases:
        if n not in todo:
            link(prefix, n, with_clang)
    if not todo:
        return 0
    for tool in ("gpgv", "dpkg-deb", "patchelf"):
        if shutil.which(tool) is None:
            die(f"{tool} is missing (scripts/install-deps.sh installs it)")
    if not os.path.exists(KEYRING):
        die(f"no Debian archive keyring at {KEYRING} (package debian-archive-keyring)")
    global MIRROR
    mirror = MIRROR = find_mirror()
    cache = os.environ.get("PB_LLVM_CACHE")
    if not cache:
        cache = "/var/cache/profbridge-llvm"
        try:
            os.makedirs(cache, exist_ok=True)
            if not os.access(cache, os.W_OK):
                raise OSError
        except OSError:
            cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                                 "profbridge-llvm")
    try:
        os.makedirs(prefix, exist_ok=True)
        lock = open(os.path.join(prefix, ".lock"), "w", encoding="utf-8")
    except OSError as e:
        die(f"cannot write {prefix} ({e.strerror}): run as root or pass --prefix DIR")
    # One installer at a time per prefix (two test runs may start together);
    # the one that waited finds the work done.
    fcntl.flock(lock, fcntl.LOCK_EX)
    todo = [n for n in todo if not installed(prefix, n, with_clang)]
    if not todo:
        for n in releases:
            link(prefix, n, with_clang)
        return 0
    suites = sorted({s for n in todo for s in SUITES[n]})
    say(f"LLVM {' '.join(map(str, todo))}: reading Debian {', '.join(suites)} from {mirror}")
    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(len(suites)) as ex:
            indexes = dict(zip(suites, ex.map(lambda s: fetch_index(mirror, s, tmp), suites)))
    plans = {n: resolve(n, with_clang, indexes) for n in todo}
    for n, chosen in plans.items():
        llvm = chosen[f"llvm-{n}"]["Version"]
        say(f"LLVM {n}: {llvm} from {chosen[f'llvm-{n}']['Suite']} ({len(chosen)} packages)")
        if n in PINNED and llvm != PINNED[n]:
            bar = "!" * 72
            say(f"{bar}\nWARNING: Debian's LLVM {n} snapshot has moved: installing {llvm},\n"
                f"not the pinned {PINNED[n]} that the project's facts were checked with.\n{bar}")
    # Every .deb once, cached by suite and file name, reused while its SHA256
    # still matches the index.
    wanted = {}
    for chosen in plans.values():
        for st in chosen.values():
            path = os.path.join(cache, st["Suite"], os.path.basename(st["Filename"]))
            wanted[path] = st

    def get(item):
        path, st = item
        if os.path.exists(path) and sha256(path) == st["SHA256"]:
            return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        download(f"{mirror}/{st['Filename']}", path)
        if sha256(path) != st["SHA256"]:
            os.unlink(path)
            die(f"{os.path.basename(path)} does not match {st['Suite']}'s index")

    with concurrent.futures.ThreadPoolExecutor(4) as ex:
        list(ex.map(get, wanted.items()))
    for n, chosen in plans.items():
        debs = {pkg: os.path.join(cache, st["Suite"], os.path.basename(st["Filename"]))
                for pkg, st in chosen.items()}
        install(n, with_clang, chosen, debs, prefix)
        link(prefix, n, with_clang)
        say(f"LLVM {n}: {prefix}/{n}/bin/ works")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
