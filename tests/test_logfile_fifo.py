"""A FIFO in the place of a log (hooks.log, the worker's log): every hook writes its line there, and the
worker's start sends its output there. A plain open for writing waited for a reader of the FIFO, so the
hook was held until Claude Code gave up on it. The line is lost and said so, once, on stderr; the worker's
start fails as a log that cannot be opened does."""

import os
import sys

import pytest

from lazy_harness import detach, logfile
from tests.support.fifo_wait import HUNG, call_beside


def test_a_line_for_a_log_that_is_a_fifo_is_given_up_without_waiting(isolated_home, capfd, monkeypatch):
    monkeypatch.setattr(logfile, "_UNWRITTEN", [])  # why: said once a process; another test may have said it
    path = logfile.log_path("hooks.log")
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    os.mkfifo(path, 0o600)

    assert call_beside([path], logfile.write, "hooks.log", "SessionStart injected 3 entries") is None
    assert "hooks.log not written" in capfd.readouterr().err  # said once: the record was not written
    assert not os.path.isfile(path)


def test_a_worker_started_with_a_fifo_for_its_log_fails_without_waiting(isolated_home, tmp_path):
    log = str(tmp_path / "logs" / "compound-loop.log")
    os.makedirs(os.path.dirname(log))
    os.mkfifo(log, 0o600)

    def start():
        try:
            return detach.spawn([sys.executable, "-c", "pass"], log, dict(os.environ))
        except OSError as exc:
            return exc

    got = call_beside([log], start)
    assert got != HUNG
    assert isinstance(got, OSError)
    with pytest.raises(OSError):
        detach.spawn([sys.executable, "-c", "pass"], log, dict(os.environ))
