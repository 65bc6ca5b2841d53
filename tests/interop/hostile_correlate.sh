#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# hostile_correlate.sh -- issue 23, amplification through --binary-file and
# --debug-info, on hand-made ELF files (lib/elf_gen.py) so the sizes are the
# test's:
#  - a SHF_COMPRESSED __llvm_covnames counts against --max-inflation and
#    --max-input-size (before: inflated whatever its header claimed, 300 MB
#    here, exit 0); a ch_size deflate cannot reach is refused before any
#    allocation; a compressed section within the limits still correlates, to
#    what llvm-profdata-19 makes of the same names uncompressed;
#  - --debug-info on 20k `__profc_` variables of one function takes well under
#    a second (before: quadratic, 40 s), and says what llvm-profdata-19 says;
#  - a lightweight profile of many concatenated profiles is merged without a
#    copy of the binary's records and names per profile (before: 3 GB for
#    1.8 MB of inputs): the same profdata as llvm-profdata-19 within a memory
#    bound.
# Takes about 15 s (ASan build).
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
. "$(dirname "$0")/lib/llvm-tools.bash"
pb_need_llvm 19
GEN="/usr/bin/python3 $PB_SOURCE_DIR/tests/interop/lib/elf_gen.py"
cd "$T"

# --- compressed sections ----------------------------------------------------
$GEN light l3.raw 3
$GEN binary plain.elf 3
$GEN binary bomb.elf 3 --compress-names 300000000     # 300 MB in ~290 KB, about 1000:1
$GEN binary liar.elf 3 --compress-names 1000 --lie 3000000000
$GEN binary fine.elf 3 --compress-names 4096
llvm-profdata-19 merge --binary-file plain.elf l3.raw -o want.profdata

run timeout 20 "$PB" merge --binary-file bomb.elf l3.raw -o got.profdata
expect_rc 2 "merge --binary-file <1000:1 compressed names>"
expect_grep "$T/err" "bomb.elf: byte 0x[0-9a-f]+ \(__llvm_covnames\): the compressed section inflates more than 250:1 .*--max-inflation" \
  "the inflation bound names the file, section and option"
run timeout 20 "$PB" merge --binary-file bomb.elf l3.raw -o got.profdata --max-inflation 0 --max-input-size 64M
expect_rc 2 "merge --binary-file <300 MB inflated> --max-input-size 64M"
expect_grep "$T/err" "bomb.elf: .*more than the size limit of 67108864 bytes.*--max-input-size" "the size bound"
run timeout 20 "$PB" merge --binary-file liar.elf l3.raw -o got.profdata
expect_rc 1 "merge --binary-file <ch_size 3 GB from 50 bytes>"
expect_grep "$T/err" "liar.elf: .*ch_size of 3000000000 bytes cannot come from its [0-9]+ stored bytes" "a lying ch_size"
run timeout 20 "$PB" show --debug-info bomb.elf
expect_rc 2 "show --debug-info <1000:1 compressed section>"
[ ! -e got.profdata ] && ok || fail "a refused merge left an output"
run timeout 20 "$PB" merge --binary-file fine.elf l3.raw -o got.profdata
expect_rc 0 "merge --binary-file <compressed names within the limits>"
cmp -s want.profdata got.profdata && ok || fail "compressed names: not llvm-profdata-19's merge of the same names stored plain"
run timeout 20 "$PB" merge --binary-file plain.elf l3.raw -o got.profdata --max-input-size 100
expect_rc 2 "--max-input-size below the ELF file's size"

# --- debug info: n log n in the __profc_ variables of one function -----------
$GEN dwarf many.elf 20000
start=$(date +%s%N)
run timeout 60 "$PB" show --debug-info many.elf
ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_rc 0 "show --debug-info <20k probes in one function>"
[ "$ms" -lt 3000 ] && ok || fail "show --debug-info of 20k probes in one function took $ms ms (LLVM: 0.02 s)"
llvm-profdata-19 show --debug-info many.elf >want.txt 2>&1
cmp -s want.txt "$T/out" && ok || fail "show --debug-info: $(diff want.txt "$T/out" | head -4)"
$GEN light l20k.raw 20000
llvm-profdata-19 merge --debug-info many.elf l20k.raw -o want20k.profdata
run timeout 60 "$PB" merge --debug-info many.elf l20k.raw -o got20k.profdata
expect_rc 0 "merge --debug-info <20k probes in one function>"
cmp -s want20k.profdata got20k.profdata && ok || fail "merge --debug-info: not llvm-profdata-19's profdata"

# --- concatenated lightweight profiles: one copy of the binary's records and names
# 200 profiles of 1000 counters (1.6 MB) against a binary of 1000 names of 1000
# bytes: a copy per profile held at once peaked at 300 MB (llvm-profdata-19: 58 MB).
$GEN binary long.elf 1000 --name-len 1000
$GEN light many.raw 1000 --copies 200
llvm-profdata-19 merge --binary-file long.elf many.raw -o want-many.profdata
# ASan keeps freed memory in quarantine: off, so the peak is what the code holds
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
run timeout 60 /usr/bin/python3 "$PB_SOURCE_DIR/tests/interop/lib/peak_rss.py" "$PB" merge --binary-file long.elf many.raw \
  -o got-many.profdata
expect_rc 0 "merge --binary-file <200 concatenated lightweight profiles>"
kib=$(sed -n 's/^peak_rss_kib //p' "$T/err")
[ -n "$kib" ] && [ "$kib" -lt 150000 ] && ok ||
  fail "200 concatenated lightweight profiles: peak ${kib:-?} KiB (llvm-profdata-19: ~58 MB; a copy per profile: ~300 MB)"
cmp -s want-many.profdata got-many.profdata && ok || fail "concatenated lightweight profiles: not llvm-profdata-19's profdata"
$GEN light four.raw 20000 --copies 4
llvm-profdata-19 merge --debug-info many.elf four.raw -o want4.profdata
run timeout 60 "$PB" merge --debug-info many.elf four.raw -o got4.profdata
expect_rc 0 "merge --debug-info <4 concatenated profiles>"
cmp -s want4.profdata got4.profdata && ok || fail "--debug-info, 4 concatenated profiles: not llvm-profdata-19's profdata"
$GEN light l3x4.raw 3 --copies 4
run "$PB" convert --binary-file plain.elf --raw-profile 3 l3x4.raw -o one.proftext
expect_rc 0 "convert --raw-profile 3 of 4 lightweight profiles"
run "$PB" convert --binary-file plain.elf --raw-profile 4 l3x4.raw -o one.proftext
expect_rc 2 "convert --raw-profile 4 of 4 lightweight profiles"
expect_grep "$T/err" "there is no profile 4: the file holds 4" "--raw-profile past the end"

finish
