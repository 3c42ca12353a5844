"""A failure that happened again after memory showed it is told to the person at the next SessionStart
of the project once for each session it recurred in (memory/usage.py ``untold_recurred``), not once
for ever; and a worker stopped between the ``recurred`` line of usage.jsonl and keeping the recurrence
to tell still has it told once the session is counted again (worker/usage.py)."""

import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import usage, usage_log
from lazy_harness.worker import usage as accounting
from tests.worker.test_usage import ECHO, FIRST_ACT, SID, _ids, _session

AGAIN = {"failures": [{"summary": ECHO["summary"], "prevention": "again"}]}
LATER = "44444444-5555-4666-8777-888888888888"


def _count(world: tuple[str, str], session_id: str) -> None:
    """The session counted from the recorded transcript (its acts after the showings noted here)."""
    mdir, transcript = world
    accounting.account(session_id, transcript, AGAIN, mdir, paths.learnings_dir(), None, FIRST_ACT + 3600)


@pytest.fixture
def recurred_once(isolated_home, tmp_path, monkeypatch) -> tuple[str, str]:
    """(memory folder, transcript) after a first session in which the shown failure ECHO recurred, told."""
    mdir = _session(isolated_home, tmp_path, monkeypatch, AGAIN, FIRST_ACT - 60)
    transcript = os.path.join(paths.projects_dir(), paths.project_key(str(tmp_path / "p")), f"{SID}.jsonl")
    assert os.path.isfile(transcript)
    key = os.path.basename(mdir)
    assert usage.untold_recurred(None, key) == [_ids()[0]]
    usage.told_recurred(None, key, [_ids()[0]])
    assert usage.untold_recurred(None, key) == []
    return mdir, transcript


def test_a_failure_that_recurs_in_a_later_session_is_told_again(recurred_once):
    (mdir, _), echo = recurred_once, _ids()[0]
    usage.note(None, LATER, "startup", 900, [(echo, 100)], FIRST_ACT - 30)
    _count(recurred_once, LATER)
    assert usage_log.tally(usage_log.read(mdir)).entries[echo].recurred == {SID, LATER}
    key = os.path.basename(mdir)
    assert usage.untold_recurred(None, key) == [echo]
    usage.told_recurred(None, key, [echo])
    assert usage.untold_recurred(None, key) == []


def test_a_session_counted_again_is_not_told_again(recurred_once):
    _count(recurred_once, SID)
    assert usage.untold_recurred(None, os.path.basename(recurred_once[0])) == []


def test_a_recurrence_not_kept_before_a_stop_is_kept_when_the_session_is_counted_again(recurred_once, monkeypatch):
    (mdir, _), echo = recurred_once, _ids()[0]
    usage.note(None, LATER, "startup", 900, [(echo, 100)], FIRST_ACT - 30)

    def stopped(*args, **kwargs):  # the worker killed after the recurred line, before the recurrence was kept
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(usage, "keep_recurred", stopped)
        with pytest.raises(KeyboardInterrupt):
            _count(recurred_once, LATER)
    assert ("recurred", echo) in usage_log.of_session(usage_log.read(mdir), LATER)
    _count(recurred_once, LATER)
    key = os.path.basename(mdir)
    assert usage.untold_recurred(None, key) == [echo]
    usage.told_recurred(None, key, [echo])
    _count(recurred_once, LATER)
    assert usage.untold_recurred(None, key) == []
