"""Waiting on what a child process does, never on the clock.

A timeout test needs the child to have started its own children before the timeout fires, and how long
that takes depends on the machine (two interpreters to start on a loaded one). ``until_started`` runs
the call with a timeout and looks at the event that says the child got that far (a file it writes once
its own child runs): when the timeout came first, the run proved nothing and it goes again with twice
the timeout. ``gone`` waits for a process to end on a pidfd (Linux), not by polling a clock.
"""

import os
import select
import time
from pathlib import Path
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
FIRST_TIMEOUT = 0.5
LAST_TIMEOUT = 64.0


def until_started(call: Callable[[float], T], marker: Path) -> tuple[T, float]:
    """``call(timeout)`` until ``marker`` (written by the child once it is fully up) exists when the
    call returns; returns (what the call returned, the timeout it had). Raises when even
    ``LAST_TIMEOUT`` is not enough."""
    timeout = FIRST_TIMEOUT
    while True:
        if marker.exists():
            marker.unlink()
        result = call(timeout)
        if marker.exists():
            return result, timeout
        if timeout >= LAST_TIMEOUT:
            raise AssertionError(f"the child never wrote {marker}, even with {timeout:g} s")
        timeout *= 2


def gone(pid: int, timeout: float = 30.0) -> bool:
    """Whether process ``pid`` ended (a zombie counts as ended) within ``timeout`` seconds."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    except (AttributeError, OSError):  # no pidfd here: look at the process state instead
        return _gone_by_state(pid, timeout)
    try:
        return readable(fd, timeout) or _zombie(pid)
    finally:
        os.close(fd)


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (FileNotFoundError, ProcessLookupError):
        return True


def _gone_by_state(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if _zombie(pid):
            return True
        time.sleep(0.01)
    return False


def readable(stream, timeout: float) -> bool:
    """Whether ``stream`` (a file object or a descriptor) has something to read within ``timeout`` seconds.
    why poll, not select: a worker of the suite with over 1,024 files open gave select a number past its
    limit ("filedescriptor out of range in select()"), failing a test that had nothing wrong."""
    poller = select.poll()
    poller.register(stream, select.POLLIN)
    return bool(poller.poll(timeout * 1000))
