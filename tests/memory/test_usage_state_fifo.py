"""A session's appended-to state files (``<state>/<session>.seen``, what was shown and when;
``<session>.shown``, what a prompt must not show again) were opened with a plain ``open`` by the session
start, the prompt hook and the worker: a FIFO in one's place held each in open() until a writer came. Each
now reads as a missing file: nothing shown yet."""

import os

from lazy_harness.memory import usage
from lazy_harness.recall.prompt import already_shown
from tests.support.fifo_wait import HUNG, call_beside

SID = "5b2f7c11-8e3a-4d69-a0b4-2c9d7e1f6a83"


def _fifo(path: str) -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.mkfifo(path)
    return path


def test_a_fifo_in_place_of_a_sessions_showings_reads_as_none_without_waiting(isolated_home):
    fifo = _fifo(usage.seen_file(None, SID))

    assert call_beside([fifo], usage.read_showings, None, SID) == []


def test_a_fifo_in_place_of_what_a_session_was_shown_reads_as_nothing_without_waiting(isolated_home):
    fifo = _fifo(already_shown.state_file(None, SID))

    assert call_beside([fifo], already_shown.read, None, SID) == set()


def test_a_fifo_in_place_of_a_sessions_showings_is_not_waited_on_when_one_is_noted(isolated_home):
    """The appends wait too: a plain open for writing waited for a reader of the FIFO, and held the
    session start (``note``) and the prompt hook (``add``) as a read did. Nothing is written: the
    FIFO is left as it is, and no record is made elsewhere."""
    seen = _fifo(usage.seen_file(None, SID))
    shown = _fifo(already_shown.state_file(None, SID))

    for fifo, call in ((seen, lambda: usage.note(None, SID, "start", 120, [("d-1a2b3c4d", 120)], 1.0)),
                       (shown, lambda: already_shown.add(None, SID, ["d-1a2b3c4d"]))):
        try:
            got = call_beside([fifo], call)
        except OSError as exc:
            got = exc
        assert got != HUNG
        assert os.path.exists(fifo) and not os.path.isfile(fifo)
