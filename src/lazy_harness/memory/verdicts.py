"""The hold check's verdicts (memory/trust.py) kept per text, so a reader checks a text once, not at
every start.

SessionStart screens every open item, the newest failures and decisions and the learnings it ranks
(``held.Screen``). Most of those texts are the same from one start to the next, and a memory's
ordinary words (run, get, user, system, env) send many of them past the check's cheap look into the
regular expressions, whose compilation alone costs tens of milliseconds. So the verdicts are kept:

    <cache dir>/verdicts/<memory key>.json   {"rules": <trust.rules_stamp()>, "verdicts": {<text digest>: reason}}

keyed by a 16-byte digest of the exact text (an edited text is a new key) and stamped with the check's own
file (an upgrade or an edit of the rules works every verdict out again). Only the verdicts used by the last read
are written back, so the file stays as small as what one start reads; it is rewritten only when a
verdict was worked out. A missing, damaged or foreign file is read as empty: a cache, never memory.

Hot path: only ``os`` and our hot-path modules at import time.
"""

import os

from lazy_harness import jsonload, paths
from lazy_harness.memory import ids, trust


class Kept:
    """The verdicts of one file: :meth:`reason` answers from it or asks the check, :meth:`save` writes
    back what this read used when anything was worked out."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.known: dict[str, str] = {}
        self.used: dict[str, str] = {}
        self.worked_out = 0
        try:
            with open(path, "rb") as fh:
                data = jsonload.loads(fh.read())
        except (OSError, ValueError):
            return
        rules = trust.rules_stamp()
        if isinstance(data, dict) and isinstance(data.get("verdicts"), dict) and rules and data.get("rules") == rules:
            self.known = {k: v for k, v in data["verdicts"].items() if isinstance(v, str)}

    def reason(self, text: str) -> str | None:
        """``trust.reason(text)``, kept."""
        key = ids.text_digest(text)
        why = self.known.get(key)
        if why is None:
            why = trust.reason(text) or ""
            self.known[key] = why
            self.worked_out += 1
        self.used[key] = why
        return why or None

    def save(self) -> bool:
        """Write the verdicts this read used, when one of them was worked out; True when written.
        May raise OSError."""
        if not self.worked_out:
            return False
        from lazy_harness.atomic import atomic_write

        atomic_write(self.path, jsonload.dumps({"rules": trust.rules_stamp(), "verdicts": self.used}))
        self.worked_out = 0
        return True


def for_memory(memory_dir: str, env) -> Kept:
    """The kept verdicts of the project whose memory is ``memory_dir``."""
    return Kept(paths.hold_verdicts_file(os.path.basename(memory_dir), env))
