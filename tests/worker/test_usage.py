"""worker/usage.py through the worker: a distilled session's shown entries counted used or not by
what the agent did after they were shown, and a failure distilled again after it was shown counted
recurred (ADR 0036). The transcript is the one recorded from the real CLI (tests/fixtures)."""

import json
import os

from lazy_harness import paths
from lazy_harness.memory import entries, files, ids, usage, usage_log
from lazy_harness.memory.files import iso_epoch
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session, run_worker, tasks

SID = "33333333-4444-4555-8666-777777777777"
ECHO = {"summary": "The shell check was skipped before a deploy",
        "prevention": "Run `echo hi` first to see the shell works."}
PNPM = {"summary": "CI installed a different lockfile", "prevention": "Use `pnpm install --frozen-lockfile` in CI."}
REDIS = {"summary": "Sessions were cached in the wrong place", "rationale": "keep them in redis_cluster_main"}
# the recorded session's first assistant act (the Bash tool call `echo hi`) is at this time
FIRST_ACT = iso_epoch("2026-11-22T02:21:47.839Z")


def _memory(project) -> str:
    mdir = paths.memory_dir(str(project))
    os.makedirs(mdir, exist_ok=True)
    meta = {"project": "p", "session_id": "earlier", "task_id": "t"}
    for kind, item in (("failure", ECHO), ("failure", PNPM), ("decision", REDIS)):
        name = files.FAILURES if kind == "failure" else files.DECISIONS
        with open(os.path.join(mdir, name), "a") as fh:
            fh.write(entries.json_line(entries.record(kind, item, meta, 1.0)) + "\n")
    return mdir


def _ids() -> list[str]:
    return [ids.entry_id("failure", ECHO["summary"]), ids.entry_id("failure", PNPM["summary"]),
            ids.entry_id("decision", REDIS["summary"])]


def _session(isolated_home, tmp_path, monkeypatch, answer: dict, shown_at: float):
    fake_claude.use(tmp_path, monkeypatch, answer=answer)
    configure(isolated_home)
    proj = tmp_path / "p"
    proj.mkdir()
    mdir = _memory(proj)
    usage.note(None, SID, "startup", 1234, [(i, 100 + k) for k, i in enumerate(_ids())], shown_at)
    queue_session(proj, SID)
    run_worker()
    assert len(tasks("done")) == 1 and not tasks("failed"), (tasks("done"), tasks("failed"))
    return mdir


def test_the_entry_whose_command_the_session_ran_is_used_the_other_two_not(isolated_home, tmp_path, monkeypatch):
    mdir = _session(isolated_home, tmp_path, monkeypatch, {"decisions": [{"summary": "something new"}]}, FIRST_ACT - 60)
    echo, pnpm, redis = _ids()
    rows = {e["id"]: e for e in usage_log.tally(usage_log.read(mdir)).report()["entries"]}
    assert rows[echo]["shown"] == 1 and rows[echo]["used"] == 1
    assert rows[pnpm]["shown"] == 1 and rows[pnpm]["used"] == 0
    assert rows[redis]["shown"] == 1 and rows[redis]["used"] == 0
    used = [r for r in usage_log.read(mdir) if r["op"] == "used"]
    assert used[0]["evidence"] == "echo hi" and used[0]["session"] == SID
    report = usage_log.tally(usage_log.read(mdir)).report()
    assert report["injected_chars"] == 1234 and report["sessions"] == 1 and report["recurrences"] == 0
    ranks = usage.load_ranks(None, mdir, 1)
    assert [ranks.get(i) for i in (echo, pnpm, redis)] == [usage.USED, usage.UNUSED, usage.UNUSED]


def test_an_entry_shown_after_the_act_is_not_counted_used(isolated_home, tmp_path, monkeypatch):
    mdir = _session(isolated_home, tmp_path, monkeypatch, {"decisions": [{"summary": "something new"}]},
                    FIRST_ACT + 0.5)
    assert not [r for r in usage_log.read(mdir) if r["op"] == "used"]


def test_a_shown_failure_distilled_again_is_recurred_and_told_once(isolated_home, tmp_path, monkeypatch):
    """Its mark (``echo hi``) in an act after memory showed it: it happened again (review r3: the
    marks must come after the showing; worker/test_usage_review_fixes.py has the case before it)."""
    answer = {"failures": [{"summary": ECHO["summary"].upper() + " ", "prevention": "again"}]}  # same, normalised
    mdir = _session(isolated_home, tmp_path, monkeypatch, answer, FIRST_ACT - 60)
    echo = _ids()[0]
    rows = {e["id"]: e for e in usage_log.tally(usage_log.read(mdir)).report()["entries"]}
    assert rows[echo]["recurred"] == 1
    key = os.path.basename(mdir)
    assert usage.untold_recurred(None, key) == [echo]
    with open(os.path.join(mdir, files.FAILURES)) as fh:  # de-duplicated: not written twice
        assert sum(1 for line in fh if json.loads(line).get("id") == echo) == 1


def test_a_session_distilled_twice_is_counted_once(isolated_home, tmp_path, monkeypatch):
    mdir = _session(isolated_home, tmp_path, monkeypatch, {"decisions": [{"summary": "something new"}]}, FIRST_ACT - 60)
    from lazy_harness.worker import usage as accounting

    before = usage_log.read(mdir)
    transcript = os.path.join(paths.projects_dir(), paths.project_key(str(tmp_path / "p")), f"{SID}.jsonl")
    accounting.account(SID, transcript, {}, mdir, paths.learnings_dir(), None, 2e9)
    assert len(usage_log.read(mdir)) == len(before)


def test_a_learnings_evidence_is_what_it_says_not_its_frontmatter(isolated_home, tmp_path):
    """A tool call on the project's own path names the learning's ``origin`` (``data_pipeline``):
    that is no use of the learning. Its evidence comes from its title, tags, cues and body only."""
    from lazy_harness.worker import evidence
    from lazy_harness.worker import usage as accounting
    from tests.support import memory_samples as ms

    ldir = paths.learnings_dir()
    from lazy_harness.memory import learnings

    path = ms.write_learning(ldir, "Parquet writers need an explicit schema", "data_pipeline", 1_700_000_000,
                             learning="Pass pyarrow.schema(...) to ParquetWriter.",
                             project_folder="-home-jane-data_pipeline", tags=["parquet"])

    lid = learnings.id_of(path)
    text = accounting.texts_of(str(tmp_path / "mem"), ldir, {lid})[lid]
    assert "Parquet writers need an explicit schema" in text and "ParquetWriter" in text and "parquet" in text
    marks = evidence.marks_of(text)
    assert not any("data_pipeline" in m or "project_folder" in m or "origin" in m for m in marks), marks
