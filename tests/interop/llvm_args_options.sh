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
            # <ulong> in the help is uint64_t (ulong) or unsigned long long (ullong, 6)
            if vtype == "ulong" and e["type"] == 6:
                pass
            elif vtype in TYPES and e["type"] != TYPES[vtype]:
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

# show and overlap parse every instrumentation option of llvm-profdata 19
# and 23 (from --help-hidden, read now): each one with a good value is
# accepted (a profile is shown, exit 0), a bad value (a word for a number, a
# non-boolean for a boolean, a value for a flag) is a usage error, exit 2;
# and through a link named llvm-profdata-N the bad values give the real
# tool's message and status, word for word. Sample/MemProf options are
# refused, saying why.
printf '%s\n' ':ir' main 0x1234 2 10 3 '' 'f;helper' 0x99 1 7 >"$work/p.proftext"
python3 - "$PB" "$work" $releases <<'PY' || rc=1
import os, re, subprocess, sys
pb, work, releases = sys.argv[1], sys.argv[2], [int(x) for x in sys.argv[3:]]
fails, checked = [], 0
GOOD = {"uint": "1", "ulong": "1", "number": "1", "string": "main", "output": os.path.join(work, "o.txt"),
        "800000,901000,999999": "990000,999999"}
ENUM_GOOD = {"show-format": "text"}
FILE_OPTS = {"debug-info"}  # takes a program: a missing one is an error naming it (the value was taken)
def run(argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    return r.returncode, r.stderr
for n in releases:
    real = f"llvm-profdata-{n}"
    prof = os.path.join(work, f"p{n}.profdata")
    subprocess.run([real, "merge", "-o", prof, os.path.join(work, "p.proftext")], check=True)
    link = os.path.join(work, real)
    if not os.path.exists(link):
        os.symlink(os.path.realpath(pb), link)
    for cmd in ("show", "overlap"):
        inputs = [prof] if cmd == "show" else [prof, prof]
        help_text = subprocess.run([real, cmd, "--help-hidden"], capture_output=True, text=True).stdout
        for line in help_text.splitlines():
            m = re.match(r"^( +)(--?)([A-Za-z0-9][A-Za-z0-9-]*)(=<([^>]*)>)?\s+- (.*)$", line)
            if not m or m.group(3).startswith("help") or m.group(3) in ("print-options", "print-all-options"):
                continue
            indent, name, vtype, desc = len(m.group(1)), m.group(3), m.group(5), m.group(6)
            if desc.startswith("Alias for"):
                continue
            what = f"{cmd} --{name} (llvm-profdata-{n})"
            st, err = run([pb, cmd, f"--llvm-version={n}", f"--{name}"] + inputs)
            if "handles instrumentation profiles only" in err:
                if st != 2:
                    fails.append(f"{what}: refused with status {st}, want 2")
                checked += 1
                continue
            kind = "value" if vtype is not None else ("flag" if indent >= 6 else "bool")
            good = ENUM_GOOD.get(name) or GOOD.get(name) or GOOD.get(vtype or "", "1")
            arg = f"--{name}" if kind != "value" else f"--{name}={good}"
            if name == "json":
                arg = "--json"  # profbridge's JSON view
            st, err = run([pb, cmd, f"--llvm-version={n}", arg] + inputs)
            checked += 1
            if name in FILE_OPTS:
                if st == 0 or f"{good}: No such file or directory" not in err:
                    fails.append(f"{what}: status {st}, want an error naming the missing '{good}': {err.strip()[:120]}")
                continue
            if st != 0:
                fails.append(f"{what}: {arg} refused (status {st}): {err.strip()[:160]}")
            # a bad value: what is wrong depends on the kind
            bad = {"flag": f"--{name}=1", "bool": f"--{name}=maybe"}.get(kind)
            if kind == "value" and vtype in ("uint", "ulong", "number"):
                bad = f"--{name}=x"
            if kind == "value" and name == "show-format":
                bad = f"--{name}=xml"
            if bad is None:
                continue
            st, err = run([pb, cmd, f"--llvm-version={n}", bad] + inputs)
            if st != 2:
                fails.append(f"{what}: {bad} accepted (status {st}), want a usage error")
            # the same through llvm-profdata-N: the real tool's words and status
            want = run([real, cmd, bad] + inputs)
            got = run([link, cmd, bad] + inputs)
            if want != got:
                fails.append(f"{what}: {bad} as llvm-profdata-{n}: {got}, the real tool: {want}")
for f in fails:
    print("llvm_args_options.sh: FAIL:", f, file=sys.stderr)
print(f"llvm_args_options.sh: {checked} show/overlap options of releases {releases} run, {len(fails)} failures")
sys.exit(1 if fails else 0)
PY

# order is parsed by llvm_args: an option of another subcommand is unknown
out="$("$PB" order --num-test-traces=1 --sample x.profdata 2>&1)"; st=$?
[ $st = 2 ] || { echo "llvm_args_options.sh: FAIL: order --sample: status $st, want 2" >&2; rc=1; }
printf '%s' "$out" | grep -q "unknown option '--sample'" \
  || { echo "llvm_args_options.sh: FAIL: order --sample: $out" >&2; rc=1; }
exit $rc
