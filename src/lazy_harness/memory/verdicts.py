"""The hold check's verdicts, kept per text (memory/trust.py is the check).

Below every module that reads them: SessionStart's screen (memory/held.py), the views of every entry
(memory/held_review.py), what a sync round brought in (memory/held_written.py) and the render of
handoff.md (memory/handoff_markdown.py, which the modules above it import).

Hot path: ``os``, ``jsonload``, ``paths``, ``ids``, ``trust`` (SessionStart loads them all anyway).
"""

from __future__ import annotations

import os

from lazy_harness import jsonload, paths
from lazy_harness.memory import ids, trust
from lazy_harness.regular_file import read_regular

TYPE_CHECKING = False  # why: not typing's: SessionStart loads this module (house style section 3)
if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.memory.shapes import Env

# SessionStart screens every open item, the newest failures and decisions and the learnings it
# ranks (Screen). Most of those texts are the same from one start to the next, and a memory's ordinary
# words (run, get, user, system, env) send many of them past the check's cheap look into the regular
# expressions, whose compilation alone costs tens of milliseconds (300 open items of realistic text:
# about 150 ms a start). So the verdicts are kept, per project, in
#     <cache dir>/verdicts/<memory key>.json   {"rules": <trust.rules_stamp()>, "sources": <trust.rules_signature()>,
#                                              "verdicts": {<text digest>: reason}}
# keyed by a 16-byte digest of the exact text (an edited text is a new key) and stamped with a digest of
# the check's source (an upgrade or an edit of the rules works every verdict out again), taken from
# the file without reading that source while its files' ``stat`` is the one written beside it
# (trust.rules_signature). Only the verdicts the last read used are written back, and only when one
# was worked out. A missing, damaged or foreign file reads as empty: a cache, never memory (written
# without fsync, like the learning heads).

# why: a read that checks this many texts itself is a whole memory after the rules changed (an upgrade):
# seconds at a few thousand entries, which the person waiting is told of (``Kept.on_bulk``)
BULK = 300
SECRET_KEY = "#secret"  # after a text's digest: the redactor's finding in a text the old rules hold (Kept.secret)


class Kept:
    """The verdicts of one file: :meth:`reason` answers from it or asks the check, :meth:`save` writes
    back what this read used when anything was worked out."""

    def __init__(self, path: str, elsewhere: str | None = None) -> None:
        """``elsewhere``: a file of verdicts worked out by another reader (``held_written.arrived_verdicts``),
        read on the first text this one does not know, before the check is asked."""
        self.path = path
        self.known: dict[str, str] = {}
        self.used: dict[str, str] = {}
        self.worked_out = 0
        self.checks = 0  # texts the check itself read (neither kept here nor elsewhere)
        self.on_bulk: Callable[[], object] | None = None  # called once, at the BULK-th of them
        self.elsewhere: str | dict[str, str] | None = elsewhere
        self.rules: str | None = None  # the stamp, once known (taken from the file by its signature, or worked out)
        try:  # why read_regular: a FIFO in the file's place held the session start in open() for good
            data = jsonload.loads(read_regular(path))
        except (OSError, ValueError):
            return
        if not isinstance(data, dict) or not isinstance(data.get("verdicts"), dict):
            return
        kept, signature = data.get("rules"), trust.rules_signature()
        # why: the stamp the file was written under stands while the files it was worked out from have
        # the size, mtime, inode and change time they had then (trust.rules_signature); else it is worked out
        rules = kept if signature and data.get("sources") == signature and isinstance(kept, str) \
            else trust.rules_stamp()
        if rules and kept == rules:
            self.rules = rules
            self.known = {k: v for k, v in data["verdicts"].items() if isinstance(v, str)}

    def reason(self, text: str) -> str | None:
        """``trust.reason(text)``, kept."""
        key = ids.text_digest(text)
        why = self.known.get(key)
        if why is None:
            if isinstance(self.elsewhere, str):
                self.elsewhere = Kept(self.elsewhere).known
            why = self.elsewhere.get(key) if self.elsewhere else None
            if why is None:
                self.checks += 1
                if self.checks == BULK and self.on_bulk is not None:
                    self.on_bulk()
                why = trust.reason(text) or ""
            self.known[key] = why
            self.worked_out += 1  # why also when found elsewhere: kept here, the next read needs no other file
        self.used[key] = why
        return why or None

    def secret(self, text: str) -> str | None:
        """``trust.secret(text)``, kept: the kept verdict answers when it is a secret's or none (the check
        reads a text for a secret whenever its old rules find nothing); a text those rules hold is read
        for one once, that answer kept beside its verdict (key ``<digest>#secret``)."""
        why = self.reason(text)
        if not why or why.startswith(trust.SECRET):
            return why
        key = ids.text_digest(text) + SECRET_KEY
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = trust.secret(text) or ""
            self.worked_out += 1
        self.used[key] = found
        return found or None

    def every_reason(self, text: str) -> str | None:
        """``trust.every_reason(text)``, kept: an order's reason, then a secret's beside it."""
        why = self.reason(text)
        found = self.secret(text) if why else None
        return f"{why}; {found}" if why and found and found != why else why

    def save(self, keep_known: bool = False) -> bool:
        """Write the verdicts this read used (``keep_known``: and those the file held), when one of them
        was worked out; True when written. May raise OSError."""
        if not self.worked_out:
            return False
        from lazy_harness.atomic import atomic_write

        kept = self.known if keep_known else self.used
        rules = self.rules or trust.rules_stamp()
        # why not durable: a cache of what the check answers for each exact text, under the stamp written
        # beside them; a power loss that leaves the file old or empty costs the check on those texts again
        # (after a sync pull, 0.8 ms of the start was this file's two fsyncs)
        atomic_write(self.path, jsonload.dumps({"rules": rules, "sources": trust.rules_signature() if rules else "",
                                                "verdicts": kept}), durable=False)
        self.worked_out = 0
        return True


def kept_verdicts(memory_dir: str, env: Env | None) -> Kept:
    """The kept verdicts of the project whose memory is ``memory_dir``, with those of what a sync round
    brought in (``held_written.arrived_verdicts``) for the texts it does not know."""
    return Kept(paths.hold_verdicts_file(os.path.basename(memory_dir), env), arrived_verdicts_file(env))


def arrived_verdicts_file(env: Env | None = None) -> str:
    """Where the verdicts of what sync rounds brought in are kept (``held_written.arrived_verdicts``; a
    start reads the file only on a text it does not know)."""
    return os.path.join(os.path.dirname(paths.hold_verdicts_file("-", env)), "arrived", "verdicts.json")


def listing_verdicts(memory_dir: str, env: Env | None = None) -> Kept:
    """The verdicts the views that read every entry keep (``held_review.States``: ``lh memory held``,
    ``show``, ``lh status``, the page; the render of handoff.md's held marks), in
    ``listing/<memory key>.json`` beside SessionStart's file. why a file of their own: SessionStart keeps
    only the verdicts of what it read (the newest entries), and loading every entry's verdict would cost
    each start; sharing one file, each would throw the other's verdicts away at every write."""
    key = os.path.basename(memory_dir)
    return Kept(os.path.join(os.path.dirname(paths.hold_verdicts_file(key, env)), "listing", f"{key}.json"))
