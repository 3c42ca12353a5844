"""Undo records (journals) across two machines: real git, two machine homes at different paths, one
bare remote.

- The same run undone on both machines before they sync: the journal, changed on both sides, merges
  (the union of the files restored, the earliest undone time) and every later round succeeds; a
  journal that is not JSON, or one written by an older version, does not stop a round either.
- A journal records its files relative to its memory folder, so the other machine's undo of a run
  synced from here works there; a record of an older version, whose absolute paths name another
  machine's folders, cannot be applied here: a plain undo passes over it, naming it, and undoes the
  newest run it can; named, it is refused with a one-line error.
"""

import json
import os
import time

import pytest

from lazy_harness import sync
from lazy_harness.errors import LhError
from lazy_harness.logfile import stamp
from lazy_harness.memory import by_hand, journal, marks
from tests.test_sync import Machine, _git


@pytest.fixture
def two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def _ldir(m: Machine) -> str:
    return str(m.data / "knowledge" / "learnings")


def _forget(m: Machine, eid: str, now: float) -> str:
    run = by_hand.forget(str(m.mdir), _ldir(m), "demo", eid, "forgotten by hand", now)
    assert run
    return run


def _undo(m: Machine, run: str | None = None, now: float | None = None) -> tuple[dict, list, list]:
    return by_hand.undo(str(m.mdir), _ldir(m), run, 7.0, time.time() if now is None else now)


def _forgotten(m: Machine) -> set[str]:
    return set(marks.hidden(str(m.mdir)))


def _journal(m: Machine, run: str) -> dict:
    return json.loads((m.mdir / "journal" / f"{run}.json").read_text())


# --- the same run undone on both machines ---------------------------------------------------------

def test_a_run_undone_on_both_machines_merges_and_reads_undone_on_both(two):
    a, b = two
    x = a.add("decision", "Use Redis for the cache")
    a.sync()
    b.sync()
    run = _forget(a, x, time.time() - 60)
    a.sync()
    b.sync()
    assert x in _forgotten(b)
    _, restored_b, problems_b = _undo(b, run, now=time.time() - 30)
    _, restored_a, problems_a = _undo(a, run, now=time.time() - 10)
    assert problems_b == problems_a == [] and restored_b and restored_a
    for m in (a, b, a, b):
        m.sync()  # every round succeeds (the journal changed on both sides merges)
    for m in (a, b):
        data = _journal(m, run)
        assert data["undone"] == journal.runs(str(m.mdir))[0]["undone"]
        assert x not in _forgotten(m)
        m.no_conflict_markers()
    assert _journal(a, run) == _journal(b, run)  # the same record on both
    undone_b = _journal(b, run)["undone"]
    assert undone_b is not None and all(f["restored"] for f in _journal(b, run)["files"])
    assert sync.status(b.cfg, b.env)["last_error"] in (None, "")


def _commit_journal(m: Machine, run: str, text: str) -> None:
    (m.mdir / "journal").mkdir(parents=True, exist_ok=True)
    (m.mdir / "journal" / f"{run}.json").write_text(text)


def _record(run: str, undone: str | None, restored: str | None, path: str = "marks.jsonl") -> dict:
    return {"run": run, "kind": "forget", "project": "demo", "started": "2026-01-02T10:00:00+00:00",
            "changes": ["forget d-00000001: by hand"], "undone": undone,
            "files": [{"path": path, "before": "", "before_size": 0, "after_sha": None, "appended": [],
                       "restored": restored}]}


def test_the_merge_takes_the_earliest_undone_time_and_every_file_restored(two):
    a, b = two
    run = "20260102-100000000000-abcd"
    a.add("decision", "Use Redis for the cache")
    _commit_journal(a, run, json.dumps(_record(run, None, None), indent=1))
    a.sync()
    b.sync()
    _commit_journal(a, run, json.dumps(_record(run, "2026-01-02T12:00:00+00:00", "2026-01-02T12:00:00+00:00"),
                                       indent=1))
    # earlier, in another time zone: 11:00 UTC
    _commit_journal(b, run, json.dumps(_record(run, "2026-01-02T13:00:00+02:00", "2026-01-02T13:00:00+02:00"),
                                       indent=1))
    a.sync()
    b.sync()
    a.sync()
    for m in (a, b):
        data = _journal(m, run)
        assert data["undone"] == "2026-01-02T13:00:00+02:00" == data["files"][0]["restored"]


@pytest.mark.parametrize("ours, theirs", [
    ("{ this journal was damaged by hand", "good"),
    ("good", "[1, 2, 3]\n"),
    ("old", "good"),  # written by an older version: absolute paths, no restored field
])
def test_a_damaged_or_old_journal_changed_on_both_does_not_stop_a_round(two, ours, theirs):
    a, b = two
    run = "20260102-100000000000-abcd"
    a.add("decision", "Use Redis for the cache")
    _commit_journal(a, run, json.dumps(_record(run, None, None), indent=1))
    a.sync()
    b.sync()
    texts = {"good": json.dumps(_record(run, "2026-01-02T12:00:00+00:00", "2026-01-02T12:00:00+00:00"), indent=1),
             "old": json.dumps({**_record(run, "2026-01-02T11:30:00+00:00", None, path="/home/a/marks.jsonl")},
                               indent=2)}
    _commit_journal(b, run, texts.get(ours, ours))
    _commit_journal(a, run, texts.get(theirs, theirs))
    a.sync()
    b.sync()  # the merge of the journal: no conflict, no failed round
    a.sync()
    b.sync()
    assert (a.mdir / "journal" / f"{run}.json").read_bytes() == (b.mdir / "journal" / f"{run}.json").read_bytes()
    for m in (a, b):
        m.no_conflict_markers()
    [kept] = [r for r in journal.runs(str(b.mdir)) if r["run"] == run]
    assert kept["undone"]  # the well-formed side's undo is kept


def test_git_runs_the_journal_driver_ensure_repo_registered(tmp_path):
    """Run as git runs it: through the shell, in the synced folder (whose json.py is not imported),
    the merge read back from %A."""
    import subprocess

    data = tmp_path / "data"
    sync.ensure_repo(str(data), str(tmp_path / "remote.git"))
    assert "*.json merge=lh-journal" in (data / ".gitattributes").read_text()
    command = _git("-C", str(data), "config", "--get", "merge.lh-journal.driver").strip()
    (data / "json.py").write_text("raise SystemExit('a json.py of the synced folder was imported')\n")
    run = "20260102-100000000000-abcd"
    sides = {"O": _record(run, None, None), "A": _record(run, "2026-01-02T12:00:00+00:00", "2026-01-02T12:00:00+00:00"),
             "B": _record(run, "2026-01-02T11:00:00+00:00", "2026-01-02T11:00:00+00:00")}
    for name, rec in sides.items():
        (tmp_path / f".merge_file_{name}").write_text(json.dumps(rec, indent=1))
        command = command.replace(f"%{name}", str(tmp_path / f".merge_file_{name}"))
    command = command.replace("%P", f"projects/x/journal/{run}.json")
    done = subprocess.run(command, shell=True, cwd=data, capture_output=True)
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / ".merge_file_A").read_text()) == sides["B"]


# --- records that name another machine's folders ---------------------------------------------------

def test_a_journal_records_its_files_relative_to_its_memory_folder(two):
    a, _ = two
    x = a.add("decision", "Use Redis for the cache")
    run = _forget(a, x, time.time())
    [entry] = _journal(a, run)["files"]
    assert entry["path"] == "marks.jsonl"
    [read] = [r for r in journal.runs(str(a.mdir)) if r["run"] == run]
    assert read["files"][0]["path"] == str(a.mdir / "marks.jsonl")


def test_the_other_machines_run_is_undone_here(two):
    """B forgets y, A forgets x later; both sync. On B, undo of A's run brings x back there, and a
    plain undo then undoes B's own forget."""
    a, b = two
    x = a.add("decision", "Use Redis for the cache")
    y = a.add("decision", "Use Postgres for billing")
    a.sync()
    b.sync()
    _forget(b, y, time.time() - 60)
    run_a = _forget(a, x, time.time() - 30)
    a.sync()
    b.sync()
    a.sync()
    assert {x, y} <= _forgotten(b)
    data, restored, problems = _undo(b)  # the newest: A's, synced here
    assert data["run"] == run_a and problems == [] and restored == [str(b.mdir / "marks.jsonl")]
    assert x not in _forgotten(b)
    _, _, problems = _undo(b)  # then B's own
    assert problems == [] and y not in _forgotten(b)


def _old_foreign_run(m: Machine, other_home: str, now: float) -> str:
    """A journal as an older version wrote it on another machine: absolute paths under its home."""
    run = journal.Journal(str(m.mdir), "forget", "demo", now).run
    rec = _record(run, None, None, path=os.path.join(other_home, "data", "lazy-harness", "projects",
                                                      m.mdir.name, "marks.jsonl"))
    rec["started"] = stamp(now)  # why: runs are ordered by when they started (journal_format.run_order)
    _commit_journal(m, run, json.dumps(rec, indent=1))
    return run


def test_a_plain_undo_passes_over_a_record_of_another_machines_folders(two):
    a, b = two
    y = b.add("decision", "Use Postgres for billing")
    own = _forget(b, y, time.time() - 60)
    foreign = _old_foreign_run(b, str(a.home), time.time())
    data, restored, problems = _undo(b)
    assert data["run"] == own and problems == [] and y not in _forgotten(b)
    [said] = data["passed_over"]
    assert foreign in said and "another machine" in said
    with pytest.raises(LhError) as err:
        _undo(b, foreign)
    assert foreign in err.value.message and "another machine" in err.value.message
    assert _journal(b, foreign)["undone"] is None  # left as it was


def test_nothing_to_undo_here_says_what_it_passed_over(two):
    a, b = two
    b.mdir.mkdir(parents=True)
    foreign = _old_foreign_run(b, str(a.home), time.time())
    with pytest.raises(LhError) as err:
        _undo(b)
    assert "nothing to undo" in err.value.message and "passed over 1 run" in err.value.message
    assert _journal(b, foreign)["undone"] is None


def test_an_old_absolute_record_of_this_machine_is_still_undone(two):
    a, _ = two
    x = a.add("decision", "Use Redis for the cache")
    run = _forget(a, x, time.time())
    data = _journal(a, run)
    for f in data["files"]:
        f["path"] = str(a.mdir / f["path"])  # as an older version wrote it
    _commit_journal(a, run, json.dumps(data, indent=1))
    _, restored, problems = _undo(a, run)
    assert problems == [] and restored == [str(a.mdir / "marks.jsonl")] and x not in _forgotten(a)
    assert _journal(a, run)["files"][0]["path"] == str(a.mdir / "marks.jsonl")  # written back as it was
