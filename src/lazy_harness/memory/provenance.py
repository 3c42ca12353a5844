"""Where a memory entry came from: the session and project that wrote it, the machine and person it
was written on (so an entry that arrived through ``lh sync`` says from where), or "by hand".

Written with every entry, beside its other fields (a decision or failure line, a learning's
frontmatter):

    project_folder  the project's memory key, the name of its memory folder (paths.memory_key: its
                    origin remote, else its path key). why not ``project_key``: the redactor takes
                    a ``*_key: value`` line for a credential, and sync would refuse to push it
    via           "session" (distilled by the worker), "hand" (written by the person)
    machine       the host name the entry was written on
    author        the login name it was written by
    agent         the agent whose session the worker distilled it from: "claude" or "codex"; an entry
                  without it is Claude Code's (written before Codex sessions were read) or by hand
    text_digest   a digest of the entry's text when written (decisions and failures): an edit since
                  shows as "edited by hand"

Never rewritten: consolidation marks entries beside them, undo puts bytes back, sync's merge keeps
whole lines and whole learning files, migration moves files as they are. An entry written before
provenance existed has none and reads as ``unknown``; one without a session reads as ``by hand``.

These fields are what the entry says, not proof: anyone with the sync remote can write any of them,
this machine's host name too. What ``lh sync`` brought in is recorded on this machine as it arrives
(sync/arrivals.py, ``paths.synced_in_file``), and :func:`describe` labels it synced whatever its
``machine`` says (ADR 0032, "how a line arrived"). Nor are they checked as an entry's text is: it
shows each only in the shape its writer gives it, never a secret, nor what the hold check holds once
the name is read as words (:data:`_SHAPES`, :func:`as_words`, ADR 0033).
Hot path: only ``os`` at import time.
"""

from __future__ import annotations

import os

from lazy_harness.regular_file import read_regular

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    from lazy_harness.memory.shapes import Env, Record

FIELDS = ("project_folder", "via", "machine", "author", "text_digest", "agent")
SESSION, HAND = "session", "hand"
CLAUDE = "claude"
UNKNOWN = "unknown"


def here(env: Env | None = None) -> tuple[str, str]:
    """(machine, author) of this process: the host name and the login name."""
    e = os.environ if env is None else env
    try:
        machine = os.uname().nodename
    except (AttributeError, OSError):  # pragma: no cover - not on POSIX
        machine = ""
    return machine, str(e.get("USER") or e.get("LOGNAME") or e.get("USERNAME") or "")


def fields(meta: Record, env: Env | None = None) -> dict[str, str]:
    """The provenance fields for an entry written with ``meta`` (the worker's: project, session_id,
    project_folder; ``via`` defaults to session when there is a session, else hand). ``env``: the
    environment of the profile it is written for, whose login name is its author (None: this process's)."""
    from lazy_harness.memory.sanitize import one_line

    machine, author = here(env)
    via = one_line(meta.get("via")) or (SESSION if one_line(meta.get("session_id")) else HAND)
    out = {"project_folder": one_line(meta.get("project_folder")), "via": via,
           "machine": one_line(meta.get("machine") or machine), "author": one_line(meta.get("author") or author)}
    agent = one_line(meta.get("agent"))
    if agent and via == SESSION:
        out["agent"] = agent
    return out


def agent_of(rec: dict) -> str:
    """The agent an entry was distilled from: its ``agent`` field, else ``claude`` (older entries)."""
    value = rec.get("agent")
    return value.strip() if isinstance(value, str) and value.strip() else CLAUDE


def digest_of(rec: dict, kind: str) -> str:
    from lazy_harness.memory import trust

    return trust.digest(trust.text_of(rec, kind))


def _short(value: object, cap: int = 40) -> str:
    text = " ".join(str(value or "").split())
    return text if len(text) <= cap else text[:cap - 1] + "…"


# What each field is written with (:func:`fields`, the worker's meta): its characters, its longest
# length, what is shown in its place otherwise, and how much of it is shown. A host name, a login name
# (``ana@corp.example`` where the login is a domain's), a project folder's name, a session id (a UUID,
# of which 8 characters are shown), an agent's name. why no spaces, no punctuation beyond these and
# ASCII only (a project's or author's letters may be of any script: ``_ANY_SCRIPT``): these fields
# are shown beside an entry, while the hold check and the secret hold read its
# text alone; free text here would reach a session unchecked, and no host, login or session name has a
# space or a colon. why sets, not a regular expression: SessionStart never loads ``re``
# (tests/hooks/test_hot_path.py)
_ASCII = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_HOST = _ASCII | frozenset("-._")
_SHAPES = {"machine": (_HOST, 253, "", 40), "author": (_HOST | frozenset("@"), 64, "an unnamed author", 30),
           "project": (_HOST | frozenset("+"), 255, "an unnamed project", 40),
           "session": (_ASCII | frozenset("-_"), 128, "?", 8), "agent": (_HOST, 20, "an unnamed agent's", 20)}
_ANY_SCRIPT = ("project", "author")
# why kept: the index's writer describes every entry, and one memory names a few machines, authors and
# projects; each value's hold check is read once per process
_SHOWN: dict[tuple[str, str], str] = {}
# the hold check of a name read as words, kept between starts (:func:`keep_verdicts`); None: asked anew
_KEPT: list[Callable[[str], str | None]] = []


def keep_verdicts(reason: Callable[[str], str | None] | None) -> None:
    """Read the hold check of a name through ``reason`` (``verdicts.Kept.reason``: ``trust.reason``, its
    verdicts kept in a file between starts), or ask the rules each time (None). why: a name in letters
    outside ASCII sends the rules to their other languages (``re`` and their tables, about 60 ms), and
    names of several words load their cheap look (1.5 ms): at every start, unless kept."""
    _KEPT[:] = [reason] if reason else []
    _SHOWN.clear()  # why: a name shaped by the rules alone is shaped again through the kept verdicts


def name_shown(value: object, field: str) -> str:
    """``value`` of the provenance field ``field`` as shown: cut short when it is written the way its
    writer writes it (:data:`_SHAPES`) and the hold check finds no secret or order in it; the field's
    phrase for a value that is not (written by hand, or on a machine that wrote something else there);
    '' when there is none."""
    if not isinstance(value, str) or not value.strip():
        return ""
    shown = _SHOWN.get((field, value))
    if shown is None:
        if len(_SHOWN) >= 4096:
            _SHOWN.clear()
        shown = _SHOWN[field, value] = _shape(value.strip(), field)
    return shown


def _shape(text: str, field: str) -> str:
    chars, longest, otherwise, cap = _SHAPES[field]
    # why letters of any script for a project or an author: a folder or a login named in Japanese or
    # with an accent is a name too; still one word, no punctuation but the field's own
    fits = chars.issuperset(text) or (field in _ANY_SCRIPT and all(c.isalnum() or c in chars for c in text))
    if len(text) > longest or not fits or not any(c.isalnum() for c in text):
        return otherwise
    if field == "session":  # why cut here: 8 characters say which session, too few to carry a key or an order
        return text[:8]
    if len(text) > NO_SPACE_CAP and _unspaced_script(text):
        return otherwise
    # why the list on the parts as written: a camelCase part is a name's own word (PasswordManager,
    # NeverLand); its split words go to the rules, which read wordings, not lone words
    if not ORDER_WORDS.isdisjoint(_parts(text.lower())) or _held(text, as_words(text)):
        return otherwise
    return _short(text, cap)


def _held(text: str, words: str) -> bool:
    """Whether the hold check holds the value ``text`` read as ``words`` (:func:`as_words`): an order
    in it, or, when it may hold a key (:func:`_may_hold_a_secret`), a secret or an order in it as written.
    why the words: the rules read words, and a name joins its own (``IgnoreAllPreviousInstructions``,
    ``push.to.main.without.review``). why not a lone ASCII word (``proj``, ``alice``): the rules match
    wordings of several words, :data:`ORDER_WORDS` has the lone words of an order, and the rules' cheap
    look (trust_words.py, 1.5 ms to load) is then never loaded by a start that shows ordinary names.
    A name in another script is always read: letters outside ASCII send it to the rules in other
    languages (``re``, once per process: about 60 ms)."""
    from lazy_harness.memory import trust

    if " " in words or not words.isascii():
        if _KEPT:
            if _KEPT[0](words):  # why reason, not hostile alone: a secret in the words is held as well
                return True
        elif trust.hostile(words):
            return True
    return _may_hold_a_secret(text) and bool(_KEPT[0](text) if _KEPT else trust.reason(text))


# why: one word joined by dashes or dots ("disregard-previous-instructions", "run.curl.evil.sh") fits a
# name's shape; words of an order to an agent or of a payload are named by no host, login or project
ORDER_WORDS = frozenset("ignore disregard instruction instructions previous prior obey override overrides never "
                        "always must execute curl wget bash sudo assistant pretend secret secrets password "
                        "passwords credential credentials exfiltrate".split())
SEPARATORS = "-._@+"
# why 12: a name in a script written without spaces (CJK, Thai, ...) packs a word into one to four
# letters, so a project or a login is a few words at most (在庫管理, プロジェクト: 4 and 6); past 12
# letters a value is a phrase or a sentence, whose wording the hold rules may not know
NO_SPACE_CAP = 12
# why by code point, not unicodedata's script: no such property in the standard library, and these
# blocks are the scripts written without spaces between words (Thai, Lao, Tibetan, Myanmar, Khmer,
# kana, CJK ideographs and their extensions, half-width kana)
_UNSPACED = ((0x0E00, 0x0FFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0x3040, 0x30FF), (0x31F0, 0x31FF),
             (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF66, 0xFF9F), (0x20000, 0x3FFFF))


def _unspaced_script(text: str) -> bool:
    """Whether ``text`` holds a letter of a script written without spaces between words."""
    return any(lo <= ord(c) <= hi for c in text if ord(c) >= 0x0E00 for lo, hi in _UNSPACED)


def as_words(text: str) -> str:
    """A name read as words, as the hold check reads text: ``IgnoreAllPreviousInstructions`` ->
    ``Ignore All Previous Instructions``, ``push.to.main`` -> ``push to main``, ``HTTPServer`` ->
    ``HTTP Server``; digits stay with their letters (``ci-runner-3`` -> ``ci runner 3``)."""
    out: list[str] = []
    prev = ""
    for i, c in enumerate(text):
        if c in SEPARATORS:
            c = " "
        elif c.isupper() and prev and (prev.islower() or (prev.isupper() and text[i + 1:i + 2].islower())):
            out.append(" ")
        out.append(c)
        prev = c
    return " ".join("".join(out).split())


def _parts(text: str) -> list[str]:
    return text.replace("-", ".").replace("_", ".").replace("@", ".").replace("+", ".").split(".")


def _may_hold_a_secret(text: str) -> bool:
    """Whether ``text`` has a run of letters and digits long enough to be a key: 16 or more, or 10 or
    more with a digit. Every single-word shape the redactor takes (``ghp_...``, ``AKIA...``,
    ``xoxb-<digits>-...``, ``glpat-...``) has one; a host, login or project name rarely does. why a
    look first: the redactor costs 50 ms or more to load, once per process, and a start with ordinary
    names never loads it (tests/memory/test_provfields_shown.py)."""
    return any(len(part) >= 16 or (len(part) >= 10 and not part.isalpha()) for part in _parts(text))


def describe(rec: dict, kind: str = "", machine: str | None = None, session_key: str = "session_id",
             project_field: str = "project", env: Env | None = None) -> str:
    """One short phrase: ``session 1a2b3c4d in api``, ``sync from laptop-2 (ana): session ... in api``,
    ``by hand``, ``unknown``. ``machine``: this machine's name (``here()[0]`` when None); an entry
    written on another one arrived through sync. So did one this machine's record names
    (:func:`arrived`), whatever machine it names: ``sync from <this host> (ana, claims this machine):
    ...``. Learnings pass ``origin_session``/``origin``. ``env``: whose record (None: this process's)."""
    via = rec.get("via")
    session = name_shown(rec.get(session_key), "session")[:8]  # a session id's first 8 say which
    project = name_shown(rec.get(project_field), "project")
    if not isinstance(via, str) or not via:  # written before provenance, or by hand
        what = UNKNOWN if session else "by hand"
        what = f"{what} (in {project})" if project else what
        if arrived(rec, kind, env):
            theirs = rec.get("machine")
            return _synced(what, rec, theirs if isinstance(theirs, str) else "", machine or here(env)[0])
        return what
    if via == HAND:
        what = "by hand"
    else:
        what = f"{agent_word(rec)}session {session or '?'}" + (f" in {project}" if project else "")
    if machine is None:
        machine = here(env)[0]
    theirs = rec.get("machine")
    theirs = theirs if isinstance(theirs, str) else ""
    if (theirs and theirs != machine) or arrived(rec, kind, env):
        what = _synced(what, rec, theirs, machine)
    if edited_by_hand(rec, kind):
        what += ", edited by hand since"
    return what


def edited_by_hand(rec: dict, kind: str) -> bool:
    """Whether a decision or failure was edited by hand since it was written: the digest it was written
    with (``text_digest``) is not that of its text now. A line written before the field cannot tell."""
    wrote = rec.get("text_digest")
    return kind in ("decision", "failure") and isinstance(wrote, str) and bool(wrote) and wrote != digest_of(rec, kind)


def _synced(what: str, rec: dict, theirs: str, machine: str) -> str:
    """``what`` as synced: ``sync from laptop-2 (ana): ...``; one that names this machine (it arrived
    through sync all the same) says so: ``sync from <this host> (ana, claims this machine): ...``."""
    notes = [author] if (author := name_shown(rec.get("author"), "author")) else []
    if theirs and theirs == machine:
        notes.append("claims this machine")
    where = name_shown(theirs, "machine") or "a machine it does not name"
    return f"sync from {where}" + (f" ({', '.join(notes)})" if notes else "") + f": {what}"


def learning_place(path: str) -> str:
    """A learning file's place in the learnings folder, ``YYYY-MM/name.md``: the key sync records for it."""
    folder, name = os.path.split(path)
    return os.path.basename(folder) + "/" + name


def learning_digest(text: bytes) -> str:
    """A digest of a learning file's text below its frontmatter, whitespace folded: the key of one
    version of it (sync/arrivals.py ``record_learning``). why not the whole file: a forget or an
    approval here moves its status, and what it says is still the other machine's."""
    from lazy_harness.memory import ids

    body = text
    if text.startswith(b"---"):
        end = text.find(b"\n---", 3)
        body = text[end + 4:] if end >= 0 else text
    return ids.bytes_digest(b" ".join(body.split()), 8)


# why: read once per process, again only when the file changed, which is looked at (a stat) at most
# once a second: a hook describes hundreds of entries in a few milliseconds, while a long-lived reader
# (the page, the resident answerer) still sees a round's record within a second. The stamp, the
# record's keys, what its ``<key>@<digest>`` keys (one version of an entry) name, when it was looked at
# and where: the variables that place the record (``_where``), and its path as lh resolves it
_ARRIVED: list = [None, frozenset(), frozenset(), float("-inf"), None, None]
LOOK_AGAIN = 1.0  # seconds


def _arrived_keys(env: Env | None = None) -> tuple[frozenset[str], frozenset[str]]:
    """The keys of the record of what ``lh sync`` brought in (sync/arrivals.py) where ``env`` (None:
    this process's environment) places it, empty without one, and the ids and places its keys of one
    version name."""
    import time

    from lazy_harness import paths

    now, where = time.monotonic(), _where(env)
    if now - _ARRIVED[3] < LOOK_AGAIN and where == _ARRIVED[4]:
        return _ARRIVED[1], _ARRIVED[2]
    # why the path as lh resolves it (``paths.synced_in_file``), not the variables' text: a relative
    # CLAUDE_CONFIG_DIR names another folder once the process works in another one, its text unchanged
    path = paths.synced_in_file(env)
    if now - _ARRIVED[3] < LOOK_AGAIN and path == _ARRIVED[5]:
        _ARRIVED[4] = where  # why: another spelling of the same folder (``cfg``, ``./cfg/``) looks at nothing
        return _ARRIVED[1], _ARRIVED[2]
    try:
        st = os.stat(path)
        stamp = (path, st.st_ino, st.st_size, st.st_mtime_ns)
        if _ARRIVED[0] != stamp:
            # why read_regular: a FIFO in the file's place held the session start in open() for good
            keys = frozenset(read_regular(path).decode("utf-8", "replace").split())
            _ARRIVED[:3] = [stamp, keys, frozenset(k.rpartition("@")[0] for k in keys if "@" in k)]
    except OSError:
        _ARRIVED[:3] = [None, frozenset(), frozenset()]
    _ARRIVED[3:] = [now, where, path]
    return _ARRIVED[1], _ARRIVED[2]


def _where(env: Env | None = None) -> tuple[str | None, ...]:
    """What places the record, cheap to read on every entry: the variables of ``env`` (None: this
    process's), and the working folder when ``CLAUDE_CONFIG_DIR`` is relative (paths.claude_dir reads it
    against that folder)."""
    e = os.environ if env is None else env
    config_dir = e.get("CLAUDE_CONFIG_DIR")
    here = os.getcwd() if config_dir and not config_dir.startswith("/") else None
    return config_dir, e.get("HOME"), here


def look_again() -> None:
    """Have the next :func:`arrived` read the record again (its writer, sync/arrivals.py, just changed it)."""
    _ARRIVED[3] = float("-inf")


def arrived(rec: dict, kind: str = "", env: Env | None = None) -> bool:
    """Whether the entry ``rec`` (a decision or failure line, a learning's frontmatter with its
    ``path`` when the reader has it) arrived through ``lh sync``: its id, or the learning's place, is
    in this machine's record of what the merges brought in, or this version of it is (the other
    machine's version of an entry edited on both, put in place by ``lh memory undo``). A learning is
    matched by its place alone: one id may name a learning of each machine's (one title written on
    two days). Without its path (a reader that does not pass it), by its id, as records written
    before places alone were kept name it. An entry merged before the record existed is not in it.
    ``env``: whose record (None: this process's environment's)."""
    keys, versions = _arrived_keys(env)
    if not keys:
        return False
    from lazy_harness.memory import ids

    if kind != "learning":
        eid = ids.of_record(rec, kind or None)
        return eid in keys or (eid in versions and f"{eid}@{digest_of(rec, kind or 'decision')}" in keys)
    path = rec.get("path")
    if not isinstance(path, str) or not path:
        return ids.of_learning(rec) in keys
    place = learning_place(path)
    if place in keys:
        return True
    if place not in versions:
        return False
    try:  # why read_regular: a FIFO in a learning's place would hold the reader in open() for good
        return f"{place}@{learning_digest(read_regular(path))}" in keys
    except OSError:
        return False


def opening_key(rec: dict) -> str:
    """The key of one opening of a handoff item, ``<id>@<digest>``: an ``open`` record of handoff.jsonl
    (``id``, ``ts``, ``session_id``, ``task_id``) or a folded item its opening gives (``id``,
    ``opened``, ``opened_by``, ``opened_task``: memory/handoff_log.py ``fold``); "" without an id.
    why the opening and not the id: an item's id is its text's, and the same item opened again by a
    session here is this machine's own."""
    from lazy_harness.memory import ids

    hid = rec.get("id")
    if not isinstance(hid, str) or not hid:
        return ""
    if "op" in rec:
        fields = (rec.get("ts"), rec.get("session_id"), rec.get("task_id"))
    else:
        fields = (rec.get("opened"), rec.get("opened_by"), rec.get("opened_task"))
    said = "\n".join(v if isinstance(v, str) else "" for v in fields)
    return f"{hid}@{ids.bytes_digest(said.encode('utf-8', 'replace'), 8)}"


def item_arrived(item: dict, env: Env | None = None) -> bool:
    """Whether the opening of the handoff item ``item`` (folded: ``opened``, ``opened_by``,
    ``opened_task``) arrived through ``lh sync``: this machine's record names it (:func:`opening_key`).
    why not its session field: ``hand-edit`` or a session id is text anyone with the remote can write."""
    keys = _arrived_keys(env)[0]
    return bool(keys) and opening_key(item) in keys


def item_described(item: dict, what: str, env: Env | None = None) -> str:
    """``what`` (who opened the item, in the caller's words: ``by hand``, ``session 5e6f7a8b``), or, for
    an opening that arrived through sync (:func:`item_arrived`), ``sync from a machine it does not
    name: <what>``: an open record names no machine (ADR 0032, "how a line arrived")."""
    return _synced(what, {}, "", "") if item_arrived(item, env) else what


def agent_word(rec: dict, field: str = "agent") -> str:
    """``Codex `` for an entry a Codex CLI session wrote (its ``agent`` field), '' for Claude Code's: an
    entry without the field was written before a second agent was supported, by Claude Code."""
    agent = rec.get(field)
    if not isinstance(agent, str) or agent.strip().lower() in ("", "claude"):
        return ""
    word = name_shown(agent, "agent")
    return ("Codex" if word.lower() == "codex" else word) + " "


def from_session(rec: dict, session: str | Collection[str], session_key: str = "session_id") -> bool:
    """Whether ``rec`` was distilled from the session ``session`` (its whole id, as the worker records
    it: ``session_id`` of a decision, failure or handoff record, ``origin_session`` of a learning), or
    from one of ``session`` when it is several (a session's own: memory/lineage.py ``own``).
    An entry written before ids were recorded, by hand or by consolidation has none: never."""
    value = rec.get(session_key)
    if not session or not isinstance(value, str) or not value.strip():
        return False
    return value.strip() == session if isinstance(session, str) else value.strip() in session


def key_of(rec: dict) -> str:
    """The project key an entry was written for ('' when unknown: written before provenance)."""
    value = rec.get("project_folder")
    return value if isinstance(value, str) else ""


def is_key(recorded: str, key: str | frozenset[str]) -> bool:
    """Whether ``recorded`` (an entry's ``project_folder``) names the project of ``key``: one memory
    key, or a set of them (a folder's own and its aliases: memory/aliases.py)."""
    return recorded == key if isinstance(key, str) else recorded in key


def legacy_owner(projects_dir: str, claude_key: str, name: str,
                 adopted: frozenset[str] = frozenset()) -> Callable[[Record], bool]:
    """For a learning written before project folders were recorded: whether it was written in this
    project, proven by key, not by name: its origin session's transcript lies in this project's
    Claude Code folder (``<claude dir>/projects/<paths.project_key(root)>/<session>.jsonl``). Two
    folders named ``api`` have two Claude Code folders. Once the transcript is gone (Claude Code
    deletes them after ``cleanupPeriodDays``), it is shown only where it was adopted: ``adopted``,
    the learning ids this project's ``aliases.jsonl`` names (``lh memory unassigned``, ADR 0035)."""
    folder = os.path.join(projects_dir, claude_key)

    def owns(head: dict) -> bool:
        if adopted:
            from lazy_harness.memory import ids

            if ids.of_learning(head, path=head.get("path")) in adopted:
                return True
        session = head.get("origin_session")
        if head.get("origin") != name or not isinstance(session, str) or not session or "/" in session:
            return False
        return os.path.exists(os.path.join(folder, session + ".jsonl"))

    return owns
