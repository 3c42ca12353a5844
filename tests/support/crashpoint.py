"""SIGKILL a writer at an exact step of its work, not at a moment on the clock.

The writer (a child process) calls ``arm(n)`` before the work under test: from then on the n-th
call to one of ``os.write``, ``os.fsync``, ``os.replace``, ``os.rename``, ``os.link`` or
``os.unlink`` prints ``stopped <n> <name>`` and blocks for good, without making that call. With
``partial`` a stopped ``os.write`` first writes half of its bytes, as a kernel cut short by SIGKILL
may. When the work is done before the n-th call the writer calls ``finished()``.

The test side runs the writer with ``run_to()``, which returns that first line once the writer has
stopped (or finished) and SIGKILLs it where it stands. Walking n = 1, 2, ... until "finished" kills
the writer once before each file-system step of its work.
"""

import os
import subprocess
import sys
import time

from tests.support import child_events

HOOKED = ("write", "fsync", "replace", "rename", "link", "unlink")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WAIT = 60.0


def arm(stop_at: int, partial: bool = False) -> None:
    """In the writer: stop before its ``stop_at``-th hooked call (see the module doc)."""
    count = 0

    def hook(name, real):
        def call(*args, **kwargs):
            nonlocal count
            count += 1
            if count == stop_at:
                if partial and name == "write" and len(args[1]) > 1:
                    real(args[0], bytes(memoryview(args[1])[: len(args[1]) // 2]))
                sys.stdout.write(f"stopped {count} {name}\n")
                sys.stdout.flush()
                while True:  # why: held here until the test's SIGKILL arrives
                    time.sleep(3600)
            return real(*args, **kwargs)
        return call

    for name in HOOKED:
        setattr(os, name, hook(name, getattr(os, name)))


def finished() -> None:
    """In the writer: the work ended before the armed step."""
    sys.stdout.write("finished\n")
    sys.stdout.flush()


def run_to(argv: list[str], at_stop=None) -> str:
    """Run a writer until it stops at its armed step or finishes; SIGKILL it there and return the
    line it printed (``stopped <n> <name>`` or ``finished``). ``at_stop(pid, line)``, when given, is
    called with the writer still held there, before the kill."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, env=env)
    try:
        ready = child_events.readable(child.stdout, WAIT)  # why: bounded only so a bug cannot hang
        assert ready, f"the writer neither stopped nor finished within {WAIT} s"
        line = child.stdout.readline().decode().strip()
        if at_stop is not None:
            at_stop(child.pid, line)
    finally:
        child.kill()
        child.wait()
        child.stdout.close()
    assert line == "finished" or line.startswith("stopped "), f"the writer said {line!r}"
    return line
