"""The usage kill walk (tests/worker/test_pipeline_usekill.py, tests/worker/test_usage_kill_keeps_accounting.py):
a session shown three entries and queued, the worker SIGKILLed at each write step of its run
(tests/reliability/test_commitkill_after_commit.py), then one worker run; what it left is compared
with what the unkilled run wrote."""

import json
import os
import shutil
import subprocess
import sys

from lazy_harness.memory import usage
from tests.reliability import test_commitkill_after_commit as after_commit
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session
from tests.worker.test_usage import FIRST_ACT, SID, _ids, _memory

# what the unkilled run writes in usage.jsonl: the showing, three entries shown, one used, one recurred
OPS = ["recurred", "session", "shown", "shown", "shown", "used"]


def shown_and_queued(home, tmp_path, monkeypatch, answer: dict) -> tuple[str, str]:
    """(the project's memory folder, a copy of ``home`` to start each run from): the fake claude
    answers ``answer``; the session was shown the three entries at its start and is queued."""
    fake_claude.use(tmp_path, monkeypatch, answer=answer)
    configure(home)
    project = tmp_path / "p"
    project.mkdir()
    mdir = _memory(project)
    usage.note(None, SID, "startup", 1234, [(i, 100 + k) for k, i in enumerate(_ids())], FIRST_ACT - 60)
    queue_session(project, SID)
    snap = tmp_path / "snap"
    shutil.copytree(home, snap, symlinks=True)
    return mdir, str(snap)


def unkilled_marks() -> dict:
    """The unkilled run's write steps (``total``, and ``commit`` where the persist committed one)."""
    said = after_commit._armed(0)
    assert said.endswith("finished"), said
    return json.loads(said.splitlines()[0][len("marks "):])


def accounting(mdir: str) -> dict:
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


def ops_of(ref: dict) -> list[str]:
    """The ops of ``accounting``'s usage lines, sorted."""
    return sorted(json.loads(line)["op"] for line in ref["usage"])


def worker() -> None:
    r = subprocess.run([sys.executable, "-m", "lazy_harness.worker"], capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode()[-2000:]


def killed_at_each(home, snap: str, steps: range, ref: dict, state) -> dict[str, dict]:
    """``{what the killed run said: the keys of state() that differ from ref}``: for each step of
    ``steps``, ``home`` put back from ``snap``, the run killed at that step, then one worker run."""
    failures = {}
    for n in steps:
        shutil.rmtree(home)
        shutil.copytree(snap, home, symlinks=True)
        stopped = after_commit._armed(n)
        assert stopped.startswith(f"stopped {n} "), stopped
        worker()
        got = state()
        if got != ref:
            failures[stopped] = {k: got[k] for k in got if got[k] != ref[k]}
    return failures
