"""A wrong value in config.toml that has nothing to do with where memory lives (a budget, a recall
setting) does not lock the person out of their memory: ``lh memory`` commands warn in one line naming
the file, line and key, and run with that key's default, as the hooks do (SessionStart still reads
the memory back). Only a problem that leaves the memory folders unknown stops them: a wrong
``memory.path`` or ``knowledge.path``, a file that is not TOML."""

import os
import time

import pytest

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support import realistic_memory as rm

BAD_BUDGET = '[budget]\ndaily_usd = "5"\n'


@pytest.fixture
def proj(isolated_home, tmp_path):
    root = ms.make_project(tmp_path, "proj")
    rm.build(root, os.environ, time.time(), entries=24, name="proj", handoff_items=2)
    return root


def write_config(text: str) -> str:
    path = paths.config_file(os.environ)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write(text)
    return path


def test_show_with_a_bad_budget_value_prints_the_same_memory_and_one_warning(proj):
    good = invoke("memory", "show", "--project", proj)
    assert good.code == 0 and good.out.strip()
    path = write_config(BAD_BUDGET)
    bad = invoke("memory", "show", "--project", proj)
    assert bad.code == 0, bad.err
    assert bad.out == good.out
    warnings = [line for line in bad.err.splitlines() if "budget.daily_usd" in line]
    assert len(warnings) == 1
    assert f"{path}:2:" in warnings[0] and "warning" in warnings[0]


@pytest.mark.parametrize("args", [("memory", "path"), ("memory", "search", "pool"), ("memory", "held"),
                                  ("memory", "check"), ("memory", "history"), ("memory", "usage")])
def test_other_memory_commands_run_with_a_bad_budget_value(proj, args):
    write_config(BAD_BUDGET)
    out = invoke(*args, "--project", proj)
    assert out.code == 0, out.err
    assert out.out.strip()
    assert [line.startswith("lh: warning: ") for line in out.err.splitlines() if "budget.daily_usd" in line] == [True]


def test_forget_with_a_bad_recall_value_forgets(proj):
    write_config("[recall]\nmin_score = \"high\"\n")
    listed = invoke("memory", "search", "the", "--project", proj, "--all")
    ids = [w for line in listed.out.splitlines() for w in line.split() if w.startswith("d-")]
    assert ids, listed.out + listed.err
    out = invoke("memory", "forget", ids[0], "--project", proj, "--reason", "test")
    assert out.code == 0, out.err
    assert "recall.min_score" in out.err


@pytest.mark.parametrize("text,key", [("[memory]\npath = 5\n", "memory.path"),
                                      ("[knowledge]\npath = []\n", "knowledge.path"),
                                      ('[budget]\ndaily_usd = "5"\n[memory]\npath = 5\n', "memory.path"),
                                      ("[memory\npath = 1\n", "TOML syntax error")])
def test_a_problem_that_leaves_the_folders_unknown_still_stops_them(proj, text, key):
    write_config(text)
    out = invoke("memory", "show", "--project", proj)
    assert out.code == 1
    assert key in out.err
    assert not out.out.strip()
