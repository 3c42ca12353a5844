"""Consolidation says what it did (review rev6/consol): a change dropped because its entry stopped being
live while the model answered is reported as not applied, never as made, in the command's output,
the worker's log, the history and the undo; and the automatic run's session gate counts sessions, not
the person's own edits of the handoff list."""

import json
import os
import sys
import time
from pathlib import Path

import pytest

from lazy_harness import config, logfile
from lazy_harness.memory import by_hand, handoff, journal, marks, store
from lazy_harness.worker import consolidate as job
from lazy_harness.worker import drain, housekeeping
from tests.cli.lhrun import invoke
from tests.support import fake_claude

NOW = time.time()


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path, Path]:
    from lazy_harness import paths

    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer={})
    proj = tmp_path / "proj"
    proj.mkdir()
    mdir = Path(paths.memory_dir(str(proj)))
    ldir = Path(paths.learnings_dir())
    ldir.mkdir(parents=True, exist_ok=True)
    return bin_dir, proj, mdir, ldir


def _meta(proj: Path, mdir: Path, sid: str) -> dict:
    return {"project": "proj", "session_id": sid, "task_id": f"t-{sid}", "cwd": str(proj),
            "project_folder": mdir.name}


def _during_the_call(bin_dir: Path, code: str) -> None:
    """Wrap the fake claude: run python ``code`` to its end while the model 'thinks', then answer."""
    real = bin_dir / "claude-real"
    os.rename(bin_dir / "claude", real)
    (bin_dir / "side.py").write_text(code)
    exe = bin_dir / "claude"
    exe.write_text(f'#!/bin/sh\nif [ "$1" != "--version" ]; then "{sys.executable}" "{bin_dir}/side.py" '
                   f'|| exit 7; fi\nexec "{real}" "$@"\n')
    exe.chmod(0o755)


def _forget_during_the_call(bin_dir: Path, mdir: Path, ldir: Path, *eids: str) -> None:
    _during_the_call(bin_dir, "import time\nfrom lazy_harness.memory import by_hand\n" + "".join(
        f"by_hand.forget({str(mdir)!r}, {str(ldir)!r}, 'proj', {eid!r}, 'wrong', time.time())\n" for eid in eids))


def _two_decisions(world: tuple, failures: bool = False) -> dict[str, list[str]]:
    _, proj, mdir, ldir = world
    answer: dict = {"decisions": [{"summary": "Use vLLM for serving"}, {"summary": "Serve with llama.cpp"}]}
    if failures:
        answer["failures"] = [{"summary": "tests hang"}, {"summary": "tests hang on CI"}]
    store.persist(answer, str(mdir), str(ldir), _meta(proj, mdir, "s0"), NOW - 3600)
    c = job.candidates(str(mdir), str(ldir), "proj")
    return {"d": [e.id for e in c.decisions], "f": [e.id for e in c.failures]}


# --- 1. a change dropped before its write is not reported as made ------------------------------------

def test_a_supersede_of_a_decision_forgotten_during_the_call_is_reported_not_applied(world):
    bin_dir, proj, mdir, ldir = world
    old, new = _two_decisions(world)["d"]
    _forget_during_the_call(bin_dir, mdir, ldir, old)
    fake_claude.control(bin_dir, mode="ok", answer={"supersede": [{"old": old, "new": new, "reason": "switched"}]})

    r = invoke("memory", "consolidate", "--project", str(proj))

    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert not [line for line in lines if line.startswith("supersede ")], r.out  # not said as made
    assert f"not applied (no longer live): supersede {old} by {new}: switched" in lines
    assert lines[-1].startswith("unchanged: "), r.out
    assert "lh memory undo" not in r.out  # nothing was written: no run to undo
    assert [m["op"] for m in marks.read(str(mdir))] == ["forget"]
    # history lists the person's forget only; the plain undo is the undo of that forget
    assert [d["kind"] for d in journal.runs(str(mdir))] == ["forget"]
    history = invoke("memory", "history", "--project", str(proj)).out
    assert "consolidate" not in history and f"forget {old}" in history
    undone = invoke("memory", "undo", "--project", str(proj))
    assert undone.code == 0 and "(forget)" in undone.out, undone
    assert marks.read(str(mdir)) == []


def test_a_run_with_one_change_dropped_reports_and_undoes_only_the_one_made(world):
    bin_dir, proj, mdir, ldir = world
    got = _two_decisions(world, failures=True)
    (old, new), (drop, keep) = got["d"], got["f"]
    _forget_during_the_call(bin_dir, mdir, ldir, drop)
    fake_claude.control(bin_dir, mode="ok", answer={"supersede": [{"old": old, "new": new, "reason": "switched"}],
                                                    "merge_failures": [{"keep": keep, "drop": drop, "reason": "dup"}]})

    res = job.run(str(mdir), str(ldir), "proj", config.defaults(), os.environ, NOW)

    assert res.status == "changed" and res.run, res
    assert [str(ch) for ch in res.changes] == [f"supersede {old} by {new}: switched"]
    assert res.not_applied == [f"not applied (no longer live): merge {drop} into {keep}: dup"]
    assert res.reason.startswith("1 change(s)"), res.reason
    assert sorted(m["op"] for m in marks.read(str(mdir))) == ["forget", "supersede"]
    (line,) = [ln for ln in invoke("memory", "history", "--project", str(proj)).out.splitlines()
               if ln.startswith(res.run)]
    assert "  1 change(s), 1 not applied  [" in line, line  # history counts what the run made
    data, restored, problems = by_hand.undo(str(mdir), str(ldir), res.run, 14, time.time())
    assert problems == [] and len(restored) == 1
    assert [m["op"] for m in marks.read(str(mdir))] == ["forget"]  # the person's forget survives the undo


def test_a_handoff_item_closed_by_hand_during_the_call_is_not_reported_closed(world):
    bin_dir, proj, mdir, ldir = world
    store.persist({"handoff": ["finish the parser", "write docs"]}, str(mdir), str(ldir),
                  _meta(proj, mdir, "s0"), NOW - 3600)
    hid = job.candidates(str(mdir), str(ldir), "proj").handoff[0].id
    _during_the_call(bin_dir, "import time\nfrom lazy_harness.memory import by_hand\n"
                     f"by_hand.close({str(mdir)!r}, 'proj', {hid!r}, 'done by me', time.time())\n")
    fake_claude.control(bin_dir, mode="ok", answer={"close_handoff": [{"id": hid, "reason": "done"}]})

    res = job.run(str(mdir), str(ldir), "proj", config.defaults(), os.environ, NOW)

    assert res.status == "unchanged" and res.changes == [] and res.run is None, res
    assert len(res.not_applied) == 1 and f"close {hid}: done" in res.not_applied[0]
    state, _ = handoff.load(str(mdir))
    assert state[hid].get("closed_by") == "by hand"


def test_the_worker_logs_a_run_that_wrote_nothing_as_unchanged(world):
    bin_dir, proj, mdir, ldir = world
    old, new = _two_decisions(world)["d"]
    _forget_during_the_call(bin_dir, mdir, ldir, old)
    fake_claude.control(bin_dir, mode="ok", answer={"supersede": [{"old": old, "new": new, "reason": "switched"}]})
    cfg = config.defaults()
    cfg["consolidate"].update(enabled=True, min_sessions=1, min_hours=0)
    stats = drain.Stats()
    stats.projects[str(mdir)] = str(proj)

    housekeeping.consolidate_touched(cfg, os.environ, stats)

    with open(logfile.log_path(logfile.WORKER), encoding="utf-8") as fh:
        said = [line.split(" ", 1)[1].rstrip("\n") for line in fh if f"consolidate {mdir}: " in line]
    assert said and said[0].startswith(f"consolidate {mdir}: unchanged: "), said
    assert "not applied" in said[0] and not any(": changed: " in line for line in said)


# --- 2. the automatic run's session gate counts sessions only -----------------------------------------

def test_the_session_gate_does_not_count_the_persons_own_handoff_edits(world):
    _, proj, mdir, ldir = world
    store.persist({"decisions": [{"summary": "Old decision"}], "handoff": ["Item one", "Item two", "Item three"]},
                  str(mdir), str(ldir), _meta(proj, mdir, "s-old"), NOW - 3 * 86400)
    since = NOW - 2 * 86400
    store.persist({"decisions": [{"summary": "New decision from a real session"}]},
                  str(mdir), str(ldir), _meta(proj, mdir, "real-1"), NOW - 3600)
    with open(mdir / "handoff.md", "a", encoding="utf-8") as fh:
        fh.write("- A note I typed myself\n")
    state, _ = handoff.load(str(mdir))
    ids = {item["text"]: hid for hid, item in state.items()}
    by_hand.close(str(mdir), "proj", "Item one", "closed by hand", time.time())  # imports the hand edit first
    by_hand.forget(str(mdir), str(ldir), "proj", ids["Item two"], "not needed", time.time())
    with open(mdir / "handoff.jsonl", encoding="utf-8") as fh:
        writers = {json.loads(line)["session_id"] for line in fh if line.strip()}
    assert {"by hand", "hand-edit", "forget"} <= writers, writers  # the person's records are there

    assert job.sessions_since(str(mdir), since) == 1
    assert job.sessions_since(str(mdir), None) == 2  # s-old and real-1
