"""The index built outside the hooks: ``python -m lazy_harness.recall.build MEMORY_DIR [LEARNINGS_DIR]``.

The prompt hook catches up with at most ``HOOK_BYTES`` of new lines itself (a handful of entries,
written by the worker or by hand since the last prompt) and searches what is indexed. When more is waiting (the
first build of a large memory, a file rewritten by hand, many new learnings), it starts this
program detached and goes on without waiting; the worker runs the same steps after each persist.

The work comes in parts, each its own transaction (``index.refresh_within``), then the entries'
vectors (``vectors.fill``), also in parts: killed at any moment, the next run goes on from the last
part committed. One builder at a time per index: a second one finds the lock held and leaves.
"""

import os
import sys

from lazy_harness import paths
from lazy_harness.atomic import ensure_dir, held, try_lock

HOOK_BYTES = 256 * 1024  # new lines the prompt hook indexes itself (about 300 entries); more: the builder
HOOK_LISTS = 300  # a scope of at most this many entries gets its lexical lists from the hook itself
HOOK_EMBED = 32  # texts of new entries the prompt hook embeds itself; more: the builder
PRUNE_AFTER = 1000
LOG = "index-build.log"


def lock_file(index_path: str) -> str:
    return index_path + ".build.lock"


def build(index_path: str, mdirs: list[str], ldir: str | None, log=lambda message: None,
          state_dir: str | None = None, fresh: bool = False, waiting=None) -> tuple[int, int] | None:
    """Bring the index at ``index_path`` up to date with ``mdirs`` and ``ldir``, vectors included:
    (entries indexed, texts embedded); None when another builder holds the lock. ``waiting``: wait
    for that builder instead, calling ``waiting(entries indexed so far)`` about every second.
    ``fresh``: every entry is forgotten first (``current.clear``), once the lock is ours: what another
    builder is writing is never cleared under it."""
    ensure_dir(os.path.dirname(index_path))
    fd = try_lock(lock_file(index_path))
    if fd is None and waiting is not None:
        fd = _wait_for_lock(index_path, waiting)
    if fd is None:
        return None
    try:
        return _build_locked(index_path, mdirs, ldir, log, state_dir, fresh)
    finally:
        os.close(fd)


def _wait_for_lock(index_path: str, waiting) -> int:
    """Take the build lock, waiting for the builder that holds it; ``waiting(entries so far)`` each second."""
    import time

    while True:
        time.sleep(1.0)  # why: a command waiting for another process's build, with progress; not a hook
        fd = try_lock(lock_file(index_path))
        if fd is not None:
            return fd
        waiting(indexed_so_far(index_path))


def indexed_so_far(index_path: str) -> int:
    """How many entries the index holds now (read only; 0 when it cannot be read yet)."""
    from lazy_harness.recall import index

    sqlite3 = index.sqlite()
    try:
        conn = sqlite3.connect(f"file:{index_path}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.Error:
        return 0
    try:
        row = conn.execute("SELECT v FROM meta WHERE k='entries'").fetchone()
        return int(row[0]) if row else 0
    except (sqlite3.Error, ValueError):
        return 0
    finally:
        conn.close()


def _build_locked(index_path: str, mdirs: list[str], ldir: str | None, log, state_dir: str | None,
                  fresh: bool) -> tuple[int, int]:
    import time

    from lazy_harness.recall import current, index, indexing, vectors

    if fresh:
        current.clear(index_path)
    started = time.monotonic()
    conn = current.open_current(index_path, [], None)[0]  # a damaged index is removed and started again
    try:
        # why: deep: every learning file's stat, so one edited in place by hand is indexed again
        # (lh memory search looks inside the newest month folders only; the hook inside none)
        count, _ = index.refresh_within(conn, mdirs, ldir, deep=True)
        log(f"indexed {count} entries in {time.monotonic() - started:.1f} s")
        built, merged = indexing.build_lexical(conn)
        log(f"word lists: {built} scope(s) built, {merged} entries merged in {time.monotonic() - started:.1f} s")
        embedded = vectors.fill(conn, state_dir or os.path.dirname(index_path))
        if embedded > PRUNE_AFTER:  # why: a model change or a large rebuild left old vectors behind
            vectors.prune(conn, vectors.model_id())
        log(f"embedded {embedded} texts in {time.monotonic() - started:.1f} s")
        return count, embedded
    finally:
        conn.close()


def memory_bytes(mdir: str, ldir: str | None, enough: int) -> int:
    """About how much a first index of ``mdir`` and ``ldir`` reads, counted until it passes ``enough``
    (a ``stat`` a file; the learnings counted as the index counts them)."""
    from lazy_harness.recall import index

    total = 0
    for name in ("decisions.jsonl", "failures.jsonl", "handoff.jsonl"):
        try:
            total += os.stat(os.path.join(mdir, name)).st_size
        except OSError:
            pass
    if ldir is None:
        return total
    try:
        months = os.listdir(ldir)
    except OSError:
        return total
    for month in months:
        if total > enough:
            break
        try:
            total += index.LEARNING_BYTES * len(os.listdir(os.path.join(ldir, month)))
        except OSError:
            pass
    return total


def running(env) -> bool:
    """Whether a builder holds the lock of the index now."""
    return held(lock_file(paths.recall_index_file(env)))


def start(env, mdir: str, ldir: str | None) -> int | None:
    """Start the builder detached for ``mdir`` (and ``ldir``), unless one runs already (its lock is
    held); returns its pid or None."""
    from lazy_harness import detach

    if running(env):  # why: a running builder already does this work
        return None
    argv = [sys.executable, "-m", "lazy_harness.recall.build", mdir] + ([ldir] if ldir else [])
    return detach.spawn(argv, os.path.join(paths.logs_dir(env), LOG), dict(env))


def main(argv: list[str]) -> int:
    from lazy_harness import logfile

    if not argv or len(argv) > 2:
        print("usage: python -m lazy_harness.recall.build MEMORY_DIR [LEARNINGS_DIR]", file=sys.stderr)
        return 2

    def log(message: str) -> None:
        print(f"{logfile.stamp()} build pid={os.getpid()} {message}", flush=True)

    try:
        done = build(paths.recall_index_file(os.environ), [argv[0]], argv[1] if len(argv) > 1 else None, log)
    except Exception as exc:  # why: detached, nobody reads a traceback; the log says what failed
        log(f"failed: {type(exc).__name__}: {exc}")
        return 1
    if done is None:
        log("another builder is running: left")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
