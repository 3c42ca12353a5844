"""A learning copied by hand into a second file (same title, same id) where only one copy is deprecated:
the copy written last stands (ADR 0059), and its own status decides what every reader shows. The other
copy's status hides nothing but that file: SessionStart, prompt recall and ``lh memory search`` agree."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import ids
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook
from tests.support import memory_samples as ms

NOW = time.time()
TITLE = "Zebra caches expire at midnight"
OLD = "The zebra cache drops all keys at 00:00 UTC, okapi billing runs after."
NEW = "The zebra cache drops all keys at 03:00 UTC after the capybara change."
PROMPT = "when do the zebra caches expire at midnight, okapi billing asks"


@pytest.fixture
def project(tmp_path):
    return ms.make_project(tmp_path, "proj")


def copies(older_status: str, newer_status: str) -> str:
    """A learning with ``older_status`` and its hand copy, body changed, with ``newer_status``: the copy."""
    ldir = paths.learnings_dir()
    older = ms.write_learning(ldir, TITLE, "proj", NOW - 3 * ms.DAY, learning=OLD, tags=["cache"],
                              slug="zebra-caches-expire-at-midnight", status=older_status)
    day = ms.iso(NOW - ms.DAY)[:10]
    newer = os.path.join(ldir, day[:7], f"{day}-zebra-caches-v2.md")
    os.makedirs(os.path.dirname(newer), exist_ok=True)
    with open(older, encoding="utf-8") as fh:
        text = fh.read()
    with open(newer, "w", encoding="utf-8") as fh:
        fh.write(text.replace(OLD, NEW).replace(f"status: {older_status}", f"status: {newer_status}"))
    return newer


def start(project: str) -> str:
    r = run_hook("SessionStart", {"session_id": "s-start", "cwd": project, "source": "startup"})
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else ""


def ask(project: str) -> str:
    ms.index_now()
    r = run_hook("UserPromptSubmit", {"session_id": "s-prompt", "cwd": project,
                                      "hook_event_name": "UserPromptSubmit", "prompt": PROMPT})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else ""


def searched(project: str) -> list[dict]:
    out = invoke("memory", "search", "zebra", "--json", "--project", project)
    return [hit for ln in out.out.splitlines() if (hit := json.loads(ln))["kind"] == "learning"]


def test_an_older_deprecated_copy_does_not_hide_the_newer_active_one(project):
    newer = copies("deprecated", "active")
    lid = ids.learning_id("proj", TITLE)
    ctx = start(project)
    assert "03:00 UTC" in ctx and "00:00 UTC" not in ctx
    got = ask(project)
    assert lid in got and "03:00 UTC" in got and "00:00 UTC" not in got, got
    [hit] = searched(project)
    assert hit["id"] == lid and hit["file"] == newer


def test_a_newer_deprecated_copy_hides_the_learning_from_the_searches(project):
    copies("active", "deprecated")
    lid = ids.learning_id("proj", TITLE)
    assert lid not in ask(project)
    assert searched(project) == []


def test_a_newer_deprecated_copy_hides_the_learning_at_session_start(project):
    copies("active", "deprecated")
    ctx = start(project)
    assert "03:00 UTC" not in ctx and "00:00 UTC" not in ctx
