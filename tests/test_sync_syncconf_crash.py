"""A round killed while it keeps the other machine's version of a conflict (sync/conflicts.py) loses
nothing: the conflict note stays until every conflict in it is written to its ``-2`` name or
journalled, and the next round finishes the job without writing anything twice.

B's round is killed before each of its file-system steps in turn (tests/support/crashpoint.py),
then B, A, B and A sync normally. Real git, two machine homes, one bare remote."""

import base64
import json
import sys
import time
from pathlib import Path

from lazy_harness import paths
from lazy_harness.memory import journal, learnings
from tests.support import crashpoint
from tests.test_sync import Machine, _git

NOW = time.time()
CHILD = r'''
import json, sys
from lazy_harness import config, sync
from tests.support import crashpoint
cfg = config.defaults()
cfg["sync"]["remote"] = sys.argv[2]
env = json.loads(sys.argv[3])
crashpoint.arm(int(sys.argv[1]))
try:
    sync.run(cfg, env)
except Exception:
    pass
crashpoint.finished()
'''
LAST = 60  # a round of these takes about a dozen steps; a walk past this many is a hang


def _two(root: Path) -> tuple[Machine, Machine]:
    root.mkdir()
    remote = root / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    return Machine(root, remote, "a"), Machine(root, remote, "b")


def _killed_at(n: int, m: Machine) -> str:
    return crashpoint.run_to([sys.executable, "-c", CHILD, str(n), m.cfg["sync"]["remote"], json.dumps(m.env)])


def _walk(tmp_path: Path, setup, check) -> None:
    """Kill B's round before its n-th step, n = 1, 2 ... until it finishes; then sync B, A, B, A
    and ``check`` both machines. Every kill point that fails is reported at once."""
    bad = []
    for n in range(1, LAST):
        a, b = _two(tmp_path / f"n{n}")
        extra = setup(a, b)
        line = _killed_at(n, b)
        for m in (b, a, b, a):
            m.sync()
        problem = check(a, b, extra)
        if problem:
            bad.append((n, line, problem))
        if line == "finished":
            break
    assert line == "finished", f"the round did not finish within {LAST} steps"
    assert bad == []


def _write(m: Machine, title: str, text: str, project: str) -> Path:
    path, written = learnings.write_learning(
        paths.learnings_dir(None, m.env), {"title": title, "learning": text, "context": "c", "scope": "project"},
        {"project": project, "session_id": "s1", "task_id": "t1", "project_folder": "-work-demo"}, NOW)
    assert written
    return Path(path)


def _learning_texts(m: Machine) -> list[str]:
    return [p.read_text() for p in sorted(Path(paths.learnings_dir(None, m.env)).glob("*/*.md"))]


def test_a_killed_round_keeps_both_learnings_added_under_one_name(tmp_path):
    def setup(a: Machine, b: Machine) -> None:
        a.add("decision", "Use SQLite")
        a.sync()
        b.sync()
        _write(a, "Retry the model call", "API: retry twice", "api")
        a.sync()
        _write(b, "Retry the model call!", "WEB: never retry a POST", "web")

    def check(a: Machine, b: Machine, _: None) -> dict:
        counts = {m.home.name: (sum("API: retry twice" in t for t in _learning_texts(m)),
                                sum("WEB: never retry a POST" in t for t in _learning_texts(m)),
                                len(_learning_texts(m))) for m in (a, b)}
        return {} if all(c == (1, 1, 2) for c in counts.values()) else counts

    _walk(tmp_path, setup, check)


def _edit(m: Machine, eid: str, **fields) -> None:
    path = m.mdir / "decisions.jsonl"
    out = []
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        if rec.get("id") == eid:
            rec.update(fields)
            line = json.dumps(rec)
        out.append(line)
    path.write_text("".join(ln + "\n" for ln in out))


def _conflict_runs_holding(m: Machine, text: str) -> int:
    """How many sync-conflict runs of B's project hold ``text`` in a file's "before"."""
    count = 0
    for run in journal.runs(str(m.mdir)):
        if run["kind"] == "sync-conflict":
            count += any(f.get("before") and text in base64.b64decode(f["before"]).decode() for f in run["files"])
    return count


def test_a_killed_round_journals_the_other_machines_edit_exactly_once(tmp_path):
    def setup(a: Machine, b: Machine) -> str:
        eid = a.add("decision", "Use SQLite for the index")
        a.add("decision", "Ship as a wheel")
        a.sync()
        b.sync()
        _edit(a, eid, rationale="EDIT-ON-A")
        a.add("decision", "new on a")
        a.sync()
        _edit(b, eid, rationale="EDIT-ON-B")
        b.add("decision", "new on b")
        return eid

    def check(a: Machine, b: Machine, eid: str) -> dict:
        problems = {}
        for m in (a, b):
            got = m.ids("decision")
            if len(got) != 4 or len(set(got)) != 4:
                problems[m.home.name + " ids"] = got
        in_file = "EDIT-ON-A" in (b.mdir / "decisions.jsonl").read_text()
        runs = _conflict_runs_holding(b, "EDIT-ON-A")
        if not (in_file or runs == 1):
            problems["A's edit on B"] = {"in file": in_file, "journalled": runs}
        return problems

    _walk(tmp_path, setup, check)
