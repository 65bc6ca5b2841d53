#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cov-real-standin.sh -- the real llvm-cov-N dressed as `profbridge cov`, for
# checking tests/interop/cov_llvm.sh itself (not a test): it accepts
#   cov-real-standin.sh --llvm-version N cov CMD ARGS...   (profbridge's form)
#   llvm-cov-N CMD ARGS...   (a link named llvm-cov-N to this script)
# and, like profbridge, a .profraw as -instr-profile (merged first with
# llvm-profdata-N into a temporary file). Everything else is llvm-cov-N's.
# Use: PB_COV_OURS="$PWD/tests/interop/lib/cov-real-standin.sh --llvm-version {N} cov" \
#      PB_COV_LINK="$PWD/tests/interop/lib/cov-real-standin.sh" PB_COV_CRASH_OK=1 \
#      bash tests/interop/cov_llvm.sh
set -euo pipefail
name="$(basename "$0")"
if [[ "$name" =~ ^llvm-cov-([0-9]+)$ ]]; then
  n="${BASH_REMATCH[1]}"
elif [ "${1:-}" = --llvm-version ] && [ "${3:-}" = cov ]; then
  n="$2"; shift 3
else
  echo "usage: $0 --llvm-version N cov CMD ARGS..., or through a link named llvm-cov-N" >&2
  exit 2
fi
tmp="$(mktemp)"   # here, not in raw_to_indexed's subshell, so the trap sees it
trap 'rm -f "$tmp"' EXIT
args=()
raw_to_indexed() {
  "llvm-profdata-$n" merge -o "$tmp" "$1" || exit 1
  echo "$tmp"
}
while [ $# -gt 0 ]; do
  case "$1" in
    -instr-profile=*.profraw|--instr-profile=*.profraw) args+=("${1%%=*}=$(raw_to_indexed "${1#*=}")") ;;
    -instr-profile|--instr-profile)
      if [[ "${2:-}" == *.profraw ]]; then args+=("$1" "$(raw_to_indexed "$2")"); else args+=("$1" "${2:-}"); fi
      shift ;;
    *) args+=("$1") ;;
  esac
  shift
done
set +e
"llvm-cov-$n" "${args[@]}"
rc=$?
exit $rc
