"""Two machines write a learning under one file name (the same day, titles that slug the same): after
syncing, both machines hold both, the other machine's under the next free name (``-2``), as the
writer names a second learning of one slug on one machine; the round says so once. The same
learning written on both with different texts keeps this machine's and journals the other. Real git,
two machine homes, one bare remote."""

import time
from pathlib import Path

from lazy_harness import paths
from lazy_harness.memory import journal, learnings
from tests.test_sync import Machine, _git

NOW = time.time()


def _two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    a.add("decision", "Use SQLite for the index")
    a.sync()
    b.sync()
    return a, b


def _write(m: Machine, title: str, text: str, project: str) -> Path:
    path, written = learnings.write_learning(
        paths.learnings_dir(None, m.env), {"title": title, "learning": text, "context": "c", "scope": "project"},
        {"project": project, "session_id": "s1", "task_id": "t1", "project_folder": "-work-demo"}, NOW)
    assert written
    return Path(path)


def _texts(m: Machine) -> dict[str, str]:
    folder = Path(paths.learnings_dir(None, m.env))
    return {p.name: p.read_text() for p in sorted(folder.glob("*/*.md"))}


def test_two_learnings_under_one_name_both_reach_both_machines(tmp_path):
    a, b = _two(tmp_path)
    on_a = _write(a, "Retry the model call", "API: retry twice, 2 s apart", "api")
    on_b = _write(b, "Retry the model call!", "WEB: never retry a POST", "web")
    assert on_a.name == on_b.name
    a.sync()
    said = b.sync()["conflicts"]
    a.sync()
    b.sync()
    for m in (a, b):
        texts = _texts(m)
        assert len(texts) == 2, (m.home.name, list(texts))
        assert sum("API: retry twice" in t for t in texts.values()) == 1
        assert sum("WEB: never retry a POST" in t for t in texts.values()) == 1
        assert on_a.name in texts and on_a.name.replace(".md", "-2.md") in texts
        m.no_conflict_markers()
    assert (b.data / "knowledge" / "learnings" / on_b.parent.name / on_b.name).read_text().count("WEB:") == 1
    [line] = said
    assert on_a.name in line and on_a.name.replace(".md", "-2.md") in line
    assert a.sync()["conflicts"] == [] and b.sync()["conflicts"] == []


def test_the_same_learning_written_on_both_with_other_texts_keeps_both(tmp_path):
    a, b = _two(tmp_path)
    _write(a, "Retry the model call", "Retry twice (written on a)", "api")
    mine = _write(b, "Retry the model call", "Retry three times (written on b)", "api")
    a.sync()
    [said] = b.sync()["conflicts"]
    assert "Retry three times (written on b)" in mine.read_text()  # this machine's stays
    assert "lh memory undo" in said
    [run] = [r for r in journal.runs(str(b.mdir)) if r["kind"] == "sync-conflict"]
    journal.undo(str(b.mdir), (str(b.mdir), str(paths.learnings_dir(None, b.env))), run["run"])
    assert "Retry twice (written on a)" in mine.read_text()  # the other machine's, put in place
