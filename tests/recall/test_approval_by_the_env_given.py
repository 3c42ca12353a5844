"""An approval counts by the approval key of the environment a reader is given, not by the process's own:
prompt recall (the resident answerer answers with the asking hook's environment), SessionStart's
learnings and the states ``lh memory held`` lists read the key where ``env`` says, and adopting the
approvals of an upgrade writes its record there, never under the process's own HOME (ADR 0052)."""

import os
import time

import pytest

from lazy_harness import config, paths
from lazy_harness.memory import held_review, state
from lazy_harness.recall.prompt import recall as recall_prompt
from lazy_harness.recall.readback import digest
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
TITLE = "Zebra tables need a stable sort"


@pytest.fixture
def given(tmp_path, monkeypatch):
    """(the project folder, the environment its memory and approval key live in); the process's own
    HOME is then another, empty one."""
    root = ms.make_project(tmp_path, "proj", branch="zebra-tables")
    ms.write_jsonl(os.path.join(paths.memory_dir(root), "decisions.jsonl"),
                   [ms.decision(NOW - 60, "Use sqlite for the index", "one file")])
    # another project's learning for every project: it reaches this one once the person approved it
    ms.write_learning(paths.learnings_dir(), TITLE, "elsewhere", NOW, slug="zebra", scope="general",
                      learning="Zebra rows flicker without a stable sort; sort by the row id as a tie breaker")
    assert invoke("memory", "approve", "--all", "--project", root).code == 0
    assert invoke("memory", "reindex").code == 0
    env = dict(os.environ)
    elsewhere = tmp_path / "process-home"
    elsewhere.mkdir()
    monkeypatch.setenv("HOME", str(elsewhere))
    return root, env


def _nothing_under_the_process_home() -> list[str]:
    home = os.environ["HOME"]
    return [os.path.join(d, f) for d, _, fs in os.walk(home) for f in fs]


def test_prompt_recall_counts_the_approval_of_the_env_it_is_given(given):
    root, env = given
    text, info = recall_prompt.context_for("why do the zebra tables flicker without a stable sort", root,
                                           config.load(env), env)
    assert text is not None and TITLE in text, info.get("ranked")
    assert _nothing_under_the_process_home() == []


def test_sessionstart_shows_the_learning_its_env_approved(given):
    root, env = given
    out, stats = digest.digest(root, config.load(env), env, NOW, "startup")
    assert out is not None and TITLE in out
    assert stats["waiting_learnings"] == []
    assert _nothing_under_the_process_home() == []


def test_held_lists_no_learning_its_env_approved(given):
    root, env = given
    listed = held_review.listing(paths.memory_dir(root, env), paths.learnings_dir(None, env), state.ASK,
                                 env=env)
    assert [h["id"] for h in listed if h["kind"] == "learning"] == []
    assert _nothing_under_the_process_home() == []
