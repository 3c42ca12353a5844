"""Usage accounting met as a user meets it (docs/how/usage.md): scenarios a plain run of the worker
does not show, each on a real ``.seen`` file and usage.jsonl."""

import os

from lazy_harness import paths
from lazy_harness.memory import usage, usage_log
from lazy_harness.worker import usage as accounting
from tests.worker.test_usage import FIRST_ACT, SID, _ids, _session


def _transcript(tmp_path) -> str:
    return os.path.join(paths.projects_dir(), paths.project_key(str(tmp_path / "p")), f"{SID}.jsonl")


def test_a_clock_stepped_back_does_not_count_a_sessions_characters_twice(isolated_home, tmp_path, monkeypatch):
    """The clock steps back an hour after the session's start: its next showings are dated before the
    first. Distilled after each, the session's characters are the sum of its showings, once: the
    ``session`` lines the earlier distillation wrote of these very showings are no total recorded before
    them (as after ``lh queue purge``)."""
    mdir = _session(isolated_home, tmp_path, monkeypatch, {}, FIRST_ACT - 60)  # 1234 at the start
    usage.note(None, SID, "prompt", 300, [(_ids()[0], 100)], FIRST_ACT - 3600)  # the clock stepped back
    accounting.account(SID, _transcript(tmp_path), {}, mdir, paths.learnings_dir(), None, FIRST_ACT)
    assert usage_log.tally(usage_log.read(mdir)).totals()["injected_chars"] == 1234 + 300
    usage.note(None, SID, "prompt", 200, [(_ids()[1], 100)], FIRST_ACT - 3500)
    for _ in range(2):  # distilled again, and once more with nothing new
        accounting.account(SID, _transcript(tmp_path), {}, mdir, paths.learnings_dir(), None, FIRST_ACT)
    assert usage_log.tally(usage_log.read(mdir)).totals()["injected_chars"] == 1234 + 300 + 200


def test_the_text_read_for_use_is_the_one_the_session_was_shown_not_a_synced_line_claiming_its_id(
        isolated_home, tmp_path, monkeypatch):
    """A line another machine synced in carries the id of this machine's decision under another text
    (ADR 0059): every reader shows this machine's entry, so the session's use of it is judged by that
    entry's marks, not by the synced line's (whose `echo hi` the session ran)."""
    from lazy_harness.memory import entries, files
    from tests.support import fake_claude
    from tests.worker.spendrig import configure, queue_session, run_worker, tasks
    from tests.worker.test_usage import _memory

    fake_claude.use(tmp_path, monkeypatch, answer={})
    configure(isolated_home)
    proj = tmp_path / "p"
    proj.mkdir()
    mdir = _memory(proj)
    redis = _ids()[2]
    brought = dict(entries.record("decision", {"summary": "Run the shell check", "rationale": "run `echo hi`"},
                                  {"project": "p", "session_id": "theirs", "task_id": "t"}, 2.0),
                   id=redis, via="sync", machine="another-machine")
    with open(os.path.join(mdir, files.DECISIONS), "a") as fh:
        fh.write(entries.json_line(brought) + "\n")
    usage.note(None, SID, "startup", 500, [(redis, 100)], FIRST_ACT - 60)
    queue_session(proj, SID)
    run_worker()
    assert len(tasks("done")) == 1 and not tasks("failed"), tasks("failed")
    rows = {e["id"]: e for e in usage_log.tally(usage_log.read(mdir)).report()["entries"]}
    assert rows[redis]["shown"] == 1 and rows[redis]["used"] == 0


def test_a_session_with_nothing_new_to_distil_still_counts_the_showings_made_since(isolated_home, tmp_path,
                                                                                   monkeypatch):
    """A session whose turns were distilled already (a fork of it distilled its copied turns first, or
    its last turn came in a task before) is skipped as nothing new: what it was shown since still counts,
    once, however often the skip is met."""
    from lazy_harness.worker.pipeline import NOTHING_NEW
    from tests.worker.spendrig import queue_session, run_worker, tasks

    mdir = _session(isolated_home, tmp_path, monkeypatch, {}, FIRST_ACT - 60)
    usage.note(None, SID, "prompt", 300, [(_ids()[1], 100)], FIRST_ACT + 5)
    for _ in range(2):
        queue_session(tmp_path / "p", SID)
        run_worker()
        assert tasks("done")[-1]["reason"] == NOTHING_NEW
    totals = usage_log.tally(usage_log.read(mdir)).totals()
    assert totals["injected_chars"] == 1234 + 300
    rows = {e["id"]: e for e in usage_log.tally(usage_log.read(mdir)).report()["entries"]}
    assert rows[_ids()[1]]["shown"] == 1
