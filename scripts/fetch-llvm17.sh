#!/usr/bin/env bash
# fetch-llvm17.sh -- provides llvm-profdata-17, the oracle for
# `--llvm-version 17` (indexed v10), on Debian bookworm, which has no LLVM 17.
#
# Why this way: bookworm ships LLVM 13-16 and 19, and only Debian trixie
# ships LLVM 17 (llvm-toolchain-17 17.0.6). Its binaries need trixie's glibc
# and libstdc++, so they cannot be installed with apt here. Instead this
# script downloads the few trixie packages llvm-profdata needs from the same
# Debian mirror apt uses, checks each against the SHA256 of trixie's signed
# package index, unpacks them into one directory (nothing of the system is
# replaced) and writes a wrapper that runs llvm-profdata with trixie's own
# dynamic loader and libraries. Used by tests/interop/idx_llvm17.sh only.
#
# Usage: scripts/fetch-llvm17.sh [DIR]   (default /opt/profbridge-llvm17)
# Puts the wrapper at DIR/bin/llvm-profdata-17 and, when run as root, links
# it from /usr/local/bin. Idempotent: does nothing when the wrapper works.
set -euo pipefail

dir="${1:-/opt/profbridge-llvm17}"
mirror="${PB_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
wrapper="$dir/bin/llvm-profdata-17"
die() { echo "fetch-llvm17: $*" >&2; exit 1; }

link() {
  if [ "$(id -u)" -eq 0 ] && [ ! -e /usr/local/bin/llvm-profdata-17 ]; then
    ln -s "$wrapper" /usr/local/bin/llvm-profdata-17
  fi
}
if [ -x "$wrapper" ] && "$wrapper" --version 2>/dev/null | grep -q 'LLVM version 17\.'; then
  link
  exit 0
fi
for tool in curl xz dpkg-deb sha256sum; do
  command -v "$tool" >/dev/null || die "$tool is missing (scripts/install-deps.sh installs curl and xz-utils)"
done

# llvm-profdata-17 and what libLLVM-17 and it load (ldd on trixie).
pkgs=(llvm-17 libllvm17t64 libc6 libstdc++6 libgcc-s1 libxml2 libicu76 liblzma5 libz3-4
      libedit2 libbsd0 libmd0 libffi8 libtinfo6 libzstd1 zlib1g)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "fetch-llvm17: fetching llvm-profdata 17 from Debian trixie ($mirror)" >&2
curl -fsS "$mirror/dists/trixie/main/binary-amd64/Packages.xz" -o "$tmp/Packages.xz" \
  || die "cannot download trixie's package index from $mirror"
xz -dc "$tmp/Packages.xz" > "$tmp/Packages" || die "trixie's package index does not decompress"

rm -rf "$dir.new"
mkdir -p "$dir.new/root" "$dir.new/bin"
for p in "${pkgs[@]}"; do
  # Filename and SHA256 of package p (the first stanza named p).
  read -r file sum < <(awk -v p="$p" '
    $0 == "Package: " p { f = 1 }
    f && /^Filename:/ { fn = $2 }
    f && /^SHA256:/ { sh = $2 }
    f && /^$/ { print fn, sh; exit }' "$tmp/Packages") || true
  [ -n "${file:-}" ] && [ -n "${sum:-}" ] || die "trixie has no package $p"
  curl -fsS "$mirror/$file" -o "$tmp/$p.deb" || die "cannot download $mirror/$file"
  echo "$sum  $tmp/$p.deb" | sha256sum -c --quiet - || die "$p.deb does not match trixie's index"
  dpkg-deb -x "$tmp/$p.deb" "$dir.new/root" || die "cannot unpack $p.deb"
  file="" sum=""
done

root="$dir/root"
libs="$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu:$root/usr/lib/llvm-17/lib"
cat > "$dir.new/bin/llvm-profdata-17" <<EOF
#!/bin/sh
# llvm-profdata 17 from Debian trixie, run with trixie's loader and libraries
# (written by profbridge's scripts/fetch-llvm17.sh)
exec "$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$libs" \\
  "$root/usr/lib/llvm-17/bin/llvm-profdata" "\$@"
EOF
chmod +x "$dir.new/bin/llvm-profdata-17"
rm -rf "$dir"
mv "$dir.new" "$dir"
"$wrapper" --version 2>/dev/null | grep -q 'LLVM version 17\.' || die "the unpacked llvm-profdata does not run"
link
echo "fetch-llvm17: $wrapper works" >&2
