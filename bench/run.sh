#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# bench/run.sh -- the performance table of every figure (issue 25 item 5).
# Today it runs the iprof comparison with the jansson floor (bench/iprof.sh);
# the other benches (shapes.sh, cov.sh, raw_show.sh, fleet.sh) run alone.
exec bash "$(dirname "${BASH_SOURCE[0]}")/iprof.sh" "$@"
