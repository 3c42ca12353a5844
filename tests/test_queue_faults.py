"""The queue's write paths under the faults of a real machine: a full disk or quota (ENOSPC, EDQUOT)
on a write, an fsync or a link, a folder that may not be written (EACCES). Injected by monkeypatching
the ``os`` call for the files concerned (tests may run as root, where ``chmod`` denies nothing)."""

import errno
import os

import pytest

from lazy_harness import queue
from lazy_harness.queue import sweep

SID = "5f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47"
OTHER = "7a1d9c3e-2b4f-4e8a-9c0d-1e2f3a4b5c6d"
REAL_WRITE, REAL_FSYNC, REAL_LINK, REAL_OPEN = os.write, os.fsync, os.link, os.open


def _fd_path(fd: int) -> str:
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return ""


def fail_writes_into(monkeypatch, fragment: str, call: str, code: int = errno.ENOSPC) -> None:
    """``os.write`` or ``os.fsync`` (``call``) fails with ``code`` on every file whose path holds
    ``fragment``, as a full disk fails them: with no file name in the error."""
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("needs /proc/self/fd to tell which file a descriptor is")
    real = {"write": REAL_WRITE, "fsync": REAL_FSYNC}[call]

    def failing(fd, *args):
        if fragment in _fd_path(fd):
            raise OSError(code, os.strerror(code))
        return real(fd, *args)

    monkeypatch.setattr(os, call, failing)


def fail_links_into(monkeypatch, folder: str, code: int = errno.ENOSPC) -> None:
    """``os.link`` into ``folder`` fails with ``code`` (a full directory block, a quota, a denied folder)."""
    def failing(src, dst, *args, **kwargs):
        if os.path.dirname(os.fspath(dst)) == folder:
            raise OSError(code, os.strerror(code), src, None, dst)
        return REAL_LINK(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "link", failing)


def _fields(tmp_path, sid: str = SID) -> dict:
    transcript = tmp_path / f"{sid}.jsonl"
    transcript.write_text('{"type":"user"}\n')
    return {"session_id": sid, "session_jsonl": str(transcript), "cwd": str(tmp_path), "event": "Stop",
            "forced": "0", "memory_dir": str(tmp_path / "mem")}


def _leftovers(q: str) -> list[str]:
    """Temp files left in the queue's tmp/ and state/ folders."""
    out = os.listdir(os.path.join(q, queue.TMP))
    return out + [n for n in os.listdir(os.path.join(q, queue.STATE)) if n.endswith(".tmp")]


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT, errno.EACCES])
def test_a_link_that_fails_leaves_no_pending_marker_naming_a_task_that_does_not_exist(tmp_path, monkeypatch, code):
    q = str(tmp_path / "queue")
    fail_links_into(monkeypatch, q, code)
    with pytest.raises(OSError):
        queue.enqueue(q, _fields(tmp_path), 1000.0)
    assert queue.pending(q) == [] and _leftovers(q) == []
    marker = queue.read_state(q, SID, "pending")
    assert not marker or not marker[0] or os.path.exists(os.path.join(q, marker[0])), marker
    monkeypatch.setattr(os, "link", REAL_LINK)
    name = queue.enqueue(q, _fields(tmp_path), 1001.0)  # the next Stop or SessionEnd: queued once
    assert queue.pending(q) == [name] and queue.pending_of(q, SID) == (name, 1001.0)


def test_a_link_that_fails_keeps_the_earlier_task_of_the_session_the_one_pending(tmp_path, monkeypatch):
    q = str(tmp_path / "queue")
    first = queue.enqueue(q, _fields(tmp_path), 1000.0)
    fail_links_into(monkeypatch, q)
    with pytest.raises(OSError, match="No space left"):
        queue.enqueue(q, _fields(tmp_path), 1100.0)
    # the earlier task still waits, and everything that asks the marker says so: the sweep does not
    # queue the session again beside it, the worker keeps its kept transcript
    assert queue.pending(q) == [first] and _leftovers(q) == []
    assert queue.pending_of(q, SID) == (first, 1000.0) and queue.has_task(q, SID)
    monkeypatch.setattr(os, "link", REAL_LINK)
    second = queue.enqueue(q, _fields(tmp_path), 1200.0)
    assert queue.pending(q) == [second]
    assert queue.read_task(os.path.join(q, second))["replaces"] == queue.task_id(first)


@pytest.mark.parametrize("call", ["write", "fsync"])
def test_a_full_disk_writing_the_task_names_the_file_and_leaves_no_temp(tmp_path, monkeypatch, call):
    q = str(tmp_path / "queue")
    fail_writes_into(monkeypatch, os.path.join(q, queue.TMP) + os.sep, call)
    with pytest.raises(OSError) as raised:
        queue.enqueue(q, _fields(tmp_path), 1000.0)
    assert raised.value.errno == errno.ENOSPC
    # the hook's line in hooks.log is this error's text: it says which file
    assert os.path.join(q, queue.TMP) in str(raised.value)
    assert queue.pending(q) == [] and _leftovers(q) == [] and queue.pending_of(q, SID) is None


def _open_session(q: str, tmp_path, sid: str) -> None:
    transcript = tmp_path / f"{sid}.jsonl"
    transcript.write_text('{"type":"user"}\n')
    os.utime(transcript, (100.0, 100.0))
    sweep.watch(q, {"session_id": sid, "transcript_path": str(transcript), "cwd": str(tmp_path)})


def _deny_lock_of(monkeypatch, q: str, sid: str) -> None:
    """The session's enqueue lock may not be opened (a state file another user made, ``sudo lh ...``)."""
    lock = queue.state_file(q, sid, "lock")

    def failing(path, flags, *args, **kwargs):
        if os.fspath(path) == lock:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return REAL_OPEN(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", failing)


def test_a_session_whose_task_cannot_be_written_does_not_stop_the_sweep_for_the_others(tmp_path, monkeypatch):
    q = str(tmp_path / "queue")
    first, second = sorted([SID, OTHER])
    for sid in (first, second):
        _open_session(q, tmp_path, sid)
    _deny_lock_of(monkeypatch, q, first)  # the first in the sweep's rotation
    failures: list[OSError] = []
    queued = sweep.sweep(q, 10_000.0, 60.0, failures=failures)
    assert [queue.read_task(os.path.join(q, n))["session_id"] for n in queued] == [second]
    assert len(failures) == 1 and queue.state_file(q, first, "lock") in str(failures[0])
    # the failing session stays watched: the next sweep, once the file may be opened, queues it
    assert os.path.exists(os.path.join(q, queue.OPEN, first))
    monkeypatch.setattr(os, "open", REAL_OPEN)
    again = sweep.sweep(q, 10_100.0, 60.0)
    assert [queue.read_task(os.path.join(q, n))["session_id"] for n in again] == [first]


def test_without_a_failures_list_the_sweep_raises_its_first_error_after_the_round(tmp_path, monkeypatch):
    q = str(tmp_path / "queue")
    first, second = sorted([SID, OTHER])
    for sid in (first, second):
        _open_session(q, tmp_path, sid)
    _deny_lock_of(monkeypatch, q, first)
    with pytest.raises(PermissionError):
        sweep.sweep(q, 10_000.0, 60.0)
    assert queue.pending_of(q, second) is not None  # queued before the error was raised


def test_a_full_disk_ends_the_sweeps_round_at_the_first_session(tmp_path, monkeypatch):
    q = str(tmp_path / "queue")
    first, second = sorted([SID, OTHER])
    for sid in (first, second):
        _open_session(q, tmp_path, sid)
    fail_writes_into(monkeypatch, os.path.join(q, queue.TMP) + os.sep, "write")
    failures: list[OSError] = []
    assert sweep.sweep(q, 10_000.0, 60.0, failures=failures) == []
    # one error, not one per session: the next session's task would meet the same full disk
    assert [exc.errno for exc in failures] == [errno.ENOSPC]
    assert queue.pending(q) == [] and _leftovers(q) == []
    assert all(os.path.exists(os.path.join(q, queue.OPEN, sid)) for sid in (first, second))
