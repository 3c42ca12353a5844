"""Two writers raced at an exact step, on events, never on the clock.

A race test of a lock or a check runs the first writer in a thread and holds it at the call where the
race bites (just before its write or rename, or just after it rendered what it will write):
:func:`pause` patches that call. It then starts the second writer (:func:`run`) and waits until that one
either waits for the lock the first holds (:func:`on_lock`: the second thread reached the lock call and,
for a lock on a file or folder, a non-blocking ``flock`` finds it taken) or has run to its end, which
:func:`run` signals as well: without the lock nothing stops the second writer, and the test then fails
on what it finds in the files instead of hanging. Then the first writer is let go and both are joined.

    paused = pausing.pause(monkeypatch, handoff, "atomic_write", "undo", target=md)
    waits = threading.Event()
    watch = pausing.on_lock(monkeypatch, files, "FolderLock", "worker", waits, lock_path=lambda folder: folder)
    undo = pausing.run("undo", by_hand.undo, ...)
    paused.wait()
    worker = pausing.run("worker", store.persist, ..., ended=waits)
    pausing.wait_for(waits, "the worker neither waited for the lock nor ended")
    paused.go()
    undo.join(), worker.join()
    assert watch.waited  # the worker waited for the undo's lock

Threads are told apart by name. Every wait is bounded by :data:`WAIT` only so that a bug fails the
test instead of hanging it; nothing waits for time to pass. The race tests with real processes killed
at a step are tests/support/crashpoint.py's.
"""

import fcntl
import os
import threading
from collections.abc import Callable

import pytest

WAIT = 30.0  # seconds: a bound on every wait, for a bug, never a delay


def wait_for(event: threading.Event, what: str) -> None:
    """Wait until ``event`` is set; fail with ``what`` when it is not within :data:`WAIT`."""
    assert event.wait(WAIT), what


class Paused:
    """A call held in one thread: :meth:`wait` returns once the thread is held there, :meth:`go` lets
    it go on. ``calls``: how many times it was held."""

    def __init__(self) -> None:
        self.reached, self.release, self.calls = threading.Event(), threading.Event(), 0

    def hold(self) -> None:
        self.calls += 1
        self.reached.set()
        assert self.release.wait(WAIT), "the paused call was never let go"

    def wait(self) -> None:
        wait_for(self.reached, "the paused thread never reached its call")

    def go(self) -> None:
        self.release.set()


def pause(monkeypatch: pytest.MonkeyPatch, owner: object, name: str, thread: str, *, target: object = None,
          times: int = 1, after: bool = False) -> Paused:
    """Patch ``owner.name`` so that its call by the thread named ``thread`` (and, with ``target``, only
    a call whose first argument is ``target``: the path written) is held until :meth:`Paused.go`, the
    first ``times`` times: before the real call runs, or with ``after`` once it returned."""
    paused = Paused()
    real = getattr(owner, name)

    def due(args: tuple) -> bool:
        return (threading.current_thread().name == thread and paused.calls < times
                and (target is None or (bool(args) and args[0] == target)))

    def held(*args: object, **kwargs: object) -> object:
        if after:
            out = real(*args, **kwargs)
            if due(args):
                paused.hold()
            return out
        if due(args):
            paused.hold()
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, held)
    return paused


def taken_elsewhere(path: str) -> bool:
    """Whether an exclusive ``flock`` on ``path`` (a lock file, made if missing as its takers make it,
    or a folder) is held by another open file right now."""
    if os.path.isdir(path):
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    else:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # why: closing drops the probe's own lock, when it got one
    return False


class Watch:
    """What :func:`on_lock` saw: ``waited`` is True once the watched thread was about to wait for the lock."""

    def __init__(self) -> None:
        self.waited = False


def on_lock(monkeypatch: pytest.MonkeyPatch, owner: object, name: str, thread: str, seen: threading.Event,
            lock_path: Callable[..., str] | None = None) -> Watch:
    """Patch ``owner.name`` (what takes the lock: a function, or a lock class called to make one) so
    that ``seen`` is set when the thread named ``thread`` calls it and, with ``lock_path`` (the call's
    arguments to the file or folder it locks), only when another holds that lock at that moment: the
    thread is about to wait for it. The lock is then taken as the real call takes it. The returned
    :class:`Watch` tells, after the race, whether the thread did wait (``seen`` is also set by a second
    writer that ran to its end: :func:`run`)."""
    real = getattr(owner, name)
    watch = Watch()

    def watched(*args: object, **kwargs: object) -> object:
        if threading.current_thread().name == thread and (
                lock_path is None or taken_elsewhere(lock_path(*args, **kwargs))):
            watch.waited = True
            seen.set()
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, watched)
    return watch


class Runner:
    """``call`` run in a thread named ``name``: :meth:`join` waits for it and gives what it returned
    (or raises what it raised). Each of ``ended`` is set when the call ends, however it ends."""

    def __init__(self, name: str, call: Callable[..., object], args: tuple, kwargs: dict,
                 ended: tuple[threading.Event, ...]) -> None:
        self.result: object = None
        self.error: Exception | None = None
        self.thread = threading.Thread(name=name, daemon=True, target=self._run, args=(call, args, kwargs, ended))

    def _run(self, call: Callable[..., object], args: tuple, kwargs: dict, ended: tuple[threading.Event, ...]) -> None:
        try:
            self.result = call(*args, **kwargs)
        except Exception as exc:  # why: handed to join, to raise in the test's thread
            self.error = exc
        finally:
            for event in ended:
                event.set()

    def join(self) -> object:
        self.thread.join(WAIT)
        assert not self.thread.is_alive(), f"{self.thread.name} did not end"
        if self.error is not None:
            raise self.error
        return self.result


def run(name: str, call: Callable[..., object], *args: object, ended: threading.Event | None = None,
        **kwargs: object) -> Runner:
    """Start ``call(*args, **kwargs)`` in a thread named ``name``; ``ended`` is set when it ends (the
    second writer of a race: the sign that it ran to its end when nothing made it wait)."""
    runner = Runner(name, call, args, kwargs, (ended,) if ended is not None else ())
    runner.thread.start()
    return runner
