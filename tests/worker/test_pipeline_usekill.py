"""The worker SIGKILLed at each write step from its persist's commit to its end, then one worker run:
the session's usage accounting (worker/usage.py, ADR 0036) is what the unkilled run wrote. The
persist's promise (worker/owed.py) carries the accounting, so the next worker keeps it though the
task itself then finds nothing new to distill; a line already written counts once.
"""

import json

from lazy_harness.memory import usage_log
from lazy_harness.worker import owed
from tests.support import usage_kill_walk as walk
from tests.worker.test_usage import FIRST_ACT, _session

# a failure memory showed the session, distilled again (recurred: it needs the answer's failures),
# and a new decision, so that the persist writes and commits a promise
ANSWER = {"failures": [{"summary": "The shell check was skipped before a deploy", "prevention": "again"}],
          "decisions": [{"summary": "Keep the deploy checklist in the repository quokkaish"}]}


def test_a_kill_after_the_commit_never_loses_the_sessions_usage(isolated_home, tmp_path, monkeypatch):
    mdir, snap = walk.shown_and_queued(isolated_home, tmp_path, monkeypatch, ANSWER)
    marks = walk.unkilled_marks()
    ref = walk.accounting(mdir)
    assert walk.ops_of(ref) == walk.OPS, ref
    assert ref["counts"] and len(ref["counts"].splitlines()) == 3, ref

    commit = marks["commit"] + 1  # the commit's unlink of the undo record: the persist counts as done from there
    failures = walk.killed_at_each(isolated_home, snap, range(commit, marks["total"] + 1), dict(ref, owed=[]),
                                   lambda: dict(walk.accounting(mdir), owed=owed.left_over()))
    assert not failures, json.dumps(failures, indent=1)


def test_a_persist_that_writes_nothing_still_counts_the_usage(isolated_home, tmp_path, monkeypatch):
    """No entry written, so no promise record: the accounting runs from the answer all the same."""
    mdir = _session(isolated_home, tmp_path, monkeypatch, {}, FIRST_ACT - 60)
    ops = sorted(r["op"] for r in usage_log.read(mdir))
    assert ops == ["session", "shown", "shown", "shown", "used"]
    assert not owed.left_over()
