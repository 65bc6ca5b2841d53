#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# raw_clang.sh -- compiles small C/C++ programs with clang-19, -14 and -13 now
# (IR -fprofile-generate and front-end -fprofile-instr-generate; indirect calls,
# memcpy of variable size, a static function, --build-id; C++ virtual calls with
# vtable value profiling for 19), runs them, and compares `profbridge show`
# with llvm-profdata-NN show of the same version:
#   19 (raw v10): byte for byte, 9 flag sets, also on two profiles concatenated;
#   14 (raw v8) and 13 (raw v7): --all-functions --counts [--ic-targets
#      --memop-sizes] [--text] and the default summary. LLVM 13/14 print these
#      exactly as LLVM 19 does (checked on the real files), so our LLVM 19
#      printer must match them; other flags (--detailed-summary uses 7 cutoffs
#      in 14, --binary-ids and --profile-version do not exist there) are not
#      compared.
set -u
"$PB" show --help 2>&1 | grep -q -- '--all-functions' || { echo "SKIP: this CLI has no 'show' command yet"; exit 77; }
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
P="${PB_SOURCE_DIR:?}/tests/interop/data/programs"
cp "$P/ic.c" "$P/vt.cpp" "$W/"
n=0; fail=0; tested=""
compare() { # tool flags file
  local tool=$1 fl=$2 f=$3 exp got
  # shellcheck disable=SC2086
  exp=$($tool show $fl "$f" 2>&1) || { echo "note: $tool refused: show $fl $f"; return; }
  # shellcheck disable=SC2086
  got=$("$PB" show $fl "$f" 2>&1)
  n=$((n + 1))
  if [ "$exp" != "$got" ]; then
    fail=$((fail + 1)); echo "DIFF ($tool): show $fl $(basename "$f")"
    diff <(echo "$exp") <(echo "$got") | head -10
  fi
}
FLAGS19=("" "--all-functions --counts --ic-targets --memop-sizes --show-vtables" "--all-functions --text"
         "--all-functions --counts --ic-targets --memop-sizes --text" "--detailed-summary" "--binary-ids"
         "--profile-version" "--topn=2" "--covered")
FLAGSOLD=("" "--all-functions --counts" "--all-functions --counts --ic-targets --memop-sizes"
          "--all-functions --counts --text" "--all-functions --counts --ic-targets --memop-sizes --text")
for v in 19 14 13; do
  command -v clang-$v >/dev/null && command -v llvm-profdata-$v >/dev/null || { echo "note: clang-$v or llvm-profdata-$v missing"; continue; }
  for mode in -fprofile-generate -fprofile-instr-generate; do
    exe="$W/ic$v$mode"
    clang-$v -O0 $mode -Wl,--build-id "$W/ic.c" -o "$exe" 2>"$W/cc.log" || { echo "note: clang-$v $mode failed: $(head -1 "$W/cc.log")"; continue; }
    LLVM_PROFILE_FILE="$exe.profraw" "$exe" >/dev/null || { echo "note: $exe did not run"; continue; }
    tested="$tested $v$mode"
    if [ $v = 19 ]; then
      for fl in "${FLAGS19[@]}"; do compare llvm-profdata-19 "$fl" "$exe.profraw"; done
    else
      for fl in "${FLAGSOLD[@]}"; do compare llvm-profdata-$v "$fl" "$exe.profraw"; done
    fi
  done
done
if command -v clang++-19 >/dev/null && command -v llvm-profdata-19 >/dev/null; then
  # two raw profiles back to back (spec §2.14), IC/memop values included:
  # show lists both, as llvm-profdata-19 show does (raw_clang_more.sh has more)
  if [ -f "$W/ic19-fprofile-generate.profraw" ]; then
    LLVM_PROFILE_FILE="$W/second.profraw" "$W/ic19-fprofile-generate" 1 2 >/dev/null
    cat "$W/ic19-fprofile-generate.profraw" "$W/second.profraw" > "$W/twice.profraw"
    tested="$tested concatenated19"
    for fl in "${FLAGS19[@]}"; do compare llvm-profdata-19 "$fl" "$W/twice.profraw"; done
  fi
  if clang++-19 -O1 -fprofile-generate -mllvm -enable-vtable-value-profiling "$W/vt.cpp" -o "$W/vt" 2>/dev/null &&
     LLVM_PROFILE_FILE="$W/vt.profraw" "$W/vt"; [ -f "$W/vt.profraw" ]; then
    tested="$tested vtable19"
    for fl in "--all-functions --ic-targets --show-vtables" "--all-functions --text --show-vtables"; do
      compare llvm-profdata-19 "$fl" "$W/vt.profraw"
    done
  fi
fi
[ -n "$tested" ] || { echo "SKIP: no clang/llvm-profdata pair could build and run a program"; exit 77; }
echo "raw_clang:$tested: $((n - fail)) of $n outputs identical"
[ "$fail" -eq 0 ]
