"""Consolidation's "which decision is newer" for a line without a readable ``ts`` (one the person
appended by hand): the time decides only when both entries have one (their ``ts`` or the time a
session made them again); otherwise line order does, in the prompt and in what a supersede may do."""

import json
import os
import time
from pathlib import Path

import pytest

from lazy_harness.memory import ids, marks, store
from lazy_harness.worker import consolidate as job
from lazy_harness.worker.consolidate_answer import validate
from lazy_harness.worker.consolidate_prompt import candidates, render_prompt
from tests.support import fake_claude

NOW = time.time()
MYSQL = "Use MySQL for the orders service"
POSTGRES = "Use Postgres for the orders service, MySQL is dropped"


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    mdir, ldir = tmp_path / "mem", tmp_path / "learn"
    mdir.mkdir()
    ldir.mkdir()
    return mdir, ldir


def _write(mdir: Path, *records: dict) -> None:
    (mdir / "decisions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))


def _supersede(old: str, new: str) -> dict:
    return {"supersede": [{"old": old, "new": new, "reason": "replaced"}]}


def _accepted(answer: dict, c) -> bool:
    changes, problems = validate(answer, c, 10)
    assert bool(changes) != bool(problems), (changes, problems)
    return bool(changes)


@pytest.mark.parametrize("ts", [None, "not a time", ""])
def test_a_hand_line_after_a_logged_one_is_the_newer(dirs, ts):
    mdir, ldir = dirs
    hand = {"type": "decision", "summary": POSTGRES}
    if ts is not None:
        hand["ts"] = ts
    _write(mdir, {"type": "decision", "summary": MYSQL, "ts": "2025-01-01T10:00:00+00:00"}, hand)
    logged, added = ids.entry_id("decision", MYSQL), ids.entry_id("decision", POSTGRES)
    c = candidates(str(mdir), str(ldir), "p")
    assert [e.id for e in c.decisions] == [logged, added]  # oldest first
    prompt = render_prompt(c, "p")
    assert prompt.index(MYSQL) < prompt.index(POSTGRES)
    assert _accepted(_supersede(logged, added), c)
    assert not _accepted(_supersede(added, logged), c)


def test_a_logged_line_after_a_hand_line_is_the_newer(dirs):
    mdir, ldir = dirs
    _write(mdir, {"type": "decision", "summary": MYSQL},
           {"type": "decision", "summary": POSTGRES, "ts": "2025-01-01T10:00:00+00:00"})
    added, logged = ids.entry_id("decision", MYSQL), ids.entry_id("decision", POSTGRES)
    c = candidates(str(mdir), str(ldir), "p")
    assert [e.id for e in c.decisions] == [added, logged]
    assert _accepted(_supersede(added, logged), c)
    assert not _accepted(_supersede(logged, added), c)


def test_two_hand_lines_go_by_line_order(dirs):
    mdir, ldir = dirs
    _write(mdir, {"type": "decision", "summary": MYSQL}, {"type": "decision", "summary": POSTGRES})
    first, second = ids.entry_id("decision", MYSQL), ids.entry_id("decision", POSTGRES)
    c = candidates(str(mdir), str(ldir), "p")
    assert [e.id for e in c.decisions] == [first, second]
    assert _accepted(_supersede(first, second), c)
    assert not _accepted(_supersede(second, first), c)


def test_two_logged_lines_still_go_by_their_ts(dirs):
    mdir, ldir = dirs
    # a line synced from another machine may sit before an older one: the ts decides
    _write(mdir, {"type": "decision", "summary": POSTGRES, "ts": "2025-03-01T10:00:00+00:00"},
           {"type": "decision", "summary": MYSQL, "ts": "2025-01-01T10:00:00+00:00"})
    newer, older = ids.entry_id("decision", POSTGRES), ids.entry_id("decision", MYSQL)
    c = candidates(str(mdir), str(ldir), "p")
    assert [e.id for e in c.decisions] == [older, newer]
    assert _accepted(_supersede(older, newer), c)
    assert not _accepted(_supersede(newer, older), c)


def test_a_hand_line_after_a_restored_decision_is_the_newer(tmp_path, monkeypatch):
    """A decision made again keeps its old line and is as new as its restore; a line appended by hand
    after it, without a ts, is compared with it by line order."""
    from lazy_harness import config, paths

    bin_dir = fake_claude.use(tmp_path, monkeypatch, answer={})
    proj = tmp_path / "proj"
    (proj / ".git").mkdir(parents=True)
    mdir = Path(paths.memory_dir(str(proj)))
    ldir = Path(paths.learnings_dir())
    ldir.mkdir(parents=True, exist_ok=True)

    def persist(summary: str, sid: str, when: float) -> None:
        meta = {"project": "proj", "session_id": sid, "task_id": f"t-{sid}", "cwd": str(proj),
                "project_folder": mdir.name}
        store.persist({"decisions": [{"summary": summary}]}, str(mdir), str(ldir), meta, when)

    persist("Serve with vLLM", "s1", NOW - 7200)
    persist("Serve with llama.cpp instead of vLLM", "s2", NOW - 6000)
    a, b = [e.id for e in candidates(str(mdir), str(ldir), "proj").decisions]
    fake_claude.control(bin_dir, mode="ok", answer=_supersede(a, b))
    assert job.run(str(mdir), str(ldir), "proj", config.defaults(), os.environ, NOW - 5000).status == "changed"
    persist("Serve with vLLM", "s3", NOW - 3000)  # a restore: a keeps its first line
    assert a not in marks.hidden(str(mdir))
    with open(mdir / "decisions.jsonl", "a") as fh:
        fh.write(json.dumps({"type": "decision", "summary": "Serve with SGLang, neither vLLM nor llama.cpp"}) + "\n")
    h = ids.entry_id("decision", "Serve with SGLang, neither vLLM nor llama.cpp")
    c = candidates(str(mdir), str(ldir), "proj")
    assert [e.id for e in c.decisions] == [b, a, h]
    assert _accepted(_supersede(a, h), c)
    assert not _accepted(_supersede(h, a), c)
    assert not _accepted(_supersede(a, b), c)  # the restore still counts against a line made before it
