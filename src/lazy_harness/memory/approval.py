"""Approvals this person made: a key of theirs kept outside every synced folder, and a MAC with every
approval (ADR 0052). The key and the MAC are memory/approval_key.py's (which reads no memory); this
module reads the approvals in memory, adopts them at the first read, and checks a learning's.

    <config folder>/approval.key          32 random bytes, mode 0600, made on first need; beside config.toml
                                          (``$XDG_CONFIG_HOME/lazy-harness``, also when ``$LH_CONFIG``
                                          names a config file elsewhere: a dotfiles folder may be synced)
    <state folder>/approvals-adopted.json {"version": 1, "at": ts, "macs": [...]}: the approvals present
                                          when this version first read approvals on this machine

An approval is an ``approve`` mark (marks.jsonl) with ``"mac"``, or a learning whose
``deprecated_reason`` is ``approved by hand; signed <mac>``. The MAC is HMAC-SHA256 under the key of

    "lazy-harness approval 1" NUL <kind> NUL <id> NUL <16-byte digest of the text the hold check reads>

so an approval counts only for the text it was given to; any other text under the same id (an edit, a
synced copy) is not approved. An approval counts when its MAC is the one this key gives for the entry
as it is now, or when that MAC is among the adopted ones: at the first read of approvals by this
version, every approval then present was taken as the person's own (:func:`adopt_once`), and the
adopted file, never synced, records it; approvals arriving later through sync are not adopted.

A key file that is a link, not the user's own, or open to group or others is refused with one line
(:class:`KeyRefused`); readers then honour no approval. Copying the key to another machine of the
person's makes their approvals count there too.

Hot path: ``os``, our hot-path modules, and at call time the interpreter's own SHA-256 module (as
queue/turn.py: ``hashlib`` and ``hmac`` load OpenSSL, 6 to 8 ms on a hook's start). Only an entry that
claims an approval is verified: one HMAC (two SHA-256 of under 200 bytes) and, for a learning, one read
of its file.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload, paths
from lazy_harness.errors import LhError
from lazy_harness.memory import ids, lines
from lazy_harness.memory.approval_key import adopted, adopted_data, adopted_file, counts, mac, read_key

TYPE_CHECKING = False  # why: not typing's: the hooks load this module (house style section 3)
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

SIGNED = "; signed "  # a learning's deprecated_reason: "approved by hand; signed <mac>"


def learning_mac(reason: str) -> str:
    """The MAC in a learning's ``deprecated_reason`` (``approved by hand; signed <mac>``), '' without."""
    at = reason.rfind(SIGNED)
    return reason[at + len(SIGNED):].strip() if at >= 0 else ""


def adopt_once(memory_roots: Iterable[str] = (), learnings_dirs: Iterable[str] = (),
               env: Mapping[str, str] | None = None, now: float | None = None,
               known: Mapping[str, list[dict]] | None = None, unless: Iterable[str] = ()) -> None:
    """At the first read of approvals by this version on this machine, take every approval then
    present in each of these folders (a root of the memory folders, a learnings folder) as the
    person's; a folder done once is never looked at again (one ``stat`` of the adopted file). With a key
    here before the first adoption (copied from another machine of the person's), nothing is adopted:
    approvals made with it carry their MAC. ``known``: the marks of memory folders already read;
    ``unless``: memory folders and learning files a sync just merged, whose approvals may be another
    machine's and are not adopted. Never raises: what fails is tried at the next read.

    why under a lock, the file read again inside it: two first reads at once (two sessions started
    together, or parallel prompts) each read no adopted file; the one that adopted made the key, the
    other then took that key for one copied here before, adopted nothing, and its write landed last:
    every approval made before the upgrade was held from then on."""
    memory_roots, learnings_dirs = tuple(memory_roots), tuple(learnings_dirs)
    roots = adopted_data(env).get("roots", {})
    if not any(_todo(roots, memory_roots, learnings_dirs)):
        return
    import time

    from lazy_harness.atomic import atomic_write, ensure_dir

    try:
        ensure_dir(paths.state_dir(env))
        fd = _adoption_lock(adopted_file(env) + ".lock")
    except OSError:
        return
    if fd is None:
        return
    try:
        data = adopted_data(env)
        roots = data.get("roots", {})
        todo_m, todo_l = _todo(roots, memory_roots, learnings_dirs)
        if not todo_m and not todo_l:
            return
        key_was_here = bool(data.get("key_was_here")) if data else read_key(env) is not None
        macs = set(adopted(env))
        found = [] if key_was_here else present_approvals(todo_m, todo_l, known, frozenset(unless))
        if found:  # why: a key is made only for approvals to sign; a reader with none to adopt makes nothing
            key = read_key(env, create=True)
            assert key is not None
            macs |= {mac(key, kind, eid, text) for kind, eid, text in found}
        stamp = time.time() if now is None else now
        out = {"version": 1, "key_was_here": key_was_here, "roots": {**roots, **{r: stamp for r in todo_m + todo_l}},
               "macs": sorted(macs)}
        atomic_write(adopted_file(env), jsonload.dumps(out))
    except (OSError, LhError):
        return
    finally:
        os.close(fd)


def _todo(roots: Mapping[str, object], memory_roots: Iterable[str],
          learnings_dirs: Iterable[str]) -> tuple[list[str], list[str]]:
    """The memory roots and learnings folders not adopted yet."""
    return ([r for r in dict.fromkeys(memory_roots) if r and r not in roots],
            [r for r in dict.fromkeys(learnings_dirs) if r and r not in roots])


# seconds a reader waits for another one's adoption (0.4 s measured for 20,000 entries): well within
# SessionStart's timeout of 10 s, past which the session would start with no memory at all
ADOPT_WAIT = 3.0


def _adoption_lock(path: str) -> int | None:
    """The adoption's lock, waited for up to ADOPT_WAIT (another reader adopting scans the folders once);
    None when it was not had: this read goes on without adopting, the next one tries again."""
    import time

    from lazy_harness.atomic import try_lock

    deadline = time.monotonic() + ADOPT_WAIT
    while True:
        fd = try_lock(path)
        if fd is not None or time.monotonic() >= deadline:
            return fd
        time.sleep(0.005)


def check_text(meta: dict, body: object) -> str:
    """The text the hold check reads of a learning: its title, ``body``, tags and cues."""
    return " ".join(str(x) for x in (meta.get("title"), body, meta.get("tags"), meta.get("cues")) if x)


def learning_parts(path: str) -> tuple[dict, str] | None:
    """(frontmatter, body) of a learning file, its first 256 KiB; None when unreadable."""
    from lazy_harness.memory import frontmatter

    try:  # why lines.open_regular: a FIFO in the file's place held the hold check in open() for good
        with open(lines.open_regular(path)[0], encoding="utf-8", errors="replace") as fh:
            return frontmatter.parse_frontmatter(fh.read(256 * 1024))
    except OSError:
        return None


def learning_text(path: str) -> tuple[dict, str]:
    """(frontmatter, the text the check reads) of a learning file; ({}, '') when unreadable."""
    parsed = learning_parts(path)
    if parsed is None:
        return {}, ""
    meta, body = parsed
    return meta, check_text(meta, body)


_LEARNINGS: dict[tuple, tuple[dict, str]] = {}


def learning_counts(reason: str, path: str | None, meta: dict | None = None, text: str | None = None,
                    env: Mapping[str, str] | None = None) -> bool:
    """Whether a learning's approval (``reason``: its ``deprecated_reason``) is this person's for its
    text as it is now: ``text`` with frontmatter ``meta`` when given, else read from ``path`` (kept per
    file while its size, mtime and inode hold). False without a file or a text to check."""
    if path:
        # why safe: a sync's hold check adopts its learnings folder, less what it merged, before it
        # reads through here (held_written.scan_learnings); so this adopts only at a first read elsewhere
        adopt_once((), (os.path.dirname(os.path.dirname(os.path.abspath(path))),), env)
    if text is None or meta is None:
        if not path:
            return False
        try:
            st = os.stat(path)
        except OSError:
            return False
        stamp = (path, st.st_ino, st.st_mtime_ns, st.st_size)
        if stamp not in _LEARNINGS:
            _LEARNINGS[stamp] = learning_text(path)
        meta, text = _LEARNINGS[stamp]
        if not meta:
            return False
    return counts("learning", ids.of_learning(meta, path=path), text, (learning_mac(reason),), env)


# --- the first read: approvals already present are the person's ---------------------------------------

def present_approvals(memory_roots: Iterable[str], learnings_dirs: Iterable[str],
                      known: Mapping[str, list[dict]] | None = None,
                      unless: frozenset[str] = frozenset()) -> list[tuple[str, str, str]]:
    """``(kind, id, text)`` of every approval in the memory folders under ``memory_roots`` and the
    learnings of ``learnings_dirs`` (``known``: the marks of folders already read, by folder), but
    those in the folders and files of ``unless``."""
    from lazy_harness.memory import files, marks

    out: list[tuple[str, str, str]] = []
    for root in memory_roots:
        try:
            names = sorted(os.listdir(root))
        except OSError:
            continue
        for mdir in (os.path.join(root, n) for n in names):
            if mdir in unless:
                continue
            recs = (known or {}).get(mdir)
            if recs is None:
                recs = marks.read(mdir) if os.path.isdir(mdir) else []
            claimed = {m["id"] for m in recs if m.get("op") == "approve"}
            for eid, texts in entry_texts(mdir, claimed).items():
                out += [(ids.kind_of(eid) or "", eid, t) for t in texts]
    for ldir in learnings_dirs:
        for path in files.recent_learning_files(ldir, 10**9):
            meta, text = learning_text(path) if path not in unless else ({}, "")
            if meta and str(meta.get("deprecated_reason") or "").startswith("approved by hand"):
                out.append(("learning", ids.of_learning(meta, path=path), text))
    return out


def entry_texts(memory_dir: str, wanted: set[str]) -> dict[str, list[str]]:
    """``{id: the texts the check reads of the decisions, failures and open items carrying it}`` for
    the ids of ``wanted`` (one read of each file); of a decision's or failure's, the one of the summary
    the id is the hash of first."""
    if not wanted:
        return {}
    from lazy_harness.memory import files, handoff, trust

    out: dict[str, list[str]] = {}
    for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
        if not any(ids.kind_of(w) == kind for w in wanted):
            continue
        for rec in files.read_entries(os.path.join(memory_dir, name)):
            if isinstance(rec, dict) and "op" not in rec and isinstance(rec.get("summary"), str):
                eid = ids.of_record(rec, kind)
                if eid in wanted:
                    texts = out.setdefault(eid, [])
                    # why first: the text the id is the hash of is the entry an approval by that id signs
                    # (held_review.approve), not another writer's line carrying it (ids.claimed, ADR 0059)
                    texts.insert(0 if ids.derives(eid, kind, ids.key_of(kind, rec["summary"])) else len(texts),
                                 trust.text_of(rec, kind))
    if any(ids.kind_of(w) == "handoff" for w in wanted):
        for item in handoff.open_for_reading(memory_dir):
            if item["id"] in wanted:
                out.setdefault(item["id"], []).append(str(item.get("text") or ""))
    return out
