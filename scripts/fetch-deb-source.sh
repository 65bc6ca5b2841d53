#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# fetch-deb-source.sh -- `apt-get source` of one Debian source package into a
# cache directory, without touching the machine's apt configuration: a
# private apt state (sources list, lists, cache) under CACHE/apt holds one
# deb-src entry built at run time from the machine's own first deb mirror
# (read from /etc/apt/sources.list and /etc/apt/sources.list.d/*; no mirror
# address is written in this repository). A second call finds the unpacked
# tree and downloads nothing.
#
# Usage: scripts/fetch-deb-source.sh PACKAGE CACHE
# Prints the path of the unpacked source tree (CACHE/src/PACKAGE) on stdout.
# Exit 0 on success; non-zero with a message on stderr (no deb mirror, no
# network, no dpkg-source) -- the caller decides what that means.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 PACKAGE CACHE" >&2; exit 2; }
pkg="$1"
mkdir -p "$2"
cache="$(cd "$2" && pwd -P)"
dest="$cache/src/$pkg"
if [ -f "$dest/.fetched" ]; then echo "$dest"; exit 0; fi

command -v dpkg-source >/dev/null 2>&1 || { echo "fetch-deb-source: dpkg-source missing (apt-get install dpkg-dev)" >&2; exit 1; }

# mirror_line: "URI SUITE COMPONENTS... [signed-by]" of the machine's first
# main deb entry, from one-line or deb822 sources.
mirror_line() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    # deb [options] URI SUITE COMPONENTS...
    awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i !~ /^\[|\]$|=/) break;
                       if ($(i) ~ /^(https?|file):/ && $(i+1) !~ /-(security|updates|backports)$/) {
                         line = $(i) " " $(i+1); for (j = i + 2; j <= NF; j++) line = line " " $(j);
                         print line; exit } }' "$f" && return 0
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # deb822 stanzas: the first with Types deb and a suite not -security/-updates
    awk 'BEGIN { RS = ""; FS = "\n" }
         { types = uris = suites = comps = key = "";
           for (i = 1; i <= NF; i++) {
             if ($i ~ /^Types:/) types = $i; else if ($i ~ /^URIs:/) uris = $i;
             else if ($i ~ /^Suites:/) suites = $i; else if ($i ~ /^Components:/) comps = $i;
             else if ($i ~ /^Signed-By:/) key = $i }
           if (types !~ /deb( |$)/) next
           sub(/^URIs:[ \t]*/, "", uris); split(uris, u, " ")
           sub(/^Suites:[ \t]*/, "", suites); split(suites, s, " ")
           sub(/^Components:[ \t]*/, "", comps); sub(/^Signed-By:[ \t]*/, "", key)
           for (k in s) if (s[k] !~ /-(security|updates|backports)$/) {
             print u[1] " " s[k] " " comps (key != "" ? " KEY=" key : ""); exit } }' "$f" | grep . && return 0
  done
  return 1
}

line="$(mirror_line | head -1)" || true
[ -n "$line" ] || { echo "fetch-deb-source: no deb entry in /etc/apt/sources.list{,.d/*} to derive a deb-src entry from" >&2; exit 1; }
key=""
case "$line" in *" KEY="*) key="${line##* KEY=}"; line="${line% KEY=*}" ;; esac
read -r uri suite comps <<<"$line"
apt_dir="$cache/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$apt_dir/etc"
opt="arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)"
if [ -n "$key" ] && [ -f "$key" ]; then opt="$opt signed-by=$key"; fi
echo "deb-src [$opt] $uri $suite $comps" > "$apt_dir/etc/sources.list"
apt_opts=(
  -o "Dir::Etc::SourceList=$apt_dir/etc/sources.list" -o "Dir::Etc::SourceParts=$apt_dir/etc/none.d"
  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir" -o "Dir::Cache::archives=$apt_dir/archives"
  -o "APT::Sandbox::User=root" -o "Debug::NoLocking=1"
)
echo "fetch-deb-source: apt-get source $pkg from $uri $suite (deb-src, private apt state in $apt_dir)" >&2
apt-get -qq "${apt_opts[@]}" update >&2
work="$cache/src/.work-$pkg.$$"
rm -rf "$work"; mkdir -p "$work"
(cd "$work" && apt-get -qq "${apt_opts[@]}" source "$pkg" >&2)
tree="$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)"
[ -n "$tree" ] || { echo "fetch-deb-source: apt-get source $pkg unpacked nothing" >&2; exit 1; }
rm -rf "$dest"
mv "$tree" "$dest"
basename "$tree" > "$dest/.fetched"
rm -rf "$work" "$apt_dir/lists" "$apt_dir"/*.bin "$apt_dir/archives"
echo "$dest"
