"""``lh doctor``'s checks of memory: where it goes and the old files still to move, damaged lines of
its files and damaged learning files, the recall index and its resident answerer, and sync."""

from __future__ import annotations

import contextlib
import os

from lazy_harness import paths, project_identity
from lazy_harness.cli.doctor_folders import check_writable
from lazy_harness.cli.doctor_report import Report
from lazy_harness.project_identity import project_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config


def check_memory(r: Report, values: Config) -> None:
    """Where memory goes, and old files of the project here still to move: in Claude Code's folder, or in
    its own memory folder of before it had an origin remote."""
    from lazy_harness.memory import migrate

    check_writable(r, "memory folder", paths.memory_root(values["memory"]["path"] or None))
    check_writable(r, "learnings folder", paths.learnings_dir(values["knowledge"]["path"] or None))
    root = project_root(os.getcwd())
    mdir = paths.project_memory_dir(root, None, values["memory"]["path"] or None)
    waiting = migrate.pending(paths.project_key(root), root, None, mdir)
    by_folder: dict[str, int] = {}
    for path in waiting:
        by_folder[os.path.dirname(path)] = by_folder.get(os.path.dirname(path), 0) + 1
    for folder, n in by_folder.items():
        # why: the folder beside this project's memory is its own of before its origin, not Claude Code's
        beside = os.path.dirname(folder) == os.path.dirname(mdir.rstrip(os.sep))
        where = (f"its memory folder from before it had an origin remote, {folder}" if beside
                 else f"Claude Code's folder {folder}")
        r.line("warn", "old memory", f"{n} file(s) of this project still in {where}; moved at the next session start",
               "lh memory show")
    refused = project_identity.refused(os.getcwd())
    if refused:
        uids: set[int] = set()
        for stat_of, path in ((os.lstat, os.path.join(refused, ".git")), (os.stat, os.path.join(refused, ".git")),
                              (os.stat, refused)):
            with contextlib.suppress(OSError):
                uids.add(stat_of(path).st_uid)
        whose = ", ".join(map(str, sorted(uids - {os.geteuid(), 0}))) or "?"
        r.line("info", "project", f"{refused} is another user's repository (uid {whose}), which git refuses "
               "too: this folder's memory is keyed by its path, not by its remote")


def check_index(r: Report) -> None:
    """The recall index, opened read-only: a file that fails to read in any way is reported (the next
    search or prompt builds it again; ``lh memory reindex`` does it now)."""
    from lazy_harness.recall.index import store as index

    path = paths.recall_index_file()
    _check_seen(r, path)
    if not os.path.exists(path):
        r.line("ok", "recall index",
               f"not built yet ({path}; the worker builds it at the next session start, or lh memory reindex)")
        return
    sqlite3 = index.sqlite()
    conn = None
    try:
        conn = index.read_only(path, timeout=2.0)
        row = conn.execute("SELECT v FROM meta WHERE k='version'").fetchone()
        ok = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
        if ok != "ok":
            raise sqlite3.DatabaseError(f"quick_check: {ok}")
    except index.FileRefused as exc:  # a folder or a FIFO there: nothing SQLite can read, no damage
        r.line("warn", "recall index", exc.message, exc.hint)
        return
    except Exception as exc:  # why: a damaged file fails in several types (see index.damaged)
        said = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
        if index.damaged(exc):
            r.line("warn", "recall index", f"damaged ({said}): {path}; the next search builds it again",
                   "lh memory reindex")
        else:
            r.line("warn", "recall index", f"could not be read ({said}): {path}", "lh memory reindex")
        return
    finally:
        if conn is not None:
            conn.close()
    if row is None or row[0] != index.VERSION:
        r.line("ok", "recall index", f"{path} is from another version; the next search builds it again")
    else:
        r.line("ok", "recall index", f"{path} reads")


def _check_seen(r: Report, index_path: str) -> None:
    """Something not a folder where the index's writer records what it read of each folder
    (``paths.recall_seen_dir``): every update fails there, and every session start asks for another."""
    import shlex

    from lazy_harness.recall.index import writer

    if (refused := writer.records_refused(index_path)) is not None:
        seen, what = refused
        r.line("warn", "recall index", f"{seen} is {what}: the index cannot be brought up to date (prompts read "
               "what it holds)", f"mv {shlex.quote(seen)} {shlex.quote(seen + '.aside')}; then lh memory reindex")


def check_resident(r: Report, values: Config) -> None:
    """The resident answerer of prompt recall (ADR 0029): running or not, its pid and resident set."""
    from lazy_harness.recall.resident import client as resident

    pid = resident.pid()
    minutes = values["recall"]["resident_minutes"]
    if pid is None and resident.folder_problem() is None and resident.running():
        r.line("warn", "recall answerer", f"its lock is held, but {resident.folder()}/{resident.PID_NAME} names no "
               "answerer of yours: nothing is signalled", f"fuser -v {resident.folder()}/{resident.LOCK_NAME}")
        return
    if pid is None:
        when = (f"started by the prompt hook for a memory of {resident.SERVE_FROM:,} entries or more"
                if float(minutes) > 0 else "off (recall.resident_minutes = 0)")
        r.line("ok", "recall answerer", f"not running ({when})")
        return
    kb = resident.resident_kb(pid)
    size = f", {kb / 1024:.0f} MB resident" if kb is not None else ""
    r.line("ok", "recall answerer", f"running: pid {pid}{size}; leaves after {minutes:g} idle minutes "
           "(recall.resident_minutes); lh hooks uninstall stops it")


def check_memory_lines(r: Report, values: Config) -> None:
    """Damaged lines in every project's memory files, counted, the first few named by file and line."""
    from lazy_harness.memory import damage

    mdirs = paths.all_memory_dirs(None, values["memory"]["path"] or None)
    checks = damage.check_folders(mdirs)
    for c in checks:
        if c.unreadable:  # why: a folder or a dangling link in a memory file's place hides what it held
            r.line("warn", "memory files", c.summary(), "move it aside; lh memory check --all-projects")
    skipped = [f"{c.path}:{n} ({how.split(': ', 1)[1]})" for c in checks for n, how in c.skipped]
    salvaged = [f"{c.path}:{n} ({how.split(': ', 1)[1]})" for c in checks for n, how in c.salvaged]
    if skipped:
        more = f" and {len(skipped) - 3} more" if len(skipped) > 3 else ""
        r.line("warn", "memory lines", f"{len(skipped)} line(s) skipped: {', '.join(skipped[:3])}{more}"
               + (f"; {len(salvaged)} salvaged" if salvaged else ""), "lh memory check --all-projects")
    elif salvaged:
        # why named: a salvaged aliases.jsonl line may have lost what it said beside its key
        more = f" and {len(salvaged) - 3} more" if len(salvaged) > 3 else ""
        r.line("warn", "memory lines", f"{len(salvaged)} damaged line(s) salvaged (some bytes lost): "
               f"{', '.join(salvaged[:3])}{more}", "lh memory check --all-projects")
    else:
        r.line("ok", "memory lines", f"no damaged line in {len(checks)} file(s) of {_projects(mdirs)} project(s)")


def _projects(mdirs: list[str]) -> int:
    """How many projects the memory folders ``mdirs`` hold: a folder another one counts as its own (an
    alias, ``aliases.owned``: the project's key before it gained or changed its origin, or one adopted)
    is counted with it, and two folders naming each other are one project."""
    from lazy_harness.memory import aliases

    with_ = {os.path.basename(d.rstrip(os.sep)): os.path.basename(d.rstrip(os.sep)) for d in mdirs}

    def first(key: str) -> str:
        while with_[key] != key:
            key = with_[key]
        return key

    for d in mdirs:
        for alias in aliases.owned(d).keys & with_.keys():
            with_[first(alias)] = first(os.path.basename(d.rstrip(os.sep)))
    return len({first(k) for k in with_})


SHOWN_LEARNINGS = 10  # damaged learning files named one by one; the rest are counted


def check_learning_files(r: Report, values: Config) -> None:
    """Damaged learning files (a folder in a file's place, not UTF-8 text, frontmatter not closed or no
    mapping, a title or date that cannot be read), the first :data:`SHOWN_LEARNINGS` named each on its own
    line, then how many more: readers skip or misread them without a word."""
    from lazy_harness.memory import learning_damage

    bad = learning_damage.unclosed_learnings(paths.learnings_dir(values["knowledge"]["path"] or None))
    if not bad:
        return
    # why a few: the learnings folder is synced, and a remote's 10,000 damaged files printed 10,000 lines
    more = len(bad) - SHOWN_LEARNINGS
    r.warn_each("learning files", f"{len(bad):,} damaged learning file(s): readers skip or misread them",
                "fix or remove them by hand (lh memory check --all-projects lists them)",
                bad[:SHOWN_LEARNINGS] + ([f"... and {more:,} more (lh memory check --all-projects lists every one)"]
                                         if more > 0 else []))


SHOWN_TOO_LONG = 3  # entries too long to check named one by one; lh memory check names every one


def check_long_texts(r: Report, values: Config) -> None:
    """The entries of every project and the learnings whose text is too long for the hold check to read
    (``memory.long_texts``, ADR 0088), as ``lh memory check --all-projects`` names them: held from sessions
    until the person approves them, which SessionStart says only in hooks.log."""
    from lazy_harness.memory import long_texts

    found = long_texts.found(paths.all_memory_dirs(None, values["memory"]["path"] or None),
                             paths.learnings_dir(values["knowledge"]["path"] or None))
    if not found:
        return
    more = len(found) - SHOWN_TOO_LONG
    shown = found[:SHOWN_TOO_LONG] + ([f"... and {more:,} more (lh memory check --all-projects)"] if more > 0 else [])
    r.warn_each("memory texts", f"{len(found):,} entry(s) too long for the hold check to read, held until approved",
                "lh memory check --all-projects lists them; lh memory approve ID", shown)


def check_sync(r: Report, values: Config) -> None:
    from lazy_harness import sync

    remote = sync.configured_remote(values)
    if not remote:
        r.line("ok", "sync", "off (no [sync] remote; memory stays on this machine)")
        return
    from lazy_harness.sync import repo

    try:
        repo.need_merge_tree("", os.environ)
    except repo.SyncError as exc:
        r.line("warn", "sync", f"{remote}: {exc.message}", exc.hint)
        return
    # why before status: it runs git in the data folder's repository; a remote on this machine that
    # another user could write is refused as that repository is
    refused = repo.refusal(paths.data_dir(os.environ), remote, os.environ)
    if refused:
        r.line("fail", "sync", refused.message, refused.hint)
        return
    st = sync.status(values)
    if st["last_error"]:
        r.line("warn", "sync", f"{remote}: {st['last_error']}", st.get("last_hint") or "lh sync --status")
    else:
        r.line("ok", "sync", f"{remote}: last sync {st['last_sync'] or 'never'}")
