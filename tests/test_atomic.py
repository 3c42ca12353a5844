"""atomic.py: every byte is written even when ``os.write`` writes fewer than asked."""

import os

import pytest

from lazy_harness import atomic

REAL_WRITE = os.write


def short_writes(monkeypatch, step: int) -> list[int]:
    """Make ``os.write`` write at most ``step`` bytes per call (as a signal or a pipe can); returns the
    byte counts it reported, so a test can check the short writes really happened."""
    counts: list[int] = []

    def write(fd, data):
        if fd <= 2:  # why: leave the test runner's own output alone
            return REAL_WRITE(fd, data)
        n = REAL_WRITE(fd, bytes(memoryview(data)[:step]))
        counts.append(n)
        return n

    monkeypatch.setattr(os, "write", write)
    return counts


def test_append_line_writes_a_whole_line_through_short_writes(tmp_path, monkeypatch):
    path = str(tmp_path / "log.jsonl")
    counts = short_writes(monkeypatch, 7)
    atomic.append_line(path, '{"summary": "first entry", "tags": ["a"]}')
    atomic.append_line(path, '{"summary": "second entry é"}')
    assert len(counts) > 2 and max(counts) == 7
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == '{"summary": "first entry", "tags": ["a"]}\n{"summary": "second entry é"}\n'


def test_atomic_write_writes_the_whole_file_through_short_writes(tmp_path, monkeypatch):
    folder = tmp_path / "mem"
    path = str(folder / "handoff.md")
    data = "".join(f"- item {i}\n" for i in range(500))
    counts = short_writes(monkeypatch, 4096)
    assert atomic.atomic_write(path, data)
    assert len(counts) > 1
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == data
    assert os.listdir(folder) == ["handoff.md"]


def test_exclusive_write_through_short_writes_is_whole(tmp_path, monkeypatch):
    path = str(tmp_path / "learning.md")
    short_writes(monkeypatch, 3)
    assert atomic.atomic_write(path, "---\ntitle: x\n---\nbody\n", exclusive=True)
    assert not atomic.atomic_write(path, "other", exclusive=True)
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == "---\ntitle: x\n---\nbody\n"


def test_a_write_that_makes_no_progress_fails_and_leaves_the_old_file(tmp_path, monkeypatch):
    folder = tmp_path / "mem"
    path = str(folder / "handoff.md")
    atomic.atomic_write(path, "old\n")
    monkeypatch.setattr(os, "write", lambda fd, data: REAL_WRITE(fd, data) if fd <= 2 else 0)
    with pytest.raises(OSError, match="no progress"):
        atomic.atomic_write(path, "new\n")
    with pytest.raises(OSError, match="no progress"):
        atomic.append_line(str(folder / "log.jsonl"), "{}")
    monkeypatch.setattr(os, "write", REAL_WRITE)
    assert open(path, encoding="utf-8").read() == "old\n"
    assert sorted(os.listdir(folder)) == ["handoff.md", "log.jsonl"]  # no temp file left behind
    assert os.path.getsize(folder / "log.jsonl") == 0


def test_a_line_appended_while_the_file_is_rewritten_lands_in_the_new_file(tmp_path, monkeypatch):
    """The appender opened the file, then waits for its lock while ``rewrite`` replaces it: once it
    gets the lock it sees the file was replaced, and appends to the new one."""
    import fcntl
    import threading

    path = str(tmp_path / "marks.jsonl")
    with open(path, "w") as fh:
        fh.write('{"op": "supersede", "id": "d-1"}\n{"op": "forget", "id": "d-2"}\n')
    real_flock, waiting = fcntl.flock, threading.Event()

    def flock(fd, op):
        if threading.current_thread().name == "appender":
            waiting.set()  # opened, about to wait for the lock the rewrite holds
        return real_flock(fd, op)

    monkeypatch.setattr(atomic.fcntl, "flock", flock)

    def change(data):
        appender = threading.Thread(target=atomic.append_line, args=(path, '{"op": "forget", "id": "d-3"}'),
                                    name="appender")
        appender.start()
        assert waiting.wait(10)
        change.appender = appender
        return b"".join(line for line in data.splitlines(keepends=True) if b"d-1" not in line)

    atomic.rewrite(path, change)
    change.appender.join(10)
    assert not change.appender.is_alive()
    with open(path) as fh:
        assert fh.read() == '{"op": "forget", "id": "d-2"}\n{"op": "forget", "id": "d-3"}\n'


def test_rewrite_of_a_missing_file_or_without_a_change_writes_nothing(tmp_path):
    path = str(tmp_path / "marks.jsonl")
    assert atomic.rewrite(path, lambda data: b"x") is None and not os.path.exists(path)
    with open(path, "wb") as fh:
        fh.write(b"a\n")
    before = os.stat(path).st_ino
    assert atomic.rewrite(path, lambda data: data) is None and os.stat(path).st_ino == before


def test_memory_writes_are_fsynced_and_the_shown_record_is_not(tmp_path, monkeypatch, isolated_home):
    """A memory file is on disk before it is renamed into place (file and folder fsynced); the record
    of what a session was shown is only whole, not durable (losing it shows an item once more)."""
    from lazy_harness.recall.prompt import already_shown

    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    atomic.atomic_write(str(tmp_path / "handoff.md"), "- item\n")
    assert len(synced) == 2  # the file, then its folder
    synced.clear()
    already_shown.add(dict(os.environ), "s1", ["d-1", "d-2"], replace=True)
    assert synced == []
    assert already_shown.read(dict(os.environ), "s1") == {"d-1", "d-2"}
