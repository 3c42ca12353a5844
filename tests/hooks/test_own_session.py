"""A session distilled while it runs never gets its own entries back as notes from earlier sessions
(ADR 0034): not at a prompt, not at a resume or a compaction of the same session. The worker distils
the session with the fake ``claude``; the hooks then run as Claude Code runs them."""

import json
import os
import re

import pytest

from lazy_harness import paths, queue
from lazy_harness.memory import files, ids
from tests.hooks.hookrun import run_hook
from tests.support import fake_claude
from tests.support import memory_samples as ms
from tests.worker.spendrig import configure, run_worker
from tests.support.sessions import place

OTHER = "0b7e4d21-33aa-4c1e-9f00-6d2c8a5e7b19"  # another session of the same project
PROMPT = "the billing ledger double counts refunds when the export cron reruns"
ANSWER = {
    "decisions": [{"summary": "The billing ledger export keeps a run marker so a rerun of the cron skips "
                              "refunds it already counted", "context": "the export cron reruns after a timeout",
                   "alternatives": [], "rationale": "a rerun counted every refund twice in the ledger",
                   "tags": ["ledger", "refunds", "export", "cron"],
                   "cues": ["billing ledger counts refunds twice", "export cron rerun double counts"]}],
    "failures": [{"summary": "Refunds were double counted in the billing ledger after the export cron reran",
                  "root_cause": "the export had no marker of what it had counted", "resolution": "",
                  "prevention": "keep a run marker in the ledger export and test a rerun",
                  "tags": ["ledger", "refunds", "cron"],
                  "cues": ["refunds counted twice in the ledger", "cron rerun breaks the billing ledger"]}],
    "learnings": [{"title": "Ledger exports must be idempotent across cron reruns",
                   "learning": "A billing ledger export that a cron can rerun counts refunds twice unless "
                               "it records what it exported.",
                   "context": "billing ledger", "scope": "project", "tags": ["ledger", "refunds", "cron"],
                   "cues": ["billing ledger double counts refunds", "make the ledger export rerunnable"]}],
    "handoff": ["check the billing ledger export after the cron rerun fix"],
}


@pytest.fixture
def distilled(isolated_home, tmp_path, monkeypatch, project):
    """The session's transcript distilled by the worker (as after a Stop or `lh knowledge
    handoff-now`), and an older decision of another session about the same thing."""
    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer=ANSWER)
    configure(isolated_home)
    mem = paths.memory_dir(str(project))
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(1.7e9, "Refunds are written to the billing ledger by one export job only",
                    "two jobs counted refunds twice", session_id=OTHER,
                    cues=["refunds counted twice in the billing ledger"], tags=["ledger", "refunds"])])
    payload = place(project)
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "handoff-now", True))
    assert run_worker().processed == 1
    assert len(fake_claude.calls(bin_dir)) == 1
    own = _own_ids(mem, payload["session_id"])
    assert len(own) == 4, own  # a decision, a failure, a learning, an open item: written with the session
    return project, payload["session_id"], own


def _own_ids(mem: str, sid: str) -> set[str]:
    """The ids of what the worker wrote for session ``sid``, read from the files."""
    out = set()
    for name in (files.DECISIONS, files.FAILURES):
        with open(os.path.join(mem, name), encoding="utf-8") as fh:
            out |= {json.loads(ln)["id"] for ln in fh if ln.strip() and json.loads(ln).get("session_id") == sid}
    with open(os.path.join(mem, "handoff.jsonl"), encoding="utf-8") as fh:
        out |= {json.loads(ln)["id"] for ln in fh if ln.strip() and json.loads(ln).get("session_id") == sid}
    ldir = paths.learnings_dir()
    for folder, _, names in os.walk(ldir):
        for n in names:
            text = open(os.path.join(folder, n), encoding="utf-8").read()
            if f"origin_session: {sid}" in text:
                out.add(re.search(r"^id: (l-[0-9a-f]+)", text, re.M).group(1))
    return out


def _context(r) -> str:
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"] if r.stdout else ""


def _prompt(project, sid: str) -> str:
    return _context(run_hook("UserPromptSubmit", {"session_id": sid, "cwd": str(project), "prompt": PROMPT,
                                                  "hook_event_name": "UserPromptSubmit"}))


def _start(project, sid: str, source: str) -> str:
    return _context(run_hook("SessionStart", {"session_id": sid, "cwd": str(project), "source": source,
                                              "hook_event_name": "SessionStart"}))


def _named(text: str) -> set[str]:
    return set(re.findall(r"\b[dflh]-[0-9a-f]{8}\b", text))


def test_a_prompt_never_gets_its_own_sessions_entries(distilled):
    project, sid, own = distilled
    mine = _prompt(project, sid)
    assert not _named(mine) & own, mine
    earlier = ids.entry_id("decision", "Refunds are written to the billing ledger by one export job only")
    assert earlier in _named(mine)  # the earlier session's decision still comes back
    theirs = _prompt(project, "a-new-session-of-the-same-project")
    assert len(_named(theirs) & own) >= 2, theirs  # the same prompt from another session gets them
    log = open(os.path.join(paths.logs_dir(), "hooks.log"), encoding="utf-8").read()
    assert "own_session=" in log


@pytest.mark.parametrize("source", ["resume", "compact"])
def test_a_resume_or_compaction_of_the_session_does_not_read_its_own_entries_back(distilled, source):
    project, sid, own = distilled
    mine = _start(project, sid, source)
    assert not _named(mine) & own, mine
    assert ids.entry_id("decision", "Refunds are written to the billing ledger by one export job only") in mine
    fresh = _start(project, OTHER + "-next", "startup")
    assert _named(fresh) >= own, fresh  # a new session is told all of it


# --- forks: `claude --resume P --fork-session` holds P's conversation under a new id -------------------

@pytest.fixture
def forked(isolated_home, tmp_path, monkeypatch, project):
    """The parent session (tests/fixtures/transcripts/forked-parent.jsonl) distilled, and the ids of
    its fork (forked.jsonl), the entries it wrote and the fork's transcript path (not written yet)."""
    from tests.support.sessions import fixture_session_id

    fake_claude.use(tmp_path, monkeypatch, answer=ANSWER)
    configure(isolated_home)
    payload = place(project, "forked-parent.jsonl")
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    assert run_worker().processed == 1
    parent = payload["session_id"]
    own = _own_ids(paths.memory_dir(str(project)), parent)
    assert len(own) == 4, own
    fork = fixture_session_id("forked.jsonl")
    transcript = os.path.join(os.path.dirname(payload["transcript_path"]), f"{fork}.jsonl")
    return project, fork, transcript, own


def _fork_hook(event: str, project, fork: str, transcript: str, **more) -> str:
    return _context(run_hook(event, {"session_id": fork, "transcript_path": transcript, "cwd": str(project),
                                     "hook_event_name": event, **more}))


def test_a_fork_is_not_told_its_parents_entries_at_its_prompts_or_when_resumed(forked):
    project, fork, transcript, parents = forked
    # Claude Code 2.1.332 writes the fork's transcript with its first prompt: at its start and first
    # prompt nothing says whose fork it is yet
    assert not os.path.exists(transcript)
    _fork_hook("SessionStart", project, fork, transcript, source="fork")
    place(project, "forked.jsonl")  # the fork's transcript, as after its first turn
    mine = _fork_hook("UserPromptSubmit", project, fork, transcript, prompt=PROMPT)
    assert not _named(mine) & parents, mine
    log = open(os.path.join(paths.logs_dir(), "hooks.log"), encoding="utf-8").read()
    assert f"session={fork}" in log and "own_session=" in log
    resumed = _fork_hook("SessionStart", project, fork, transcript, source="resume")
    assert not _named(resumed) & parents, resumed
    fresh = _fork_hook("SessionStart", project, "a-new-session", transcript, source="startup")
    assert _named(fresh) >= parents, fresh  # a new session is told all of it


def test_the_worker_records_a_forks_parents_for_the_hooks(forked):
    project, fork, transcript, parents = forked
    payload = place(project, "forked.jsonl")  # never seen by SessionStart (a CLI before source=fork)
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "Stop", False))
    run_worker()
    resumed = _fork_hook("SessionStart", project, fork, transcript, source="resume")
    assert not _named(resumed) & parents, resumed
    assert not _named(_fork_hook("UserPromptSubmit", project, fork, transcript, prompt=PROMPT)) & parents
