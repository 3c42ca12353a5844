"""The two listings too slow to make at every page load, kept while every file they read is
unchanged: what is held for approval (``lh memory held``) and the usage counts (``lh memory usage``)."""

from __future__ import annotations

import os
import sys

from lazy_harness.memory import files
from lazy_harness.ui.file_reads import LOCK, stamps

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.memory.usage_log import Tally
    from lazy_harness.ui.reading import Project

_HELD: dict[tuple[str, str, str], tuple[tuple, list[dict]]] = {}


def _held_inputs(p: Project) -> tuple:
    """What ``held_review.listing`` reads, by each file's stamp: the memory folder's files (entries, marks,
    the handoff log), every learning file and the approval key and adoption record."""
    from lazy_harness.memory import approval_key

    learnings = files.recent_learning_files(p.learnings_dir, 10**9)
    return (stamps(p.memory_dir), stamps(p.learnings_dir, [os.path.relpath(x, p.learnings_dir) for x in learnings]),
            tuple(stamps(os.path.dirname(f), [os.path.basename(f)])
                  for f in (approval_key.key_file(None), approval_key.adopted_file(None))))


def held(p: Project, cross: str) -> list[dict]:
    """``held_review.listing`` of the project (what ``lh memory held`` lists), kept while no file it reads
    changed. why: it runs the hold check on every learning (about 0.6 s at 3,000 learnings) and reads
    every decision and failure; a page reload on an unchanged store then costs one stat per file. The
    stamps are taken before the listing: a file changed while it ran is read again at the next load."""
    from lazy_harness.memory import held_review

    where = (p.memory_dir, p.learnings_dir, cross)
    inputs = _held_inputs(p)
    with LOCK:
        hit = _HELD.get(where)
    if hit is not None and hit[0] == inputs:
        return list(hit[1])
    # why the terminal that runs lh ui: the page waits on a first check of every entry (an upgrade
    # changed the rules), as lh status and lh memory held say
    found = held_review.listing(p.memory_dir, p.learnings_dir, cross,
                                told=lambda: print(f"lh ui: {held_review.WAITING}", file=sys.stderr, flush=True))
    found = [_approve_refused(p, h) for h in found]
    with LOCK:
        _HELD[where] = (inputs, found)
    return list(found)


def _approve_refused(p: Project, h: dict) -> dict:
    """A listed entry; one approve refuses (held for a secret) with ``approve_refused``, its message: the
    page gives it in the Approve's place, as it does for a Forget that is refused."""
    from lazy_harness.memory import held_review

    said = held_review.approve_refused(p.memory_dir, h)
    return {**h, "approve_refused": said} if said else h


_USAGE: dict[str, tuple[tuple, Tally, str]] = {}


def usage_tally(p: Project) -> Tally:
    """:func:`usage_counted`'s tally."""
    return usage_counted(p)[0]


def usage_counted(p: Project) -> tuple[Tally, str]:
    """The usage counts of the project as ``lh memory usage`` makes them (``usage_log.tally`` of
    usage.jsonl, a merged entry's for the one it was merged into), kept while usage.jsonl and
    marks.jsonl keep their time, size and inode; the caller must not change it. why: the file only
    grows (100,000 lines in six months) and reading and counting it took a second at every page load;
    the worker's count file has no recurrences, characters or weeks to reuse. The stamps are taken
    before the read: a line appended during it is counted at the next load. With the tally, what its
    read left out (``damage``'s summary of usage.jsonl's skipped lines; empty when none), as ``lh memory
    usage`` says it."""
    from lazy_harness.memory import damage, lines, marks, usage_log

    inputs = stamps(p.memory_dir, [usage_log.USAGE, marks.MARKS])
    with LOCK:
        hit = _USAGE.get(p.memory_dir)
    if hit is not None and hit[0] == inputs:
        return hit[1], hit[2]
    path = usage_log.path_of(p.memory_dir)
    lines.NOTED.discard(path)  # why: noted by an earlier load of the file, perhaps mended since
    found = usage_log.tally(usage_log.read(p.memory_dir), into=usage_log.merged_into(p.memory_dir))
    checked = damage.check_file(path) if path in lines.NOTED else None
    left_out = checked.summary() if checked is not None and checked.skipped else ""
    with LOCK:
        _USAGE[p.memory_dir] = (inputs, found, left_out)
    return found, left_out
