"""The entries whose text the hold check does not read for its length (``trust.LONGEST``, ADR 0088):
what ``lh memory check`` names, one line each, and ``lh doctor`` warns of.

    <decisions.jsonl>:7: decision d-1a2b3c4d is too long to check (307,222 characters, over the 16,000
        the check reads): it is held from every session until approved (lh memory approve d-1a2b3c4d),
        or keep a long document in a file and name the file in the entry, or shorten it
    <handoff.md>: open item h-...        <learning file>: learning l-...

Each text is the one the hold check reads, measured as it measures it (:func:`held_length`): a decision's
or failure's fields joined (``trust.text_of``, SessionStart's ``held.Screen``), an open item's text, a
learning's title, file body, tags and cues (``approval.learning_text``: what ``lh memory held``, ``show``
and a sync's merge check read of it). Not named: an entry no session sees anyway (forgotten, superseded,
merged, deprecated; a learning without frontmatter, which ``check`` names as damaged), and one the person
approved (``held.Approvals``, ``state.of_learning``: their MAC of its text as it is now).

Cheap on a memory of any size: a line or learning file of :data:`SHORTEST` bytes or fewer is never read
again (each byte of it becomes at most 18 characters as the check reads it); a longer one has its text
joined and measured as typed, then, only when folding could take it past the limit, folded as the check
folds it (:func:`held_length`). The rules are never run.

Not the hot path: ``lh memory check`` and ``lh doctor`` only.
"""

from __future__ import annotations

import os

from lazy_harness.memory import files, ids, lines, marks, state, trust

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env

# why: NFKC makes one character as many as 18 letters (U+FDFA, 3 bytes), and a number's digits, a list's
# quotes and commas are fewer a byte: a line or file of this many bytes or fewer cannot be over the limit
# however the check reads it, and is not parsed again
MOST_PER_BYTE = 18
SHORTEST = trust.LONGEST // MOST_PER_BYTE
MOST_PER_FOLD = 3  # why: Unicode's full case folding makes one code point three at most
ENDED = (state.FORGOTTEN, state.SUPERSEDED, state.MERGED, state.DEPRECATED, state.DAMAGED)


def held_length(text: str) -> int | None:
    """The length ``trust.hostile`` holds ``text`` unread for (its ``trust.too_long``), None when it reads
    it: over ``trust.LONGEST`` characters as typed, or, when the cheap look (``trust.may_match``) sends it
    to the rules, the longest of its forms (``trust.forms``: NFKC makes some characters many letters).
    why the forms only when they may be long: ASCII never grows when folded, and no form is longer than
    the text decomposed (NFKD: what NFKC composes from, and the check only drops, maps one for one or joins
    after it) with each code point case-folded (three at most); only a text that may pass the limit so is
    folded (about a millisecond for 16,000 characters), and no rule is run."""
    if not text.strip():
        return None  # why: hostile reads no blank text, however long
    if len(text) > trust.LONGEST:
        return len(text)
    if text.isascii():
        return None
    import unicodedata

    if MOST_PER_FOLD * len(unicodedata.normalize("NFKD", text)) <= trust.LONGEST or not trust.may_match(text):
        return None
    longest = max(map(len, trust.forms(text)))
    return longest if longest > trust.LONGEST else None


def said(where: str, kind: str, eid: str, length: int, held_now: bool = True) -> str:
    """The line naming one entry too long to check, in ``trust.too_long``'s words. ``held_now``: sessions
    are shown none of it (a decision, failure or open item; a learning whose status is held); else a
    learning, which SessionStart reads by its title and the start of its text, and which ``lh memory
    held`` lists as held and a sync's merge check holds."""
    unread, _, advice = trust.too_long(length).partition("): ")
    held_where = ("it is held from every session until approved" if held_now else
                  "sessions here see its title and start, lh memory held lists it as held and a sync holds it "
                  "where it arrives, until approved")
    what = "open item" if kind == "handoff" else kind
    return f"{where}: {what} {eid} is {unread}): {held_where} (lh memory approve {eid}), or {advice}"


def in_folder(memory_dir: str, env: Env | None = None) -> list[str]:
    """:func:`said` of each decision, failure (by file and line) and open item of ``memory_dir`` whose text
    the hold check does not read for its length, but those ended and those the person approved."""
    found: list[tuple[str, str, str, str, int]] = []  # (where, kind, id, text, length)
    for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
        path = os.path.join(memory_dir, name)
        for number, rec in _long_entries(path):
            text = trust.text_of(rec, kind)
            length = held_length(text)
            if length is not None:
                found.append((f"{path}:{number}", kind, ids.of_record(rec, kind), text, length))
    found += _long_items(memory_dir)
    if not found:
        return []
    from lazy_harness.memory import held

    named = marks.by_id(memory_dir, marks.OPS)
    # why held.approved: the approvals of before this version adopted as every view adopts them
    approved = held.approved(memory_dir, [m for ms in named.values() for m in ms], env)
    return [said(where, kind, eid, length) for where, kind, eid, text, length in found
            if state.of_marks(named.get(eid))[0] not in ENDED and not approved.ok(kind, eid, text)]


def _long_entries(path: str) -> list[tuple[int, dict]]:
    """(line number, entry) of each decision or failure of ``path`` on a line over :data:`SHORTEST`
    bytes, read as every reader reads a line (``lines.records_of``, salvaged when it can be). A line
    that is no entry (``lines.is_entry``) is ``lh memory check``'s damage, not named here."""
    try:  # why read_regular: a FIFO in the file's place must not hold the check; check names it
        data = lines.read_regular(path)
    except OSError:
        return []
    out = []
    for number, raw in enumerate(data.removeprefix(files.BOM).split(b"\n"), 1):
        if len(raw) > SHORTEST:
            recs, _ = lines.records_of(raw, lines.entry_fields)
            out += [(number, rec) for rec in recs if lines.is_entry(rec)]
    return out


def _long_items(memory_dir: str) -> list[tuple[str, str, str, str, int]]:
    """The open items of ``memory_dir`` too long to check, as :func:`in_folder` collects them, named by
    handoff.md (where the person edits them, as ``lh memory held`` names them)."""
    from lazy_harness.memory import handoff

    if not os.path.isfile(os.path.join(memory_dir, files.HANDOFF_STATE)) and not os.path.isfile(
            os.path.join(memory_dir, files.HANDOFF)):
        return []
    out = []
    try:
        items = handoff.open_for_reading(memory_dir)
    except OSError:  # why: a folder or file this user cannot read; check names it
        return []
    for item in items:
        text = str(item.get("text") or "")
        length = held_length(text)
        if length is not None:
            out.append((os.path.join(memory_dir, files.HANDOFF), "handoff", item["id"], text, length))
    return out


def in_learnings(learnings_dir: str, env: Env | None = None) -> list[str]:
    """:func:`said` of each learning file of ``learnings_dir`` whose text the hold check does not read for
    its length (its title, body, tags and cues: ``approval.learning_text``), by path and id, but those
    ended and those the person approved (``state.of_learning``)."""
    from lazy_harness.memory.approval import learning_text

    out = []
    for path in files.recent_learning_files(learnings_dir, 10**9):
        try:
            if os.stat(path).st_size <= SHORTEST:
                continue
        except OSError:
            continue  # why: gone, or not to be read: check names it as damaged
        meta, text = learning_text(path)
        length = held_length(text) if meta else None
        if length is None:
            continue
        now = state.of_learning({**meta, "path": path}, state.ASK, text, env)[0]
        if now not in ENDED and now != state.APPROVED:
            out.append(said(path, "learning", ids.of_learning(meta, path=path), length, now == state.HELD))
    return out


def found(memory_dirs: list[str], learnings_dir: str, env: Env | None = None) -> list[str]:
    """:func:`in_folder` of each memory folder, then :func:`in_learnings`."""
    return [line for mdir in memory_dirs for line in in_folder(mdir, env)] + in_learnings(learnings_dir, env)
