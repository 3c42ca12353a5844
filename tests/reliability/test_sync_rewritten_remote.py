"""A remote rewritten from an older clone: machine b, long offline with an old copy, is the first to
push after the remote was re-created empty (or force-pushes its old folder). Machine a had pushed
entries, a forget and a closed item since b last synced. a's round must not merge that history as
if nothing happened, must keep everything it had, and once the person takes the remote back as the
docs say, every machine ends with every entry once, the forgotten entry still forgotten and the
closed item still closed. Real git, two machine homes, one bare remote (``tests.test_sync.Machine``)."""

import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from lazy_harness import paths, sync
from lazy_harness.memory import by_hand, handoff, handoff_answer, marks
from tests.test_sync import KEY, Machine, _git

NOW = time.time()


def _lines(m: Machine, kind: str) -> list[str]:
    path = m.mdir / f"{kind}s.jsonl"
    return [json.loads(ln)["summary"] for ln in path.read_text().splitlines() if ln.strip()]


def _remote_text(remote: Path, rel: str) -> str:
    return _git("--git-dir", str(remote), "show", f"main:{rel}")


@pytest.fixture
def old_b(tmp_path):
    """a and b synced once; then a alone adds a decision, forgets one, closes an item and pushes, and b
    (which saw none of it) adds a decision of its own."""
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    stale = a.add("decision", "Use tox for the test matrix")
    a.add("decision", "Keep the queue in Postgres")
    handoff_answer.apply_answer(str(a.mdir), ["Write the runbook", "Rotate the staging keys"], [],
                                {"session_id": "sa", "task_id": "ta"}, NOW - 100, NOW)
    a.sync()
    b.sync()
    a.add("decision", "Pushed by a while b was away")
    assert by_hand.forget(str(a.mdir), paths.learnings_dir(None, a.env), "demo", stale, "stale", NOW + 1)
    handoff_answer.apply_answer(str(a.mdir), [], ["Write the runbook"], {"session_id": "sa2", "task_id": "ta2"},
                                NOW - 50, NOW + 2)
    assert a.sync()["pushed"]
    b.add("decision", "Made on b while it was offline")
    return a, b, stale, remote


def _assert_whole(m: Machine, stale: str) -> None:
    got = _lines(m, "decision")
    for summary in ("Use tox for the test matrix", "Keep the queue in Postgres", "Pushed by a while b was away",
                    "Made on b while it was offline"):
        assert got.count(summary) == 1, (m.home.name, summary, got)
    assert stale in marks.hidden(str(m.mdir)), (m.home.name, "the forget came undone")
    forgets = [r for r in marks.read(str(m.mdir)) if r.get("id") == stale]
    assert len(forgets) == 1, (m.home.name, forgets)
    state, _ = handoff.load(str(m.mdir))
    assert [i["text"] for i in handoff.open_items(state)] == ["Rotate the staging keys"], m.home.name
    assert [i["text"] for i in handoff.closed_items(state)] == ["Write the runbook"], m.home.name
    m.no_conflict_markers()


def _take_back(hint: str) -> None:
    """Run what the round's hint says to run when the remote lost commits by accident."""
    said = re.search(r"by accident \(re-created from an older clone\), (.+?), then lh sync", hint)
    assert said, f"the hint names no way to take the remote back: {hint}"
    subprocess.run(said.group(1), shell=True, check=True)


@pytest.mark.parametrize("how", ["re-created", "force-pushed"])
def test_a_remote_rewritten_from_an_older_clone_loses_resurrects_and_duplicates_nothing(old_b, how):
    a, b, stale, remote = old_b
    if how == "re-created":  # the person deletes the remote and makes it again; b syncs first
        shutil.rmtree(remote)
        _git("init", "-q", "--bare", "-b", "main", str(remote))
        assert b.sync()["pushed"]
    else:  # b's old folder pushed over the remote by hand
        _git("-C", str(b.data), "add", "-A", "projects")
        _git("-C", str(b.data), "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "b offline")
        _git("-C", str(b.data), "push", "-q", "-f", "origin", "HEAD:refs/heads/main")
    rewritten = _git("--git-dir", str(remote), "rev-parse", "main").strip()
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    assert "history of the remote was rewritten" in exc.value.message, exc.value.message
    assert _git("--git-dir", str(remote), "rev-parse", "main").strip() == rewritten  # nothing pushed
    assert "Pushed by a while b was away" in _lines(a, "decision")  # nothing of a's lost on a
    assert stale in marks.hidden(str(a.mdir))
    _take_back(exc.value.hint or "")
    assert a.sync()["pushed"]
    b.sync()
    a.sync()
    for m in (a, b):
        _assert_whole(m, stale)
    on_remote = _remote_text(remote, f"projects/{KEY}/decisions.jsonl")
    assert on_remote.count("Pushed by a while b was away") == 1
