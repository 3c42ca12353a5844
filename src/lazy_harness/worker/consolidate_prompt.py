"""Consolidation's prompt: the project's live entries, and the text that shows them to the model.

Decisions and failures come from their logs, the project's active learnings from their
frontmatter, open handoff items from the handoff log. Entries hidden by a mark (held ones too) are
left out, a decision or failure is listed once (an id two texts carry is left out, with a line
saying so), and only the newest ``PER_KIND`` decisions, failures and learnings are kept; decisions
and failures are ordered by when they were last made (a restore counts; line order where a line has
no time). The prompt lists them as ``[<id>] <summary>`` lines under one heading per kind, redacted.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lazy_harness.memory import files, frontmatter, ids, marks
from lazy_harness.memory.sanitize import one_line
from lazy_harness.regular_file import open_regular

if TYPE_CHECKING:
    from collections.abc import Iterable

PER_KIND = 150  # newest live entries of each kind shown to the model: the prompt stays bounded

INSTRUCTIONS = """You keep a software project's memory current. Below are its live entries, one per line
as [<id>] <summary>, oldest first within each section. Propose only changes that are clearly right:
- supersede: a decision replaced by a NEWER decision that contradicts or replaces it (old, new ids);
- deprecate_learnings: a learning made wrong or redundant by another learning (id, by);
- merge_failures: two failures that are the same problem (keep the better written one, drop the other);
- close_handoff: an open item that later entries show is done, or that is obsolete (id).
Give a one-sentence reason for each. Use only ids from the lists. When nothing needs changing, answer
with empty lists. Answer with one JSON object with the keys supersede, deprecate_learnings,
merge_failures and close_handoff."""


@dataclass
class Entry:
    id: str
    kind: str
    text: str
    order: int
    path: str = ""
    ts: float | None = None  # when the entry was written (its record's ts)
    restored: float | None = None  # when a later session made it again after it was hidden
    after: float | None = None  # for an entry of no known time: the latest time of the entries above its line

    def made(self) -> float | None:
        """When the entry was last made: its line's ``ts``, or when a session made it again after it was
        hidden, whichever is later; None when neither is known (a line appended by hand without a ts)."""
        known = [t for t in (self.ts, self.restored) if t is not None]
        return max(known) if known else None

    def newer_than(self, other: Entry) -> bool:
        """Whether this entry was made after ``other`` (of its kind): by :meth:`made` when both have a
        time, else by line order (a line without a time was appended after the lines above it).
        why not line order alone: an entry made again keeps its old line (ADR 0014)."""
        mine, theirs = self.made(), other.made()
        if mine is None or theirs is None:
            return self.order > other.order
        return (mine, self.order) > (theirs, other.order)

    def newest(self) -> tuple[float, int]:
        """What orders entries of one kind, oldest first, as :meth:`newer_than` compares two: its time,
        else the latest time above its line (``after``), then its line. Two entries it compares other
        than :meth:`newer_than` do only where no order agrees with every pair (a line of no time between
        two timed lines written out of order)."""
        made = self.made()
        if made is None:
            made = self.after if self.after is not None else float("-inf")
        return made, self.order


@dataclass
class Candidates:
    decisions: list[Entry] = field(default_factory=list)
    failures: list[Entry] = field(default_factory=list)
    learnings: list[Entry] = field(default_factory=list)
    handoff: list[Entry] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)  # one line per entry not offered, and why

    def by_id(self) -> dict[str, Entry]:
        return {e.id: e for group in (self.decisions, self.failures, self.learnings, self.handoff) for e in group}

    def count(self) -> int:
        return len(self.by_id())


# --- reading the project's live entries ----------------------------------------------------------

def read_entries(path: str) -> list[dict]:
    return files.read_entries(path)


def _learning_heads(learnings_dir: str, project: str, memory_dir: str) -> list[tuple[str, dict]]:
    """The project's own learnings (``aliases.Owned.lists``: by its keys, else by name), newest first."""
    from lazy_harness.memory import aliases

    owned = aliases.owned(memory_dir)
    out = []
    for path in reversed(files.recent_learning_files(learnings_dir, 10**6)):
        try:
            # why open_regular: a FIFO named as a learning held the worker in open() for good
            with open(open_regular(path)[0], encoding="utf-8-sig", errors="replace") as fh:
                parsed = frontmatter.parse_frontmatter(fh.read(65536))
        except OSError:
            continue
        if parsed and owned.lists({**parsed[0], "id": ids.of_learning(parsed[0], path=path)}, project):
            out.append((path, parsed[0]))
    return out


def open_handoff(memory_dir: str) -> list[tuple[str, str]]:
    """(id, text) of the project's open handoff items."""
    from lazy_harness.memory import handoff

    state, _ = handoff.load(memory_dir)
    return [(item["id"], item["text"]) for item in handoff.open_items(state)]


def _restored_at(memory_dir: str) -> dict[str, float]:
    """``{id: when}`` of the entries a store run brought back (journals of kind ``restore``, not undone)."""
    from lazy_harness.memory import journal
    from lazy_harness.memory.files import iso_epoch

    out: dict[str, float] = {}
    for run in journal.runs(memory_dir):
        when = iso_epoch(run.get("started"))
        if run.get("kind") != "restore" or run.get("undone") or when is None:
            continue
        for eid in run.get("restored") or []:
            if isinstance(eid, str):
                out[eid] = max(out.get(eid, when), when)
    return out


def _records(memory_dir: str, kind: str, name: str, hidden: dict, restored: dict[str, float],
             left_out: list[str]) -> list[Entry]:
    """The live decisions or failures of one log, each once, oldest first (:meth:`Entry.newest`), the
    newest ``PER_KIND`` of them. A line copied by hand is the same entry (its first line listed); an id
    that lines of two texts carry (a copy reworded afterwards, its ``id`` kept) is left out with a line
    in ``left_out``: the readers show both texts, and a mark of the id would hide both."""
    from lazy_harness.memory.files import iso_epoch
    from lazy_harness.memory.sanitize import normalise

    path = os.path.join(memory_dir, name)
    found: dict[str, Entry] = {}
    texts: dict[str, set[str]] = {}
    for n, rec in enumerate(read_entries(path)):
        eid = ids.of_record(rec, kind)
        if eid in hidden:
            continue
        texts.setdefault(eid, set()).add(normalise(rec["summary"]))
        if eid not in found:
            found[eid] = Entry(eid, kind, one_line(rec["summary"]), n, ts=iso_epoch(rec.get("ts")),
                               restored=restored.get(eid))
    for eid, seen in texts.items():
        if len(seen) > 1:
            del found[eid]
            left_out.append(f"{kind} {eid} left out: {len(seen)} lines of different texts carry it in {path}; "
                            "give one of them an id of its own")
    latest: float | None = None
    for entry in sorted(found.values(), key=lambda e: e.order):
        made = entry.made()
        if made is None:
            entry.after = latest
        else:
            latest = made if latest is None else max(latest, made)
    return sorted(found.values(), key=Entry.newest)[-PER_KIND:]


def candidates(memory_dir: str, learnings_dir: str, project: str) -> Candidates:
    """The project's live entries (see the module docstring). Entries hidden by a mark (superseded,
    merged, forgotten, held for approval) are not offered, of any kind: a held entry is one the hold
    check judged may carry instructions, and only the person approves or forgets it."""
    hidden = marks.hidden(memory_dir)
    restored = _restored_at(memory_dir)
    c = Candidates()
    c.decisions = _records(memory_dir, "decision", files.DECISIONS, hidden, restored, c.left_out)
    c.failures = _records(memory_dir, "failure", files.FAILURES, hidden, restored, c.left_out)
    for n, (path, head) in enumerate(_learning_heads(learnings_dir, project, memory_dir)):
        if (head.get("status") or "active") != "active":
            continue
        lid = ids.of_learning(head, path=path)
        if lid not in hidden:
            c.learnings.append(Entry(lid, "learning", one_line(head.get("title")), n, path))
    del c.learnings[:-PER_KIND]
    for n, (hid, text) in enumerate(open_handoff(memory_dir)):
        if hid not in hidden:
            c.handoff.append(Entry(hid, "handoff", one_line(text), n))
    return c


def render_prompt(c: Candidates, project: str, extra_patterns: Iterable[str] = ()) -> str:
    from lazy_harness.redact import redact

    from lazy_harness.memory.fence import FENCE, neutral

    # why: the entries are stored text a model, a synced machine or a hand edit wrote: neutralised so
    # none forges a heading, a tag or a speaker in this prompt, under the line that says they are data
    parts = [INSTRUCTIONS, f"\nProject: {neutral(project, 200)}", FENCE]
    for title, group in (("Decisions", c.decisions), ("Failures", c.failures), ("Learnings", c.learnings),
                         ("Open handoff items", c.handoff)):
        parts.append(f"\n## {title}")
        parts += [f"[{e.id}] {neutral(e.text, 300)}" for e in group] or ["(none)"]
    return redact("\n".join(parts) + "\n", tuple(extra_patterns))[0]
