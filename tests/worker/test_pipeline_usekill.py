"""The worker SIGKILLed at each write step from its persist's commit to its end, then one worker run:
the session's usage accounting (worker/usage.py, ADR 0036) is what the unkilled run wrote. The
persist's promise (worker/owed.py) carries the accounting, so the next worker keeps it though the
task itself then finds nothing new to distill; a line already written counts once.
"""

import json
import os
import shutil
import subprocess
import sys

from lazy_harness.memory import usage, usage_log
from lazy_harness.worker import owed
from tests.reliability import test_commitkill_after_commit as after_commit
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session
from tests.worker.test_usage import FIRST_ACT, SID, _ids, _memory, _session

# a failure memory showed the session, distilled again (recurred: it needs the answer's failures),
# and a new decision, so that the persist writes and commits a promise
ANSWER = {"failures": [{"summary": "The shell check was skipped before a deploy", "prevention": "again"}],
          "decisions": [{"summary": "Keep the deploy checklist in the repository quokkaish"}]}

def _worker() -> None:
    r = subprocess.run([sys.executable, "-m", "lazy_harness.worker"], capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode()[-2000:]


def _accounting(mdir: str) -> dict:
    """usage.jsonl's lines (a recurrence's time left out: it is the distillation's, not the session's)
    and the counts file's bytes."""
    try:
        with open(os.path.join(mdir, "usage.jsonl"), encoding="utf-8") as fh:
            lines = [json.loads(line) for line in fh if line.strip()]
    except FileNotFoundError:
        lines = []
    lines = sorted(json.dumps({k: v for k, v in r.items() if not (k == "ts" and r["op"] == "recurred")},
                              sort_keys=True) for r in lines)
    try:
        with open(usage.ranks_file(None, mdir), encoding="utf-8") as fh:
            counts = fh.read()
    except FileNotFoundError:
        counts = None
    return {"usage": lines, "counts": counts}


def test_a_kill_after_the_commit_never_loses_the_sessions_usage(isolated_home, tmp_path, monkeypatch):
    home = isolated_home
    fake_claude.use(tmp_path, monkeypatch, answer=ANSWER)
    configure(home)
    project = tmp_path / "p"
    project.mkdir()
    mdir = _memory(project)
    usage.note(None, SID, "startup", 1234, [(i, 100 + k) for k, i in enumerate(_ids())], FIRST_ACT - 60)
    queue_session(project, SID)
    snap = tmp_path / "snap"
    shutil.copytree(home, snap, symlinks=True)

    said = after_commit._armed(0)
    assert said.endswith("finished"), said
    marks = json.loads(said.splitlines()[0][len("marks "):])
    ref = _accounting(mdir)
    ops = sorted(json.loads(line)["op"] for line in ref["usage"])
    assert ops == ["recurred", "session", "shown", "shown", "shown", "used"], ref
    assert ref["counts"] and len(ref["counts"].splitlines()) == 3, ref

    commit = marks["commit"] + 1  # the commit's unlink of the undo record: the persist counts as done from there
    failures = {}
    for n in range(commit, marks["total"] + 1):
        shutil.rmtree(home)
        shutil.copytree(snap, home, symlinks=True)
        stopped = after_commit._armed(n)
        assert stopped.startswith(f"stopped {n} "), stopped
        _worker()
        got = dict(_accounting(mdir), owed=owed.left_over())
        if got != dict(ref, owed=[]):
            failures[stopped] = {k: got[k] for k in got if got[k] != dict(ref, owed=[])[k]}
    assert not failures, json.dumps(failures, indent=1)


def test_a_persist_that_writes_nothing_still_counts_the_usage(isolated_home, tmp_path, monkeypatch):
    """No entry written, so no promise record: the accounting runs from the answer all the same."""
    mdir = _session(isolated_home, tmp_path, monkeypatch, {}, FIRST_ACT - 60)
    ops = sorted(r["op"] for r in usage_log.read(mdir))
    assert ops == ["session", "shown", "shown", "shown", "used"]
    assert not owed.left_over()
