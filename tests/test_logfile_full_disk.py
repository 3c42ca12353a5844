"""A log record on a full disk: a write that takes only part of the line leaves nothing of it (the next
record starts its own line, every reader parses it), and the first record a process could not write is
said once on stderr, naming the log, where nothing else could say that the hooks ran and failed."""

import os

from lazy_harness import logfile


def _short_writes(monkeypatch, fail: list[int]):
    real = os.write

    def write(fd, data):
        if fd != 2 and fail:
            fail.pop()
            return real(fd, data[:7])  # part of the line, as a file system out of room answers
        return real(fd, data)

    monkeypatch.setattr(logfile.os, "write", write)


def test_a_line_written_in_part_is_taken_back_and_the_next_starts_its_own_line(monkeypatch, capfd):
    monkeypatch.setattr(logfile, "_UNWRITTEN", [])
    logfile.write(logfile.HOOKS, "first record")
    _short_writes(monkeypatch, [1])
    logfile.write(logfile.HOOKS, "torn record")
    logfile.write(logfile.HOOKS, "third record")
    with open(logfile.log_path(logfile.HOOKS), encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    assert lines[-1] == "" and [line.split(" ", 1)[1] for line in lines[:-1]] == ["first record", "third record"]
    err = capfd.readouterr().err
    assert err.count("lazy-harness: hooks.log not written") == 1, err


def test_a_log_that_cannot_be_opened_is_said_once_a_process_on_stderr(monkeypatch, capfd, tmp_path):
    monkeypatch.setattr(logfile, "_UNWRITTEN", [])
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setattr(logfile, "log_path", lambda name, env=None: os.path.join(str(blocker), "logs", name))
    for _ in range(3):
        logfile.write(logfile.WORKER, "a step")  # never raises
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "worker.log not written" in err and "not-a-folder" in err, err
