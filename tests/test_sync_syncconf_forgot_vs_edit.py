"""A learning forgotten (or deprecated) on one machine and edited by hand on the other: the status
that moved on is kept, and so is the edit, on both machines, whichever synced first; the round says
so with a ``conflict:`` line, and undoing the forget brings the learning back with the edit. Real
git, two machine homes, one bare remote."""

import base64
import time
from pathlib import Path

import pytest

from lazy_harness import paths, sync
from lazy_harness.memory import by_hand, journal, learnings
from tests.test_sync import Machine, _git

NOW = time.time()
EDIT = "Retry twice, 2 s apart, and never a POST (EDITED ON B)."


def _setup(tmp_path: Path) -> tuple[Machine, Machine, Path, str]:
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    a.add("decision", "Use SQLite")
    path, written = learnings.write_learning(
        paths.learnings_dir(None, a.env),
        {"title": "Retry the model call", "learning": "Retry twice.", "context": "c", "scope": "project"},
        {"project": "demo", "session_id": "s1", "task_id": "t1", "project_folder": "-work-demo"}, NOW)
    assert written
    a.sync()
    b.sync()
    return a, b, Path(path).relative_to(a.data), learnings.id_of(path)


def _edit_survives(m: Machine, rel: Path) -> bool:
    """The edit is in the file, or in the "before" of a sync-conflict run of the machine's project."""
    if EDIT in (m.data / rel).read_text():
        return True
    return any(r["kind"] == "sync-conflict" and any(
        f.get("before") and EDIT in base64.b64decode(f["before"]).decode() for f in r["files"])
        for r in journal.runs(str(m.mdir)))


def _status(m: Machine, rel: Path) -> list[str]:
    return [ln for ln in (m.data / rel).read_text().splitlines() if ln.startswith("status:")]


@pytest.mark.parametrize("first", ["a", "b"])
def test_a_learning_forgotten_on_one_machine_and_edited_on_the_other_keeps_both(tmp_path, first):
    a, b, rel, lid = _setup(tmp_path)
    run = by_hand.forget(str(a.mdir), paths.learnings_dir(None, a.env), "demo", lid, "stale", NOW + 1)
    assert run
    on_b = b.data / rel
    on_b.write_text(on_b.read_text().replace("Retry twice.", EDIT))
    said = []
    for m in ((a, b, a, b) if first == "a" else (b, a, b, a)):
        said += m.sync()["conflicts"]
    assert len(said) == 1 and str(rel.name) in said[0], said
    for m in (a, b):
        assert _status(m, rel) == ["status: forgotten"], m.home.name  # the status that moved on
        assert _edit_survives(m, rel), m.home.name
    assert (a.data / rel).read_text() == (b.data / rel).read_text()
    _, restored, problems = by_hand.undo(str(a.mdir), paths.learnings_dir(None, a.env), run, 7, NOW + 2)
    assert problems == []
    for m in (a, b, a, b):
        m.sync()
    for m in (a, b):
        assert _status(m, rel) == ["status: active"] and EDIT in (m.data / rel).read_text(), m.home.name


def _learning(status: str, body: str, extra: str = "") -> bytes:
    return f"---\nid: l-0123abcd\ntitle: t\nstatus: {status}\n{extra}---\n{body}\n".encode()


@pytest.mark.parametrize("swap", [False, True])
def test_merge_learning_keeps_a_body_edit_under_the_status_that_moved_on(swap):
    base = _learning("active", "body")
    moved = _learning("deprecated", "body", "deprecated_reason: old\n")
    edited = _learning("active", "body, edited")
    ours, theirs = (edited, moved) if swap else (moved, edited)
    noted: list = []
    merged = sync.merge_learning(base, ours, theirs, noted)
    assert merged == _learning("deprecated", "body, edited", "deprecated_reason: old\n")
    assert len(noted) == 1  # said, not journalled: nothing of either side is left out


@pytest.mark.parametrize("swap", [False, True])
def test_merge_learning_journals_the_other_body_when_both_bodies_changed(swap):
    base = _learning("active", "body")
    moved = _learning("forgotten", "body, edited with the forget")
    edited = _learning("active", "body, edited by hand")
    ours, theirs = (edited, moved) if swap else (moved, edited)
    noted: list = []
    assert sync.merge_learning(base, ours, theirs, noted) == moved
    [(key, kept, other)] = noted
    assert (kept, other) == (moved, edited)


def test_the_round_that_keeps_the_other_machines_version_says_so(tmp_path):
    """Forgotten on a with its text edited too, edited by hand on b: the status that moved on (a's) stays
    on both. b's round said "kept this machine's version" of a version that was a's, and its undo note
    offered "the other machine's version" while it held b's own."""
    a, b, rel, lid = _setup(tmp_path)
    assert by_hand.forget(str(a.mdir), paths.learnings_dir(None, a.env), "demo", lid, "stale", NOW + 1)
    on_a, on_b = a.data / rel, b.data / rel
    on_a.write_text(on_a.read_text().replace("Retry twice.", "Retry twice (a's last word before forgetting)."))
    on_b.write_text(on_b.read_text().replace("Retry twice.", EDIT))
    a.sync()
    [said] = b.sync()["conflicts"]
    assert _status(b, rel) == ["status: forgotten"] and EDIT not in on_b.read_text()
    assert "kept the other machine's version" in said and "this machine's is journalled" in said, said
    [run] = [r for r in journal.runs(str(b.mdir)) if r["kind"] == "sync-conflict"]
    assert "undo puts the this machine's version" not in run["changes"][0]
    # why not "this machine's": the note is synced and read on a too, where b's version is the other's
    assert "undo puts the version not kept in place" in run["changes"][0], run["changes"]
    assert _edit_survives(b, rel)
