"""The real-home guard of tests/conftest.py, run on a small suite whose "real" home is a tmp folder."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parent / "conftest.py"
SID = "0b6c2b52-7c1e-4a57-9d0e-3f1c1c2f6a10"

INNER = '''
import os

def _append(name):
    with open(os.environ[name], "a") as fh:
        fh.write("x\\n")

def test_a_clean():
    pass

def test_b_writes_memory():
    _append("T_MEMORY")

def test_c_writes_deep_elsewhere():
    _append("T_DEEP")

def test_d_writes_a_transcript():
    _append("T_TRANSCRIPT")

def test_e_clean():
    pass
'''


def _run(tmp_path: Path, scope: str, inside_claude_code: bool) -> dict[str, str]:
    """Run the small suite; returns test name -> its outcomes with their messages."""
    real = tmp_path / "real"
    claude = real / ".claude"
    targets = {"T_MEMORY": claude / "projects" / "-p" / "memory" / "decisions.jsonl",
               "T_DEEP": claude / "plugins" / "market" / "some-plugin" / "data" / "state.txt",
               "T_TRANSCRIPT": claude / "projects" / "-p" / f"{SID}.jsonl"}
    for path in targets.values():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}\n")
    suite = tmp_path / "suite"
    suite.mkdir()
    conftest = CONFTEST.read_text()
    # why: the guard picks its scope by how long one listing took; a loaded machine (the suite runs on
    # every core) made the small tree look large. Each budget is set so that the scope asked is picked
    budgets = {"test": {"PER_TEST_BUDGET": 1e9},
               "module": {"PER_TEST_BUDGET": -1.0, "PER_MODULE_BUDGET": 1e9},
               "session": {"PER_TEST_BUDGET": -1.0, "PER_MODULE_BUDGET": -1.0}}[scope]
    for name, value in budgets.items():
        conftest, n = re.subn(rf"^{name} = .*$", f"{name} = {value!r}", conftest, flags=re.M)
        assert n == 1
    (suite / "conftest.py").write_text(conftest)
    (suite / "pytest.ini").write_text("[pytest]\n")
    (suite / "test_inner.py").write_text(INNER)
    env = {k: v for k, v in os.environ.items() if k not in ("CLAUDECODE", "PYTEST_ADDOPTS")}
    env.update({"HOME": str(real), "COLUMNS": "1000", **{k: str(v) for k, v in targets.items()}})
    if inside_claude_code:
        env["CLAUDECODE"] = "1"
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider",
                             "-rA", "-q", "test_inner.py"], cwd=suite, env=env, capture_output=True, text=True,
                            timeout=120)
    outcomes: dict[str, str] = {}
    for line in result.stdout.splitlines():
        m = re.match(r"^(PASSED|FAILED|ERROR) test_inner\.py::(\w+)(.*)$", line)
        if m:
            outcomes[m.group(2)] = outcomes.get(m.group(2), "") + m.group(1) + m.group(3) + "\n"
    assert len(outcomes) == 5, result.stdout + result.stderr
    return outcomes


def _caught(outcome: str, path_part: str) -> bool:
    return "ERROR" in outcome and "touched the real home" in outcome and path_part in outcome


@pytest.mark.parametrize("inside_claude_code", [False, True])
def test_each_test_that_writes_anywhere_under_the_real_claude_dir_fails(tmp_path, inside_claude_code):
    got = _run(tmp_path, "test", inside_claude_code=inside_claude_code)
    assert got["test_a_clean"] == got["test_e_clean"] == "PASSED\n"
    assert _caught(got["test_b_writes_memory"], "memory")
    assert _caught(got["test_c_writes_deep_elsewhere"], "some-plugin")
    if inside_claude_code:  # the live session's own transcript grows: not a test's doing
        assert got["test_d_writes_a_transcript"] == "PASSED\n"
    else:
        assert _caught(got["test_d_writes_a_transcript"], SID)


@pytest.mark.parametrize("scope", ["module", "session"])
def test_on_a_large_claude_dir_our_folders_per_test_and_the_whole_tree_later(tmp_path, scope):
    got = _run(tmp_path, scope, inside_claude_code=False)
    assert got["test_a_clean"] == "PASSED\n"
    assert _caught(got["test_b_writes_memory"], "memory")  # lazy-harness's own folders: every test
    assert got["test_c_writes_deep_elsewhere"] == got["test_d_writes_a_transcript"] == "PASSED\n"
    # the rest of the tree: at the end of the module (or run), blamed on the last test's teardown
    assert got["test_e_clean"].startswith("PASSED\nERROR")
    assert _caught(got["test_e_clean"], "some-plugin") and SID in got["test_e_clean"]
