"""A session distilled, its record of showings removed (``lh queue purge``), then resumed and distilled
again: the characters of its resume add to those counted before (worker/usage.py ``session_lines``
totals from the session's largest recorded count), never lost as a total already written."""

import os

from lazy_harness import paths
from lazy_harness.memory import usage, usage_log
from lazy_harness.worker import usage as accounting
from tests.worker.test_usage import FIRST_ACT, SID, _ids, _session


def test_the_resume_of_a_purged_session_adds_its_characters(isolated_home, tmp_path, monkeypatch):
    mdir = _session(isolated_home, tmp_path, monkeypatch, {}, FIRST_ACT - 60)
    assert usage_log.tally(usage_log.read(mdir)).totals()["injected_chars"] == 1234
    os.unlink(usage.seen_file(None, SID))  # what lh queue purge removes of the session's state
    usage.note(None, SID, "resume", 1234, [(i, 100 + k) for k, i in enumerate(_ids())], FIRST_ACT + 3600)
    transcript = os.path.join(paths.projects_dir(), paths.project_key(str(tmp_path / "p")), f"{SID}.jsonl")
    for _ in range(2):  # distilled again: counted once
        accounting.account(SID, transcript, {}, mdir, paths.learnings_dir(), None, FIRST_ACT + 7200)
    t = usage_log.tally(usage_log.read(mdir))
    assert t.totals()["injected_chars"] == 2 * 1234
    assert t.totals()["sessions"] == 1
    assert usage_log.this_week(mdir, FIRST_ACT + 7200)["injected_chars"] == 2 * 1234


def test_a_session_whose_showings_are_all_there_is_not_counted_twice(isolated_home, tmp_path, monkeypatch):
    mdir = _session(isolated_home, tmp_path, monkeypatch, {}, FIRST_ACT - 60)
    usage.note(None, SID, "resume", 500, [(_ids()[0], 100)], FIRST_ACT + 3600)
    transcript = os.path.join(paths.projects_dir(), paths.project_key(str(tmp_path / "p")), f"{SID}.jsonl")
    for _ in range(2):
        accounting.account(SID, transcript, {}, mdir, paths.learnings_dir(), None, FIRST_ACT + 7200)
    assert usage_log.tally(usage_log.read(mdir)).totals()["injected_chars"] == 1234 + 500
