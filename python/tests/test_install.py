# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Both ways of installing the package give an importable profbridge that
finds the library: `pip install --no-build-isolation ./python` (offline,
Debian's setuptools; the library named by PROFBRIDGE_LIB) and `cmake
--install` (the package finds the library installed next to it)."""
import os
import shutil
import subprocess
import sys

import pytest

from conftest import SOURCE_DIR, real

# pip and venv do not load the library: no sanitizer runtime for them (much faster)
PLAIN = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS")}

PROBE = ("import profbridge, sys; p = profbridge.read(sys.argv[1]); "
         "print(profbridge.__file__); print(profbridge._lib.lib._name); print(len(p))")


def probe(env, cwd):
    p = subprocess.run([sys.executable, "-c", PROBE, real("basic-ir.profraw")], env=env, cwd=cwd,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout.splitlines()


def test_pip_install(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(os.path.join(SOURCE_DIR, "python"), src, ignore=shutil.ignore_patterns("__pycache__", "tests"))
    target = tmp_path / "site"
    p = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index",
                        "--no-deps", "--target", str(target), str(src)], capture_output=True, text=True,
                       env=PLAIN)
    assert p.returncode == 0, p.stdout + p.stderr
    env = dict(os.environ, PYTHONPATH=str(target))
    mod, lib, n = probe(env, tmp_path)
    assert mod.startswith(str(target))
    assert n == "5"


def test_pip_install_in_a_venv(tmp_path):
    # Debian's python3 is externally managed (PEP 668): pip installs into a
    # virtual environment, which sees Debian's setuptools through
    # --system-site-packages, so no network is needed
    src = tmp_path / "src"
    shutil.copytree(os.path.join(SOURCE_DIR, "python"), src, ignore=shutil.ignore_patterns("__pycache__", "tests"))
    venv = tmp_path / "venv"
    p = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], capture_output=True,
                       text=True, env=PLAIN)
    if p.returncode != 0:
        pytest.skip(f"python3 -m venv does not work here (python3-venv): {p.stderr.strip()[-200:]}")
    py = str(venv / "bin" / "python")
    p = subprocess.run([py, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index", str(src)],
                       capture_output=True, text=True, env=PLAIN)
    assert p.returncode == 0, p.stdout + p.stderr
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([py, "-c", PROBE, real("basic-ir.profraw")], env=env, cwd=tmp_path, capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    mod, _, n = p.stdout.splitlines()
    assert mod.startswith(str(venv)) and n == "5"


def test_cmake_install(tmp_path):
    build = os.environ.get("PB_BINARY_DIR")
    if not build:
        pytest.skip("PB_BINARY_DIR (the build to install) is not set")
    prefix = tmp_path / "prefix"
    p = subprocess.run(["cmake", "--install", build, "--prefix", str(prefix)], capture_output=True, text=True,
                       env=PLAIN)
    assert p.returncode == 0, p.stdout + p.stderr
    sites = [d for d, _, files in os.walk(prefix)
             if "__init__.py" in files and d.endswith("profbridge")]
    assert len(sites) == 1, sites
    site = os.path.dirname(sites[0])
    assert site.endswith(f"lib/python{sys.version_info.major}.{sys.version_info.minor}/dist-packages")
    env = {k: v for k, v in os.environ.items() if k != "PROFBRIDGE_LIB"}
    env["PYTHONPATH"] = site
    mod, lib, n = probe(env, tmp_path)
    assert mod.startswith(site)
    assert os.path.realpath(lib).startswith(str(prefix))  # the installed library, not the build's
    assert n == "5"
