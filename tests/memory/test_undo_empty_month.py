"""Undoing a run that created the only learning of a month (and recovering a killed persist that had
created one) leaves no empty ``learnings/YYYY-MM/`` behind; a month folder that still holds anything
(another learning, a file the person put there) stays."""

import os

from lazy_harness.memory import journal


def _run_creating(memory_dir: str, path: str) -> str:
    j = journal.Journal(memory_dir, "test", "proj", 1_800_000_000.0)
    j.track(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("---\ntitle: t\n---\nbody\n")
    j.record(path)
    j.save()
    return j.run


def test_undoing_the_only_learning_of_a_month_removes_the_month_folder(tmp_path):
    mdir, ldir = tmp_path / "memory", tmp_path / "learnings"
    mdir.mkdir()
    path = str(ldir / "2031-02" / "2031-02-03-t.md")
    run = _run_creating(str(mdir), path)
    _, restored, problems = journal.undo(str(mdir), (str(mdir), str(ldir)), run)
    assert not problems and restored == [path]
    assert not os.path.exists(os.path.dirname(path)) and ldir.is_dir()


def test_a_month_folder_that_holds_anything_else_stays(tmp_path):
    mdir, ldir = tmp_path / "memory", tmp_path / "learnings"
    mdir.mkdir()
    path = str(ldir / "2031-02" / "2031-02-03-t.md")
    run = _run_creating(str(mdir), path)
    (ldir / "2031-02" / "notes.txt").write_text("mine\n")
    journal.undo(str(mdir), (str(mdir), str(ldir)), run)
    assert not os.path.exists(path)
    assert (ldir / "2031-02" / "notes.txt").read_text() == "mine\n"
