# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""profbridge.coverage: llvm-cov-N export and report of a clang-built program,
byte for byte, from its raw profile (no llvm-profdata merge first); the
files, lines, branches and summaries read back from that text agree with
llvm-cov's lcov."""
import json

import pytest

import profbridge
from conftest import run, tool

PROGRAM = r"""
#define MAX(a, b) ((a) > (b) ? (a) : (b))
static int unused(int x) { return x + 1; }
static int pick(int a, int b) {
  if (a > 1 && b < 3)
    return MAX(a, b);
  for (int i = 0; i < a; i++)
    if (i == 2) break;
  return b;
}
int main(int argc, char **argv) {
  (void)argv;
  return pick(argc, argc + 1) > 10;
}
"""


@pytest.fixture
def program(tmp_path):
    """(binary, raw profile, indexed profile) of PROGRAM built by clang-19."""
    clang = tool("clang-19")
    src = tmp_path / "p.c"
    src.write_text(PROGRAM)
    binary = tmp_path / "p"
    run(clang, "-fprofile-instr-generate", "-fcoverage-mapping", src, "-o", binary)
    raw = tmp_path / "p.profraw"
    run(binary, env={"LLVM_PROFILE_FILE": str(raw)})
    indexed = tmp_path / "p.profdata"
    run(tool("llvm-profdata-19"), "merge", raw, "-o", indexed)
    return binary, raw, indexed


def test_export_and_report_are_llvm_cov_19s(program):
    binary, raw, indexed = program
    llvm_cov = tool("llvm-cov-19")
    cov = profbridge.coverage(str(binary), [str(raw)])
    assert cov.export() == run(llvm_cov, "export", f"-instr-profile={indexed}", binary).decode()
    assert cov.lcov() == run(llvm_cov, "export", "-format=lcov", f"-instr-profile={indexed}", binary).decode()
    assert cov.report() == run(llvm_cov, "report", f"-instr-profile={indexed}", binary).decode()
    assert cov.export(summary_only=True) == run(llvm_cov, "export", "-summary-only", f"-instr-profile={indexed}",
                                                 binary).decode()


def test_files_lines_branches_and_summaries(program):
    binary, raw, indexed = program
    cov = profbridge.coverage([str(binary)], [(2, str(raw))])
    expected = json.loads(run(tool("llvm-cov-19"), "export", f"-instr-profile={indexed}", binary))
    (f,) = cov.files
    assert f.name.endswith("p.c")
    e = expected["data"][0]["files"][0]
    # weight 2 doubles the counts, never the coverage
    assert f.summary["lines"] == e["summary"]["lines"]
    assert f.summary["functions"] == {"count": 3, "covered": 2, "percent": e["summary"]["functions"]["percent"]}
    assert [b[4] for b in f.branches] == [2 * b[4] for b in e["branches"]]
    lcov = run(tool("llvm-cov-19"), "export", "-format=lcov", f"-instr-profile={indexed}", binary).decode()
    da = {int(l[3:].split(",")[0]): 2 * int(l[3:].split(",")[1]) for l in lcov.splitlines() if l.startswith("DA:")}
    assert f.lines == da
    assert f.lines[3] == 0  # unused() never ran


def test_release_14_reads_a_clang_19_program(program):
    binary, raw, _ = program
    cov = profbridge.coverage(str(binary), [str(raw)], llvm_version=14)
    assert cov.json()["version"] == "2.0.1"


def test_errors_name_the_file(tmp_path, program):
    binary, _, _ = program
    with pytest.raises(profbridge.ProfbridgeError) as e:
        profbridge.coverage(str(binary), [str(tmp_path / "missing.profraw")])
    assert "missing.profraw" in str(e.value)
    with pytest.raises(profbridge.ProfbridgeError):
        profbridge.coverage(str(tmp_path / "p.c"), [])
