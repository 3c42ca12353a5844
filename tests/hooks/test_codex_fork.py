"""``codex fork P`` (codex-cli 0.171.0) starts a session whose model is sent P's conversation, while its
rollout holds none of P's turns: only ``session_meta.forked_from_id``. What was distilled from P is
the fork's own, as for a Claude Code fork (ADR 0034): never told to it as notes from earlier sessions,
at its start or at its prompts. Rollouts recorded from the real CLI (tests/fixtures/codex/forked*.jsonl)."""

import json
import os
import re
import shutil

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, lineage
from tests.hooks.hookrun import enable_loop
from tests.hooks.test_codex_hooks import run_codex_hook
from tests.support import memory_samples as ms

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "codex")


def _meta(name: str) -> dict:
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as fh:
        return json.loads(fh.readline())["payload"]


FORK, PARENT = _meta("forked.jsonl")["id"], _meta("forked_parent.jsonl")["id"]
OTHER = "019a0000-1111-7222-8333-444455556666"
PROMPT = "where does the billing job queue live, and why postgres"


def test_a_codex_forks_rollout_names_its_parent_and_the_parent_names_none():
    assert lineage.from_transcript(os.path.join(FIXTURES, "forked.jsonl"), FORK) == [PARENT]
    assert lineage.from_transcript(os.path.join(FIXTURES, "forked_parent.jsonl"), PARENT) == []


@pytest.fixture
def fork(isolated_home, tmp_path):
    """A project with a decision distilled from the parent and one from another session, and the
    fork's rollout where Codex keeps it."""
    enable_loop(isolated_home)
    project = ms.make_project(tmp_path, "billing")
    mdir = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [
        ms.decision(1.76e9, "Keep the billing job queue in Postgres", "nightly backups cover it",
                    session_id=PARENT, tags=["billing", "queue", "postgres"]),
        ms.decision(1.75e9, "The billing job queue retries a job three times", "a flaky provider",
                    session_id=OTHER, tags=["billing", "queue", "retries"])])
    folder = os.path.join(paths.codex_home(), "sessions", "2026", "12", "01")
    os.makedirs(folder)
    rollout = os.path.join(folder, f"rollout-2026-12-01T02-49-42-{FORK}.jsonl")
    shutil.copyfile(os.path.join(FIXTURES, "forked.jsonl"), rollout)
    return project, rollout


def _context(event: str, project: str, rollout: str, sid: str = FORK, **more) -> str:
    r = run_codex_hook(event, {"session_id": sid, "transcript_path": rollout, "cwd": project,
                               "hook_event_name": event, "model": "m", "permission_mode": "default", **more})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else ""


def _said(text: str) -> set[str]:
    return {s for s in ("Postgres", "three times") if s in text}


@pytest.mark.parametrize("source", ["fork", "startup"])  # 0.171.0's TUI said fork; a start need not
def test_a_codex_fork_is_not_told_its_parents_entries_at_its_start_or_its_prompts(fork, source):
    project, rollout = fork
    start = _context("SessionStart", project, rollout, source=source)
    assert _said(start) == {"three times"}, start
    assert lineage.own(None, FORK) == (FORK, PARENT)
    prompt = _context("UserPromptSubmit", project, rollout, turn_id="t-1", prompt=PROMPT)
    assert "Keep the billing job queue in Postgres" not in prompt, prompt
    # another session: the fork's rollout names no parent of it (a path to another session's rollout)
    fresh = _context("SessionStart", project, rollout, sid="019a9999-0000-7000-8000-000000000001", source="startup")
    assert _said(fresh) == {"Postgres", "three times"}, fresh  # another session is told all of it
    assert re.search(r"\bd-[0-9a-f]{8}\b", fresh)
