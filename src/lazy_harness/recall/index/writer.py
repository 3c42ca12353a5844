"""The index's one writer (ADR 0042; docs/how/recall.md, "The index"): the index brought up to date under
its lock, in parts, then the word lists and the vectors. What it saw of each folder (``seen/<folder>``) and
of the newest learning files is kept for SessionStart's :func:`behind` (hot path: only ``os`` at import)."""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness.atomic import atomic_write, try_lock
from lazy_harness.regular_file import open_regular

# why: not ``from typing import TYPE_CHECKING``: SessionStart loads this module (``behind``), never ``typing``
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from sqlite3 import Connection

    Log = Callable[[str], object]

PRUNE_AFTER = 1000
FILES = ("decisions.jsonl", "failures.jsonl", "marks.jsonl", "handoff.jsonl", "handoff.md")
LEARNINGS = "#learnings"  # the record of the learnings folder (a memory key never starts with #)
LEARNING_FILES = "#learning-files"  # the record of the newest learning files, as the index read them
# why 200: the digest's CANDIDATES, which SessionStart stats anyway (an edit in place changes only the file's)
WATCHED = 200
COMPLETE = "vectors_complete"  # meta: the model whose vectors every text had when the writer last looked


def lock_file(index_path: str) -> str:
    """The writer's lock, beside the index."""
    return index_path + ".build.lock"


def update(index_path: str, mdirs: list[str], ldir: str | None, log: Log = lambda message: None, fresh: bool = False,
           waiting: Callable[[int], None] | None = None, deep: bool | int = True) -> tuple[int, int] | None:
    """Bring the index up to date, vectors too: (entries indexed, texts embedded); None when another writer
    holds the lock, unless ``waiting`` waits. ``fresh``: every entry forgotten first, if the lock was free."""
    import time

    from lazy_harness.recall.index import store

    store.own_folder(os.path.dirname(index_path))
    fd = try_lock(lock_file(index_path))
    while fd is None and waiting is not None:  # why said before each wait: a wait of under a second is a wait too
        fresh = False  # why: never throw away what the writer we waited for has just built
        waiting(indexed_so_far(index_path))
        time.sleep(1.0)  # why: a command or the worker waiting for another writer; never a hook
        fd = try_lock(lock_file(index_path))
    if fd is None:
        return None
    from lazy_harness.memory import intent

    try:
        for line in intent.settle_all():  # why: never index what a writer killed before its commit left (ADR 0021)
            log(line)
        return _update_locked(index_path, mdirs, ldir, log, fresh, deep)
    except store.sqlite().OperationalError as exc:  # a folder in the shared memory file's place, a full disk
        if (refusal := store.refused(index_path, exc)) is None:
            raise
        raise refusal from None
    finally:
        os.close(fd)


def indexed_so_far(index_path: str) -> int:
    """How many entries the index holds now (0 when it cannot be read yet)."""
    from lazy_harness.recall.index import lookup, store

    try:
        conn = store.read_only(index_path, timeout=1.0)
        try:
            return lookup.doc_count(conn)
        finally:
            conn.close()
    except (store.sqlite().Error, ValueError, store.FileRefused):
        return 0


def _update_locked(index_path: str, mdirs: list[str], ldir: str | None, log: Log, fresh: bool,
                   deep: bool | int) -> tuple[int, int]:
    """The update under the lock; an index found damaged on the way is built again from the files, once."""
    from lazy_harness.recall.index import store

    if fresh:
        clear(index_path)
    # why taken before reading: a file changed meanwhile differs from the record, so the next start asks again
    seen = {seen_file(index_path, m): f"{m}\n{stamp(m)}\n" for m in mdirs}
    watched: list[str] = []
    if ldir:
        from lazy_harness.memory.files import recent_learning_files

        seen[seen_file(index_path, None)] = f"{ldir}\n{stamp(ldir, learnings=True)}\n"
        watched = recent_learning_files(ldir, WATCHED)
    done, read = store.rebuilt_once(index_path, lambda: _write(index_path, mdirs, ldir, log, deep, watched),
                                    lambda exc: log(f"index damaged ({type(exc).__name__}: {exc}): removed, built "
                                                    "again from the files"))
    if ldir:
        seen[files_record(index_path)] = f"{ldir}\n" + "".join(f"{s} {p}\n" for p, s in read.items())
    try:
        for path, text in seen.items():
            atomic_write(path, text, durable=False)
    except OSError:
        if (refused := records_refused(index_path, mdirs)) is None:
            raise
        import shlex

        from lazy_harness.errors import LhError

        where, what = refused
        raise LhError(f"{where} is {what}: the index's writer keeps its records of what it read there (the index "
                      "itself was brought up to date)",
                      hint=f"mv {shlex.quote(where)} {shlex.quote(where + '.aside')}; then lh memory reindex") from None
    return done


def records_refused(index_path: str, mdirs: Iterable[str] = ()) -> tuple[str, str] | None:
    """(path, what it is) of what stands where the writer keeps its records, else None (why: every update
    would fail at its end; the prompt hook and ``lh doctor`` name it)."""
    seen = paths.recall_seen_dir(index_path)
    if not os.path.isdir(seen):
        return (seen, "a file, not a folder" if os.path.isfile(seen) else "not a folder") if os.path.lexists(seen) \
            else None
    records = [seen_file(index_path, None), files_record(index_path), *(seen_file(index_path, m) for m in mdirs)]
    return next(((p, "a folder, not a file") for p in records if os.path.isdir(p)), None)


def _write(index_path: str, mdirs: list[str], ldir: str | None, log: Log, deep: bool | int,
           watched: list[str]) -> tuple[tuple[int, int], dict[str, str]]:
    """(entries indexed, texts embedded), and the stamps at which the index read the ``watched`` files."""
    import time

    from lazy_harness.errors import StaticModelError
    from lazy_harness.recall.embed import vectors
    from lazy_harness.recall.index import apply, lookup, store

    started = time.monotonic()
    conn = store.connect(index_path)
    try:
        # why taken away first: an update killed from here on leaves none; the next looks for missing vectors
        row = conn.execute("SELECT v FROM meta WHERE k = ?", (COMPLETE,)).fetchone()
        if row is not None:
            conn.execute("DELETE FROM meta WHERE k = ?", (COMPLETE,))
        count, _ = store.refresh_within(conn, mdirs, ldir, deep=deep)
        log(f"indexed {count} entries in {time.monotonic() - started:.1f} s")
        read = dict(lookup.rows_in(conn, "SELECT unit, stamp FROM source WHERE unit IN ({})", watched))
        if remade := apply.remake_short(conn):
            log(f"word lists of {remade} scope(s) made whole in {time.monotonic() - started:.1f} s")
        # why: the look for texts without a vector reads every key (700 ms at 100,000 entries); with nothing
        # indexed and the last look finished for this model there is none
        skip = row is not None and row[0] == vectors.model_id() and not count
        try:
            embedded = 0 if skip else vectors.fill(conn, os.path.dirname(index_path))
        except StaticModelError as exc:  # why: the entries are indexed; recall judges them by their words
            log(f"not embedded: {exc}")
            embedded = 0
        else:  # the mark that no text lacks a vector
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (COMPLETE, vectors.model_id()))
        if embedded > PRUNE_AFTER:  # why: a model change or a large rebuild left old vectors behind
            vectors.prune(conn, vectors.model_id())
        log(f"embedded {embedded} texts in {time.monotonic() - started:.1f} s")
        return (count, embedded), read
    finally:
        conn.close()


def clear(index_path: str) -> None:
    """Forget every entry, keeping the vectors (found again by hash); an unreadable index is removed."""
    from lazy_harness.recall.index import store

    # why first: a writer killed after clearing left a short index no session start found behind
    store.forget_seen(index_path)
    store.removed_if_damaged(index_path, lambda: _cleared(store.connect(index_path)))


def _cleared(conn: Connection) -> None:
    tables = ("entry", "hidden", "source", "key", "lex_doc", "lex_key", "lex_total", "lex_scope")
    try:
        conn.executescript(f"BEGIN IMMEDIATE; {''.join(f'DELETE FROM {t}; ' for t in tables)}"
                           "UPDATE meta SET v='0' WHERE k='entries'; COMMIT")
    finally:
        conn.close()


# --- what the writer saw: SessionStart's check for hand edits -----------------------------------

def stamp(folder: str, learnings: bool = False) -> str:
    """The ``stat`` of a memory folder's files, or (``learnings``) of the learnings' folders ("-": none)."""
    # why here: SessionStart has them loaded; others need not
    from lazy_harness.memory.files import month_folders
    from lazy_harness.memory.lines import file_stamp

    if not learnings:
        return " ".join(file_stamp(os.path.join(folder, name)) or "-" for name in FILES)
    months = [f"{m}={file_stamp(os.path.join(folder, m)) or '-'}" for m in month_folders(folder)]
    return " ".join([file_stamp(folder) or "-", *months])


def seen_file(index_path: str, folder: str | None) -> str:
    """Where the writer's view of ``folder`` is kept (None: the learnings folder, shared by all)."""
    name = LEARNINGS if folder is None else os.path.basename(os.path.normpath(folder))
    return os.path.join(paths.recall_seen_dir(index_path), name)


def _read(path: str) -> str | None:
    try:  # why open_regular: a FIFO in the record's place held the session start in open() for good
        with open(open_regular(path)[0], encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError):  # why: a damaged record is no record: the index is then behind
        return None


def files_record(index_path: str) -> str:
    """Where the writer keeps the ``size:mtime_ns`` at which the index read the newest learning files."""
    return os.path.join(paths.recall_seen_dir(index_path), LEARNING_FILES)


def behind(env: Mapping[str, str] | None, mdir: str, ldir: str | None,
           stamps: Mapping[str, list[int]] | None = None) -> bool:
    """Whether the index is missing or a file of ``mdir`` or of the learnings changed since the writer last
    saw them (``stamps``: :func:`edited`); a folder never indexed with no memory file is not behind."""
    index_path = paths.recall_index_file(env)
    now = stamp(mdir)
    was = _read(seen_file(index_path, mdir))
    if was is None:
        return any(part != "-" for part in now.split(" "))
    if was != f"{mdir}\n{now}\n" or not os.path.exists(index_path):
        return True
    if ldir is None:
        return False
    return _read(seen_file(index_path, None)) != f"{ldir}\n{stamp(ldir, learnings=True)}\n" or \
        edited(index_path, ldir, stamps)


def edited(index_path: str, ldir: str, stamps: Mapping[str, list[int]] | None) -> bool:
    """Whether one of the newest learning files differs in size or time from what the index read of it (an
    edit in place leaves its folder's ``stat`` as it was). ``stamps``: the ``[size, mtime_ns]`` the digest
    has just stat'ed; None: each recorded file is stat'ed here."""
    text = _read(files_record(index_path))
    if text is None:
        return True  # why: no record (an index the writer has not recorded the files of yet) is behind
    head, _, rest = text.partition("\n")
    if head != ldir:
        return True
    for line in rest.split("\n"):
        was, _, path = line.partition(" ")
        if stamps is None:
            try:
                st = os.stat(path)
            except OSError:
                continue
            now = f"{st.st_size}:{st.st_mtime_ns}"
        elif (got := stamps.get(path)) is not None:
            now = f"{got[0]}:{got[1]}"
        else:
            continue
        if now != was:
            return True
    return False


def after_write(env: Mapping[str, str] | None, mdir: str, ldir: str | None) -> tuple[int, int] | None:
    """After a change of ``mdir``: the index brought up to date, unless another writer holds it (None)."""
    return update(paths.recall_index_file(env), [mdir], ldir)
