#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# fetch-llvm.sh -- provides the real LLVM tools of the releases Debian
# bookworm lacks, the oracles of `--llvm-version N`:
#   17, 18 from Debian trixie; 21, 22, 23 from Debian sid;
#   24 from Debian experimental (a snapshot: its version is pinned in
#   scripts/fetch_llvm.py and a different one is installed with a warning).
# (13, 14, 15, 16 and 19 come from bookworm's own apt: scripts/install-deps.sh.)
#
# Usage: scripts/fetch-llvm.sh [--clang] [--prefix DIR] N...
# Installs DIR/N/bin/llvm-profdata-N and llvm-cov-N, with --clang also
# clang-N and clang++-N (DIR defaults to /opt/profbridge-llvm). When run as
# root, links each from /usr/local/bin unless a working one is already
# there (a dangling link is replaced).
# Idempotent: prints nothing and exits 0 when the tools already work.
#
# The packages are downloaded from the Debian mirror of the machine's apt
# configuration (override: PB_DEBIAN_MIRROR), checked against the suite's
# signed index (gpgv + SHA256), cached in /var/cache/profbridge-llvm/<suite>/
# (or ~/.cache/profbridge-llvm when that is not writable; override:
# PB_LLVM_CACHE) and unpacked into DIR/N/root, about 400 MB per release with
# clang. How the binaries are made to run: scripts/fetch_llvm.py.
set -euo pipefail
command -v python3 >/dev/null || { echo "fetch-llvm: python3 is missing" >&2; exit 1; }
exec python3 "$(dirname "${BASH_SOURCE[0]}")/fetch_llvm.py" "$@"
