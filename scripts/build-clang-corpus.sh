#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# build-clang-corpus.sh -- builds the small programs of
# tests/interop/lib/clang-programs.bash with every clang-N on PATH and keeps,
# for each release N and kind K, in DIR/N/:
#   K, K.profraw        the program and the raw profile of one run
#   K.show.txt          llvm-profdata-N show --all-functions --counts
#                       --ic-targets --memop-sizes [--show-vtables]
#                       [--temporal-profile-traces] [--binary-ids] of K.profraw
#                       (and --showcs for the cs kind)
#   K.profdata          llvm-profdata-N merge of K.profraw (the indexed file)
#   K.proftext          llvm-profdata-N merge --text of K.profraw
#   KINDS, SKIPPED      what was built with which flags, what not and why
# and DIR/README.txt describing them (so nobody needs to rebuild them to
# compare against the real tools). Usage: scripts/build-clang-corpus.sh DIR
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck disable=SC1091 # sourced from this script's own tree
. "$here/../tests/interop/lib/llvm-tools.bash"
# shellcheck disable=SC1091 # sourced from this script's own tree
. "$here/../tests/interop/lib/clang-programs.bash"
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
mkdir -p "$1"
dir="$(cd "$1" && pwd)"

# raw_version FILE: the version field of a raw profile's header (after the
# 8-byte magic; the high 32 bits are variant flags), read from the bytes.
raw_version() {
  od -An -t u4 -j 8 -N 4 "$1" | tr -d ' '
}
# indexed_version FILE: likewise for an indexed profile (low 32 bits).
indexed_version() {
  od -An -t u4 -j 8 -N 4 "$1" | tr -d ' '
}

readme="$dir/README.txt"
{
  echo "Raw profiles written by small programs compiled with each real clang-N"
  echo "(built $(date -u '+%Y-%m-%d %H:%M UTC') by profbridge's scripts/build-clang-corpus.sh;"
  echo "the sources are tests/interop/data/programs/, the kinds are described in"
  echo "tests/interop/lib/clang-programs.bash)."
  echo
  echo "Per release N, in N/: K (program), K.profraw (one run), K.show.txt"
  echo "(llvm-profdata-N show --all-functions --counts --ic-targets --memop-sizes,"
  echo "plus --show-vtables --temporal-profile-traces --binary-ids where that"
  echo "release has them; --showcs for cs), K.profdata (llvm-profdata-N merge), K.proftext"
  echo "(llvm-profdata-N merge --text); KINDS (flags), SKIPPED (what that clang refused)."
  echo "Versions below are read from the header bytes (u32 at offset 8)."
} > "$readme"

for n in $(pb_llvm_releases clang); do
  out="$dir/$n"
  rm -rf "$out"
  pb_clang_programs "$n" "$out" || { echo "clang-$n cannot build even the plain IR program" >&2; continue; }
  prof="llvm-profdata-$n"
  extra=()
  help="$("$prof" show --help 2>&1 || true)"
  for f in --show-vtables --temporal-profile-traces --binary-ids; do
    if grep -q -- "$f" <<<"$help"; then extra+=("$f"); fi
  done
  {
    echo
    echo "== LLVM $n: $(command -v "clang-$n") -> $("clang-$n" --version | head -1)"
    if [ -f "/opt/profbridge-llvm/$n/PACKAGES" ]; then
      echo "   from Debian: $(grep "^llvm-$n " "/opt/profbridge-llvm/$n/PACKAGES" | cut -d' ' -f2,3)"
    else
      echo "   from Debian bookworm: $(dpkg-query -W -f '${Version}' "llvm-$n" 2>/dev/null)"
    fi
  } >> "$readme"
  while IFS=$'\t' read -r k flags; do
    raw="$out/$k.profraw"
    cs=()
    if [ "$k" = cs ]; then cs=(--showcs); fi  # else show hides context-sensitive records
    "$prof" show --all-functions --counts --ic-targets --memop-sizes "${extra[@]}" "${cs[@]}" "$raw" \
      > "$out/$k.show.txt" 2>&1 || echo "(llvm-profdata-$n show exited $?)" >> "$out/$k.show.txt"
    ind=""
    if "$prof" merge -o "$out/$k.profdata" "$raw" 2>"$out/$k.merge.log"; then
      ind="indexed v$(indexed_version "$out/$k.profdata")"
      rm -f "$out/$k.merge.log"
    else
      ind="merge failed: $(head -1 "$out/$k.merge.log")"
    fi
    "$prof" merge --text -o "$out/$k.proftext" "$raw" 2>/dev/null || rm -f "$out/$k.proftext"
    printf '   %-15s raw v%-3s %-12s %s\n' "$k" "$(raw_version "$raw")" "$ind" "$flags" >> "$readme"
  done < "$out/KINDS"
  while IFS=$'\t' read -r k why; do
    printf '   %-15s not built: %s\n' "$k" "$why" >> "$readme"
  done < "$out/SKIPPED"
  echo "LLVM $n: $(wc -l < "$out/KINDS") kinds" >&2
done
echo "wrote $readme" >&2
