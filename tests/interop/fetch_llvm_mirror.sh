#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# fetch_llvm_mirror.sh -- scripts/fetch_llvm.py takes the Debian mirror from
# the machine's apt configuration (no address is written in the repository):
# the URI of a `deb` entry whose suite is the system's own codename, in
# one-line *.list or deb822 *.sources files; security/update suites, other
# repositories, deb-src lines, comments, `Enabled: no` stanzas and files apt
# ignores (other extensions) are not taken; PB_DEBIAN_MIRROR overrides; with
# no such entry it stops with a message naming PB_DEBIAN_MIRROR.
# The addresses below are made up (.invalid).
set -euo pipefail
: "${PB_SOURCE_DIR:?}"
command -v python3 >/dev/null || { echo "SKIP: python3 missing"; exit 77; }
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the source tree
T="$(mktemp -d)"; trap 'rm -rf "$T"' EXIT
fails=0; checks=0
# mirror CASE-DIR: what find_mirror answers for that apt dir (or the error).
mirror() {
  python3 - "$PB_SOURCE_DIR/scripts" "$1" 2>&1 <<'PY' || true
import sys
sys.path.insert(0, sys.argv[1])
import fetch_llvm
print(fetch_llvm.find_mirror(etc=sys.argv[2] + "/apt", os_release=sys.argv[2] + "/os-release"))
PY
}
expect() { # expect WHAT EXPECTED GOT
  checks=$((checks + 1))
  case "$3" in
    *"$2"*) ;;
    *) echo "FAIL: $1: expected '$2', got '$3'"; fails=$((fails + 1)) ;;
  esac
}

# 1: deb822, with the distractors
d="$T/one"; mkdir -p "$d/apt/sources.list.d"
printf 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n' > "$d/os-release"
cat > "$d/apt/sources.list" <<'EOF'
# deb http://commented.invalid/debian bookworm main
deb-src http://source.invalid/debian bookworm main
EOF
cat > "$d/apt/sources.list.d/a.list" <<'EOF'
deb [signed-by=/usr/share/keyrings/x.gpg] http://security.invalid/debian-security bookworm-security main
deb http://other.invalid/apt nodistro main
EOF
cat > "$d/apt/sources.list.d/b.sources" <<'EOF'
Types: deb
URIs: http://disabled.invalid/debian
Suites: bookworm
Components: main
Enabled: no

Types: deb
# http://snapshot.invalid/archive/debian/20250520T000000Z
URIs: http://main.invalid/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
cp "$d/apt/sources.list.d/b.sources" "$d/apt/sources.list.d/0.sources.disabled-by-someone"
sed -i 's/main.invalid/ignored.invalid/' "$d/apt/sources.list.d/0.sources.disabled-by-someone"
expect "deb822 main archive" "http://main.invalid/debian" "$(mirror "$d")"
expect "PB_DEBIAN_MIRROR wins" "http://env.invalid/debian" "$(PB_DEBIAN_MIRROR=http://env.invalid/debian/ mirror "$d")"

# 2: one-line format with options and a trailing slash
d="$T/two"; mkdir -p "$d/apt/sources.list.d"
printf 'VERSION_CODENAME=bookworm\n' > "$d/os-release"
echo 'deb [arch=amd64 signed-by=/k.gpg] https://list.invalid/debian/ bookworm main contrib' > "$d/apt/sources.list"
expect "one-line main archive" "https://list.invalid/debian" "$(mirror "$d")"

# 3: nothing usable
d="$T/three"; mkdir -p "$d/apt/sources.list.d"
printf 'VERSION_CODENAME=bookworm\n' > "$d/os-release"
echo 'deb http://security.invalid/debian-security bookworm-security main' > "$d/apt/sources.list"
expect "no main archive: an error naming PB_DEBIAN_MIRROR" "set PB_DEBIAN_MIRROR" "$(mirror "$d")"

echo "fetch_llvm_mirror: $((checks - fails)) of $checks checks passed"
[ "$fails" -eq 0 ]
