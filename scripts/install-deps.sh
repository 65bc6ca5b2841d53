#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# install-deps.sh -- installs the Debian packages profbridge needs to build,
# test and benchmark, but only those that are missing. Idempotent; prints
# nothing when everything is present. Needs root (or sudo) only when
# something is missing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config gzip time
  # scripts/fetch-llvm.sh: LLVM 17/18/21-24 from Debian trixie/sid/experimental
  python3 gpgv debian-archive-keyring dpkg patchelf
  libjansson-dev zlib1g-dev libmd-dev libxxhash-dev libdeflate-dev libcunit1-dev python3-jsonschema
  python3-pytest python3-setuptools python3-pip   # python_api.sh: the Python package's pytest tests and its pip install
  python3-dask python3-distributed   # python_dask.sh: profbridge.dask on a LocalCluster and dask scheduler/worker
  libelf-dev libdw-dev   # merge --binary-file / --debug-info: ELF sections and DWARF (elfutils)
  chromium python3-pil   # flame_svg_chromium.sh: render the flame-graph SVG and measure it
  dpkg-dev               # cpack -G DEB: dpkg-shlibdeps finds the packages' Depends (deb_package.sh)
  # scripts/build-cov-corpus.sh (cov_llvm.sh): apt-get source zlib needs dpkg-source
  # (dpkg-dev) and bzip2/xz to unpack; Debian's rustc (1.63, LLVM 14) builds the Rust program
  bzip2 xz-utils rustc
  bash-completion zsh    # completion.sh: the bash and zsh completion (zsh's part is skipped without zsh)
  llvm-13 clang-13
  llvm-14 clang-14 libclang-rt-14-dev
  llvm-15 clang-15 libclang-common-15-dev   # 15's profile runtime is in libclang-common
  llvm-16 clang-16 libclang-rt-16-dev   # idx_llvm_interop.sh: --llvm-version 16 against llvm-profdata-16
  llvm-19 clang-19 libclang-rt-19-dev
)

missing=()
for p in "${packages[@]}"; do
  # dpkg -s also knows removed packages whose config files remain: read the status.
  if ! dpkg -s "$p" 2>/dev/null | grep -q '^Status: install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "install-deps: missing packages (${missing[*]}) and not root; run this script as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
