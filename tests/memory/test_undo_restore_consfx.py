"""Undoing a restore run after the consolidation whose mark it took out was undone: the mark of an
undone run is not put back (review 4)."""

import os
import time
from pathlib import Path

import pytest

from lazy_harness.memory import journal, marks, store
from lazy_harness.worker import consolidate as job
from tests.cli.lhrun import invoke
from tests.support import fake_claude

NOW = time.time()


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path, Path]:
    from lazy_harness import paths

    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer={})
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / ".git").mkdir()
    mdir = Path(paths.memory_dir(str(proj)))
    ldir = Path(paths.learnings_dir())
    ldir.mkdir(parents=True, exist_ok=True)
    return bin_dir, proj, mdir, ldir


def _persist(summary: str, world: tuple, sid: str, when: float) -> None:
    _, proj, mdir, ldir = world
    meta = {"project": "proj", "session_id": sid, "task_id": f"t-{sid}", "cwd": str(proj),
            "project_folder": mdir.name}
    store.persist({"decisions": [{"summary": summary}]}, str(mdir), str(ldir), meta, when)


def _superseded_then_restored(world: tuple) -> tuple[str, str, str]:
    """A superseded by B in a consolidation run, then made again (a restore run); (a, b, the run)."""
    from lazy_harness import config

    bin_dir, proj, mdir, ldir = world
    _persist("Serve with vLLM", world, "s1", NOW - 7200)
    _persist("Serve with llama.cpp instead of vLLM", world, "s2", NOW - 6000)
    a, b = [e.id for e in job.candidates(str(mdir), str(ldir), "proj").decisions]
    fake_claude.control(bin_dir, mode="ok", answer={"supersede": [{"old": a, "new": b, "reason": "switched"}]})
    run = job.run(str(mdir), str(ldir), "proj", config.defaults(), os.environ, NOW - 5000).run
    assert run and a in marks.hidden(str(mdir))
    _persist("Serve with vLLM", world, "s3", NOW - 3000)
    assert a not in marks.hidden(str(mdir))
    return a, b, run


def test_undoing_the_restore_does_not_bring_back_the_mark_of_an_undone_run(world):
    _, proj, mdir, _ = world
    a, _, run = _superseded_then_restored(world)
    assert invoke("memory", "undo", run, "--project", str(proj)).code == 0
    assert a not in marks.hidden(str(mdir))
    r = invoke("memory", "undo", "--project", str(proj))
    assert r.code == 0 and "restore" in r.out, r.out + r.err
    assert a not in marks.hidden(str(mdir))
    assert [m for m in marks.read(str(mdir)) if m.get("run") == run] == []


def test_undoing_the_restore_after_a_later_mark_keeps_that_mark_and_drops_the_undone_one(world):
    from lazy_harness.memory import by_hand

    _, proj, mdir, ldir = world
    a, b, run = _superseded_then_restored(world)
    assert invoke("memory", "undo", run, "--project", str(proj)).code == 0
    by_hand.forget(str(mdir), str(ldir), "proj", b, "not wanted", time.time())  # a mark written since
    restore = [d["run"] for d in journal.runs(str(mdir)) if d["kind"] == "restore"]
    assert len(restore) == 1
    r = invoke("memory", "undo", restore[0], "--project", str(proj))
    assert r.code == 0, r.err
    assert a not in marks.hidden(str(mdir))
    assert marks.hidden(str(mdir))[b]["op"] == "forget"


def test_undoing_the_restore_while_the_consolidation_stands_hides_the_entry_again(world):
    _, proj, mdir, _ = world
    a, b, run = _superseded_then_restored(world)
    r = invoke("memory", "undo", "--project", str(proj))
    assert r.code == 0 and "restore" in r.out, r.out + r.err
    assert marks.hidden(str(mdir))[a]["by"] == b
