#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# merge_binary_ids_last.sh -- which binary ids a raw file of several profiles
# gives to `merge` (issue 10, item 6; target.h BINARY_IDS_LAST_ONLY):
# llvm-profdata 13-17 keep only the LAST profile's ids (their raw reader takes
# them from the last header it read), 18+ keep all.
# Input we make: a shared library and a program, both built with the
# release's clang -fprofile-generate -Wl,--build-id, writing one raw file
# (two profiles, two build ids). Oracle: llvm-profdata-N merge -- the bytes
# of its indexed output, and the ids `llvm-profdata-N show --binary-ids`
# lists for ours -- for every installed N whose clang writes a raw file it
# reads and that `profbridge merge --llvm-version N` can act as. Also with
# two such inputs and with --num-threads 2 (the prepared raw read).
set -uo pipefail
: "${PB:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/common.bash"  # T, fail, ok, finish, same_as_llvm
checks=0; failures=0; releases=()
cat >"$T/lib.c" <<'EOF'
int lib_fn(int x) { return x * 3 + 1; }
EOF
cat >"$T/main.c" <<'EOF'
int lib_fn(int x);
int main(int argc, char **argv) {
  int s = 0;
  (void)argv;
  for (int i = 0; i < argc + 4; i++) s += lib_fn(i);
  return s == 0;
}
EOF
ids() { "llvm-profdata-$1" show --binary-ids "$2" 2>/dev/null | sed -n '/^Binary IDs:/,$p' | tail -n +2 | sort; }

for v in 13 14 15 16 17 18 19 21 22 23 24; do
  command -v "llvm-profdata-$v" >/dev/null && command -v "clang-$v" >/dev/null || continue
  "$PB" merge --llvm-version "$v" "$T/none" -o "$T/x" >"$T/v.err" 2>&1
  if grep -q "wants" "$T/v.err"; then echo "note: profbridge merge cannot act as LLVM $v yet: skipped"; continue; fi
  d="$T/$v"; mkdir -p "$d"
  for run in a b; do
    (cd "$d" && "clang-$v" -O0 -fprofile-generate -fPIC -shared -Wl,--build-id "$T/lib.c" -o libq.so 2>/dev/null &&
       "clang-$v" -O0 -fprofile-generate -Wl,--build-id "$T/main.c" -L. -lq -Wl,-rpath,"$d" -o prog 2>/dev/null &&
       LLVM_PROFILE_FILE="$d/$run.profraw" ./prog $run) ||
      { echo "note: clang-$v could not build the program: release $v skipped"; continue 2; }
  done
  n=$(ids "$v" "$d/a.profraw" | wc -l)
  # clang-13 writes its ids unpadded (BinaryIdsSize 28): once refused, now
  # read as LLVM 13 reads it, so no release may be skipped here
  "$PB" show "$d/a.profraw" >/dev/null 2>"$T/err" ||
    { fail "$v: profbridge cannot read clang-$v's raw file: $(head -c 200 "$T/err")"; continue; }
  releases+=("$v")
  for args in "a.profraw" "a.profraw b.profraw" "--num-threads 2 a.profraw b.profraw a.profraw"; do
    set -- $args; fs=(); opts=()
    for x in "$@"; do case "$x" in *.profraw) fs+=("$d/$x") ;; *) opts+=("$x") ;; esac; done
    "llvm-profdata-$v" merge "${opts[@]}" "${fs[@]}" -o "$d/llvm.profdata" 2>/dev/null ||
      { fail "$v: llvm-profdata-$v refused $args"; continue; }
    "$PB" merge --llvm-version "$v" "${opts[@]}" "${fs[@]}" -o "$d/pb.profdata" 2>"$T/err" ||
      { fail "$v $args: $(head -c 300 "$T/err")"; continue; }
    checks=$((checks + 3))
    "llvm-profdata-$v" merge --text "${opts[@]}" "${fs[@]}" -o "$d/llvm.proftext" 2>/dev/null &&
      "$PB" merge --llvm-version "$v" --text "${opts[@]}" "${fs[@]}" -o "$d/pb.proftext" 2>/dev/null &&
      cmp -s "$d/llvm.proftext" "$d/pb.proftext" || fail "$v $args: merge --text differs from llvm-profdata-$v's"
    cmp -s "$d/llvm.profdata" "$d/pb.profdata" ||
      fail "$v $args: indexed bytes differ ($(stat -c %s "$d/pb.profdata") vs llvm's $(stat -c %s "$d/llvm.profdata"))"
    [ "$(ids "$v" "$d/llvm.profdata")" = "$(ids "$v" "$d/pb.profdata")" ] ||
      fail "$v $args: binary ids differ: llvm [$(ids "$v" "$d/llvm.profdata" | tr '\n' ' ')] ours [$(ids "$v" "$d/pb.profdata" | tr '\n' ' ')]"
  done
  echo "release $v: show --binary-ids of the raw file lists $n id(s)"
done
[ "${#releases[@]}" -gt 0 ] || { echo "SKIP: no llvm-profdata-N with its clang-N that profbridge can act as"; exit 77; }
echo "merge_binary_ids_last.sh: $checks checks against llvm-profdata ${releases[*]}, $failures failed"
[ "$failures" -eq 0 ]
