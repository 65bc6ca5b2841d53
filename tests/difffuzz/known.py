# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The documented differences, by name. Each names the words of
docs/llvm-profdata.md that state it (checked to be there: a difference the
docs do not state is not a known one) and a test over (case, real, ours,
differing parts) that recognises it. A difference none of these recognises
is a finding."""
import os
import re

DOCS = "docs/llvm-profdata.md"

SAMPLE_OPTIONS = {
    "sample", "extbinary", "gcc", "compress-all-sections", "drop-profile-symbol-list", "gen-partial-profile",
    "prof-sym-list", "convert-sample-profile-layout", "sample-frame-depth-for-cold-context",
    "sample-merge-cold-context", "sample-trim-cold-context", "split-layout", "suppl-min-size-threshold",
    "supplement-instr-with-sample", "instr-prof-cold-threshold", "use-md5", "zero-counter-threshold",
    "profiled-binary", "memprof-full-schema", "memprof-random-hotness", "memprof-random-hotness-seed",
    "memprof-version", "show-prof-sym-list", "show-sec-info-only", "show-composite-info-only", "memory",
    "similarity-cutoff", "gen-cs-nested-profile"}


# options whose value is the next word (not an input)
VALUE_OPTIONS = {
    "o", "output", "binary-file", "debug-info", "remapping-file", "r", "f", "input-files", "function",
    "no-function", "j", "num-threads", "failure-mode", "temporal-profile-trace-reservoir-size",
    "temporal-profile-max-trace-length", "max-debug-info-correlation-warnings", "debuginfod", "profiled-binary",
    "prof-sym-list", "supplement-instr-with-sample", "instr-prof-cold-threshold", "zero-counter-threshold",
    "random-seed", "llvm-version", "sample-frame-depth-for-cold-context", "memprof-version",
    "suppl-min-size-threshold"}


def opt_names(case):
    """The option names of the command line (without dashes and values)."""
    out = []
    words = case["argv"][1:] + [w for t in case.get("files", {}).values() for w in t.split()]
    for a in words:
        if a.startswith("-") and len(a) > 1:
            out.append(a.lstrip("-").split("=", 1)[0])
    return out


def _sample_refused(case, real, ours, diff):
    names = set(opt_names(case))
    return bool(names & SAMPLE_OPTIONS) and ours["rc"] != 0 and b"profbridge handles instrumentation profiles only" in ours["stderr"]


def _other_release_inputs(case):
    n = case["release"]
    words = " ".join(case["argv"][1:]) + " " + " ".join(case.get("files", {}).values())
    return [w for w in re.findall(r"\{corpus\}/([0-9]+)/[^ ,\n]+", words) if int(w) != n]


def _versions(case, real, ours, diff):
    # llvm-profdata-N fails on another release's raw (or newer indexed) input; profbridge reads it
    if not _other_release_inputs(case):
        return False
    # order of a newer text file: N stops reading at its first record it does
    # not know (silently), profbridge reads it all
    if case["argv"][0] == "order" and real["rc"] == ours["rc"] == 0 and "stderr" not in diff:
        return True
    # show/overlap: profbridge's note says what N's reader would refuse
    if case["argv"][0] in ("show", "overlap") and re.search(
            rb"profbridge: note: [^\n]*; shown as llvm-profdata-[0-9]+ prints it", ours["stderr"]):
        return True
    # merge on threads: the input llvm-profdata-N refuses is missing from its
    # writer, so two writers' kinds may conflict (a fatal error before any
    # failed input is named) where profbridge's read it
    if case["argv"][0] == "merge" and real["rc"] != 0 and re.fullmatch(rb"error: [^\n]*\n", real["stderr"]):
        return True
    return b"version mismatch" in real["stderr"] or b"unsupported instrumentation profile format version" in \
        real["stderr"] or re.search(rb"\{corpus\}/(?!%d/)[0-9]+/[^ :]+: " % case["release"], real["stderr"]) is not None


def _damaged_indexed(case, real, ours, diff):
    # a cut indexed file: LLVM reads past its end, its words depend on what it finds there
    cut = [a for a in case["argv"] if a.endswith("cut.profdata")] or \
        [t for t in case.get("files", {}).values() if "cut.profdata" in t]
    if not cut:
        return False
    # (13-17 may even read it, whatever they find past the end)
    return b"cut.profdata: byte 0x" in ours["stderr"] or b"PLEASE submit a bug report" in real["stderr"]


def _no_empty_file(case, real, ours, diff):
    if case["argv"][0] not in ("show", "overlap", "order") or real["rc"] == 0 or ours["rc"] == 0:
        return False
    extra = [d for d in diff if d.startswith("file:")]
    # only the file: the same status, stdout and stderr
    return bool(extra) and len(extra) == len(diff) and \
        all(real["files"].get(d[5:]) == b"" and d[5:] not in ours["files"] for d in extra)


def _threads(case, real, ours, diff):
    # merge on T > 1 threads: the personality merges llvm-profdata's writer
    # contexts as it does (same bytes, status and words); only the lines an
    # input's merge prints come in input order, where llvm-profdata's
    # threads print them as they run
    if case["argv"][0] != "merge" or diff != ["stderr"] or real["rc"] != ours["rc"]:
        return False
    r, o = real["stderr"].splitlines(True), ours["stderr"].splitlines(True)
    return r != o and sorted(r) == sorted(o)


def _llvm_crash_or_garbage(case, real, ours, diff):
    names = set(opt_names(case))
    if case["argv"][0] != "show":
        return False
    # --hot-func-list without a 990000 cutoff: LLVM aborts
    if "hot-func-list" in names and real["rc"] == -6 and b"Desired percentile exceeds the maximum cutoff" in \
            real["stderr"] and ours["rc"] == 1:
        return True
    # 22-24: the names of a raw file's earlier profiles are read from freed memory
    return case["release"] >= 22 and bool(names & {"topn", "hot-func-list"}) and real["rc"] == ours["rc"] == 0 and \
        ".profraw" in " ".join(case["argv"]) and all(d == "stdout" or d.startswith("file:") for d in diff)


def _did_you_mean(case, real, ours, diff):
    if diff != ["stderr"]:
        return False
    r = [l for l in real["stderr"].split(b"\n") if b"Did you mean" not in l]
    o = [l for l in ours["stderr"].split(b"\n") if b"Did you mean" not in l]
    return r == o


def _pipe(case, real, ours, diff):
    return case["argv"][0] == "merge" and b"IO failure on output stream: Illegal seek" in real["stderr"]


def _damaged_later_profile(case, real, ours, diff):
    # a raw file whose second profile is cut: show prints what came before,
    # overlap and order may ignore it; profbridge fails the input
    words = " ".join(case["argv"]) + " ".join(case.get("files", {}).values())
    if case["argv"][0] == "merge":
        # --failure-mode warn/all: llvm-profdata keeps the records read before the damage
        return "cut2.profraw" in words and all(d.startswith("file:") for d in diff) and \
            b"cut2.profraw" in real["stderr"]
    return "cut2.profraw" in words and ours["rc"] != 0 and case["argv"][0] in ("show", "overlap", "order") and \
        (b"cut2.profraw" in ours["stderr"] or b"another header" in ours["stderr"] or
         b"malformed instrumentation profile data" in ours["stderr"])


def _debuginfod(case, real, ours, diff):
    return "debuginfod" in opt_names(case) and ours["rc"] != 0


KNOWN = [
    ("sample-options-refused", "Options for sample\nprofiles (AutoFDO, CSSPGO) and MemProf are recognised and refused", _sample_refused),
    ("versions-read", "**Versions read.**", _versions),
    ("damaged-indexed-words", "an indexed file whose offsets point past its end: LLVM's words depend on\n  the table its reader reaches first", _damaged_indexed),
    ("failed-report-leaves-no-file", "**A failed `show`, `overlap` or `order` with `-o FILE`**", _no_empty_file),
    ("threads", "**Threads.**", _threads),
    ("llvm-crash-or-freed-names", "**Where llvm-profdata crashes or prints freed memory.**", _llvm_crash_or_garbage),
    ("did-you-mean-tie", "a\n\"Did you mean\" between names at the same edit distance may name another\noption", _did_you_mean),
    ("indexed-to-pipe", "**Indexed output to a pipe.**", _pipe),
    ("damaged-later-profile", "a raw file whose second (or later) profile is damaged", _damaged_later_profile),
    ("debuginfod-refused", "`--debuginfod` (21+) is refused", _debuginfod),
]


def docs_line(source_dir, phrase):
    """The line of docs/llvm-profdata.md where the phrase starts, or None."""
    with open(os.path.join(source_dir, DOCS)) as fh:
        text = fh.read()
    flat = " ".join(text.split())
    words = " ".join(phrase.split())
    if words not in flat:
        return None
    first = phrase.split("\n")[0]
    for i, line in enumerate(text.splitlines(), 1):
        if first in line:
            return i
    return 0


def classify(case, real, ours, diff):
    """The name of the documented difference this is, or None."""
    for name, _, test in KNOWN:
        if test(case, real, ours, diff):
            return name
    return None
