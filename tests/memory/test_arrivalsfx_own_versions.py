"""The record of what ``lh sync`` brought in (sync/arrivals.py) names what arrived, not what this
machine wrote itself (ADR 0032, "how a line arrived"): a learning is recorded and matched by its
place alone, a merged file or line whose bytes this machine committed first is not recorded, and the
other machine's version of an entry edited on both, journalled by the round, reads as synced once
``lh memory undo`` puts it in place (and as this machine's own again once its text is back).

Both machines run in this process, so every entry names this host: only the record tells them apart."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import by_hand, frontmatter, ids, journal, learnings, provenance
from tests.test_sync import Machine, _git

DAY = 86400.0
NOW = time.time()
HOST = os.uname().nodename


@pytest.fixture
def two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def _record(m: Machine) -> set[str]:
    try:
        with open(paths.synced_in_file(m.env), encoding="utf-8") as fh:
            return set(fh.read().split())
    except FileNotFoundError:
        return set()


def _write(m: Machine, title: str, text: str, now: float = NOW) -> str:
    path, written = learnings.write_learning(
        paths.learnings_dir(None, m.env), {"title": title, "learning": text, "context": "c", "scope": "project"},
        {"project": "demo", "session_id": "s-" + m.home.name, "task_id": "t1", "project_folder": "-work-demo"}, now)
    assert written
    return str(path)


def _origin(m: Machine, path: str, monkeypatch) -> str:
    """How ``path``'s learning reads on ``m`` (the SessionStart digest passes its path)."""
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", m.env["CLAUDE_CONFIG_DIR"])
    with open(path, encoding="utf-8") as fh:
        head = {**frontmatter.parse_frontmatter(fh.read())[0], "path": path}
    return provenance.describe(head, "learning", session_key="origin_session", project_field="origin")


def _decision(m: Machine, monkeypatch) -> str:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", m.env["CLAUDE_CONFIG_DIR"])
    [line] = (m.mdir / "decisions.jsonl").read_text().splitlines()
    return provenance.describe(json.loads(line), "decision")


def _edit(m: Machine, rationale: str) -> None:
    path = m.mdir / "decisions.jsonl"
    [line] = path.read_text().splitlines()
    path.write_text(json.dumps({**json.loads(line), "rationale": rationale}) + "\n")


def test_own_learning_back_in_its_own_bytes_after_a_forget_undone_elsewhere_is_not_recorded(two, monkeypatch):
    a, b = two
    on_a = _write(a, "Pin the sqlite version", "Pin it in the lock file.")
    a.sync()
    b.sync()
    original = open(on_a, "rb").read()
    with open(on_a, "wb") as fh:  # the forget on A: its status moves
        fh.write(original.replace(b"status: active", b"status: forgotten"))
    a.sync()
    b.sync()
    on_b = os.path.join(paths.learnings_dir(None, b.env), os.path.relpath(on_a, paths.learnings_dir(None, a.env)))
    with open(on_b, "wb") as fh:  # the forget undone on B: A's bytes again
        fh.write(original)
    b.sync()
    a.sync()
    assert open(on_a, "rb").read() == original
    assert provenance.learning_place(on_a) not in _record(a), _record(a)
    assert "sync" not in _origin(a, on_a, monkeypatch), _origin(a, on_a, monkeypatch)


def test_one_title_written_on_two_days_labels_only_the_other_machines_copy(two, monkeypatch):
    a, b = two
    on_a = _write(a, "Use tmp then rename", "A: rename is atomic.", NOW - 40 * DAY)
    a.sync()
    on_b = _write(b, "Use tmp then rename", "B: fsync the folder too.", NOW)
    assert os.path.basename(on_a) != os.path.basename(on_b)
    b.sync()
    a.sync()
    b.sync()
    lid = ids.learning_id("demo", "Use tmp then rename")
    places = {m: os.path.relpath(p, paths.learnings_dir(None, m.env)) for m, p in ((a, on_a), (b, on_b))}
    for m, other in ((a, b), (b, a)):
        root = paths.learnings_dir(None, m.env)
        here_own, here_other = os.path.join(root, places[m]), os.path.join(root, places[other])
        assert lid in _record(m), _record(m)  # for a reader that passes no path
        assert "sync" not in _origin(m, here_own, monkeypatch), (m.home.name, _origin(m, here_own, monkeypatch))
        assert "claims this machine" in _origin(m, here_other, monkeypatch), _origin(m, here_other, monkeypatch)


def test_a_forged_copy_of_an_arrived_learning_under_a_new_name_is_recorded(two):
    a, b = two
    a.add("decision", "Use SQLite for the index")
    a.sync()
    b.sync()
    on_b = _write(b, "Rotate the deploy key", "By hand, after each release.")
    b.sync()
    a.sync()
    copy = on_b.replace(".md", "-copy.md")
    with open(on_b, "rb") as src, open(copy, "wb") as dst:
        dst.write(src.read())
    b.sync()
    a.sync()
    assert provenance.learning_place(copy) in _record(a), _record(a)


def test_own_decision_line_back_in_its_own_bytes_is_not_recorded(two, monkeypatch):
    a, b = two
    eid = a.add("decision", "Keep the queue in files")
    a.sync()
    b.sync()
    first = (a.mdir / "decisions.jsonl").read_text()
    _edit(a, "edited on A")
    a.sync()
    b.sync()
    (b.mdir / "decisions.jsonl").write_text(first)  # B puts A's first line back
    b.sync()
    a.sync()
    assert (a.mdir / "decisions.jsonl").read_text() == first
    assert eid not in _record(a), _record(a)
    assert "sync" not in _decision(a, monkeypatch), _decision(a, monkeypatch)


def test_the_other_side_of_a_conflict_put_in_place_by_undo_reads_as_synced(two, monkeypatch):
    a, b = two
    a.add("decision", "Keep the queue in files")
    a.sync()
    b.sync()
    _edit(a, "edited on A")
    _edit(b, "edited on B: also always run rm -rf build first")
    b.sync()
    got = a.sync()
    [run] = [r["run"] for r in journal.runs(str(a.mdir)) if r["kind"] == "sync-conflict"]
    assert any(run in line for line in got["conflicts"]), got
    ours = (a.mdir / "decisions.jsonl").read_text()
    assert "sync" not in _decision(a, monkeypatch), _decision(a, monkeypatch)  # this machine's version kept
    by_hand.undo(str(a.mdir), paths.learnings_dir(None, a.env), run, 7, time.time())
    assert "edited on B" in (a.mdir / "decisions.jsonl").read_text()
    assert "claims this machine" in _decision(a, monkeypatch), _decision(a, monkeypatch)
    (a.mdir / "decisions.jsonl").write_text(ours)  # the person puts this machine's version back
    assert "sync" not in _decision(a, monkeypatch), _decision(a, monkeypatch)


def test_own_learning_whose_status_the_other_machine_changed_is_not_recorded(two, monkeypatch):
    """The other machine forgot or approved this machine's learning: only its status fields moved, the
    text is still this machine's, so it reads as its own, not as one claiming this machine."""
    a, b = two
    on_a = _write(a, "Keep the worker single instance", "A file lock around the drain.")
    a.sync()
    b.sync()
    on_b = os.path.join(paths.learnings_dir(None, b.env), os.path.relpath(on_a, paths.learnings_dir(None, a.env)))
    with open(on_b, "rb") as fh:
        text = fh.read()
    with open(on_b, "wb") as fh:  # B's approval or forget: the status fields move, nothing else
        fh.write(text.replace(b"status: active", b"status: deprecated"))
    b.sync()
    a.sync()
    assert b"status: deprecated" in open(on_a, "rb").read()
    assert "sync" not in _origin(a, on_a, monkeypatch)
