"""Folders a merge empties: the round writes the merged files itself (sync/write_merged.py ``_install``), so
it also removes, as ``git merge`` would, a folder that a file the merge removes leaves empty (a month
of learnings removed or moved on another machine, a project's journal pruned). Only such a folder, only
when it is empty: a folder that holds anything (a file this machine keeps to itself, one a person put
there) stays, and so do the memory and learnings roots. Real git, two machine homes, one bare remote."""

import calendar
import json
import os
import shutil
import threading
from pathlib import Path

import pytest

from lazy_harness import atomic, paths
from lazy_harness.memory import learnings
from lazy_harness.sync import merge, write_merged
from tests.support import pausing
from tests.test_sync import KEY, Machine, _git
from tests.test_syncrace_merge_window import watch_append_line

JAN = calendar.timegm((2025, 1, 15, 12, 0, 0))
FEB = calendar.timegm((2025, 2, 15, 12, 0, 0))


def _two(tmp_path: Path) -> tuple[Machine, Machine]:
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    a.add("decision", "seed from a")
    return a, b


def _learn(m: Machine, title: str, now: float) -> Path:
    path, written = learnings.write_learning(
        paths.learnings_dir(None, m.env), {"title": title, "learning": f"text of {title}", "context": "c",
                                           "scope": "project"},
        {"project": "demo", "session_id": "s1", "task_id": "t1", "project_folder": KEY}, now)
    assert written
    return Path(path)


def _ldir(m: Machine) -> Path:
    return Path(paths.learnings_dir(None, m.env))


def _months(m: Machine) -> list[str]:
    return sorted(p.name for p in _ldir(m).iterdir() if p.is_dir())


def _empty_folders(m: Machine) -> list[str]:
    """Every empty folder in the data folder, outside .git."""
    out = []
    for base, dirs, names in os.walk(m.data):
        dirs[:] = [d for d in dirs if d != ".git"]
        if not dirs and not names:
            out.append(os.path.relpath(base, m.data))
    return out


def _remote_paths(m: Machine) -> list[str]:
    return _git("--git-dir", str(m.cfg["sync"]["remote"]), "ls-tree", "-r", "--name-only", "main").split()


def test_a_month_of_learnings_removed_on_the_other_machine_leaves_no_empty_folder_here(tmp_path):
    a, b = _two(tmp_path)
    jan = [_learn(a, "retry the model call", JAN), _learn(a, "pin the wheel", JAN)]
    feb = _learn(a, "index in sqlite", FEB)
    a.sync()
    b.sync()
    assert _months(b) == ["2025-01", "2025-02"]
    shutil.rmtree(jan[0].parent)  # the month removed on a (moved elsewhere, consolidated away)
    a.sync()
    changed = b.sync()
    assert changed["merged"] == 2
    assert _months(b) == ["2025-02"]
    assert (_ldir(b) / "2025-02" / feb.name).read_bytes() == feb.read_bytes()
    assert _empty_folders(b) == []
    shutil.rmtree(feb.parent)  # every learning gone: the learnings folder itself stays
    a.sync()
    b.sync()
    assert _ldir(b).is_dir() and _months(b) == []


def test_a_learning_moved_to_another_month_on_the_other_machine_leaves_the_old_folder_gone(tmp_path):
    a, b = _two(tmp_path)
    moved = _learn(a, "retry the model call", JAN)
    kept = _learn(a, "index in sqlite", FEB)
    a.sync()
    b.sync()
    text = moved.read_bytes()
    target = _ldir(a) / "2025-03" / moved.name
    target.parent.mkdir()
    os.rename(moved, target)
    os.rmdir(moved.parent)
    a.sync()
    b.sync()
    assert _months(b) == ["2025-02", "2025-03"]
    assert (_ldir(b) / "2025-03" / moved.name).read_bytes() == text
    assert (_ldir(b) / "2025-02" / kept.name).read_bytes() == kept.read_bytes()
    assert _empty_folders(b) == []
    b.no_conflict_markers()


@pytest.mark.parametrize("name", ["notes.txt", "editor.lock"])  # one committed by no round yet, one ignored
def test_a_folder_the_merge_empties_that_holds_a_file_put_there_stays_with_it(tmp_path, monkeypatch, name):
    a, b = _two(tmp_path)
    jan = _learn(a, "retry the model call", JAN)
    a.sync()
    b.sync()
    os.unlink(jan)
    os.rmdir(jan.parent)
    a.sync()
    mine = _ldir(b) / "2025-01" / name
    real = merge._git

    def git(data, *args, **kw):  # a person saves a file there after the round committed
        if args[:1] == ("diff-tree",) and data == str(b.data) and not mine.exists():
            mine.write_text("mine\n")
        return real(data, *args, **kw)

    monkeypatch.setattr(merge, "_git", git)
    b.sync()
    assert not (_ldir(b) / "2025-01" / jan.name).exists()  # the merge removed the learning
    assert mine.read_text() == "mine\n"  # and kept the folder with the person's file


def test_a_local_removal_goes_out_and_the_other_machine_keeps_no_empty_folder(tmp_path):
    a, b = _two(tmp_path)
    jan = _learn(a, "retry the model call", JAN)
    feb = _learn(a, "index in sqlite", FEB)
    a.sync()
    b.sync()
    rel = jan.relative_to(a.data).as_posix()
    shutil.rmtree(jan.parent)  # removed on a
    a.sync()
    b.sync()
    a.sync()
    assert rel not in _remote_paths(a)
    for m in (a, b):
        assert _months(m) == ["2025-02"]
        assert (_ldir(m) / "2025-02" / feb.name).read_bytes() == feb.read_bytes()
        assert _empty_folders(m) == []
        assert not (m.data / ".git" / write_merged.STAGE).exists()


def test_a_journal_pruned_on_the_other_machine_leaves_no_empty_journal_folder(tmp_path):
    a, b = _two(tmp_path)
    journal = a.mdir / "journal"
    journal.mkdir()
    (journal / "r-1.json").write_text(json.dumps({"run": "r-1"}) + "\n")
    a.sync()
    b.sync()
    assert (b.mdir / "journal" / "r-1.json").is_file()
    shutil.rmtree(journal)
    a.sync()
    b.sync()
    assert not (b.mdir / "journal").exists()
    assert (b.mdir / "decisions.jsonl").is_file()  # the project's folder holds its memory still
    assert _empty_folders(b) == []


def test_a_line_appended_to_a_file_the_merge_removes_lands_in_its_folder(tmp_path, monkeypatch):
    """A writer that waited for the lock of a JSONL file the merge removes (``append_line``; the
    worker's usage lines take no folder lock) appends at its path after the merge emptied and removed
    its folder: ``append_line`` makes the folder again, and the line is not lost."""
    a, b = _two(tmp_path)
    other = a.data / "projects" / "-work-other"
    other.mkdir(parents=True)
    usage = other / "usage.jsonl"
    usage.write_text(json.dumps({"ts": "2025-01-15T12:00:00Z", "op": "session", "session": "s0"}) + "\n")
    a.sync()
    b.sync()
    shutil.rmtree(other)  # the project's memory moved away on a
    a.sync()
    target = str(b.data / "projects" / "-work-other" / "usage.jsonl")
    paused = pausing.pause(monkeypatch, write_merged.os, "unlink", "round", target=target)
    waits = threading.Event()
    watch = watch_append_line(monkeypatch, waits, target)
    round_ = pausing.run("round", b.sync)
    paused.wait()  # the round holds the file's lock, about to remove it
    line = json.dumps({"ts": "2025-01-16T12:00:00Z", "op": "session", "session": "s1"})
    writer = pausing.run("writer", atomic.append_line, target, line, ended=waits)
    pausing.wait_for(waits, "the writer neither waited for the lock nor ended")
    paused.go()
    round_.join()
    writer.join()
    assert watch.waited
    assert Path(target).read_text() == line + "\n"
