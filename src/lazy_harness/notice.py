"""One line for the person when distillation is paused (a spend cap) or failing (the API refuses).

The worker writes ``<state>/notice``; SessionStart shows it as the hook's ``systemMessage`` (shown to
the person, never sent to the model) and ``lh doctor`` prints it. Hot path: only ``os``.

File format, one line: ``<kind>\\t<until epoch, 0 = until cleared>\\t<message>``. A paused notice
expires by itself when its cap resets; any successful model call clears the file.
"""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness.atomic import atomic_write
from lazy_harness.regular_file import append_regular, read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config

PAUSED, FAILING = "paused", "failing"
PAUSED_SAID, PAUSED_HINT = "lazy-harness: distillation paused, ", " (lh cost)"  # around a paused notice's reason
SEE_DOCTOR = "lh doctor"  # the hint at the end of a failing notice; lh doctor leaves it out of its own line


def write(kind: str, message: str, until: float = 0.0, env: Mapping[str, str] | None = None) -> None:
    flat = " ".join(str(message).split())[:300]
    try:
        atomic_write(paths.notice_file(env), f"{kind}\t{until!r}\t{flat}\n")
    except OSError:
        pass  # why: a notice is a courtesy; the worker's own log has the reason


STORAGE = "storage"
TOLD = ".told"


def _storage_file(env: Mapping[str, str] | None = None) -> str:
    return os.path.join(os.path.dirname(paths.notice_file(env)), STORAGE)


def storage_paused(message: str, env: Mapping[str, str] | None = None) -> None:
    """Memory writing waits for room: say so to the next session (once), in as few bytes as it takes."""
    path = _storage_file(env)
    if os.path.exists(path) or os.path.exists(path + TOLD):
        return  # why: told already, or about to be; once per episode, not once per failed try
    try:
        atomic_write(path, " ".join(str(message).split())[:600] + "\n")
    except OSError:
        try:
            os.close(append_regular(path))  # why: a plain open for writing waited for a FIFO's reader
        except OSError:
            pass


def storage_waiting(env: Mapping[str, str] | None = None) -> bool:
    """True while memory writing waits for room (told or not)."""
    path = _storage_file(env)
    return os.path.exists(path) or os.path.exists(path + TOLD)


def storage_resumed(env: Mapping[str, str] | None = None) -> None:
    path = _storage_file(env)
    for name in (path, path + TOLD):
        try:
            os.unlink(name)
        except OSError:
            pass


DEFAULT_STORAGE = ("lazy-harness: memory writing is paused: no space left (or an I/O error) where lazy-harness "
                   "keeps its data; sessions are queued and written by themselves once space is freed (lh queue)")


def storage_untold(env: Mapping[str, str] | None = None) -> bool:
    """True while the storage line waits to be told (one ``stat``)."""
    return os.path.exists(_storage_file(env))


def _text(path: str) -> str:
    """The first 1,000 characters of the regular file ``path`` (OSError when it is anything else)."""
    return read_regular(path, 4000).decode("utf-8", "replace")[:1000]


def storage_to_tell(env: Mapping[str, str] | None = None, keep: bool = False) -> str | None:
    """The storage line, once: the file is renamed so the next start says nothing more. ``keep``: the
    line is read but left untold (a headless run, whose message nobody sees)."""
    path = _storage_file(env)
    try:  # why read_regular: a FIFO in the file's place held the session start in open() for good
        said = _text(path).strip()
        if not keep:
            os.rename(path, path + TOLD)
    except OSError:
        return None
    return said or DEFAULT_STORAGE


def clear(env: Mapping[str, str] | None = None, kind: str | None = None) -> None:
    """Remove the notice (only when it is of ``kind``, when given)."""
    if kind is not None and (read_raw(env) or ("",))[0] != kind:
        return
    try:
        os.unlink(paths.notice_file(env))
    except OSError:
        pass


def read_raw(env: Mapping[str, str] | None = None) -> tuple[str, float, str] | None:
    try:  # why read_regular: a FIFO in the file's place held the session start in open() for good
        parts = _text(paths.notice_file(env)).rstrip("\n").split("\t", 2)
    except OSError:
        return None
    if len(parts) != 3:
        return None
    try:
        until = float(parts[1])
    except ValueError:
        until = 0.0
    return parts[0], until, parts[2]


def for_person(cfg: Config, env: Mapping[str, str] | None = None, now: float = 0.0, once: bool = False,
               keep: bool = False) -> str | None:
    """What SessionStart shows the person: an invalid config.toml first, else the notice; with
    ``once`` (SessionStart), memory writing paused for lack of space first, the first time only;
    ``keep`` (a headless run, whose message nobody sees) leaves that line untold for the next start."""
    from lazy_harness.config import invalid

    problem = invalid(cfg)
    if problem:
        return (f"lazy-harness: config.toml is invalid, memory is not being distilled ({problem}); "
                "run: lh config validate")
    storage = storage_to_tell(env, keep) if once else None
    other = read(env, now)
    return " | ".join(m for m in (storage, other) if m) or None


def read(env: Mapping[str, str] | None = None, now: float = 0.0) -> str | None:
    """The message to show now, or None (no notice, or a paused one whose cap has reset)."""
    raw = read_raw(env)
    if raw is None:
        return None
    kind, until, message = raw
    if until and now >= until:
        return None
    return message or None


def next_steps(cfg: Config) -> list[str]:
    """Two lines for a first run (``lh hooks install``, the plugin's first SessionStart): which
    sessions are distilled, with the configured gates in words, and what to run after the first."""
    loop = cfg["compound_loop"]
    return [f"lazy-harness: a session is distilled into its project's memory when it ends, if you typed at "
            f"least {loop['min_user_chars']} characters in it and it has at least {loop['min_messages']} "
            "messages (yours and the agent's); shorter sessions are skipped (min_user_chars, min_messages "
            "in config.toml).",
            "After your first such session: lh memory show prints what the next session receives, lh ui "
            "browses the memory, lh status shows what happened to each session."]
