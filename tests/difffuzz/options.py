# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The options of llvm-profdata-N SUB, read from the release's own
`--help-hidden`.

From 18 on the subcommand's own options are the "General options" section
(the libraries' cl::opts have their own section). 13-17 list them mixed with
every library option LLVM links in (aarch64-..., asan-...): there, an option
is the subcommand's when some release from 18 on lists the same name as an
option of one of its subcommands (a user would not pass --asan-stack to
llvm-profdata). Each option: name (without dashes), kind ('flag', 'value' or
'enum'), the enum's values, the value's placeholder (<uint>, <string>, ...)
and aliases (-o, -j, -f, -r, -W)."""
import re
import subprocess

SUBCOMMANDS = ("merge", "show", "overlap", "order")
OPT_RE = re.compile(r"^ {2,6}(-{1,2})([A-Za-z0-9][A-Za-z0-9_.-]*)(=<([^>]*)>| <([^>]*)>)?\s+- (.*)$")
ENUM_RE = re.compile(r"^ {4,8}=([A-Za-z0-9_.-]+)\s+- ")
ALIAS_RE = re.compile(r"Alias for -{1,2}([A-Za-z0-9_-]+)")


def help_text(n, sub):
    try:
        p = subprocess.run(["llvm-profdata-%d" % n, sub, "--help-hidden"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return p.stdout if p.returncode == 0 else ""


def parse_text(text):
    """All options of a help text: {name: {...}}, and whether it has a
    separate library section."""
    opts, cur = {}, None
    section = None
    separated = "Library options:" in text
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line.rstrip(":")
            cur = None
            continue
        if section in ("Generic Options", "Library options", "Color Options"):
            continue
        m = OPT_RE.match(line)
        if m:
            name = m.group(2)
            placeholder = m.group(4) or m.group(5)
            o = {"name": name, "dash": m.group(1), "kind": "value" if placeholder else "flag",
                 "placeholder": placeholder, "values": []}
            a = ALIAS_RE.search(m.group(6))
            if a:
                o["alias_of"] = a.group(1)
            if placeholder == "value":
                o["kind"] = "enum"
            opts[name] = o
            cur = o
            continue
        m = ENUM_RE.match(line)
        if m and cur is not None:
            cur["kind"] = "enum"
            cur["values"].append(m.group(1))
    return opts, separated


_OWN = None


def own_names():
    """Names that some release from 18 on lists as a subcommand's own."""
    global _OWN
    if _OWN is None:
        _OWN = set()
        for n in range(18, 25):
            for sub in SUBCOMMANDS:
                text = help_text(n, sub)
                if text:
                    opts, sep = parse_text(text)
                    if sep:
                        _OWN.update(opts)
        # old releases only (removed before 18)
        _OWN.update({"gen-cs-nested-profile", "use-md5", "compress-all-sections", "generate-partial-profile"})
    return _OWN


def parse_release(n, sub):
    text = help_text(n, sub)
    if not text:
        return {}
    opts, sep = parse_text(text)
    if not sep:
        own = own_names()
        opts = {k: v for k, v in opts.items() if k in own}
    for o in opts.values():
        if o["kind"] == "enum" and not o["values"]:
            o["kind"] = "value"
    return opts
