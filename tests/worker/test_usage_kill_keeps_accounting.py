"""The worker SIGKILLed at each write step of a run whose persist writes nothing, then one worker run:
the session's usage accounting (worker/usage.py, ADR 0036) is what the unkilled run wrote, and the
recurrence is still to tell. A session that only used memory, or a known failure that came back (the
store de-duplicates it), commits no persist and so saves no promise (worker/owed.py): its usage is
counted before the session's cursor moves, so a killed run's task, run again, is not skipped as
nothing new; a line already written counts once.
"""

import json
import os
import shutil
import subprocess
import sys

from lazy_harness.memory import usage
from lazy_harness.worker import owed
from tests.reliability import test_commitkill_after_commit as after_commit
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session
from tests.worker.test_pipeline_usekill import _accounting
from tests.worker.test_usage import ECHO, FIRST_ACT, SID, _ids, _memory

# the failure memory showed the session, distilled again: de-duplicated, so nothing is written
ANSWER = {"failures": [{"summary": ECHO["summary"].upper(), "prevention": "again"}]}


def _worker() -> None:
    r = subprocess.run([sys.executable, "-m", "lazy_harness.worker"], capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode()[-2000:]


def test_a_kill_anywhere_never_loses_the_usage_of_a_session_that_wrote_nothing(isolated_home, tmp_path,
                                                                                monkeypatch):
    home = isolated_home
    fake_claude.use(tmp_path, monkeypatch, answer=ANSWER)
    configure(home)
    project = tmp_path / "p"
    project.mkdir()
    mdir = _memory(project)
    key = os.path.basename(mdir)
    usage.note(None, SID, "startup", 1234, [(i, 100 + k) for k, i in enumerate(_ids())], FIRST_ACT - 60)
    queue_session(project, SID)
    snap = tmp_path / "snap"
    shutil.copytree(home, snap, symlinks=True)

    said = after_commit._armed(0)
    assert said.endswith("finished"), said
    marks = json.loads(said.splitlines()[0][len("marks "):])
    assert "commit" not in marks, marks  # nothing written: no persist committed
    ref = dict(_accounting(mdir), untold=usage.untold_recurred(None, key), owed=[])
    ops = sorted(json.loads(line)["op"] for line in ref["usage"])
    assert ops == ["recurred", "session", "shown", "shown", "shown", "used"], ref
    assert ref["untold"] == [_ids()[0]], ref

    failures = {}
    for n in range(1, marks["total"] + 1):
        shutil.rmtree(home)
        shutil.copytree(snap, home, symlinks=True)
        stopped = after_commit._armed(n)
        assert stopped.startswith(f"stopped {n} "), stopped
        _worker()
        got = dict(_accounting(mdir), untold=usage.untold_recurred(None, key), owed=owed.left_over())
        if got != ref:
            failures[stopped] = {k: got[k] for k in got if got[k] != ref[k]}
    assert not failures, json.dumps(failures, indent=1)
