"""A start's read-back kept ready: the digest's text and the figures the later steps read, with what it
was made from, used by the next SessionStart of the same folder while all of that is unchanged
(docs/adr/0084-prepared-start.md). Made by the worker after each distillation (``worker/caches.py``) and
by a start that could not use one; a start that uses it imports none of the digest's modules and reads
none of the memory: about 7 of its 25 ms of CPU at 18,000 entries (benchmarks/bench_session_start.py).

What it was made from is every file, folder and ``stat`` the digest touched, recorded while it ran
(lazy_harness/read_record.py), each stamped as found before it was read: the memory files, the learnings
and their folders, git's files, the package's own modules; the environment variables it read, the
config, the folder the session starts in, and the moment an open item's age or staleness changes the
text (``digest.window``). Hot path: only ``os``, ``sys`` and our hot-path modules.
"""

from __future__ import annotations

import os
import sys

from lazy_harness import jsonload, paths, read_record
from lazy_harness.regular_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

VERSION = 1
SECTIONS = ("handoff", "failures", "decisions", "learnings")
# the figures of the digest's stats the steps after it read (hooks/session_start.py), kept as they were
KEPT = ("project", "memory_dir", "knowledge_dir", "branch", "max_chars", "chars", "units", "learning_candidates",
        "candidates_cut", "own_learnings", "available", "shown", "left_out", "ids", "item_chars", "more",
        "unrelated_learnings", "held_learnings", "waiting_learnings")
ENV_ALWAYS = ("HOME", "TZ", "USER", "LOGNAME")  # why: read by what is called without the environment
REFRESHED = 8  # kept read-backs the worker makes again at most per run, the newest first
_OWN_PACKAGES = ("lazy_harness.memory.", "lazy_harness.recall.readback.", "lazy_harness.redact.")


def file_of(env: Mapping[str, str], cwd: str) -> str:
    return os.path.join(paths.cache_dir(env), "start", paths.project_key(cwd) + ".json")


# --- using one: the start ---------------------------------------------------------------------------

def _kept(path: str) -> dict | None:
    """The kept read-back at ``path`` if this user wrote it and nobody else may write it, else None."""
    try:  # why open_regular: a FIFO in its place would hold the start
        fd, st = open_regular(path)
        with open(fd, "rb") as fh:
            data = fh.read()
        # why: what it holds goes into the session as its memory: only a file this user wrote, as written
        kept = jsonload.loads(data) if st.st_uid == os.geteuid() and not st.st_mode & 0o022 else None
    except (OSError, ValueError):
        return None
    return kept if isinstance(kept, dict) and kept.get("version") == VERSION else None


def _made_here(kept: dict, env: Mapping[str, str], cfg: object) -> bool:
    """Made with this config and these values of the environment variables it read."""
    was = kept.get("env")
    return kept.get("config") == jsonload.dumps(cfg) and isinstance(was, dict) \
        and was == {k: env.get(k) for k in was}


def load(env: Mapping[str, str], cwd: str, cfg: object, now: float, kept: dict | None = None
         ) -> tuple[str | None, dict] | None:
    """(text, stats) kept for a start in ``cwd`` while everything it was made from is as it was, else None."""
    kept = _kept(file_of(env, cwd)) if kept is None else kept
    if kept is None or kept.get("cwd") != cwd or not _made_here(kept, env, cfg):
        return None
    if not (isinstance(kept.get("since"), (int, float)) and isinstance(kept.get("until"), (int, float))
            and kept["since"] < now < kept["until"]):
        return None
    seen, stats = kept.get("seen"), kept.get("stats")
    if not isinstance(seen, list) or not read_record.unchanged(seen) or not isinstance(stats, dict):
        return None
    try:  # the index check's stamps of the learnings the digest stat'ed (learnings.to_show): as they still are
        stats["learning_stamps"] = {seen[k][0][1:]: [seen[k][1][i] for i in (1, 2, 4, 3)] for k in kept["learnings"]}
    except (KeyError, IndexError, TypeError):
        return None
    text = kept.get("text")
    return (text if isinstance(text, str) else None), stats


def out_of_date(env: Mapping[str, str], cfg: object, now: float, limit: int = REFRESHED) -> list[str]:
    """The folders of the newest ``limit`` kept read-backs that no longer hold (a learning another project
    wrote, a consolidation, a sync pull, a hand edit), for the worker to make again before their next
    start finds them so. Folders that are gone are left out, and so are read-backs made with another
    config or another value of a variable they read (a ``TZ`` set in one shell): one made here again
    would be of no use to the starts that made theirs, and each would make the other's again."""
    folder = os.path.dirname(file_of(env, "/"))
    try:
        names = [os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".json")]
        names.sort(key=lambda path: os.stat(path).st_mtime, reverse=True)
    except OSError:
        return []
    out = []
    for path in names[:limit]:
        kept = _kept(path)
        cwd = kept.get("cwd") if kept is not None and _made_here(kept, env, cfg) else None
        if isinstance(cwd, str) and os.path.isabs(cwd) and file_of(env, cwd) == path and os.path.isdir(cwd) \
                and load(env, cwd, cfg, now, kept) is None:
            out.append(cwd)
    return out


# --- making one: the worker, or a start that found none ----------------------------------------------

def keepable(stats: dict) -> bool:
    """Whether a digest's result may be kept: nothing its check left out to hold, no error, no running
    session's entries left out, no failing distillation in its header. (Learnings waiting for approval
    are kept; a start uses it only once the person was told of each: hooks/session_start.py.)"""
    screen = stats.get("screen")
    return not (stats.get("errors") or getattr(screen, "found", None) or stats.get("withheld")
                or stats.get("distill_failed") or "until" not in stats)


def record(env: Mapping[str, str], run: Callable[[Mapping[str, str]], tuple[str | None, dict]]
           ) -> tuple[tuple[str | None, dict], read_record.Record]:
    """``run(env)`` (the digest) with what it reads recorded (read_record.py), HOME, TZ and the login
    name among the variables whether it reads them or not."""
    return read_record.record(env, run, ENV_ALWAYS)


def save(env: Mapping[str, str], cwd: str, cfg: object, got: tuple[str | None, dict],
         rec: read_record.Record) -> str | None:
    """Keep ``got`` for the next start in ``cwd`` if it may be (:func:`keepable` is the caller's); why
    not, or None."""
    text, stats = got
    if rec.blind:
        return f"start not kept: {rec.blind}"
    for name, module in list(sys.modules.items()):
        # ours: the package, its top-level modules, and the read side's (not the worker's or the CLI's)
        if (name == "lazy_harness" or name.startswith(_OWN_PACKAGES)
                or (name.startswith("lazy_harness.") and name.count(".") == 1)) \
                and isinstance(getattr(module, "__file__", None), str):
            rec.note(module.__file__)  # why: another version of the code may say it otherwise
    rec.note("/etc/localtime")  # why: the local times shown
    # why: what the digest keeps to be quicker (the learnings' heads, the hold check's verdicts) says
    # nothing the files it was made from do not; its first run rewrites them, which would otherwise
    # leave a kept read-back its own next start cannot use
    heads = paths.learning_heads_file(env)
    quick = (heads, os.path.join(os.path.dirname(heads), "learning-older-titles.json"))
    verdicts = os.path.dirname(paths.hold_verdicts_file("k", env)) + os.sep
    for key in [k for k in rec.seen if k[1:] in quick or k[1:].startswith(verdicts)]:
        del rec.seen[key]
    seen = list(rec.seen.items())
    # why places in ``seen``, not the learnings' own stamps (the index check's): each path once, the file smaller
    at = {key: k for k, (key, _) in enumerate(seen)}
    learnings = [at.get("s" + path) for path in stats.get("learning_stamps") or {}]
    if None in learnings:
        return "start not kept: a learning's stamp was not recorded"
    kept = {"version": VERSION, "cwd": cwd, "since": stats["since"], "until": stats["until"],
            "config": jsonload.dumps(cfg), "env": rec.read, "seen": seen, "learnings": learnings, "text": text,
            "stats": {k: stats[k] for k in KEPT if k in stats}}
    from lazy_harness.atomic import atomic_write

    path = file_of(env, cwd)
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        atomic_write(path, jsonload.dumps(kept), durable=False)
    except (OSError, TypeError, ValueError) as exc:
        return f"start not kept: {exc}"
    return None


# --- what the figures say: hooks.log and the shown ids -----------------------------------------------

def _shown(section: str, stats: dict) -> str:
    """``decisions 1 of 3``, or ``decisions 1 (limit context.decisions = 1 reached, older ones not read)``."""
    shown, read = stats["shown"][section], stats["available"].get(section, 0)
    if (stats.get("more") or {}).get(section):
        return f"{section} {shown} (limit context.{section} = {read} reached, older ones not read)"
    return f"{section} {shown} of {read}"


def printed_ids(stats: dict) -> dict[str, list[str]]:
    """Each section's ids the digest printed, as far as the budget took them: never repeated by a prompt."""
    n, printed = stats.get("shown") or {}, stats.get("ids") or {}
    return {section: (printed.get(section) or [])[:int(n.get(section, 0))]
            for section in ("failures", "decisions", "handoff", "learnings")}


def started_ids(text: str | None, stats: dict) -> frozenset[str]:
    """Every id of :func:`printed_ids` when the digest printed a text: a first prompt never repeats them."""
    return frozenset(i for ids in printed_ids(stats).values() for i in ids) if text else frozenset()


def describe(stats: dict) -> str:
    """One log line: size (UTF-16 units), what each section showed and left out, errors."""
    out = f"context {stats['units']}/{stats['max_chars']} chars, shown: " + ", ".join(
        _shown(s, stats) for s in SECTIONS)
    if left := ",".join(f"{s}={n}" for s, n in stats["left_out"].items() if n):
        out += " left_out " + left
    out += f" unrelated_learnings={n}" if (n := stats.get("unrelated_learnings")) else ""  # learnings.about_here
    if stats["distill_failed"]:
        out += f" distill_failed={stats['distill_failed']}"
    if stats["errors"]:
        out += " errors: " + "; ".join(stats["errors"])
    return out
