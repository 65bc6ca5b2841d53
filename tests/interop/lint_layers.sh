#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# The library's rooms stay layered (docs/architecture.md "Rooms and layers"):
# no circle between modules of src/, formats/, include/ and tests/fuzz/ (public
# headers and fuzz harnesses are modules too), through quoted #includes or
# through calls of pb_/pbi_ functions defined in another module, and no
# module uses a room above its own (util < model < llvm < stream < merge <
# bridge < formats < registry < merger < coverage < analysis < access < cli
# < harness), no fuzz harness outside tests/fuzz/, model/profile_internal.h
# only in src/model/, and the CLI into library rooms (but util) only by the
# edges CLI_DEBT lists, a list that may only shrink. tests/tools/layers.py prints
# each circle and each upward edge with the line that makes it.
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
command -v python3 >/dev/null || { echo "SKIP: python3 not found"; exit 77; }
python3 "$PB_SOURCE_DIR/tests/tools/layers.py" "$PB_SOURCE_DIR"
