"""Consolidation: gates, the lock, a hostile answer contained, dry-run, and undo byte for byte."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lazy_harness import config, paths
from lazy_harness.memory import changes, entries, ids, journal, marks
from lazy_harness.worker import consolidate as job
from tests.support import fake_claude

NOW = 1_790_000_000.0
DAY = 86400.0


def _cfg(**over) -> dict:
    cfg = config.defaults()
    cfg["consolidate"].update(over)
    return cfg


def _write_entries(mdir: Path, kind: str, summaries: list[str], start: float = NOW - 10 * DAY,
                   sessions: list[str] | None = None) -> list[str]:
    mdir.mkdir(parents=True, exist_ok=True)
    name = "decisions.jsonl" if kind == "decision" else "failures.jsonl"
    out = []
    with open(mdir / name, "a", encoding="utf-8") as fh:
        for n, summary in enumerate(summaries):
            sid = sessions[n] if sessions else f"s{n}"
            rec = entries.record(kind, {"summary": summary}, {"project": "demo", "session_id": sid,
                                                             "task_id": "t"}, start + n * 60)
            fh.write(entries.json_line(rec) + "\n")
            out.append(ids.entry_id(kind, summary))
    return out


def _learning(ldir: Path, title: str, origin: str = "demo", day: str = "2026-10-01") -> tuple[Path, str]:
    folder = ldir / day[:7]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{day}-{title.lower().replace(' ', '-')}.md"
    path.write_text(f"---\ntitle: {title}\norigin: {origin}\norigin_session: s1\ncreated: '{day}T10:00:00+00:00'\n"
                    f"tags: []\nscope: project\nstatus: active\ndeprecated_by: null\ndeprecated_on: null\n"
                    f"deprecated_reason: null\n---\n\n## Learning\n\n{title} body.\n", encoding="utf-8")
    return path, ids.learning_id(origin, title)


@pytest.fixture
def world(tmp_path, monkeypatch):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer={})
    mdir = tmp_path / "mem"
    ldir = tmp_path / "learnings"
    ldir.mkdir()
    return bin_dir, mdir, ldir


def _tree(*roots: Path) -> dict[str, bytes]:
    out = {}
    for root in roots:
        for p in sorted(root.rglob("*")):
            if p.is_file():
                out[str(p)] = p.read_bytes()
    return out


def _answer(bin_dir: Path, answer: dict) -> None:
    fake_claude.control(bin_dir, mode="ok", answer=answer)


# --- the answer is hostile --------------------------------------------------------------------------

def test_supersede_marks_the_old_decision_and_keeps_its_line(world):
    bin_dir, mdir, ldir = world
    old, new = _write_entries(mdir, "decision", ["Use vLLM for serving", "Serve with llama.cpp instead of vLLM"])
    before = (mdir / "decisions.jsonl").read_bytes()
    _answer(bin_dir, {"supersede": [{"old": old, "new": new, "reason": "switched runtimes"}]})
    result = job.run(str(mdir), str(ldir), "demo", _cfg(), os.environ, NOW)
    assert result.status == "changed", result
    assert (mdir / "decisions.jsonl").read_bytes() == before  # nothing deleted or rewritten
    hidden = marks.hidden(str(mdir))
    assert set(hidden) == {old} and hidden[old]["by"] == new and hidden[old]["reason"] == "switched runtimes"
    prompt = fake_claude.calls(bin_dir)[0]["stdin"]
    assert f"[{old}] Use vLLM for serving" in prompt and f"[{new}]" in prompt


def test_hostile_answer_is_contained(world, tmp_path):
    bin_dir, mdir, ldir = world
    d = _write_entries(mdir, "decision", [f"decision number {n}" for n in range(30)])
    f = _write_entries(mdir, "failure", ["tests hang on CI", "CI tests hang forever"])
    other_dir = tmp_path / "other"
    foreign = _write_entries(other_dir, "decision", ["another project's decision"])[0]
    _, foreign_learning = _learning(ldir, "Somebody else's learning", origin="elsewhere")
    huge = "x" * 100_000
    answer = {
        "supersede": [
            {"old": "d-00000000", "new": d[1]},               # unknown id
            {"old": foreign, "new": d[1]},                    # another project's id
            {"old": d[0], "new": d[0]},                       # itself
            {"old": d[5], "new": d[2]},                       # not newer
            {"old": d[2], "new": d[3], "reason": huge},       # ok, reason cut
            {"old": d[3], "new": d[4]},                       # chain: d3 is this run's "new"
            {"old": d[4], "new": d[2]},                       # cycle back to a marked one
            {"old": f[0], "new": f[1]},                       # wrong kind
            "not an object",
        ] + [{"old": d[n], "new": d[n + 1]} for n in range(6, 29, 2)],
        "merge_failures": [{"keep": f[1], "drop": f[0], "reason": "same"}],
        "deprecate_learnings": [{"id": foreign_learning, "by": foreign_learning}],
        "close_handoff": "everything",
        "delete_everything": True,
    }
    _answer(bin_dir, answer)
    result = job.run(str(mdir), str(ldir), "demo", _cfg(max_changes=5), os.environ, NOW)
    assert result.status == "changed"
    assert len(result.changes) == 5  # max_changes
    hidden = marks.hidden(str(mdir))
    assert d[2] in hidden and len(hidden[d[2]]["reason"]) <= job.REASON_CHARS
    for never in ("d-00000000", foreign, d[0], d[5], d[3], d[4]):
        assert never not in hidden, never
    assert foreign not in marks.hidden(str(other_dir))
    text = " ".join(result.problems)
    for expected in ("unknown decision id", "names itself", "not newer", "chained", "over max_changes",
                     "not an object", "unknown key", "expected a list"):
        assert expected in text, expected
    assert "status: active" in next(ldir.rglob("*.md")).read_text()  # the other project's learning untouched


def test_deprecating_a_learning_sets_its_frontmatter_and_keeps_its_body(world):
    bin_dir, mdir, ldir = world
    _write_entries(mdir, "decision", ["one decision"])
    old_path, old = _learning(ldir, "Pin the CLI at 2.1.300")
    _, new = _learning(ldir, "Pin the CLI at 2.1.330", day="2026-11-01")
    body = old_path.read_text().split("\n---\n", 1)[1]
    _answer(bin_dir, {"deprecate_learnings": [{"id": old, "by": new, "reason": "newer pin"}]})
    result = job.run(str(mdir), str(ldir), "demo", _cfg(), os.environ, NOW)
    assert result.status == "changed", result.problems
    import yaml

    text = old_path.read_text()
    front = yaml.safe_load(text.split("---\n")[1])
    assert front["status"] == "deprecated" and front["deprecated_by"] == new
    assert front["deprecated_reason"] == "newer pin" and front["deprecated_on"]
    assert text.split("\n---\n", 1)[1] == body


# --- dry run and undo -------------------------------------------------------------------------------

def test_dry_run_changes_nothing(world):
    bin_dir, mdir, ldir = world
    old, new = _write_entries(mdir, "decision", ["Use vLLM", "Use llama.cpp"])
    path, lid = _learning(ldir, "A learning")
    _, lid2 = _learning(ldir, "Another learning")
    before = _tree(mdir, ldir)
    _answer(bin_dir, {"supersede": [{"old": old, "new": new}], "deprecate_learnings": [{"id": lid, "by": lid2}]})
    result = job.run(str(mdir), str(ldir), "demo", _cfg(), os.environ, NOW, dry_run=True)
    assert result.status == "dry-run" and len(result.changes) == 2
    after = _tree(mdir, ldir)
    after.pop(str(mdir / job.LOCK), None)
    before.pop(str(mdir / job.LOCK), None)
    assert after == before
    assert job.Lock(str(mdir), 3600).last_run() is None  # a dry run is not a run: the gates still pass


def test_undo_restores_every_file_byte_for_byte(world):
    bin_dir, mdir, ldir = world
    old, new = _write_entries(mdir, "decision", ["Use vLLM", "Use llama.cpp"])
    keep, drop = _write_entries(mdir, "failure", ["tests hang", "tests hang on CI"])
    path, lid = _learning(ldir, "A learning")
    _, lid2 = _learning(ldir, "Another learning")
    before = _tree(mdir, ldir)
    _answer(bin_dir, {"supersede": [{"old": old, "new": new}], "merge_failures": [{"keep": keep, "drop": drop}],
                      "deprecate_learnings": [{"id": lid, "by": lid2}]})
    result = job.run(str(mdir), str(ldir), "demo", _cfg(), os.environ, NOW)
    assert result.status == "changed" and len(result.changes) == 3
    assert _tree(mdir, ldir) != before
    data, restored, problems = journal.undo(str(mdir), (str(mdir), str(ldir)), result.run)
    assert problems == [] and data["run"] == result.run
    after = {p: b for p, b in _tree(mdir, ldir).items()
             if "/journal/" not in p and not p.endswith((job.LOCK, job.SCAN, changes.STATUS_LOCK))}
    expected = {p: b for p, b in before.items() if not p.endswith(job.LOCK)}
    assert after == {**expected, **{p: b for p, b in after.items() if p.endswith("marks.jsonl")}}
    assert not (mdir / "marks.jsonl").exists() or (mdir / "marks.jsonl").read_bytes() == b""
    assert marks.hidden(str(mdir)) == {}
    assert journal.runs(str(mdir))[0]["undone"]


def test_undo_keeps_entries_appended_after_the_run(world):
    bin_dir, mdir, ldir = world
    old, new = _write_entries(mdir, "decision", ["Use vLLM", "Use llama.cpp"])
    _write_entries(mdir, "failure", ["first failure"])
    (mdir / "marks.jsonl").write_text('{"op": "forget", "id": "f-00000001", "reason": "by hand"}\n')
    marks_before = (mdir / "marks.jsonl").read_bytes()
    _answer(bin_dir, {"supersede": [{"old": old, "new": new}]})
    result = job.run(str(mdir), str(ldir), "demo", _cfg(), os.environ, NOW)
    later = '{"op": "forget", "id": "f-00000002", "reason": "later"}'
    with open(mdir / "marks.jsonl", "a") as fh:
        fh.write(later + "\n")
    _, _, problems = journal.undo(str(mdir), (str(mdir), str(ldir)))
    assert problems == []
    assert (mdir / "marks.jsonl").read_bytes() == marks_before + (later + "\n").encode()
    assert result.run


def test_undo_refuses_a_file_changed_since_and_never_writes_outside(world, tmp_path):
    bin_dir, mdir, ldir = world
    path, lid = _learning(ldir, "A learning")
    _, lid2 = _learning(ldir, "Another learning")
    _write_entries(mdir, "decision", ["x"])
    _answer(bin_dir, {"deprecate_learnings": [{"id": lid, "by": lid2}]})
    result = job.run(str(mdir), str(ldir), "demo", _cfg(), os.environ, NOW)
    path.write_text(path.read_text().replace("status: deprecated", "status: active") + "\nedited by hand\n")
    edited = path.read_bytes()  # its status changed again since: not the run's to put back
    jpath = mdir / "journal" / f"{result.run}.json"
    data = json.loads(jpath.read_text())
    outside = tmp_path / "outside.txt"
    data["files"].append({"path": str(outside), "before": "", "before_size": 0, "after_sha": None, "appended": []})
    jpath.write_text(json.dumps(data))
    _, _, problems = journal.undo(str(mdir), (str(mdir), str(ldir)))
    assert path.read_bytes() == edited
    assert any("changed since" in p for p in problems) and any("outside" in p for p in problems)
    assert not outside.exists()


# --- gates and the lock -----------------------------------------------------------------------------

def _sessions(mdir: Path, n: int, when: float) -> None:
    _write_entries(mdir, "decision", [f"decision of session {k} at {when}" for k in range(n)], start=when,
                   sessions=[f"session-{when}-{k}" for k in range(n)])


def test_gate_min_sessions_then_scan_throttle_then_min_hours(world):
    bin_dir, mdir, ldir = world
    cfg = _cfg(min_sessions=5, min_hours=24, scan_throttle_minutes=10)
    _sessions(mdir, 4, NOW - 3600)
    r = job.run(str(mdir), str(ldir), "demo", cfg, os.environ, NOW, automatic=True)
    assert r.status == "skipped" and "4 session(s)" in r.reason
    _sessions(mdir, 1, NOW - 1800)
    r = job.run(str(mdir), str(ldir), "demo", cfg, os.environ, NOW + 60, automatic=True)
    assert r.status == "skipped" and "throttle" in r.reason
    r = job.run(str(mdir), str(ldir), "demo", cfg, os.environ, NOW + 11 * 60, automatic=True)
    assert r.status in ("unchanged", "changed"), r.reason
    assert len(fake_claude.calls(bin_dir)) == 1
    # just ran: the min_hours gate holds even with many new sessions
    _sessions(mdir, 6, NOW + 20 * 60)
    r = job.run(str(mdir), str(ldir), "demo", cfg, os.environ, NOW + 30 * 60, automatic=True)
    assert r.status == "skipped" and "h ago" in r.reason
    r = job.run(str(mdir), str(ldir), "demo", cfg, os.environ, NOW + 25 * 3600, automatic=True)
    assert r.status in ("unchanged", "changed"), r.reason
    assert len(fake_claude.calls(bin_dir)) == 2


def test_sessions_before_the_last_run_do_not_count(world):
    bin_dir, mdir, ldir = world
    _sessions(mdir, 8, NOW - 2 * DAY)
    cfg = _cfg(min_sessions=5)
    assert job.run(str(mdir), str(ldir), "demo", cfg, os.environ, NOW, automatic=True).status != "skipped"
    _sessions(mdir, 2, NOW + 3600)
    r = job.run(str(mdir), str(ldir), "demo", cfg, os.environ, NOW + 2 * DAY, automatic=True)
    assert r.status == "skipped" and "2 session(s)" in r.reason


def test_disabled_gate(world):
    _, mdir, ldir = world
    r = job.run(str(mdir), str(ldir), "demo", _cfg(enabled=False), os.environ, NOW, automatic=True)
    assert r.status == "skipped" and "enabled is false" in r.reason


def test_a_failed_model_call_does_not_count_as_a_run(world):
    bin_dir, mdir, ldir = world
    _sessions(mdir, 6, NOW - 3600)
    fake_claude.control(bin_dir, mode="fail")
    cfg = _cfg()
    cfg["compound_loop"]["retry_backoff_seconds"] = 0  # why: the three attempts, without 6 s of waiting between
    r = job.run(str(mdir), str(ldir), "demo", cfg, os.environ, NOW, automatic=True)
    assert r.status == "failed"
    assert job.Lock(str(mdir), 3600).last_run() is None or job.Lock(str(mdir), 3600).last_run() < NOW - 3600


def test_a_held_lock_blocks_and_a_stale_one_is_taken_over(world):
    bin_dir, mdir, ldir = world
    _write_entries(mdir, "decision", ["a", "b"])
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        (mdir / job.LOCK).write_text(f"{holder.pid} {NOW - 60!r}\n")
        r = job.run(str(mdir), str(ldir), "demo", _cfg(), os.environ, NOW)
        assert r.status == "skipped" and str(holder.pid) in r.reason
        (mdir / job.LOCK).write_text(f"{holder.pid} {NOW - 2 * 3600!r}\n")  # hung for 2 h: stale
        r = job.run(str(mdir), str(ldir), "demo", _cfg(), os.environ, NOW)
        assert r.status == "unchanged"
        assert (mdir / job.LOCK).read_text() == ""
    finally:
        holder.kill()
        holder.wait()


RACER = r"""
import os, sys, time
from lazy_harness.worker.consolidate import Lock
mdir, go, out = sys.argv[1], sys.argv[2], sys.argv[3]
while not os.path.exists(go):
    time.sleep(0.001)
lock = Lock(mdir, 3600)
why = lock.acquire(time.time())
with open(out, "w") as fh:
    fh.write("won" if why is None else "lost")
while why is None and not os.path.exists(go + ".release"):
    time.sleep(0.01)
"""


def test_two_workers_racing_for_the_lock_one_wins(tmp_path):
    mdir = tmp_path / "mem"
    mdir.mkdir()
    go = tmp_path / "go"
    procs = [subprocess.Popen([sys.executable, "-c", RACER, str(mdir), str(go), str(tmp_path / f"r{n}")])
             for n in range(4)]
    go.write_text("")
    try:
        for n in range(4):
            deadline = time.monotonic() + 60
            while not (tmp_path / f"r{n}").exists() or not (tmp_path / f"r{n}").read_text():
                assert time.monotonic() < deadline, "a racer never answered"
                time.sleep(0.01)
        results = sorted((tmp_path / f"r{n}").read_text() for n in range(4))
        assert results == ["lost", "lost", "lost", "won"]
    finally:
        (tmp_path / "go.release").write_text("")
        for p in procs:
            p.wait(timeout=60)


# --- the model call is isolated like the distill call -----------------------------------------------

def test_the_call_uses_the_distill_isolation_and_its_own_schema(world):
    bin_dir, mdir, ldir = world
    _write_entries(mdir, "decision", ["a decision", "another decision"])
    job.run(str(mdir), str(ldir), "demo", _cfg(), os.environ, NOW)
    call = fake_claude.calls(bin_dir)[0]
    argv = call["argv"]
    assert "--no-session-persistence" in argv and argv[argv.index("--tools") + 1] == ""
    assert json.loads(argv[argv.index("--settings") + 1]) == {"disableAllHooks": True}
    assert "supersede" in json.loads(argv[argv.index("--json-schema") + 1])["properties"]
    assert call["marker"] == "1" and call["cwd"] == paths.neutral_dir()
    assert "Use only ids from the lists" in call["stdin"]


def test_secrets_in_entries_never_reach_the_prompt(world):
    bin_dir, mdir, ldir = world
    _write_entries(mdir, "decision", ["Rotate key AKIAIOSFODNN7EXAMPLE now", "another"])
    job.run(str(mdir), str(ldir), "demo", _cfg(), os.environ, NOW)
    assert "AKIAIOSFODNN7EXAMPLE" not in fake_claude.calls(bin_dir)[0]["stdin"]


def test_the_workers_consolidation_takes_what_it_marked_out_of_the_index_at_once(world):
    """The hooks only read the index (ADR 0042): after an automatic consolidation that marked an
    entry, the worker brings the index up to date, so the next prompt no longer finds it."""
    from lazy_harness import paths
    from lazy_harness.recall.index import store, writer
    from lazy_harness.worker import drain, housekeeping

    bin_dir, mdir, ldir = world
    old, new = _write_entries(mdir, "decision", ["Use vLLM for serving", "Serve with llama.cpp instead of vLLM"],
                              sessions=["s1", "s2"])
    writer.update(paths.recall_index_file(), [str(mdir)], str(ldir))
    _answer(bin_dir, {"supersede": [{"old": old, "new": new, "reason": "switched runtimes"}]})
    cfg = _cfg(min_sessions=1, min_hours=0, scan_minutes=0)
    cfg["knowledge"]["path"] = str(ldir)
    stats = drain.Stats()
    stats.projects[str(mdir)] = ""
    housekeeping.consolidate_touched(cfg, os.environ, stats)
    assert marks.hidden(str(mdir))  # it ran and marked
    conn = store.connect(paths.recall_index_file())
    try:
        assert conn.execute("SELECT count(*) FROM hidden WHERE id=?", (old,)).fetchone()[0] == 1
    finally:
        conn.close()


def test_a_learning_of_another_project_of_the_same_name_is_no_candidate(world, tmp_path):
    """``~/work/api`` and ``~/clients/x/api`` share the name ``api``: consolidating one neither offers
    nor touches the other's learnings (their ``project_folder`` says whose they are); one written
    before keys were recorded still goes by its name."""
    from lazy_harness.worker import consolidate_prompt

    _, _, ldir = world
    mdir = tmp_path / "projects" / "-home-u-work-api"
    mdir.mkdir(parents=True)
    mine, mine_id = _learning(ldir, "Work api uses gunicorn", origin="api")
    theirs, theirs_id = _learning(ldir, "Client api uses uvicorn", origin="api")
    old, old_id = _learning(ldir, "Api settles at midnight", origin="api")
    for path, key in ((mine, "-home-u-work-api"), (theirs, "-home-u-clients-x-api")):
        path.write_text(path.read_text().replace("scope: project\n", f"scope: project\nproject_folder: '{key}'\n"))
    got = [e.id for e in consolidate_prompt.candidates(str(mdir), str(ldir), "api").learnings]
    assert sorted(got) == sorted([mine_id, old_id]) and theirs_id not in got


def test_a_run_stopped_after_one_change_is_undone_from_its_journal(world):
    """The run hid an entry (a supersede mark) and then stopped (a learning it could not read, a
    kill) before its last save: what the journal on disk says is enough to undo that change."""
    from lazy_harness.memory import by_hand, changes

    _, mdir, ldir = world
    old, new = _write_entries(mdir, "decision", ["Use vLLM", "Use llama.cpp"])
    j = journal.Journal(str(mdir), "consolidate", "demo")
    j.save()
    changes.add_mark(str(mdir), j, "supersede", old, new, "switched", time.time())
    assert old in marks.hidden(str(mdir))
    # the run stops here: no further change, no final save
    _, restored, problems = by_hand.undo(str(mdir), str(ldir), j.run, 7, time.time())
    assert problems == [] and restored and old not in marks.hidden(str(mdir))
