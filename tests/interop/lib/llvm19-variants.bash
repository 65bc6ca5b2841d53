# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# llvm19-variants.bash -- inputs made from llvm-profdata-19's own test files
# (../shared/testdata/llvm-real/llvm19) for the merge tests that need a
# warning of a known kind. Sourced, not a test.
#
#   counter_mismatch_text SRC OUT
#       OUT is the .proftext SRC with one counter more in its first
#       function: merged with SRC's program, a "counter mismatch" warning.
#   large_counter_raw SRC OUT
#       OUT is SRC (simple-ir.profraw) with "main" (data[2], its counters at
#       0x180) counting above 2^56: a reader warning "excessively large" by
#       LLVM 17's rule, an input that fails by 18's and later.

counter_mismatch_text() {
  awk 'BEGIN { s = 0 }
    s == 1 && /^[0-9]+$/ { print $0 + 1; s = 2; next }
    s == 3 && /^[0-9]+$/ { print; print; s = 4; next }
    /^# Num Counters:/ && s == 0 { s = 1 }
    /^# Counter Values:/ && s == 2 { s = 3 }
    { print }' "$1" > "$2"
}

large_counter_raw() {
  cp "$1" "$2"
  printf '\000\000\000\000\000\000\000\020' | dd of="$2" bs=1 seek=$((0x180)) conv=notrunc 2>/dev/null
}
