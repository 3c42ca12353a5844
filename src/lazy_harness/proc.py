"""The one subprocess wrapper: every external command lazy-harness runs goes through :func:`run`.

Why one place: an error about a command must always show the same three things (the command, its
exit code, the tail of its stderr), and a timeout must kill the whole process group, not only the
direct child. ``claude`` starts helpers of its own; killing just its pid would leave them running
and holding our pipes open.

Decisions:
- A missing (or non-executable) program raises :class:`CommandNotFound`; other start failures
  raise :class:`ProcError`. A program that started and failed is a :class:`Result` with its code:
  the caller decides whether that is an error (``describe()`` gives the readable line).
- A timeout returns a Result with ``timed_out=True`` and ``code=-9`` (the group got SIGKILL).
- Output is decoded as UTF-8 with replacement: a stray byte never turns into an exception.
- A stop signal that lands while the command starts is acted on once its process is known, so the
  group is killed, not left running (ADR 0083).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType

from lazy_harness.errors import LhError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO

STDERR_TAIL_LINES = 20
STDERR_TAIL_CHARS = 2000
_ARG_DISPLAY_CHARS = 60  # why: --json-schema carries a whole schema; the message must stay one line
_AFTER_KILL_SECONDS = 5.0
_STOPS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)  # held while a child starts (ADR 0083)
_Handler = Callable[[int, FrameType | None], object]
WAKE_SECONDS = 0.5  # the longest a signal's handler waits while a command runs (see _communicate)


class ProcError(LhError):
    """A command could not be started at all."""

    def __init__(self, message: str, argv: list[str], hint: str | None = None) -> None:
        super().__init__(message, hint)
        self.argv = list(argv)


class CommandNotFound(ProcError):
    """The program does not exist or is not executable."""


def command_line(argv: list[str] | tuple[str, ...]) -> str:
    """``argv`` as a shell-quoted line, each long argument (not the program) shortened with "..."."""
    shown = []
    for i, arg in enumerate(argv):
        arg = str(arg)
        if i and len(arg) > _ARG_DISPLAY_CHARS:
            arg = arg[:_ARG_DISPLAY_CHARS - 3] + "..."
        shown.append(arg)
    return shlex.join(shown)


def tail(text: str, lines: int = STDERR_TAIL_LINES, chars: int = STDERR_TAIL_CHARS) -> str:
    """The last ``lines`` lines of ``text``, at most ``chars`` characters, stripped."""
    kept = "\n".join(text.rstrip().splitlines()[-lines:])
    if len(kept) > chars:
        kept = "..." + kept[-(chars - 3):]
    return kept.strip()


@dataclass(frozen=True)
class Result:
    """What a finished (or timed-out) command left behind."""

    argv: tuple[str, ...]
    code: int
    stdout: str
    stderr: str
    timed_out: bool = False
    timeout: float | None = None

    @property
    def ok(self) -> bool:
        return self.code == 0 and not self.timed_out

    def describe(self) -> str:
        """One readable line (plus the stderr tail): "`cmd` exited 2: <stderr tail>"."""
        cmd = command_line(self.argv)
        if self.timed_out:
            head = f"`{cmd}` timed out after {self.timeout:g}s" if self.timeout else f"`{cmd}` timed out"
        else:
            head = f"`{cmd}` exited {self.code}"
        err = tail(self.stderr)
        return f"{head}: {err}" if err else f"{head} (no stderr)"


def _decode(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", errors="replace")


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass


def run(argv: list[str] | tuple[str, ...], input: str | bytes | None = None, timeout: float | None = None,
        env: dict[str, str] | None = None, cwd: str | None = None, umask: int = -1,
        stdin: IO[bytes] | None = None) -> Result:
    """Run ``argv`` (no shell) in its own process group and wait, at most ``timeout`` seconds.

    ``input`` goes to stdin through a pipe; ``stdin``, an open file, is read instead (stdin is
    /dev/null when both are None). ``env`` replaces the environment when given. ``umask``: the
    child's (-1: this process's). Raises :class:`CommandNotFound` / :class:`ProcError` only when the
    program cannot start.
    """
    argv = [str(a) for a in argv]
    if not argv:
        raise ProcError("empty command", argv)
    data = input.encode("utf-8") if isinstance(input, str) else input
    held, caught = _hold_stops()
    try:
        proc = _start(argv, data, env, cwd, umask, stdin)
    except BaseException:
        _release(held, caught)
        raise
    try:
        _release(held, caught)  # why inside: a stop held while the child started ends it below
        out, err = _communicate(proc, data, timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        try:
            out, err = proc.communicate(timeout=_AFTER_KILL_SECONDS)
        except subprocess.TimeoutExpired:
            # why: a grandchild that left the group may still hold the pipes; do not wait for it
            for stream in (proc.stdout, proc.stderr):
                if stream:
                    stream.close()
            proc.wait()
            out, err = b"", b""
        return Result(tuple(argv), proc.returncode if proc.returncode is not None else -9,
                      _decode(out), _decode(err), timed_out=True, timeout=timeout)
    except BaseException:
        _kill_group(proc)  # why: KeyboardInterrupt or a failed write must not orphan the child
        proc.wait()
        raise
    return Result(tuple(argv), proc.returncode, _decode(out), _decode(err))


def _communicate(proc: subprocess.Popen, data: bytes | None, timeout: float | None) -> tuple[bytes, bytes]:
    """``proc.communicate`` within ``timeout`` (None: no end), in waits of :data:`WAKE_SECONDS`. why in
    short waits: a signal that arrives after the last check for one and before the wait blocks only sets
    a flag, so its handler ran when the command ended or the timeout ran out: a SIGTERM to the worker
    (which stops the model call) waited that long, claude spending meanwhile. Output is not lost between
    two waits (``communicate`` keeps what it read), and the input is given to the first only."""
    end = None if timeout is None else time.monotonic() + timeout
    while True:
        left = WAKE_SECONDS if end is None else min(WAKE_SECONDS, max(0.0, end - time.monotonic()))
        try:
            return proc.communicate(data, timeout=left)
        except subprocess.TimeoutExpired:
            if end is not None and time.monotonic() >= end:
                raise
        data = None


def _start(argv: list[str], data: bytes | None, env: dict[str, str] | None, cwd: str | None,
           umask: int, stdin: IO[bytes] | None = None) -> subprocess.Popen:
    fed = stdin if stdin is not None else subprocess.PIPE if data is not None else subprocess.DEVNULL
    try:
        return subprocess.Popen(
            argv, stdin=fed,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd, umask=umask,
            start_new_session=True,  # why: on timeout we kill the group, so the child's children die too
        )
    except (FileNotFoundError, PermissionError, NotADirectoryError) as exc:
        if cwd is not None and exc.filename == cwd:
            raise ProcError(f"`{command_line(argv)}`: cannot run in {cwd}: {exc.strerror}", argv) from None
        what = "not found" if isinstance(exc, FileNotFoundError) else "not executable"
        raise CommandNotFound(f"`{command_line(argv)}`: command {what}: {argv[0]}", argv) from None
    except OSError as exc:
        raise ProcError(f"`{command_line(argv)}`: cannot start: {exc.strerror or exc}", argv) from None


def _hold_stops() -> tuple[dict[int, _Handler], list[int]]:
    """While a child starts, the stop signals' handlers only note the signal (ADR 0083). why: a handler
    that raises, run inside ``Popen`` after the fork and before Popen returns, left a child nobody knew
    of running in its own session (a ``claude -p``, spending). Held by handler, not by signal mask: the
    child inherits the mask across fork and exec, and a ``claude -p`` with SIGTERM blocked outlives a
    plain kill; opening the mask in the child needs ``preexec_fn``, unsafe once threads run. Only the
    main thread runs handlers and may set them; elsewhere nothing is held. Handlers Python did not set
    (the default action, ignored) are left alone."""
    caught: list[int] = []
    held: dict[int, _Handler] = {}
    if threading.current_thread() is not threading.main_thread():
        return held, caught
    with _stops_blocked():
        for signum in _STOPS:
            handler = signal.getsignal(signum)
            if callable(handler):
                held[signum] = handler
                signal.signal(signum, lambda signum, frame: caught.append(signum))
    return held, caught


def _release(held: dict[int, _Handler], caught: list[int]) -> None:
    """Put the handlers back, then raise each stop noted meanwhile, once: its own handler runs now."""
    if not held:
        return
    with _stops_blocked():
        for signum, handler in held.items():
            signal.signal(signum, handler)
    for signum in dict.fromkeys(caught):
        signal.raise_signal(signum)


@contextlib.contextmanager
def _stops_blocked() -> Iterator[None]:
    """The stop signals wait in the kernel while handlers are swapped: one landing between two swaps
    would run a handler that raises and leave the others swapped for good. No child starts meanwhile,
    so none inherits this mask. why the mask read first: ``pthread_sigmask`` runs pending handlers on
    its way out, so the call that blocks may raise, and the mask before must be known by then."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
