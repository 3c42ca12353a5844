"""A session's answer to the handoff log: the items it opens and closes, computed under the memory
folder's lock before anything is written (:func:`prepare_answer`), then appended and handoff.md
rendered again (:func:`write_answer`); :func:`apply_answer` does both. The worker's persist
(memory/apply.py) prepares the answer with the rest of its plan and writes it in its turn. The log,
the fold and the render are memory/handoff.py's.

Not the hot path: only writers (the worker) answer.
"""

from __future__ import annotations

# why the module, not its names: what handoff.py's functions are at call time (a test stands in for one)
from lazy_harness.memory import handoff

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from lazy_harness.memory.handoff import Seen


class Answer:
    """What an answer changes, computed under the folder's lock before anything is written:
    ``records`` to append (pending hand edits first), whether handoff.md is ``behind`` the log."""

    def __init__(self, records: list[dict], behind: bool, notes: list[str], problems: list[str],
                 seen: Seen | None = None) -> None:
        self.records, self.behind, self.notes, self.problems = records, behind, notes, problems
        self.seen = seen  # what was read of handoff.md (load_for_writing)


def prepare_answer(memory_dir: str, opened: str | Iterable[object] | None, closed: Iterable[object] | None,
                   meta: dict, when: float) -> Answer:
    state, pending, seen = handoff.load_for_writing(memory_dir)
    recs, notes, problems = handoff.changes(state, opened, closed, meta, when)
    written = pending + recs
    return Answer(written, not written and handoff.behind(memory_dir, state), notes, problems, seen)


def write_answer(memory_dir: str, answer: Answer, meta: dict, now: float,
                 stale_days: float | None = None, before_write: Callable[[bytes], None] | None = None) -> list[dict]:
    """Append a prepared answer's records and re-render handoff.md when anything changed, or when it is
    behind the log (a writer killed before its render). Returns the records appended. A hand edit of
    handoff.md saved since the answer was prepared, or during the render, is appended too
    (``handoff.write_markdown``), never written over."""
    written = list(answer.records)
    if written:
        handoff.append(memory_dir, written)
    if written or answer.behind:
        written += handoff.write_markdown(memory_dir, meta, now, stale_days, before_write, answer.seen)
    return written


def apply_answer(memory_dir: str, opened: str | Iterable[object] | None, closed: Iterable[object] | None,
                 meta: dict, when: float, now: float,
                 stale_days: float | None = None) -> tuple[list[dict], list[str], list[str]]:
    """Under the folder lock: append pending hand edits, then the answer's changes; re-render when anything
    changed, or when handoff.md is behind the log. Returns (records appended, notes, problems)."""
    answer = prepare_answer(memory_dir, opened, closed, meta, when)
    return write_answer(memory_dir, answer, meta, now, stale_days), answer.notes, answer.problems
