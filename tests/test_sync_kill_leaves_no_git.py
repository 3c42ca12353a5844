"""A sync round killed at any step of its own leaves no git of its running behind it.

Why it matters: git given its input through a pipe started before the round had written that input. A
round killed while it wrote the list of paths to stage left ``git add -A --pathspec-from-file=-``
running on what it had read, none of it: git then staged the whole data folder (a person's notes
too), and went on into the next round, which removed the "stale" ``index.lock`` and wrote the index
beside it. Every round after stopped on "index file smaller than expected".

The round is killed before each of its file-system steps in turn (tests/support/crashpoint.py); at
each stop the test looks for a child process of the round's. Real git, one machine, a bare remote."""

import json
import sys
from pathlib import Path

from tests.support import crashpoint, processes
from tests.test_sync import Machine, _git
from tests.test_sync_syncconf_crash import CHILD, LAST  # the round armed to stop at its n-th step



def _machine(root: Path) -> Machine:
    root.mkdir()
    remote = root / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    m = Machine(root, remote, "a")
    m.add("decision", "Use SQLite for the index")
    m.sync()
    m.add("decision", "Ship as a wheel")
    m.add("failure", "The wheel build forgot the model file")
    (m.data / "notes.txt").write_text("a person's own notes, never synced\n")
    return m


def test_no_git_of_a_killed_round_outlives_it(tmp_path):
    running = []

    def look(pid: int, line: str) -> None:
        left = processes.children(pid)
        if left:
            running.append((line, processes.describe(left)))

    line = ""
    for n in range(1, LAST):
        m = _machine(tmp_path / f"n{n}")
        line = crashpoint.run_to([sys.executable, "-c", CHILD, str(n), m.cfg["sync"]["remote"], json.dumps(m.env)],
                                 at_stop=look)
        if line == "finished":
            break
    assert line == "finished", f"the round did not finish within {LAST} steps"
    assert running == []


def test_a_round_after_a_killed_one_commits_memory_and_never_the_persons_notes(tmp_path):
    m = _machine(tmp_path / "m")
    for n in (1, 2, 3):
        crashpoint.run_to([sys.executable, "-c", CHILD, str(n), m.cfg["sync"]["remote"], json.dumps(m.env)])
    m.sync()
    shipped = _git("ls-tree", "-r", "--name-only", "main", cwd=tmp_path / "m" / "remote.git").split()
    assert "notes.txt" not in shipped
    assert {"projects/-work-demo/decisions.jsonl", "projects/-work-demo/failures.jsonl"} <= set(shipped)
    assert len(m.ids("decision")) == 2


def test_a_round_rebuilds_an_index_git_cannot_read_and_syncs(tmp_path):
    """What two gits writing one index left (seen in a walk above before the fix): git refused it
    in every round after. The next round puts it back from the last commit and syncs."""
    m = _machine(tmp_path / "m")
    index = m.data / ".git" / "index"
    index.write_bytes(index.read_bytes()[:20])
    got = m.sync()
    assert any("index" in line for line in got["repaired"]), got["repaired"]
    shipped = _git("show", "main:projects/-work-demo/decisions.jsonl", cwd=tmp_path / "m" / "remote.git")
    assert "Ship as a wheel" in shipped and "Use SQLite for the index" in shipped
    assert (m.data / "notes.txt").read_text() == "a person's own notes, never synced\n"
    assert m.sync()["repaired"] == []


def test_a_repository_with_no_commit_and_an_index_git_cannot_read_syncs(tmp_path):
    root = tmp_path / "m"
    root.mkdir()
    remote = root / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    m = Machine(root, remote, "a")
    m.data.mkdir(parents=True)
    _git("init", "-q", "-b", "main", str(m.data))
    (m.data / ".git" / "index").write_bytes(b"DIRC\0\0")
    m.add("decision", "Use SQLite for the index")
    got = m.sync()
    assert any("index" in line for line in got["repaired"]), got["repaired"]
    assert "Use SQLite" in _git("show", "main:projects/-work-demo/decisions.jsonl", cwd=remote)
