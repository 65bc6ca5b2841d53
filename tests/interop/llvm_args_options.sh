#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# llvm_args_options.sh -- the option tables of src/cli/llvm_options.c against
# the real tools: for llvm-profdata 19 and 23, each of merge, show, overlap
# and order, the options `--help-hidden` lists are read at test time and
# every one must be in profbridge's table of that command (`profbridge
# --llvm-options CMD`) with the same kind (a value "=<...>", a boolean, or a
# value-less flag of an enum group), the same alias, the same value type
# (<uint>, <ulong>, <number>, <value> = enum) and a release range containing
# N; options for sample profiles or MemProf (their help says so) must be
# refused. The other way round: no option of the table that is not refused
# may claim release N without being in N's help. Last, order (parsed by
# llvm_args; llvm-profdata order has no --sample) must call --sample unknown.
# The refusal message itself is checked in tests/unit/test_llvm_args.c.
set -uo pipefail
: "${PB:?PB must name the profbridge binary (set by ctest)}"
: "${PB_SOURCE_DIR:?}"
. "$PB_SOURCE_DIR/tests/interop/lib/llvm-tools.bash"

releases=""
for n in 19 23; do command -v "llvm-profdata-$n" >/dev/null 2>&1 && releases="$releases $n"; done
[ -n "$releases" ] || { echo "SKIP: neither llvm-profdata-19 nor llvm-profdata-23 on PATH ($(pb_llvm_how 19); $(pb_llvm_how 23))"; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$PB" "$work" $releases <<'PY'
import re, subprocess, sys
pb, work, releases = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3:]]
TYPES = {"uint": 1, "ulong": 2, "number": 3, "value": 4}
fails, checked, refused_seen = [], 0, 0
# what the help says of an option meant for sample profiles or MemProf
SAMPLE_RE = re.compile(r"sample profile|only meaningful for -sample|only meaningful for -extbinary|"
                       r"Sample profile|MemProf|memprof|GCC encoding|Extensible binary|profile symbol list|"
                       r"For sample profiles|cold threshold for instr|Path to binary from which", re.I)
def table(cmd):
    out = subprocess.run([pb, "--llvm-options", cmd], capture_output=True, text=True, check=True).stdout
    t = {}
    for line in out.splitlines():
        name, alias, kind, typ, since, until, refused = line.split()
        t[name] = dict(alias=None if alias == "-" else alias, kind=kind, type=int(typ), since=int(since),
                       until=int(until), refused=refused == "1")
    return t
def in_release(e, n):
    return (not e["since"] or n >= e["since"]) and (not e["until"] or n <= e["until"])
for n in releases:
    for cmd in ("merge", "show", "overlap", "order"):
        help_text = subprocess.run([f"llvm-profdata-{n}", cmd, "--help-hidden"], capture_output=True,
                                   text=True).stdout
        t = table(cmd)
        aliases = {e["alias"]: name for name, e in t.items() if e["alias"]}
        seen = set()
        for line in help_text.splitlines():
            m = re.match(r"^( +)(--?)([A-Za-z0-9][A-Za-z0-9-]*)(=<([^>]*)>)?\s+- (.*)$", line)
            if not m:
                continue
            indent, name, vtype, desc = len(m.group(1)), m.group(3), m.group(5), m.group(6)
            what = f"llvm-profdata-{n} {cmd} --{name}"
            checked += 1
            am = re.match(r"Alias for --(\S+)", desc)
            if am:
                if aliases.get(name) != am.group(1):
                    fails.append(f"{what}: an alias of --{am.group(1)}, not in the table as one")
                seen.add(am.group(1))
                continue
            seen.add(name)
            e = t.get(name)
            if not e:
                fails.append(f"{what}: not in profbridge's table")
                continue
            kind = "value" if vtype is not None else ("flag" if indent >= 6 else "bool")
            if name.startswith("help"):
                kind = "flag"  # LLVM's help options print and exit; no value either way
            if e["kind"] != kind:
                fails.append(f"{what}: kind {e['kind']} in the table, {kind} in the help ({line.strip()[:60]})")
            if vtype in TYPES and e["type"] != TYPES[vtype]:
                fails.append(f"{what}: value type {e['type']} in the table, <{vtype}> in the help")
            if not in_release(e, n):
                fails.append(f"{what}: the table says releases {e['since']}..{e['until']}")
            want_refused = bool(SAMPLE_RE.search(desc)) or name.startswith("memprof") or name in ("sample", "memory", "similarity-cutoff")
            want_refused = want_refused or "sample" in name
            # --instr is the kind profbridge reads; --json is sample-only in LLVM
            # (llvm-profdata show --json of an instr profile fails) but profbridge's
            # show prints the same content as JSON with it (docs/llvm-profdata.md)
            if name in ("instr", "json"):
                want_refused = False
            if e["refused"] != want_refused:
                fails.append(f"{what}: {'refused' if e['refused'] else 'accepted'} in the table; "
                             f"its help says: {desc[:80]}")
            refused_seen += e["refused"]
        for name, e in t.items():
            if in_release(e, n) and name not in seen and not e["refused"] and not name.startswith("help") \
                    and name not in ("print-options", "print-all-options"):
                fails.append(f"llvm-profdata-{n} {cmd}: the table has --{name} for release {n}, the help does not")
for f in fails:
    print("llvm_args_options.sh: FAIL:", f, file=sys.stderr)
print(f"llvm_args_options.sh: {checked} help lines of releases {releases} checked, "
      f"{refused_seen} refused options seen, {len(fails)} failures")
sys.exit(1 if fails else 0)
PY
rc=$?

# order is parsed by llvm_args: an option of another subcommand is unknown
out="$("$PB" order --num-test-traces=1 --sample x.profdata 2>&1)"; st=$?
[ $st = 2 ] || { echo "llvm_args_options.sh: FAIL: order --sample: status $st, want 2" >&2; rc=1; }
printf '%s' "$out" | grep -q "unknown option '--sample'" \
  || { echo "llvm_args_options.sh: FAIL: order --sample: $out" >&2; rc=1; }
exit $rc
