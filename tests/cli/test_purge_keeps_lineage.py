"""``lh queue purge`` forgets old sessions' state but keeps a fork's ``.lineage`` (memory/lineage.py):
without it, a fork resumed after the purge was told its parent's entries, which its transcript holds.
Recorded fixtures: tests/fixtures/transcripts/forked-parent.jsonl and its fork, forked.jsonl."""

import json
import os
import re
import time

from lazy_harness import paths, queue
from lazy_harness.memory import lineage
from lazy_harness.queue import sweep
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook
from tests.hooks.test_own_session import ANSWER, PROMPT
from tests.support import fake_claude
from tests.support.sessions import fixture_session_id, place
from tests.worker.spendrig import configure, run_worker

MONTH_AGO = 40 * 86400


def _parent_ids(mem: str, parent: str) -> set[str]:
    """The ids of the decisions, failures and open items the worker wrote for ``parent``."""
    out = set()
    for name in ("decisions.jsonl", "failures.jsonl", "handoff.jsonl"):
        with open(os.path.join(mem, name), encoding="utf-8") as fh:
            out |= {rec["id"] for rec in map(json.loads, filter(str.strip, fh)) if rec.get("session_id") == parent}
    return out


def _hook(event: str, payload: dict) -> set[str]:
    """The entry ids a hook, run as Claude Code runs it, put in the session's context."""
    r = run_hook(event, {**payload, "hook_event_name": event})
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    text = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else ""
    return set(re.findall(r"\b[dflh]-[0-9a-f]{8}\b", text))


def _age_state(seconds: float) -> None:
    """Every file in the queue's state folder last touched ``seconds`` ago (a month without sessions)."""
    state = paths.state_dir()
    old = time.time() - seconds
    for name in os.listdir(state):
        os.utime(os.path.join(state, name), (old, old))


def test_a_fork_resumed_after_the_documented_purge_is_not_told_its_parents_entries(
        isolated_home, tmp_path, monkeypatch, project):
    fake_claude.use(tmp_path, monkeypatch, answer=ANSWER)
    configure(isolated_home)
    parent = place(project, "forked-parent.jsonl")
    queue.enqueue(paths.queue_dir(), queue.task_fields(parent, "SessionEnd", True))
    assert run_worker().processed == 1
    theirs = _parent_ids(paths.memory_dir(str(project)), parent["session_id"])
    assert len(theirs) == 3, theirs
    fork = fixture_session_id("forked.jsonl")
    transcript = os.path.join(os.path.dirname(parent["transcript_path"]), f"{fork}.jsonl")
    payload = {"session_id": fork, "transcript_path": transcript, "cwd": str(project)}
    _hook("SessionStart", {**payload, "source": "fork"})
    place(project, "forked.jsonl")  # Claude Code 2.1.332 writes the fork's transcript with its first prompt
    assert not _hook("UserPromptSubmit", {**payload, "prompt": PROMPT}) & theirs
    assert parent["session_id"] in lineage.own(None, fork)

    _age_state(MONTH_AGO)
    purged = invoke("queue", "purge", "--done", "--older-than", "30d")
    assert purged.code == 0 and "state: forgot 0" not in purged.out, purged.out
    assert not any(n.startswith(fork) and n.endswith(".shown") for n in os.listdir(paths.state_dir()))

    assert parent["session_id"] in lineage.own(None, fork)
    assert not _hook("SessionStart", {**payload, "source": "resume"}) & theirs
    assert not _hook("UserPromptSubmit", {**payload, "prompt": PROMPT}) & theirs


def test_a_kept_lineage_is_no_session_for_the_next_purge_to_forget(isolated_home):
    fork, parent = "4701f9ab-c954-4ae7-81e9-40fd63284faf", "04244b15-7f45-4f6f-a0b4-5a87b39f2ace"
    q = paths.queue_dir()
    queue.ensure_layout(q)
    lineage.record(None, fork, [parent])
    queue.mark_done(q, fork, 1000.0, 1000.0)
    _age_state(MONTH_AGO)
    assert sweep.purge_session_state(q, cutoff=time.time() - 86400) == 1
    assert sorted(n for n in os.listdir(paths.state_dir()) if n.startswith(fork)) == [fork + lineage.SUFFIX]
    assert sweep.purge_session_state(q, cutoff=time.time() - 86400) == 0
