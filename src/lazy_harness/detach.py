"""Start a program fully detached from the process that starts it: a new session (so Claude Code's
teardown of a ``-p`` run cannot kill it), stdin from /dev/null, output appended to a log. Python's
own descriptors are close-on-exec, so the child inherits none of them.

The one place that detaches (a test fails for any other ``setsid`` or ``start_new_session``): the
worker (``queue.submit.spawn_worker``), the sync pull at SessionStart (:func:`spawn_pull`), the
worker's sync after it wrote memory (:func:`spawn_sync`), the resident answerer. Hot path: only
``os`` and ``sys`` and our base modules.
"""

from __future__ import annotations

import os
import sys

from lazy_harness import logfile, paths
from lazy_harness.atomic import FILE_MODE, ensure_dir
from lazy_harness.regular_file import append_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def spawn(argv: list[str], log: str, env: dict) -> int:
    """``argv`` started detached, its stdout and stderr appended to ``log``; returns its pid."""
    return _spawn(argv, log, env, None)


def spawn_answering(argv: list[str], log: str, env: dict) -> tuple[int, int]:
    """``argv`` started detached, its stderr appended to ``log`` and its stdout a pipe; returns (pid,
    read end of that pipe). The caller may wait on the pipe for a bounded time (it reaches
    end-of-file when the program ends) and then close it: the program goes on by itself."""
    r, w = os.pipe()
    try:
        pid = _spawn(argv, log, env, w)
    except OSError:
        os.close(r)
        raise
    finally:
        os.close(w)
    return pid, r


def child_env(env: Mapping[str, str]) -> dict:
    """``env`` for a Python program we start, less what of the person's ``PYTHON*`` variables would
    break it: ``PYTHONHOME`` (one of another Python stops the interpreter before any code of ours;
    the hooks, run isolated with ``-I``, ignore it too), and ``PYTHONPATH``'s relative and empty
    entries, which name the working folder, a session's project (its ``datetime.py`` would run in the
    worker). Its absolute folders stay. A relative ``CLAUDE_CONFIG_DIR`` or ``CODEX_HOME`` is handed on
    as the folder it names here (``paths.handed_on``)."""
    out = {k: v for k, v in paths.handed_on(env).items() if k != "PYTHONHOME"}
    if "PYTHONPATH" in out:
        kept = [p for p in out["PYTHONPATH"].split(os.pathsep) if os.path.isabs(p)]
        if kept:
            out["PYTHONPATH"] = os.pathsep.join(kept)
        else:
            del out["PYTHONPATH"]
    return out


def _spawn(argv: list[str], log: str, env: Mapping[str, str], stdout: int | None) -> int:
    """The one detached start: a new session, stdin from /dev/null, stderr appended to ``log``, and
    stdout to ``log`` too or to the descriptor ``stdout``."""
    env = child_env(env)
    ensure_dir(os.path.dirname(log))
    # why opened here, not by a spawn action: the child's open of a log it may not create (a full disk, a
    # read-only or denied logs folder) failed as posix_spawn's error naming the program, not the log
    fd = append_regular(log, FILE_MODE)  # why not os.open: a FIFO in the log's place held the hook
    try:
        actions: list[tuple] = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0)]
        if stdout is None:
            actions += [(os.POSIX_SPAWN_DUP2, fd, 1), (os.POSIX_SPAWN_DUP2, fd, 2)]
        else:
            actions += [(os.POSIX_SPAWN_DUP2, stdout, 1), (os.POSIX_SPAWN_DUP2, fd, 2)]
        pid = os.posix_spawn(argv[0], argv, env, file_actions=actions, setsid=True)
    finally:
        os.close(fd)
    _STARTED.append(pid)
    return pid


_STARTED: list[int] = []  # pids this process started: reaped by reap_started


def reap_started() -> None:
    """Wait for each process this one started that has ended (never blocking): what a long-running
    process that starts them (the page of ``lh ui``) calls, or each would stay a zombie until it
    exits. Only these pids: waiting for any child would take a ``subprocess`` run's status from it."""
    for pid in list(_STARTED):
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # why: waited for already (by a caller of its own)
            done = pid
        if done:
            _STARTED.remove(pid)


def module_argv(module: str, *args: str, python: str | None = None) -> list[str]:
    """``<python> -P -m <module> <args>``: what every process we start runs. why ``-P``: ``-m`` would
    put the working folder first on the import path, and a hook's is the session's project, whose
    own ``json.py`` or ``fcntl.py`` would then run in the worker (the sync's merge driver runs in
    the synced folder, whose files come from the remote)."""
    return [python or sys.executable, "-P", "-m", module, *args]


def spawn_sync(env: Mapping[str, str] | None = None, at_once: bool = False) -> int:
    """``python -m lazy_harness.sync after-write`` detached (the worker, after it wrote memory): the
    sync round, at most every ``interval_minutes`` (``at_once``: now, for a change made by hand),
    logged to worker.log; returns its pid."""
    env = dict(os.environ if env is None else env)
    argv = module_argv("lazy_harness.sync", "after-write", *(["--now"] if at_once else []))
    return spawn(argv, logfile.log_path(logfile.SPAWN, env), env)


def spawn_pull(env: Mapping[str, str] | None = None) -> tuple[int, int]:
    """``python -m lazy_harness.sync pull`` detached (SessionStart's pull); returns (pid, read end of
    its stdout), on which it writes one status line and nothing after."""
    env = dict(os.environ if env is None else env)
    argv = module_argv("lazy_harness.sync", "pull")
    return spawn_answering(argv, logfile.log_path(logfile.SPAWN, env), env)
