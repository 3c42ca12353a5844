"""What ``python -m lazy_harness.sync`` runs: the merge drivers git calls (``merge-lines`` for
``*.jsonl``, ``merge-learning`` for ``*.md``, registered by :func:`~lazy_harness.sync.repo.ensure_repo`
as ``<python> -m lazy_harness.sync merge-lines %O %A %B``) and the pull SessionStart spawns
(``pull``). Users' git config holds those commands, so their arguments and exit codes are an interface."""

from __future__ import annotations

import json
import os
import sys

from lazy_harness import logfile
from lazy_harness.errors import LhError
from lazy_harness.sync.rounds import run


def _line_key(line: bytes) -> bytes:
    """Identity of a JSONL line: an entry's id (derived for old lines), else the line itself."""
    try:
        rec = json.loads(line)
    except ValueError:
        return line.strip()
    if isinstance(rec, dict) and "op" not in rec and isinstance(rec.get("summary"), str) and rec.get("type") in (
            "decision", "failure"):
        from lazy_harness.memory import ids

        return ids.of_record(rec).encode()
    return line.strip()


def merge_lines(base: bytes, ours: bytes, theirs: bytes) -> bytes:
    """Ours in order, then theirs not in ours; a line that one side removed since the base stays out."""
    def lines(data: bytes) -> list[bytes]:
        return [ln for ln in data.split(b"\n") if ln.strip()]

    base_keys = {_line_key(ln) for ln in lines(base)}
    our_lines, their_lines = lines(ours), lines(theirs)
    our_keys = {_line_key(ln) for ln in our_lines}
    their_keys = {_line_key(ln) for ln in their_lines}
    removed = {k for k in base_keys if k not in our_keys or k not in their_keys}
    out, seen = [], set()
    for ln in our_lines + their_lines:
        k = _line_key(ln)
        if k in seen or k in removed:
            continue
        seen.add(k)
        out.append(ln)
    return b"".join(ln + b"\n" for ln in out)


def _status_of(text: bytes) -> str:
    for line in text.split(b"\n")[1:40]:
        if line.startswith(b"status:"):
            return line.split(b":", 1)[1].strip().decode("utf-8", "replace")
        if line.startswith(b"---"):
            break
    return "active"


def merge_learning(base: bytes, ours: bytes, theirs: bytes) -> bytes:
    """A learning both sides hold: the side that changed it since the base, the one whose status
    moved on when both did, else ours (a learning is write-once; the same title is the same one)."""
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    if _status_of(ours) == "active" and _status_of(theirs) != "active":
        return theirs
    return ours


def _pull() -> int:
    """``python -m lazy_harness.sync pull`` (spawned by SessionStart): fetch and merge, no push.
    Prints one status line on stdout (the hook may be waiting on it); the reason goes to worker.log."""
    from lazy_harness import config

    try:
        cfg = config.load(os.environ)
        result = run(cfg, os.environ, wait=False, push=False)
        message = f"pulled: {result['merged']} file(s) merged"
    except LhError as exc:
        message = f"pull failed: {exc.message}"
    logfile.write(logfile.WORKER, f"sync {os.getpid()}: {message}")
    try:
        sys.stdout.write(message + "\n")
        sys.stdout.flush()
    except OSError:
        pass  # why: the hook stopped waiting and closed the pipe; the pull itself is done
    return 0


def _driver(argv: list[str]) -> int:
    if argv[:1] == ["pull"]:
        return _pull()
    if len(argv) != 4 or argv[0] not in ("merge-lines", "merge-learning"):
        sys.stderr.write("usage: python -m lazy_harness.sync merge-lines|merge-learning BASE OURS THEIRS\n")
        return 2
    parts = []
    for path in argv[1:]:
        try:
            with open(path, "rb") as fh:
                parts.append(fh.read())
        except OSError:
            parts.append(b"")
    merged = (merge_lines if argv[0] == "merge-lines" else merge_learning)(*parts)
    with open(argv[2], "wb") as fh:
        fh.write(merged)
    return 0
