#!/bin/bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cov_elf_header.sh -- objects whose ELF section header table llvm-cov
# refuses (truncated binaries, a wrong e_shentsize, an e_shoff past the end
# or wrapping, a NULL section's sh_size count too big): `profbridge cov
# export --llvm-version N` must print llvm-cov-N's error line, exit status
# and stdout, for every llvm-cov-N on PATH. One program built by clang-13
# (coverage mapping v6, which every release reads; its llvm-profdata-13
# profile too), ten patched copies (lib/elf_header_cases.py). ~5 s.
set -u
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?PB_SOURCE_DIR must name the source tree (set by ctest)}"
# shellcheck source=lib/cli-common.bash
. "$PB_SOURCE_DIR/tests/interop/lib/cli-common.bash"
# shellcheck source=lib/llvm-tools.bash
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"
py=/usr/bin/python3
[ -x "$py" ] || { echo "SKIP: $py not found"; exit 77; }
builder=13
pb_need_llvm "$builder" clang
releases=()
for n in $(pb_llvm_releases); do command -v "llvm-cov-$n" >/dev/null && releases+=("$n"); done

cd "$T" || exit 1
printf 'static int f(int x) { return x > 1 ? x : 0; }\nint main(int c, char **v) { (void)v; return f(c) - c; }\n' > p.c
"clang-$builder" -fprofile-instr-generate -fcoverage-mapping p.c -o prog || { fail "clang-$builder p.c"; finish; exit; }
LLVM_PROFILE_FILE=p.profraw ./prog || true
"llvm-profdata-$builder" merge p.profraw -o p.profdata || { fail "llvm-profdata-$builder merge"; finish; exit; }
mkdir cases
mapfile -t names < <("$py" "$PB_SOURCE_DIR/tests/interop/lib/elf_header_cases.py" prog cases)
[ ${#names[@]} -eq 10 ] || fail "elf_header_cases.py wrote ${#names[@]} cases, not 10"
touch -r p.profdata cases/* # not newer than the profile: no out-of-date warning

for n in "${releases[@]}"; do
  for c in "${names[@]}"; do
    llvm-cov-"$n" export -instr-profile=p.profdata "cases/$c" > real.out 2> real.err
    real_rc=$?
    "$PB" cov export --llvm-version "$n" -instr-profile=p.profdata "cases/$c" > ours.out 2> ours.err
    ours_rc=$?
    # profbridge's own notes (under its name) are not llvm-cov's lines
    grep -v '^profbridge: note: ' ours.err > ours.err.llvm
    if [ "$real_rc" != "$ours_rc" ]; then
      fail "$c, llvm-cov-$n: exit status $ours_rc, llvm-cov-$n $real_rc"
    elif ! cmp -s real.out ours.out; then
      fail "$c, llvm-cov-$n: stdout differs"
    elif ! cmp -s real.err ours.err.llvm; then
      fail "$c, llvm-cov-$n: stderr differs: $(diff real.err ours.err.llvm | head -4 | tr '\n' ' ')"
    else
      ok
    fi
  done
done
finish
