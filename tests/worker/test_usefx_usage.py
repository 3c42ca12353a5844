"""worker/usage.py and worker/evidence.py after review r4 (ADR 0036): a ``claude -p`` run's part of a
session resumed by a person counts nothing (neither its acts nor the showings made for it), an entry
with no marks is recorded as not measurable, and one accounting reads usage.jsonl once. The
transcripts are the ones recorded from the real CLI (tests/fixtures)."""

import os
from pathlib import Path

from lazy_harness import paths
from lazy_harness.memory import entries, files, ids, lines, usage, usage_log
from lazy_harness.memory.files import iso_epoch
from lazy_harness.worker import evidence
from lazy_harness.worker import usage as accounting
from tests.support import memory_samples as ms
from tests.support.sessions import place

SID = "cccccccc-1111-4111-8111-000000000003"
MIG = {"summary": "A migration was applied without checking it",
       "prevention": "Check each with `echo migration-1` style calls."}
LOCK = {"summary": "Migrations hung on a table lock", "rationale": "give each migration a lock_timeout"}
STAGING = {"summary": "Keep the staging database on the same minor version as production",
           "rationale": "A minor upgrade in production once broke a query that staging never saw."}
# headless-resumed.jsonl: the -p run's SessionStart hook answered at HEADLESS_START, its prompt (sdk) and
# four Bash calls `echo migration-N` follow; the run ends at 25.012; the typed part starts at TYPED
HEADLESS_START = iso_epoch("2026-11-29T23:29:24.362Z")
TYPED = iso_epoch("2026-11-29T23:29:27.189Z")
# interactive.jsonl: the first act (Bash `echo hi`)
FIRST_ACT = iso_epoch("2026-11-22T02:21:47.839Z")


def _write(mdir: str, kind: str, item: dict) -> str:
    os.makedirs(mdir, exist_ok=True)
    meta = {"project": "p", "session_id": "earlier", "task_id": "t"}
    with open(os.path.join(mdir, files.FAILURES if kind == "failure" else files.DECISIONS), "a") as fh:
        fh.write(entries.json_line(entries.record(kind, item, meta, 1.0)) + "\n")
    return ids.entry_id(kind, item["summary"])


def _account(project: str, mdir: str, name: str) -> str:
    path = place(Path(project), name, SID)["transcript_path"]
    return accounting.account(SID, path, {}, mdir, paths.learnings_dir(), None, TYPED + 60)


def test_the_acts_of_a_claude_p_run_later_typed_in_are_left_out(isolated_home, tmp_path):
    project = ms.make_project(str(tmp_path), "billing")
    path = place(Path(project), "headless-resumed.jsonl", SID)["transcript_path"]
    said = [text for _, text, _ in evidence.acts(path)]
    assert said and not any("migration-" in text for text in said)
    assert any("lock_timeout" in text for text in said)


def test_the_scripted_part_of_a_resumed_session_counts_nothing(isolated_home, tmp_path):
    project = ms.make_project(str(tmp_path), "billing")
    mdir = paths.memory_dir(project)
    mig, lock = _write(mdir, "failure", MIG), _write(mdir, "decision", LOCK)
    usage.note(None, SID, "startup", 500, [(mig, 100), (lock, 90)], HEADLESS_START - 0.05, mdir)  # claude -p
    usage.note(None, SID, "resume", 400, [(mig, 100), (lock, 90)], TYPED - 1.0, mdir)  # the person resumes
    _account(project, mdir, "headless-resumed.jsonl")
    got = usage_log.read(mdir)
    assert not [r for r in got if r["op"] == "used" and r["id"] == mig]
    assert [r["evidence"] for r in got if r["op"] == "used" and r["id"] == lock] == ["lock_timeout"]
    assert [r["chars"] for r in got if r["op"] == "session"] == [400]
    assert {r["at"] for r in got if r["op"] == "shown"} == {iso_epoch(usage_log.stamp(TYPED - 1.0))}


def test_showings_made_only_for_the_scripted_run_count_nothing(isolated_home, tmp_path):
    project = ms.make_project(str(tmp_path), "billing")
    mdir = paths.memory_dir(project)
    mig = _write(mdir, "failure", MIG)
    usage.note(None, SID, "startup", 500, [(mig, 100)], HEADLESS_START - 0.05, mdir)
    usage.note(None, SID, "prompt", 300, [(mig, 100)], HEADLESS_START + 0.09, mdir)  # the -p prompt's recall
    _account(project, mdir, "headless-resumed.jsonl")
    assert not [r for r in usage_log.read(mdir) if r["op"] in ("shown", "used", "session")]


def test_an_entry_with_no_marks_is_recorded_not_measurable_and_never_ranked_unused(isolated_home, tmp_path):
    project = ms.make_project(str(tmp_path), "billing")
    mdir = paths.memory_dir(project)
    staging, lock = _write(mdir, "decision", STAGING), _write(mdir, "decision", LOCK)
    assert evidence.marks_of(STAGING["summary"] + "\n" + STAGING["rationale"]) == []
    usage.note(None, SID, "startup", 500, [(staging, 100), (lock, 90)], FIRST_ACT - 60, mdir)
    _account(project, mdir, "interactive.jsonl")
    shown = {r["id"]: r for r in usage_log.read(mdir) if r["op"] == "shown"}
    assert shown[staging].get("measurable") is False and "measurable" not in shown[lock]
    ranks = usage.load_ranks(None, mdir, 1)
    assert ranks.get(staging) == usage.PEER and ranks.get(lock) in (usage.USED, usage.UNUSED)


def test_one_accounting_reads_usage_jsonl_once(isolated_home, tmp_path, monkeypatch):
    project = ms.make_project(str(tmp_path), "billing")
    mdir = paths.memory_dir(project)
    lock = _write(mdir, "decision", LOCK)
    usage_log.append(mdir, [usage_log.line("shown", 10.0, session="earlier", id=lock, chars=90)])
    usage.note(None, SID, "startup", 500, [(lock, 90)], FIRST_ACT - 60, mdir)
    reads: list[str] = []
    real = lines.read_file

    def counting(path, *args, **kwargs):
        reads.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(lines, "read_file", counting)
    _account(project, mdir, "interactive.jsonl")
    assert reads.count(usage_log.path_of(mdir)) == 1
    t = usage_log.tally(usage_log.read(mdir))
    assert len(t.entries[lock].shown) == 2  # the ranks were written from what was read and appended
    assert usage.load_ranks(None, mdir, 1).get(lock) in (usage.USED, usage.UNUSED)
    with open(usage.ranks_file(None, mdir), encoding="utf-8") as fh:
        assert fh.read().split()[:2] == [lock, "2"]
