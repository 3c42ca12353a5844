"""What a session was shown, and the order usage gives entries where a budget is short (ADR 0036).

    <queue>/state/<session>.seen      one line per showing, appended by SessionStart and the prompt
                                      hook: ``<epoch> <source> <chars injected> [@<memory key>]
                                      <id>:<chars> ...`` (no key: a line from before keys, counted in
                                      the distilled session's own folder)
    <memory dir>/usage.jsonl          the usage record the worker keeps (memory/usage_log.py)
    <cache>/usage/<memory key>.counts ``<id> <sessions shown> <sessions used>`` per line (fixed width,
                                      sorted by id; ``-`` for sessions used: not measurable, ranked as
                                      its peers), written by the worker from usage.jsonl; what the
                                      budget cuts read

The feedback rule (docs/how/usage.md): where a budget is short, an entry used in some session comes
before its peers, and an entry shown in at least ``usage.unused_after`` sessions and never used comes
after them (one the audit cannot measure, with no marks, stays among its peers); each group keeps its
own order. Nothing is hidden by usage alone.

Hot path: both hooks use this module; at import time only ``os``. A showing costs
one ``O_APPEND`` write of one line, unlocked and not fsynced: lost in a crash, a session's usage is
counted without that showing.
"""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness.regular_file import append_regular, open_regular, read_regular

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import TypeVar

    from lazy_harness.memory.shapes import Env

    T = TypeVar("T")

SEEN = ".seen"
MAX_SEEN = 1 << 20  # bytes of the recurrence files read at most: the newest (newest_text)
# why a bound this far above MAX_SEEN: the worker totals a session's characters from its first showing
# (worker/usage.py: session_lines), so it reads the whole file; a window counted from 0 as the session's
# start wrote wrong totals, again at each distillation. Only the worker reads it (not a hook); 64 MiB is
# some 200,000 showings, a session no one types; past it the newest are read, counted from there.
MAX_SHOWINGS = 64 << 20
USED, PEER, UNUSED = 0, 1, 2  # the ranks :func:`order` sorts by


def seen_file(env: Env | None, session_id: str) -> str:
    return os.path.join(paths.state_dir(env), paths.safe_session_id(session_id) + SEEN)


def note(env: Env | None, session_id: str, source: str, chars: int, shown: list[tuple[str, int]], now: float,
         memory_dir: str = "") -> None:
    """One line for one showing: when, by what (``startup``, ``resume``, ``prompt``...), how many
    characters the hook injected, the memory folder the entries came from (``@<memory key>``, when
    ``memory_dir`` is given), and each entry id shown with the characters its line took."""
    if not session_id or not shown:
        return
    word = "".join(c for c in source if c.isalnum() or c in "-_") or "?"
    key = memory_key_of(memory_dir) if memory_dir else ""
    # why the key as a token of its own after the counts: a reader from before it skips a token without
    # an ``<id>:<chars>`` pair (and a memory key holds no ``:``, no space), so old and new lines mix
    folder = f"@{key} " if key and _plain_key(key) else ""
    line = f"{now:.3f} {word} {int(chars)} {folder}" + " ".join(
        f"{i}:{int(n)}" for i, n in shown if i and " " not in i)
    path = seen_file(env, session_id)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fd = append_regular(path)  # why not os.open: a FIFO in the file's place held the session start
    try:
        os.write(fd, (line + "\n").encode("utf-8"))
    finally:
        os.close(fd)


def memory_key_of(memory_dir: str) -> str:
    """A memory folder's key: its name (``<memory root>/<memory key>``, paths.project_memory_dir)."""
    return os.path.basename(os.path.normpath(memory_dir))


def _plain_key(key: str) -> bool:
    """A key paths can make (letters, digits, ``-``, ``.``, ``_``), never ``.`` or ``..``."""
    return key not in (".", "..") and all(c.isascii() and (c.isalnum() or c in "-._") for c in key)


def read_seen(env: Env | None, session_id: str) -> list[tuple[float, str, int, list[tuple[str, int]]]]:
    """Every showing of a session, oldest first: (epoch, source, chars injected, [(id, chars)]).
    A torn or foreign line is skipped."""
    return [(when, source, chars, shown) for when, source, chars, shown, _ in read_showings(env, session_id)]


def read_showings(env: Env | None, session_id: str) -> list[tuple[float, str, int, list[tuple[str, int]], str]]:
    """:func:`read_seen` with the memory key each showing came from ('' on a line that names none:
    written before lines named it, or by a caller that did not say). The whole file, up to its newest
    :data:`MAX_SHOWINGS` bytes."""
    out = []
    # why: one (id, chars) pair per entry and width, shared by every showing of it: a long session shows
    # the same few dozen entries thousands of times, and a tuple each was most of what the read held
    pairs: dict[tuple[str, int], tuple[str, int]] = {}
    try:
        for line in _newest_lines(seen_file(env, session_id), MAX_SHOWINGS):
            showing = _showing(line, pairs)
            if showing is not None:
                out.append(showing)
    except OSError:
        return []
    return out


def _showing(line: str, pairs: dict[tuple[str, int], tuple[str, int]],
             ) -> tuple[float, str, int, list[tuple[str, int]], str] | None:
    """One ``.seen`` line parsed (:func:`read_showings`), or None for a torn or foreign one."""
    parts = line.split()
    if len(parts) < 4:
        return None
    key = next((p[1:] for p in parts[3:] if p.startswith("@")), "")
    try:
        when, chars = float(parts[0]), int(parts[2])
        shown = [(i, int(n)) for i, _, n in (p.rpartition(":") for p in parts[3:] if p[:1] != "@") if i]
    except ValueError:
        return None
    return when, parts[1], chars, [pairs.setdefault(pair, pair) for pair in shown], key if _plain_key(key) else ""


def _newest_lines(path: str, limit: int) -> Iterator[str]:
    """The lines of the appended-to file ``path`` as :func:`newest_text` keeps them (its last ``limit``
    bytes from the first line that starts in them), one at a time: the text of a large file is never
    held whole. Raises OSError."""
    with open(open_regular(path)[0], "rb") as fh:  # why open_regular: a FIFO there held the worker in open()
        size = os.fstat(fh.fileno()).st_size
        if size > limit:
            # why one byte before the window: a newline there means the window starts on a whole line
            fh.seek(size - limit - 1)
            fh.readline()
        for raw in fh:
            yield raw.decode("utf-8", errors="replace")


def newest_text(path: str, limit: int) -> str:
    """The end of the appended-to file ``path``: its last ``limit`` bytes from the first line that starts
    in them (the line they start inside is dropped, never read as a cut line); the whole file when it
    is no longer. Raises OSError."""
    fd, st = open_regular(path)  # why: a FIFO in the file's place held the session start and prompt in open()
    try:
        size = st.st_size
        # why one byte before the window: a newline there means the window starts on a whole line
        data = os.pread(fd, limit, 0) if size <= limit else os.pread(fd, limit + 1, size - limit - 1)
    finally:
        os.close(fd)
    if size > limit:
        cut = data.find(b"\n")
        data = data[cut + 1:] if cut >= 0 else b""
    return data.decode("utf-8", errors="replace")


def ranks_file(env: Env | None, memory_dir: str) -> str:
    return paths.usage_ranks_file(memory_key_of(memory_dir), env)


LINE = 25  # ``<id> <shown> <used>\n`` with 8-hex ids: the id 10 characters, each count 6 (memory/usage_log.py)
COUNTS = 15  # the two counts of a line and their spaces and newline: the rest of a line is its id field


class Ranks:
    """Each entry's rank by its usage: :data:`USED`, :data:`UNUSED`, else :data:`PEER`. The count file
    holds fixed-width lines sorted by id: a budget cut asks a few dozen ids of thousands, each found by
    a binary search, with no parse of the whole file on the hot path. False when usage changes no order.
    The id field is as wide as the file's longest id (10, or more once an id grew past a collision:
    memory/ids.py), shorter ids padded with spaces; the first line's length says the width."""

    def __init__(self, text: str = "", least: int = 0) -> None:
        self.text, self.least = text, least
        self.line = text.find("\n") + 1 if text else LINE
        self.width = self.line - COUNTS
        self.n = len(text) // self.line if self.width > 0 else 0

    def __bool__(self) -> bool:
        return self.least > 0 and self.n > 0

    def get(self, eid: str, default: int = PEER) -> int:
        lo, hi, line, width = 0, self.n, self.line, self.width
        want = eid.ljust(width)
        while lo < hi:
            mid = (lo + hi) // 2
            key = self.text[mid * line:mid * line + width]
            if key < want:
                lo = mid + 1
            elif key > want:
                hi = mid
            else:
                used_field = self.text[mid * line + width + 8:mid * line + width + 14]
                if used_field.strip() == "-":  # not measurable: no usage tells its rank
                    return default
                try:
                    shown, used = int(self.text[mid * line + width + 1:mid * line + width + 7]), int(used_field)
                except ValueError:
                    return default
                return USED if used > 0 else UNUSED if shown >= self.least else default
        return default


def load_ranks(env: Env | None, memory_dir: str, unused_after: int) -> Ranks:
    """The ranks usage gives the project's entries (empty when ``unused_after`` is 0 or no usage was
    counted yet). One ``open``."""
    try:
        least = int(unused_after)
    except (TypeError, ValueError):
        return Ranks()
    if least <= 0:
        return Ranks()
    try:  # why read_regular: a FIFO in the file's place held the session start in open() for good
        return Ranks(read_regular(ranks_file(env, memory_dir)).decode("utf-8", "replace"), least)
    except OSError:
        return Ranks()


def order(items: list[T], id_of: Callable[[T], str], ranks: Ranks | None) -> list[T]:
    """``items`` with the used ones first and the never-used ones last, each group in its own order."""
    if not ranks:
        return list(items)
    return sorted(items, key=lambda item: ranks.get(id_of(item), PEER))


# --- recurrences, told to the person once at SessionStart -------------------------------------------
#     <queue>/state/recurred        ``<memory key> <id> <session>`` per line: the worker appends (a line
#                                   from before sessions were named: ``<memory key> <id>``)
#     <queue>/state/recurred-told   the same lines, once SessionStart told the person
# why the session: a failure that recurs in a later session is told again; keyed by id alone, the
# first told line covered every later recurrence of it

RECURRED, RECURRED_TOLD = "recurred", "recurred-told"


def _lines(path: str) -> list[str]:
    """The lines of the appended-to file ``path``, its newest :data:`MAX_SEEN` bytes at most ([] when
    missing). why the end: what is not told yet is the newest recurrences, and what was told of them is
    the newest lines of ``recurred-told`` (each appended after its recurrence): read from its start, a
    file past the cap never showed a new line again."""
    try:
        text = newest_text(path, MAX_SEEN)
    except OSError:
        return []
    return [ln.strip() for ln in text.split("\n") if ln.strip()]


def keep_recurred(env: Env | None, memory_key: str, entry_ids: list[str], session_id: str = "") -> None:
    """Keep the recurrences of the session ``session_id`` for the next SessionStart of the project (the
    worker). A recurrence kept already is not kept twice: the session counted again (a retried task)
    keeps what a killed run did not, and never tells one twice."""
    from lazy_harness.atomic import append_line

    path = os.path.join(paths.state_dir(env), RECURRED)
    sid = paths.safe_session_id(session_id) if session_id else ""
    kept = set(_lines(path))
    for eid in entry_ids:
        line = f"{memory_key} {eid} {sid}".rstrip()
        if line not in kept:
            kept.add(line)
            append_line(path, line)


def _untold(env: Env | None, memory_key: str) -> list[str]:
    """The project's recurrence lines not told yet, oldest first."""
    state = paths.state_dir(env)
    mine = [ln for ln in _lines(os.path.join(state, RECURRED)) if ln.split(" ")[0] == memory_key and " " in ln]
    if not mine:
        return []
    told = set(_lines(os.path.join(state, RECURRED_TOLD)))
    return [ln for ln in mine if ln not in told]


def untold_recurred(env: Env | None, memory_key: str) -> list[str]:
    """The ids of the project's failures that recurred and were not told yet (each once, however many
    sessions it recurred in since it was last told). One ``open`` when none ever recurred."""
    return list(dict.fromkeys(ln.split(" ")[1] for ln in _untold(env, memory_key)))


def told_recurred(env: Env | None, memory_key: str, entry_ids: list[str]) -> None:
    """Mark told every recurrence of these ids not told yet (one ``O_APPEND`` write)."""
    if not entry_ids:
        return
    wanted = set(entry_ids)
    lines = [ln for ln in _untold(env, memory_key) if ln.split(" ")[1] in wanted]
    named = {ln.split(" ")[1] for ln in lines}
    lines += [f"{memory_key} {eid}" for eid in entry_ids if eid not in named]  # why: kept by no line read
    fd = append_regular(os.path.join(paths.state_dir(env), RECURRED_TOLD))
    try:
        os.write(fd, "".join(f"{ln}\n" for ln in lines).encode("utf-8"))
    finally:
        os.close(fd)
