# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# llvm-tools.bash -- which real LLVM releases a test script can use (sourced,
# not a test). The tools are named <tool>-N on PATH: bookworm's apt provides
# 13, 14, 15, 16 and 19 (scripts/install-deps.sh), scripts/fetch-llvm.sh
# provides 17, 18, 21, 22, 23 and 24 (into /opt/profbridge-llvm/N/bin, linked
# from /usr/local/bin, or put on PATH by scripts/run-tests.sh).
#
#   pb_llvm_releases [clang]   the releases N (13..24, ascending, one line)
#                              whose llvm-profdata-N is on PATH; with
#                              `clang`, only those whose clang-N is too
#   pb_need_llvm N [clang]     exits 77 (skip) with a message saying how to
#                              install them unless llvm-profdata-N (and with
#                              `clang` also clang-N) is on PATH
#   pb_cell K I...             true for one cell in K of a release matrix:
#                              when the sum of the integers I is a multiple
#                              of K, or always with PB_TEST_FULL=1
#   pb_rel N                   prints release N's place among the releases
#                              Debian ships (13-19 and 21-24: 0 to 10), the
#                              index to give pb_cell for the release
#
# Why cells are sampled: the release matrices (llvm_releases_show.sh,
# _overlap.sh, _merge.sh) start the real tool and ours once per cell, and a
# start costs 50-120 ms of page faults on the CI's virtual machines, where
# the whole matrix no longer fit the 90 minutes. Each sampled axis is summed
# with the release, so every cell left out on one release is run on its
# neighbours; every release still runs every flag set, option and file on
# some input. PB_TEST_FULL=1 runs every cell (by hand, before a release).
# With pb_rel's index K may be up to 11: the 11 releases then hold every
# remainder of K, so each cell runs on some release (on one exactly when K
# is 11). With N itself K must be at most 7: by 8, 20's remainder 4 is no
# other release's, and Debian does not ship 20.

PB_LLVM_ALL_RELEASES=(13 14 15 16 17 18 19 20 21 22 23 24)

# pb_llvm_how N: how to install release N's tools.
pb_llvm_how() {
  case "$1" in
    13|14|15|16|19) echo "apt-get install llvm-$1 clang-$1 (scripts/install-deps.sh)" ;;
    17|18|21|22|23|24) echo "scripts/fetch-llvm.sh --clang $1" ;;
    *) echo "none of Debian bookworm, trixie, sid or experimental ships LLVM $1" ;;
  esac
}

pb_llvm_releases() {
  local n out=()
  for n in "${PB_LLVM_ALL_RELEASES[@]}"; do
    command -v "llvm-profdata-$n" >/dev/null 2>&1 || continue
    if [ "${1:-}" = clang ]; then command -v "clang-$n" >/dev/null 2>&1 || continue; fi
    out+=("$n")
  done
  echo "${out[*]}"
}

pb_need_llvm() {
  local n="$1" tool
  local tools=("llvm-profdata-$n")
  if [ "${2:-}" = clang ]; then tools+=("clang-$n"); fi
  for tool in "${tools[@]}"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "SKIP: $tool not on PATH ($(pb_llvm_how "$n"))"
      exit 77
    fi
  done
}

pb_rel() {
  if [ "$1" -lt 20 ]; then echo $(($1 - 13)); else echo $(($1 - 14)); fi
}

pb_cell() {
  [ "${PB_TEST_FULL:-0}" = 1 ] && return 0
  local k="$1" sum=0 i
  shift
  for i in "$@"; do sum=$((sum + i)); done
  [ $((sum % k)) -eq 0 ]
}
