"""A record of the checks a persist owes (worker/owed.py) is settled by a starting worker only when
its writer is gone: the writer (``lh distill`` or the worker itself, distilling or settling) holds an
``flock`` on the record from its write until its removal, so a record whose lock is held belongs to a
live process inside those checks (its model-check call takes seconds) and is left to it."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

from lazy_harness import config, paths, queue
from lazy_harness.worker import model_check, persist, pipeline
from tests.support import fake_claude
from tests.support.sessions import place
from tests.worker.spendrig import configure

SID = "44444444-4444-4444-8444-444444444444"
WAIT = 60  # only keeps a bug from hanging the suite


def _owed() -> list[str]:
    folder = os.path.join(paths.state_dir(), "owed")
    return sorted(n for n in os.listdir(folder) if n.endswith(".json")) if os.path.isdir(folder) else []


def _fields(tmp_path, monkeypatch, home, task_id: str) -> dict:
    """A session to distill with the fake ``claude`` answering the distill call; the model check on."""
    fake_claude.use(tmp_path, monkeypatch)
    configure(home, model_check=True)
    project = tmp_path / "p"
    project.mkdir()
    payload = place(project, "interactive.jsonl", SID)
    return dict(queue.task_fields(payload, "SessionEnd", True), task_id=task_id)


class PausedCheck:
    """``model_check.run`` that records each call; the first one waits inside until ``go`` is set
    (the live process in its model-check call), the later ones answer at once."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []
        self.inside, self.go = threading.Event(), threading.Event()

    def __call__(self, entries, cfg, env, meta, log, now=None, sleep=time.sleep) -> list:
        self.calls.append([e[1] for e in entries])
        if len(self.calls) == 1:
            self.inside.set()
            assert self.go.wait(WAIT)
        return []


def _settle() -> list[str]:
    logged: list[str] = []
    persist.settle_owed(config.load(), dict(os.environ), logged.append)
    return logged


def test_a_record_lh_distill_holds_is_left_to_it(isolated_home, tmp_path, monkeypatch):
    fields = _fields(tmp_path, monkeypatch, isolated_home, "distill-1")
    check = PausedCheck()
    monkeypatch.setattr(model_check, "run", check)
    outcome = []
    writer = threading.Thread(target=lambda: outcome.append(
        pipeline.distill(fields, config.load(), dict(os.environ), trust=False)))
    writer.start()
    try:
        assert check.inside.wait(WAIT)  # lh distill persisted, saved its record, and is in its call
        assert _owed() == ["distill-1.json"]
        logged = _settle()  # a worker starts meanwhile
        assert len(check.calls) == 1, logged  # no second paid call
        assert _owed() == ["distill-1.json"]  # left in place for its writer
    finally:
        check.go.set()
        writer.join(WAIT)
    assert not writer.is_alive() and outcome[0].status == "processed"
    assert len(check.calls) == 1 and check.calls[0]  # one model check of what it wrote, in all
    assert _owed() == []  # its writer removed it
    assert _settle() == [] and len(check.calls) == 1


def test_a_record_a_settling_worker_holds_is_not_settled_twice(isolated_home, tmp_path, monkeypatch):
    """Two settlers of one record (a worker settling it, another process listing it meanwhile)."""
    fields = _fields(tmp_path, monkeypatch, isolated_home, "distill-2")
    _killed_in_the_check(fields)
    check = PausedCheck()
    monkeypatch.setattr(model_check, "run", check)
    first = threading.Thread(target=_settle)
    first.start()
    try:
        assert check.inside.wait(WAIT)  # the first settler is in the check's call
        _settle()
        assert len(check.calls) == 1 and _owed() == ["distill-2.json"]
    finally:
        check.go.set()
        first.join(WAIT)
    assert len(check.calls) == 1 and _owed() == []


def test_a_killed_writers_record_is_settled_once(isolated_home, tmp_path, monkeypatch):
    fields = _fields(tmp_path, monkeypatch, isolated_home, "distill-3")
    _killed_in_the_check(fields)
    assert _owed() == ["distill-3.json"]  # its lock went with the process
    calls: list[list[str]] = []
    monkeypatch.setattr(model_check, "run", lambda entries, *a, **k: calls.append([e[1] for e in entries]) or [])
    logged = _settle()
    assert len(calls) == 1 and calls[0] and _owed() == []
    assert any("running the checks a killed worker owed its entries" in line for line in logged), logged
    assert _settle() == [] and len(calls) == 1


def _killed_in_the_check(fields: dict) -> None:
    """``lh distill`` of ``fields`` in a process SIGKILLed inside its model-check call (after the
    persist and the record of the checks owed)."""
    script = ("import json, os, signal, sys\n"
              "from lazy_harness import config\n"
              "from lazy_harness.worker import model_check, pipeline\n"
              "model_check.run = lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL)\n"
              "pipeline.distill(json.loads(sys.argv[1]), config.load(), os.environ, trust=False)\n")
    done = subprocess.run([sys.executable, "-c", script, json.dumps(fields)], env=dict(os.environ),
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == -signal.SIGKILL, done.stderr
