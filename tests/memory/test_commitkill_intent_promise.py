"""A record a persist promises (the checks it owes and the cursor's move: worker/owed.py) stands or
falls with the persist: named in its undo record before it is written (memory/intent.py
``promising``), written by ``apply``'s ``before_commit`` after the last write and before the commit,
removed by any rollback of that persist (at once, or by ``recover`` after a kill)."""

import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import intent, store
from tests.memory.test_store import META, NOW, answer, snapshot


@pytest.fixture
def where(tmp_path) -> tuple[str, str]:
    project = tmp_path / "proj"
    project.mkdir()
    return paths.memory_dir(str(project)), paths.learnings_dir()


def _promised(name: str = "task.json") -> str:
    folder = os.path.join(paths.state_dir(), "owed")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name)


def _plan(where, tag: str = ""):
    mdir, ldir = where
    return store.plan(answer(tag), mdir, ldir, META, NOW)


def test_before_commit_runs_after_the_writes_and_its_promise_outlives_the_commit(where):
    record = _promised()
    seen = []

    def before_commit(plan, report, log):
        seen.append((sorted(os.path.basename(p) for p in report.appended), report.created, os.path.exists(log.path)))
        log.promising(record)
        with open(record, "w") as fh:
            fh.write("{}")

    report = store.apply(_plan(where), before_commit)
    assert seen == [(["decisions.jsonl", "failures.jsonl"], report.created, True)] and report.created
    assert os.path.exists(record)  # committed: the promise stays
    assert os.listdir(paths.persist_intents_dir()) == []


def test_what_before_commit_raises_rolls_the_persist_and_its_promise_back(where):
    mdir, ldir = where
    os.makedirs(mdir, exist_ok=True)
    before = snapshot(mdir, ldir)
    record = _promised()

    def before_commit(plan, report, log):
        log.promising(record)
        with open(record, "w") as fh:
            fh.write("{}")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        store.apply(_plan(where), before_commit)
    assert not os.path.exists(record)
    assert snapshot(mdir, ldir) == before


def test_recover_after_a_kill_before_the_commit_removes_the_promise(where, monkeypatch):
    """A kill between the promise and the commit: the undo record names it, the next writer's
    ``recover`` rolls the persist back and the promise with it; ``pending`` says so meanwhile."""
    mdir, ldir = where
    record = _promised()
    left = []

    def killed_before_commit(plan, report, log):
        log.promising(record)
        with open(record, "w") as fh:
            fh.write("{}")
        left.append(log.path)
        raise SystemExit  # stands for the kill: the undo record stays as the rollback below fails

    with monkeypatch.context() as m, pytest.raises(SystemExit):
        m.setattr(intent.Intent, "rollback", lambda self, env=None: [])
        store.apply(_plan(where), killed_before_commit)
    assert intent.pending(left[0], record)
    assert not intent.pending(left[0], _promised("another.json"))
    assert intent.recover(mdir)
    assert not os.path.exists(record) and not intent.pending(left[0], record)
    assert store.apply(_plan(where)).created  # nothing of the first attempt stayed


def test_a_rollback_removes_no_file_outside_the_state_folder(where, tmp_path, monkeypatch):
    mdir, _ = where
    outside = tmp_path / "not-ours.json"
    outside.write_text("keep")

    def before_commit(plan, report, log):
        log.promising(str(outside))
        raise OSError(5, "I/O error")

    with pytest.raises(OSError):
        store.apply(_plan(where), before_commit)
    assert outside.read_text() == "keep"


def test_the_next_apply_rolls_a_killed_persist_back_and_reports_what_it_did(where, monkeypatch):
    """A writer killed mid-persist: the next ``apply`` on the folder takes it out first and says so in
    its report (the worker logs each line: memory taken out is never silent)."""
    mdir, _ = where

    def killed(plan, report, log):
        raise SystemExit  # the kill: the undo record stays as the rollback below fails

    with monkeypatch.context() as m, pytest.raises(SystemExit):
        m.setattr(intent.Intent, "rollback", lambda self, env=None: [])
        store.apply(_plan(where, "first"), killed)
    report = store.apply(_plan(where, "second"))
    assert report.created and report.recovered[0] == "rolled back an unfinished persist"
    with open(os.path.join(mdir, "decisions.jsonl"), encoding="utf-8") as fh:
        kept = fh.read()
    assert "first" not in kept and "second" in kept, kept  # the killed persist's lines went
