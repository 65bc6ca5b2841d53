#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# idx_show_llvm19.sh -- `profbridge show` on indexed profiles (.profdata)
# prints exactly what llvm-profdata-19 show prints (the oracle, run now), for
# every flag combination: the flags that stream records straight from the
# file (show_indexed.c) and the ones that read a model (--ic-targets,
# --show-vtables, --text, --temporal-profile-traces). Inputs: every real
# .profdata of the shared test data that llvm-profdata-19 reads as an
# instrumentation profile, and a generated one with 3000 functions (merged
# by llvm-profdata-19 from a generated .proftext), read as a file, from stdin
# and gzip-compressed. Then damaged files: the streamed show fails like the
# model read (same message), prints nothing and creates no OUT; a file
# damaged inside its records prints, as llvm-profdata-19 does, the listing
# before the damage (ours in 64 KiB blocks: a prefix of LLVM's) and the error.
# Skips when llvm-profdata-19 or the shared test data is absent.
set -euo pipefail
. "$(dirname "$0")/lib/cli-common.bash"
command -v llvm-profdata-19 >/dev/null || { echo "SKIP: llvm-profdata-19 is not installed"; exit 77; }
: "${PB_SHARED_DIR:=$PB_SOURCE_DIR/../shared}"
D="$PB_SHARED_DIR/testdata"
[ -d "$D/llvm-real/llvm19" ] || { echo "SKIP: no $D/llvm-real (shared test data)"; exit 77; }

flag_sets=(
  ""
  "--all-functions --counts"
  "--topn=3"
  "--topn=1 --all-functions"
  "--all-functions --counts --memop-sizes"
  "--detailed-summary"
  "--detailed-summary --detailed-summary-cutoffs=800000,990000,0,1000000"
  "--value-cutoff=10 --list-below-cutoff"
  "--value-cutoff=10 --all-functions --counts"
  "--function=main --counts"
  "--profile-version"
  "--binary-ids"
  "--covered"
  "--showcs --all-functions --counts --detailed-summary"
  # read through the model: they name value targets or trace entries
  "--all-functions --counts --ic-targets --memop-sizes"
  "--all-functions --show-vtables --ic-targets"
  "--all-functions --text"
  "--temporal-profile-traces"
)

# The older versions of llvm-profparser's files: fewer flag sets (time).
quick_sets=(
  "--all-functions --counts"
  "--topn=3 --detailed-summary"
  "--value-cutoff=10 --list-below-cutoff"
  "--binary-ids --profile-version"
  "--all-functions --counts --ic-targets --memop-sizes"
)

# show_same FILE [quick]: each flag set, ours against llvm-profdata-19's stdout.
show_same() {
  local f="$1" flags
  local -a sets=("${flag_sets[@]}")
  [ "${2:-}" = quick ] && sets=("${quick_sets[@]}")
  for flags in "${sets[@]}"; do
    # shellcheck disable=SC2086
    if ! llvm-profdata-19 show $flags "$f" >"$T/l.txt" 2>/dev/null; then continue; fi
    # shellcheck disable=SC2086
    run "$PB" show $flags "$f"
    if [ "$rc" -ne 0 ]; then
      fail "show $flags $(basename "$f"): exit $rc: $(head -c 300 "$T/err")"
    elif cmp -s "$T/l.txt" "$T/out"; then ok; else
      fail "show $flags $(basename "$f") differs from llvm-profdata-19: $(diff "$T/l.txt" "$T/out" | head -5)"
    fi
  done
}

. "$PB_SOURCE_DIR/tests/interop/lib/distinct.bash"
n=0
while IFS= read -r f; do
  # indexed instrumentation profiles only (magic ff 6c 70 72 6f 66 69 81)
  [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = "ff6c70726f666981" ] || continue
  llvm-profdata-19 show "$f" >/dev/null 2>&1 || continue
  case "$f" in */llvm-real/* | */llvm-19/* | */misc/*) show_same "$f" ;; *) show_same "$f" quick ;; esac
  n=$((n + 1))
done < <({ find "$D/llvm-real" -name '*.profdata' | sort
          # llvm-profparser's 47 hold 14 contents: each once, its llvm-19 and
          # misc copy first (those get every flag set)
          find "$D/llvm-profparser" -name '*.profdata' | sort | grep -E '/(llvm-19|misc)/'
          find "$D/llvm-profparser" -name '*.profdata' | sort | grep -vE '/(llvm-19|misc)/'
        } 2>/dev/null | pb_distinct)

# Two keys of one name (LLVM's writer never writes that; here "sub" renamed
# "add", same function hash): llvm-profdata-19 lists both records, and so
# does the streamed show (the model read merges them).
python3 - "$D/llvm-real/llvm19/basic-ir.profdata" "$T/dup.profdata" <<'EOF'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
i = d.find(b"sub")
assert i > 0 and d.count(b"sub") == 1
d[i:i + 3] = b"add"
open(sys.argv[2], "wb").write(d)
EOF
llvm-profdata-19 show --all-functions --counts "$T/dup.profdata" >"$T/l.txt"
[ "$(grep -c '^  add:' "$T/l.txt")" -eq 2 ] || fail "llvm-profdata-19 no longer lists both 'add' keys"
run "$PB" show --all-functions --counts "$T/dup.profdata"
cmp -s "$T/l.txt" "$T/out" && ok || fail "two keys of one name: $(diff "$T/l.txt" "$T/out" | head -5)"
[ "$n" -ge 15 ] || fail "only $n real .profdata files found"

# A generated profile: 3000 IR functions, counts with ties and zeros, pseudo
# counts, memop and indirect-call values, several records per name.
python3 - "$T/gen.proftext" <<'EOF'
import random, sys
random.seed(7)
out = [":ir"]
for i in range(3000):
    name = "fn_%d_%s" % (i, "a" * (i % 17))
    for rep in range(1 + (i % 97 == 0)):
        n = 1 + (i * 7 + rep) % 9
        if i % 501 == 3:
            counts = [2**64 - 1 - (i % 2)] + [0] * (n - 1)
        else:
            counts = [random.choice([0, 1, 5, 100, random.randrange(1 << 40)]) for _ in range(n)]
        out += [name, "# Func Hash:", str(1000 + i * 13 + rep), "# Num Counters:", str(n),
                "# Counter Values:"] + [str(c) for c in counts]
        if i % 11 == 0:
            out += ["# Num Value Kinds:", "2", "# ValueKind = IPVK_IndirectCallTarget:", "0",
                    "# NumValueSites:", "1", "2", "fn_%d_:%d" % ((i + 1) % 3000, 7), "** External Symbol **:3",
                    "# ValueKind = IPVK_MemOPSize:", "1", "# NumValueSites:", "2", "2", "8:10", "16:5", "0"]
        out.append("")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
EOF
llvm-profdata-19 merge "$T/gen.proftext" -o "$T/gen.profdata"
show_same "$T/gen.profdata"

# stdin and gzip (not mapped: read through the source)
l="$(llvm-profdata-19 show --all-functions --counts "$T/gen.profdata")"
got="$("$PB" show --all-functions --counts - <"$T/gen.profdata")"
if [ "$l" = "$got" ]; then ok; else fail "show - (stdin) differs from llvm-profdata-19"; fi
gzip -c "$T/gen.profdata" >"$T/gen.profdata.gz"
got="$("$PB" show --all-functions --counts "$T/gen.profdata.gz")"
if [ "$l" = "$got" ]; then ok; else fail "show of a gzip-compressed .profdata differs from llvm-profdata-19"; fi
run "$PB" show --all-functions --counts "$T/gen.profdata" -o "$T/o.txt"
expect_rc 0 "show -o"
if [ "$l" = "$(cat "$T/o.txt")" ]; then ok; else fail "show -o OUT differs from llvm-profdata-19"; fi

# Damaged files: the streamed show fails as the model read fails (--text
# reads the model): same exit status and message; no output, no OUT.
size=$(stat -c %s "$T/gen.profdata")
for cut in 7 15 100 1000 $((size / 2)) $((size - 9)); do
  head -c "$cut" "$T/gen.profdata" >"$T/bad.profdata"
  run "$PB" show --all-functions --text "$T/bad.profdata"
  mrc=$rc
  cp "$T/err" "$T/model.err"
  rm -f "$T/never.txt"
  run "$PB" show --all-functions --counts "$T/bad.profdata" -o "$T/never.txt"
  if [ "$rc" -eq 0 ]; then fail "a $cut-byte prefix was shown"; continue; fi
  [ "$rc" -eq "$mrc" ] && ok || fail "prefix $cut: exit $rc, the model read exits $mrc"
  cmp -s "$T/err" "$T/model.err" && ok || fail "prefix $cut: '$(cat "$T/err")' vs the model read's '$(cat "$T/model.err")'"
  grep -qE "bad.profdata.*(offset|0x)" "$T/err" && ok || fail "prefix $cut: no file and offset in '$(cat "$T/err")'"
  [ ! -e "$T/never.txt" ] && ok || fail "prefix $cut: OUT was created"
  run "$PB" show --all-functions --counts "$T/bad.profdata"
  [ ! -s "$T/out" ] && ok || fail "prefix $cut: something was printed: $(head -c 200 "$T/out")"
done

# Damaged inside the records (a DataLen 8000 bytes too long): llvm-profdata-19
# prints what it listed before the damage (its buffer as it filled), then
# fails; so does the one-pass show, in 64 KiB blocks: a prefix of LLVM's
# listing, none for a key near the start. OUT is never created.
lnames="$(llvm-profdata-19 show --all-functions --counts "$T/gen.profdata" | sed -n 's/^  \(fn_[0-9a-z_]*\):$/\1/p')"
for at in 5 2500; do
  key="$(sed -n "${at}p" <<<"$lnames")"
  python3 - "$T/gen.profdata" "$T/bad.profdata" "$key" <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
k = sys.argv[3].encode()
i = d.find(k)
while i >= 0 and struct.unpack_from("<Q", d, i - 16)[0] != len(k):  # KeyLen before the key
    i = d.find(k, i + 1)
assert i >= 24, "key not found"
struct.pack_into("<Q", d, i - 8, struct.unpack_from("<Q", d, i - 8)[0] + 8000)
open(sys.argv[2], "wb").write(d)
EOF
  lrc=0
  llvm-profdata-19 show --all-functions --counts "$T/bad.profdata" >"$T/l.txt" 2>/dev/null || lrc=$?
  run "$PB" show --all-functions --counts "$T/bad.profdata"
  [ "$rc" -ne 0 ] && [ "$lrc" -ne 0 ] && ok || fail "key $at damaged: exit $rc, llvm-profdata-19 $lrc"
  grep -qE "bad.profdata: byte 0x[0-9a-f]+ " "$T/err" && ok || fail "key $at damaged: no file and offset in '$(cat "$T/err")'"
  n=$(stat -c %s "$T/out")
  if [ "$at" = 5 ]; then
    [ "$n" -eq 0 ] && ok || fail "key $at damaged: a listing was printed: $(head -c 200 "$T/out")"
  else
    [ "$n" -ge 65536 ] && [ "$(stat -c %s "$T/l.txt")" -ge "$n" ] && cmp -s "$T/out" <(head -c "$n" "$T/l.txt") && ok ||
      fail "key $at damaged: $n bytes printed, not a 64 KiB+ prefix of llvm-profdata-19's $(stat -c %s "$T/l.txt")"
  fi
  rm -f "$T/never.txt"
  run "$PB" show --all-functions --counts "$T/bad.profdata" -o "$T/never.txt"
  [ "$rc" -ne 0 ] && [ ! -e "$T/never.txt" ] && ok || fail "key $at damaged: exit $rc, OUT created"
done
finish
