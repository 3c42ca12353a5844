"""The record of what ``lh sync`` brought in (sync/arrivals.py) for learnings: the other machine's
learning a round keeps under a name of its own is recorded as arrived; this machine's own learning,
sent back by the other machine under that name (the same bytes), is not (ADR 0032, "how a line arrived")."""

import time

from lazy_harness import paths
from lazy_harness.memory import ids, learnings, provenance
from tests.test_sync import Machine, _git

NOW = time.time()


def _record(m: Machine) -> set[str]:
    try:
        with open(paths.synced_in_file(m.env), encoding="utf-8") as fh:
            return set(fh.read().split())
    except FileNotFoundError:
        return set()


def _write(m: Machine, title: str, text: str, project: str) -> str:
    path, written = learnings.write_learning(
        paths.learnings_dir(None, m.env), {"title": title, "learning": text, "context": "c", "scope": "project"},
        {"project": project, "session_id": "s1", "task_id": "t1", "project_folder": "-work-demo"}, NOW)
    assert written
    return str(path)


def test_a_learning_kept_under_a_second_name_is_recorded_and_ones_own_is_not(tmp_path, isolated_home):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    a.add("decision", "Use SQLite for the index")
    a.sync()
    b.sync()
    on_a = _write(a, "Retry the model call", "API: retry twice, 2 s apart", "api")
    on_b = _write(b, "Retry the model call!", "WEB: never retry a POST", "web")
    a.sync()
    b.sync()
    second = on_b.replace(".md", "-2.md")
    a_id, b_id = ids.learning_id("api", "Retry the model call"), ids.learning_id("web", "Retry the model call!")
    assert {provenance.learning_place(second), a_id} <= _record(b), _record(b)
    assert provenance.learning_place(on_b) not in _record(b) and b_id not in _record(b)
    a.sync()  # a fast-forward: the other machine's learning at the first name, this one's own at -2
    b.sync()
    a.sync()
    assert provenance.learning_place(second) not in _record(a) and a_id not in _record(a), _record(a)
    assert {provenance.learning_place(on_a), b_id} <= _record(a)
