"""The ``CODEX_HOME`` folders the queue's Codex tasks name, and the one holding our hooks when this
shell's holds none: what ``lh doctor``, ``lh status`` and ``lh hooks status`` read then.

A Codex hook's task names the sessions folder of the ``CODEX_HOME`` its session ran with
(``transcripts=``, queue/produce.py). Codex run with a home of its own (a wrapper, an alias, a
terminal that exports it) has its sessions queued and distilled, while a shell without that
``CODEX_HOME`` finds no hooks in ``~/.codex``. why: those commands said "hooks not installed" and
"Codex sessions are not remembered" of sessions the list showed distilled, doctor failed Claude
Code's hooks line, and their hint installed a second copy into ``~/.codex``.
"""

from __future__ import annotations

import os
import shlex

from lazy_harness import paths, settings, settings_read
from lazy_harness.errors import SettingsError
from lazy_harness.queue.task import TRANSCRIPTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


# why: lh status, lh doctor and lh memory show look for another home whenever this shell's hooks.json holds
# none of ours, as for everyone using Claude Code alone; reading each of 5,000 finished tasks cost 55 ms
NEWEST = 200  # finished tasks (of done/ and of failed/) a look for another CODEX_HOME reads, the newest


def codex_tasks(env: Mapping[str, str] | None = None, newest: int | None = None) -> list[tuple[str, dict]]:
    """(file name, fields) of each task the queue holds with ``agent=codex``: waiting, running, done
    or failed (``newest``: of done/ and failed/ only the newest that many). A name starts with the time
    it was queued, so names sort as the tasks came."""
    from lazy_harness import queue

    q = paths.queue_dir(env)
    found: list[tuple[str, dict]] = []
    for which in (queue.PENDING, queue.PROCESSING, queue.DONE, queue.FAILED):
        folder = queue.folder(q, which)
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith(queue.SUFFIX))
        except OSError:
            continue
        if newest is not None and which in (queue.DONE, queue.FAILED):
            names = names[-newest:]
        for name in names:
            try:
                task = queue.read_task(os.path.join(folder, name))
            except OSError:
                continue
            if task.get("agent") == "codex":
                found.append((name, task))
    return found


def homes_named(env: Mapping[str, str] | None = None) -> list[str]:
    """The ``CODEX_HOME`` folders the queue's Codex tasks name (the folder of the sessions folder a
    task names), newest task first, less this shell's own (``paths.codex_home``); of the newest
    ``NEWEST`` finished tasks of each folder, every waiting or running one."""
    here = os.path.realpath(paths.codex_home(env))
    homes: list[str] = []
    for _, task in sorted(codex_tasks(env, NEWEST), key=lambda found: found[0], reverse=True):
        folder = os.path.normpath(str(task.get(TRANSCRIPTS) or "."))
        home = os.path.dirname(folder)
        if (os.path.isabs(folder) and os.path.basename(folder) == "sessions"
                and os.path.realpath(home) != here and home not in homes):
            homes.append(home)
    return homes


def holding_ours(env: Mapping[str, str] | None = None) -> tuple[str, list] | None:
    """The first of :func:`homes_named` whose hooks.json holds our hooks, and those hooks (as
    ``settings.find_ours`` reads them); None when none does (a home uninstalled since, gone, damaged)."""
    for home in homes_named(env):
        try:
            data, _ = settings_read.read(os.path.join(home, "hooks.json"))
        except SettingsError:
            continue
        ours = settings.find_ours(data) if data else []
        if ours:
            return home, ours
    return None


def asking_env(home: str) -> tuple[Mapping[str, str] | None, str | None]:
    """The environment in which to ask Codex about ``home``'s hooks (``CODEX_HOME`` set to it), or None
    and why not. why the worker's rule (worker.task_trust.call_env): the app-server loads the home's
    config.toml, so a home that is not the person's own, or that others can write in, is not used."""
    from lazy_harness.worker import task_trust

    env, why = task_trust.call_env({"agent": "codex", TRANSCRIPTS: os.path.join(home, "sessions")}, None)
    return (None, why) if why else (env, None)


def with_home(home: str | None, command: str) -> str:
    """``command`` (an ``lh`` command line) run with ``CODEX_HOME=<home>`` in front when ``home`` is
    set: install, uninstall and status act on the ``CODEX_HOME`` of the shell they run in."""
    return f"CODEX_HOME={shlex.quote(home)} {command}" if home else command


def elsewhere_said(home: str, here: str) -> str:
    """Where our hooks were found when this shell's hooks.json (``here``) holds none, for lh status."""
    return (f"the CODEX_HOME the queue's Codex sessions ran with, not this shell's: {here} holds none; "
            f"check it with {with_home(home, 'lh hooks status')}")
