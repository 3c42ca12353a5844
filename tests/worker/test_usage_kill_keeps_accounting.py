"""The worker SIGKILLed at each write step of a run whose persist writes nothing, then one worker run:
the session's usage accounting (worker/usage.py, ADR 0036) is what the unkilled run wrote, and the
recurrence is still to tell. A session that only used memory, or a known failure that came back (the
store de-duplicates it), commits no persist and so saves no promise (worker/owed.py): its usage is
counted before the session's cursor moves, so a killed run's task, run again, is not skipped as
nothing new; a line already written counts once.
"""

import json
import os

from lazy_harness.memory import usage
from lazy_harness.worker import owed
from tests.support import usage_kill_walk as walk
from tests.worker.test_usage import ECHO, _ids

# the failure memory showed the session, distilled again: de-duplicated, so nothing is written
ANSWER = {"failures": [{"summary": ECHO["summary"].upper(), "prevention": "again"}]}


def test_a_kill_anywhere_never_loses_the_usage_of_a_session_that_wrote_nothing(isolated_home, tmp_path,
                                                                                monkeypatch):
    mdir, snap = walk.shown_and_queued(isolated_home, tmp_path, monkeypatch, ANSWER)
    key = os.path.basename(mdir)
    marks = walk.unkilled_marks()
    assert "commit" not in marks, marks  # nothing written: no persist committed
    ref = dict(walk.accounting(mdir), untold=usage.untold_recurred(None, key), owed=[])
    assert walk.ops_of(ref) == walk.OPS, ref
    assert ref["untold"] == [_ids()[0]], ref

    failures = walk.killed_at_each(
        isolated_home, snap, range(1, marks["total"] + 1), ref,
        lambda: dict(walk.accounting(mdir), untold=usage.untold_recurred(None, key), owed=owed.left_over()))
    assert not failures, json.dumps(failures, indent=1)
