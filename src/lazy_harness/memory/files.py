"""Where a project's memory lives on disk and cheap ways to read its newest part.

    <memory dir>/decisions.jsonl   one JSON object per line, newest last
    <memory dir>/failures.jsonl    one JSON object per line, newest last
    <memory dir>/handoff.md        open items of the last session that had any
    <knowledge>/learnings/YYYY-MM/YYYY-MM-DD-<slug>.md   one learning per file

Readers take tails: a JSONL file is read backwards in blocks until enough whole lines are found,
and learnings are listed newest month first, so the cost does not grow with history.
Only ``os`` and ``json`` at import time: the SessionStart hook uses this module.
"""

import json
import os

DECISIONS = "decisions.jsonl"
FAILURES = "failures.jsonl"
HANDOFF = "handoff.md"
HANDOFF_MARK = "<!-- lazy-harness handoff"


def tail_lines(path: str, n: int, block: int = 65536) -> list[str]:
    """The last ``n`` complete, non-empty lines of ``path`` (oldest first); [] when missing.

    A torn last line (no newline at the end) is left out: it is a write still in flight.
    """
    if n <= 0:
        return []
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return []
    try:
        size = os.fstat(fd).st_size
        pos, buf = size, b""
        while pos > 0:
            step = min(block, pos)
            pos -= step
            buf = os.pread(fd, step, pos) + buf
            if buf.count(b"\n") > n:
                break
    finally:
        os.close(fd)
    if not buf.endswith(b"\n"):
        cut = buf.rfind(b"\n")
        buf = buf[: cut + 1] if cut >= 0 else b""
    lines = [ln for ln in buf.split(b"\n") if ln.strip()]
    if pos > 0 and lines:
        lines = lines[1:]  # the first piece may be the end of a longer line
    return [ln.decode("utf-8", "replace") for ln in lines[-n:]]


def tail_records(path: str, n: int) -> list[dict]:
    """The last ``n`` JSON objects of a JSONL file, oldest first; bad lines are skipped."""
    out = []
    for line in tail_lines(path, n * 2 + 4):
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict):
            out.append(rec)
    return out[-n:] if n > 0 else []


def recent_learning_files(learnings_dir: str, n: int) -> list[str]:
    """Paths of the ``n`` newest learning files (by the date in their name), newest first."""
    out: list[str] = []
    try:
        months = sorted((m for m in os.listdir(learnings_dir) if len(m) == 7 and m[4] == "-"), reverse=True)
    except OSError:
        return out
    for month in months:
        folder = os.path.join(learnings_dir, month)
        try:
            names = sorted((f for f in os.listdir(folder) if f.endswith(".md")), reverse=True)
        except OSError:
            continue
        for name in names:
            out.append(os.path.join(folder, name))
            if len(out) >= n:
                return out
    return out


def read_frontmatter_title(path: str, limit: int = 4096) -> str | None:
    """The ``title:`` of a learning file without a YAML parser (the worker writes it as JSON-style
    quoted scalar or plain text on one line)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            head = fh.read(limit)
    except OSError:
        return None
    if not head.startswith("---"):
        return None
    for line in head.split("\n")[1:]:
        if line.startswith("---"):
            break
        if line.startswith("title:"):
            value = line[len("title:"):].strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                if value[0] == '"':
                    try:
                        return json.loads(value)
                    except ValueError:
                        return value[1:-1]
                return value[1:-1].replace("''", "'")
            return value
    return None
