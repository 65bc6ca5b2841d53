#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# python_dask.sh -- profbridge.dask on real clusters (python/tests/fleet):
# a LocalCluster of two worker processes, `dask scheduler` + two `dask
# worker` processes on 127.0.0.1, a worker killed holding partials (five
# times), failed inputs, iprof; each result compared byte for byte with one
# flat `profbridge merge`. 2,000 clang-19 raw profiles are made once and
# kept in the build dir (fleet-corpus). Debian's /usr/bin/python3 with
# python3-dask and python3-distributed (scripts/install-deps.sh).
set -euo pipefail
: "${PB_SOURCE_DIR:?} ${PB_BINARY_DIR:?}"
py=/usr/bin/python3
"$py" -c 'import dask.bag, distributed' 2>/dev/null \
  || { echo "SKIP: python3-dask / python3-distributed are not installed for $py (scripts/install-deps.sh)"; exit 77; }
export PB_FLEET_CORPUS="$PB_BINARY_DIR/fleet-corpus"
exec bash "$(dirname "$0")/python_api.sh" tests/fleet
