"""The memory files as searchable entries: decisions.jsonl and failures.jsonl (one entry a line, ``"op"``
lines are markers that hide the ids they name), marks.jsonl (markers only), the handoff items and the
learnings. The writer's side: only ``os`` and our hot-path modules at import time."""

import os

from lazy_harness import jsonload
from lazy_harness.memory import files, frontmatter, ids, lines, provenance
from lazy_harness.memory.sanitize import normalise

# why re-exported: which line of an id stands is the store's rule (ADR 0059); apply.py reads it here
from lazy_harness.memory.standing import (BROUGHT as BROUGHT, KEPT as KEPT, OWN as OWN, claim_of as claim_of,
                                          standing as standing)
from lazy_harness.recall.index.terms import split_identifiers

HIDING_OPS = ("supersede", "forget", "merge", "hold")  # an "approve" line hides nothing
MAX_FIELD = 4000  # characters of one field kept for searching


def text_of(value: object) -> str:
    """Any record field as plain text (lists joined), cut to ``MAX_FIELD``."""
    if isinstance(value, (list, tuple)):
        return " ".join(map(text_of, value))[:MAX_FIELD]
    return "" if value is None else str(value)[:MAX_FIELD]


def cues_of(value: object) -> str:
    """The entry's cues one a line: the embedder compares the prompt with each (ADR 0020)."""
    items = value if isinstance(value, (list, tuple)) else [value]
    cues = [" ".join(text_of(c).split()) for c in items if c is not None]
    return "\n".join(c for c in cues if c)[:MAX_FIELD]


def tags_of(rec: dict, *texts: str) -> str:
    """The tags column: the tags, the cues, the words of the camelCase identifiers of ``texts``."""
    tags, cues = text_of(rec.get("tags")), text_of(rec.get("cues"))
    extra = split_identifiers(" ".join(texts))
    tags = f"{tags} {cues}" if cues else tags
    return f"{tags} {extra}" if extra else tags


def hidden_ids(rec: dict) -> list[str]:
    """The ids a marker line hides (a superseded, forgotten or merged-away entry)."""
    op = rec.get("op")
    if op not in HIDING_OPS:
        return []
    named = rec.get("drop", rec.get("id")) if op == "merge" else rec.get("id")
    named = named if isinstance(named, list) else [named]
    return [n for n in named if ids.is_id(n)]


def record_entry(rec: dict, kind: str, path: str, line: int) -> dict:
    """A decision or failure line as an entry."""
    if kind == "failure":
        body = (rec.get("root_cause"), rec.get("resolution"), rec.get("prevention"))
        detail = rec.get("prevention") or rec.get("resolution") or ""
    else:
        body = (rec.get("context"), rec.get("rationale"), rec.get("alternatives"))
        detail = rec.get("rationale") or ""
    title, body_text = text_of(rec.get("summary")), " ".join(text_of(b) for b in body)
    eid = ids.of_record(rec, kind)
    return {"id": eid, "kind": kind, "origin": text_of(rec.get("project")), "claim": claim_of(rec, kind, eid),
            "twin": "", "okey": provenance.key_of(rec), "prov": provenance.describe(rec, kind),
            "sess": text_of(rec.get("session_id")).strip(),
            "scope": "", "file": path, "line": line, "ts": text_of(rec.get("ts"))[:40],
            "title": title, "body": body_text, "tags": tags_of(rec, title, body_text),
            "detail": text_of(detail), "uncued": not text_of(rec.get("cues")).strip(), "cues": cues_of(rec.get("cues"))}


def _read_part(path: str, kind: str, offset: int, size: int | None) -> bytes | None:
    """The bytes of ``path`` from ``offset`` up to ``size``; None when it is missing or not a file. why
    marks raise: they hide what was forgotten, and without them nothing may be read as shown."""
    try:  # why lines.read_regular: a FIFO in an entry file's place held the worker in open() for good
        return lines.read_regular(path, -1 if size is None else max(0, size - offset), offset)
    except FileNotFoundError:
        return None
    except (IsADirectoryError, NotADirectoryError, lines.NotRegularFile):
        if kind == "mark":
            raise
        return None


def read_jsonl(path: str, kind: str, offset: int = 0, line: int = 0, size: int | None = None,
               max_lines: int | None = None) -> tuple[list[dict], list[str], int, int]:
    """(entries, hidden ids, new offset, new line count) of the whole lines of ``path`` from byte
    ``offset`` (after line ``line``) up to byte ``size``, at most ``max_lines``. A last line saved without
    its newline is read, and (0, 0) returned: the whole file is read again once it changes."""
    data = _read_part(path, kind, offset, size)
    if data is None:
        return [], [], 0, 0
    rows = data.split(b"\n", -1 if max_lines is None else max_lines)
    rest = rows.pop()  # the last line, not ended yet, or the lines past ``max_lines`` (read next time)
    end = len(data) - len(rest)
    unended = b"\n" not in rest and files.whole_object(rest)
    if unended:
        rows.append(rest)
    found: list[tuple[dict, bool]] = []
    at: dict[int, int] = {}  # id() of a record -> its line
    hidden: list[str] = []
    for raw in rows:
        line += 1
        if not raw.strip():
            continue
        try:
            recs, salvaged = [jsonload.loads(raw)], False
        except (ValueError, RecursionError):
            # why: a damaged line is salvaged as read-back and lh memory show salvage it
            recs = lines.records_of(raw, lines.entry_fields)[0]
            salvaged = True
            lines.note(path)
        for rec in [r for r in recs if isinstance(r, dict)]:
            if "op" in rec:
                hidden += hidden_ids(rec)
            elif lines.not_an_entry(rec) is None:
                found.append((rec, salvaged))
                at[id(rec)] = line
    # why: a torn line and the whole entry its retry wrote are one entry (lines.without_salvaged_twins)
    entries = [record_entry(rec, kind, path, at[id(rec)]) for rec in lines.without_salvaged_twins(found)]
    if unended:
        # why from byte 0: only then are a file's entries dropped; another offset would index this line
        # twice, or count the newline the next append starts with (``entries.heal_tail``)
        return entries, hidden, 0, 0
    return entries, hidden, offset + end, line


def _handoff_entry(item: dict, path: str, status: str) -> dict:
    text, by = text_of(item.get("text")), text_of(item.get("opened_by"))
    agent = provenance.agent_word({"agent": text_of(item.get("opened_agent"))})
    shown = provenance.name_shown(by, "session")[:8]  # why: an opener's id is shown only as an id (ADR 0033)
    prov = "by hand" if by in ("hand-edit", "by hand") else f"{agent}session {shown}" if by else "unknown"
    prov = provenance.item_described(item, prov)  # why: its opener is text the remote may write
    return {"id": item["id"], "kind": "handoff", "origin": "", "scope": "", "file": path, "line": 0,
            "prov": prov, "sess": by.strip(), "ts": text_of(item.get("opened"))[:40], "title": text,
            "body": "", "tags": tags_of({}, text), "detail": "", "cues": "", "status": status}


def read_handoff(memory_dir: str) -> tuple[str, list[dict]]:
    """(the file a person reads, the items as entries): the open ones, then the forgotten ones (hidden)."""
    from lazy_harness.memory import handoff

    path = os.path.join(memory_dir, files.HANDOFF)
    state, _ = handoff.load(memory_dir)
    log = os.path.join(memory_dir, handoff.STATE)
    found = [_handoff_entry(item, path, "active") for item in handoff.open_items(state)]
    found += [_handoff_entry(item, log, "forgotten") for item in handoff.forgotten_items(state)]
    return path, [e for e in found if e["title"].strip()]


def read_learning(path: str) -> dict | None:
    """A learning file as an entry with its ``"status"``; None when unreadable or empty (``state.EMPTY``)."""
    from lazy_harness.memory import state

    try:  # why open_regular: a FIFO in a learning's place held the writer (and the index's lock) for good
        with open(lines.open_regular(path)[0], encoding="utf-8", errors="replace") as fh:
            text = fh.read(256 * 1024)
    except OSError:
        return None
    damage: list[tuple[int, str]] = []
    meta, body = frontmatter.parse_frontmatter(text, damage) or ({}, text)
    # why none for an empty file without frontmatter: its name's words alone made it a candidate the
    # prompt hook injected, where no session start shows it
    if not meta and state.no_frontmatter({"path": path}) == state.EMPTY:
        return None
    active = frontmatter.is_active(meta)
    title = title_of(meta, path)
    _, heading, learning = body.partition("## Learning")
    learning = learning.split("\n## ", 1)[0] if heading else body
    # why KEPT and the title as the twin: files of one id and title are one learning (``learnings.once``)
    return {"id": ids.of_learning(meta, title), "kind": "learning", "claim": KEPT,
            "twin": normalise(text_of(meta.get("title"))),
            "origin": text_of(meta.get("origin")), "okey": provenance.key_of(meta),
            "prov": provenance.describe({**meta, "path": path}, "learning", session_key="origin_session",
                                        project_field="origin"),
            "sess": text_of(meta.get("origin_session")).strip(),
            "scope": text_of(meta.get("scope")).strip().lower(), "file": path, "line": 0,
            "ts": _time_of(meta, path), "title": title, "body": text_of(body.replace("#", " ")),
            "tags": tags_of(meta, title, body), "detail": " ".join(learning.split())[:MAX_FIELD],
            "uncued": not text_of(meta.get("cues")).strip(), "cues": cues_of(meta.get("cues")),
            # why damaged: a quote left open swallowed its origin and status; no session may be given it
            "status": state.DAMAGED if damage else "active" if active
            else (text_of(meta.get("status")) or "deprecated")}


def title_of(meta: dict, path: str) -> str:
    """A learning's title as every listing prints it (``lh memory search`` from the index, ``show``): a
    YAML list's items joined (``title: [a, b]`` is "a b", not Python's ``['a', 'b']``); none, its file
    name's (``ids.title_of_file``)."""
    return text_of(meta.get("title")) or ids.title_of_file(path)


def _time_of(meta: dict, path: str) -> str:
    """A learning's time: its ``created``, else (none, or no time: a learning written by hand) its file
    name's day, by which ``lh memory show`` and the session start date it too (``learnings.day_of``).
    why: kept as its empty ``created``, search listed as ``undated`` what show dated by its file name."""
    from lazy_harness.memory.fence import date_of

    created = text_of(meta.get("created"))[:40]
    return created if date_of(created) else (date_of(os.path.basename(path)) or created)


def file_stamps(folder: str) -> dict[str, str]:
    """Each learning file of a month folder with its ``size:mtime_ns``."""
    try:
        with os.scandir(folder) as it:
            learnings = [e for e in it if files.is_learning_name(e.name)]
    except OSError:
        return {}
    found = {}
    for e in learnings:
        try:
            st = e.stat()
        except OSError:
            continue
        found[e.path] = f"{st.st_size}:{st.st_mtime_ns}"
    return found


def check(path: str, offset: int) -> str:
    """A digest of the file's first ``offset`` bytes: reading on from ``offset`` only while it matches, an
    edit before it is read again (8.5 MB hashed in 15 ms, by the writer, never a hook)."""
    import hashlib

    digest = hashlib.blake2b(digest_size=16)
    try:  # why open_regular: a FIFO in the file's place held the writer (and the index's lock) for good
        with open(lines.open_regular(path)[0], "rb") as fh:
            left = offset
            while left > 0 and (chunk := fh.read(min(left, 1 << 20))):
                digest.update(chunk)
                left -= len(chunk)
    except OSError:
        return ""
    return digest.hexdigest()
