"""Learnings: one write-once Markdown file per learning, shared by every project.

    <learnings>/YYYY-MM/YYYY-MM-DD-<slug>.md

The title comes from the model, so it is treated as hostile: the slug keeps only ASCII letters,
digits and single dashes (no ``/``, no ``..``, no leading dot), the path is checked to lie inside
the learnings folder, and the frontmatter is written by a YAML serializer from a title squeezed
onto one line, so no title can add or override a key.

Identity: a learning is its origin project and its normalised title, and its ``id`` in the
frontmatter is ``ids.learning_id(origin, title)`` (a file written before ids existed gets the same
id derived when read), lengthened when another learning holds those 8 hex characters
(``fresh_id``). A file with that id is the same learning (re-processing a task writes nothing new), and
so is one of the same title written under the project's key (``of_keys``: its folder named otherwise on
another machine); another learning whose slug collides (a different title, or the same title from another project on
the same day) gets ``-2``, ``-3`` ... so it never overwrites anything. The same title with a new text
(ADR 0063: :func:`of_title`, :func:`restates`) is a file of its own with an id of its own
(:func:`version_id`), which the plan makes deprecate the older text.
"""

from __future__ import annotations

import hashlib
import os
import time
import unicodedata

import yaml

from lazy_harness import paths
from lazy_harness.atomic import atomic_write, ensure_dir
from lazy_harness.errors import TaskError
from lazy_harness.logfile import stamp
from lazy_harness.memory import ids, lines
from lazy_harness.memory.files import iso_epoch, is_learning_name, month_folders, recent_learning_files
from lazy_harness.memory.frontmatter import MAX_OPEN_SCAN, open_quote, read_frontmatter_values
from lazy_harness.memory.learning_text import CONTEXT_HEAD, LEARNING_HEAD, edited_by_hand, fields_of, text_key  # noqa: F401
from lazy_harness.memory.sanitize import normalise, one_line, text_block

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.memory.shapes import Env

SLUG_MAX = 50
FALLBACK = "learning"
MAX_SUFFIX = 20
# why: a slug cut at a dash that leaves less than this would throw away most of the title
_MIN_CUT = 20


def slugify(title: str) -> str:
    """Lowercase ASCII letters, digits and single dashes, at most 50 characters, never empty.

    Accents are folded (``é`` -> ``e``). A title with nothing left (``日本語``) gets
    ``learning-<hash>`` so different titles still get different files.
    """
    slug = "-".join(_slug_words(title))
    if not slug:
        digest = hashlib.sha256(str(title).encode("utf-8", "replace")).hexdigest()[:8]
        return f"{FALLBACK}-{digest}"
    return _cut(slug, SLUG_MAX)


def _slug_words(title: str) -> list[str]:
    """The runs of ASCII letters and digits of ``title`` with its accents folded, lower-cased."""
    folded = unicodedata.normalize("NFKD", str(title)).encode("ascii", "ignore").decode("ascii").lower()
    words, cur = [], []
    for ch in folded:
        if ("a" <= ch <= "z") or ("0" <= ch <= "9"):
            cur.append(ch)
        elif cur:
            words.append("".join(cur))
            cur = []
    if cur:
        words.append("".join(cur))
    return words


def _cut(slug: str, limit: int) -> str:
    """At most ``limit`` characters, cut at a dash when that keeps a useful part."""
    if len(slug) <= limit:
        return slug
    dash = slug.rfind("-", 0, limit + 1)
    if dash >= min(_MIN_CUT, limit // 2):
        return slug[:dash]
    return slug[:limit].strip("-") or FALLBACK


def learning_path(learnings_dir: str, title: str, when: float, n: int = 1, tag: str = "") -> str:
    """``<learnings>/YYYY-MM/YYYY-MM-DD-<slug>[-n|-tag].md`` for local date of ``when``; refuses to
    leave the folder."""
    slug = slugify(title)
    if n > 1 or tag:
        suffix = f"-{tag}" if tag else f"-{n}"
        slug = _cut(slug, SLUG_MAX - len(suffix)) + suffix
    day = time.strftime("%Y-%m-%d", time.localtime(when))
    path = os.path.join(learnings_dir, day[:7], f"{day}-{slug}.md")
    if not paths.is_within(path, learnings_dir):
        raise TaskError(f"learning path {path!r} is outside the learnings folder {learnings_dir!r}",
                        hint="check [knowledge] path and the title")
    return path


def _tags(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    out = []
    for tag in value if isinstance(value, (list, tuple)) else [str(value)]:
        t = one_line(tag)
        if t and t not in out:
            out.append(t)
    return out


def render(item: dict, meta: dict, now: float, lid: str | None = None, env: Env | None = None) -> str:
    """The whole file: YAML frontmatter (one line per scalar, keys in a fixed order) then the body.

    ``created`` is ``now`` with the local offset; the title, tags and scope are squeezed onto one line.
    """
    front = {
        "id": lid or ids.learning_id(one_line(meta.get("project")), one_line(item.get("title"))),
        "title": one_line(item.get("title")),
        "origin": one_line(meta.get("project")),
        "origin_session": one_line(meta.get("session_id")),
        "created": stamp(now),
        "tags": _tags(item.get("tags")),
        "cues": _tags(item.get("cues")),
        "scope": one_line(item.get("scope")),
        "status": "active",
        "deprecated_by": None,
        "deprecated_on": None,
        "deprecated_reason": None,
    }
    from lazy_harness.memory import provenance

    front.update(provenance.fields(meta, env))  # the project key, session or hand, the machine and author
    front["text_digest"] = text_key(item.get("learning"))  # why: a hand edit since reads apart from a new text
    part = read_part(meta)
    if part is not None:  # why: a later part of the session may correct it (``restates``)
        front["origin_part"] = f"{part[0]}-{part[1]}"
        if one_line(meta.get("read_check")):  # why: which bytes the range named (a rewrite moves them)
            front["origin_check"] = one_line(meta.get("read_check"))
    # why: width=10**9 keeps every scalar on one line, which memory.frontmatter's cheap title reader relies on;
    # block lists (default_flow_style=False) because the read-back's frontmatter reader splits flow lists on ","
    head = yaml.safe_dump(front, sort_keys=False, width=10**9, allow_unicode=True, default_flow_style=False)
    body = f"{LEARNING_HEAD}{text_block(item.get('learning'))}{CONTEXT_HEAD}{text_block(item.get('context'))}\n"
    return f"---\n{head}---\n\n{body}"


def id_of(path: str, head: dict | None = None) -> str | None:
    """The id of a learning file: its own ``id`` when valid, else derived from its origin and title
    (its file's name gives one it lacks); None for a file without a learning's name. ``head``: its
    ``id``, ``title`` and ``origin`` read already."""
    head = read_frontmatter_values(path, ("id", "title", "origin")) if head is None else head
    if ids.kind_of(head.get("id")) != "learning" and not head.get("title") and not ids.title_of_file(path).strip():
        return None
    return ids.of_learning(head, path=path)


def damaged(path: str) -> str | None:
    """Why no reader can tell what a learning file holds (:func:`frontmatter.open_quote`: a quote left
    open swallows its origin, scope and status), None when it can or the file cannot be read."""
    try:  # why open_regular: a FIFO named as a learning held the reader in open() for good
        with open(lines.open_regular(path)[0], encoding="utf-8-sig", errors="replace") as fh:
            return open_quote(fh.read(MAX_OPEN_SCAN))
    except OSError:
        return None


def same_learning(path: str, lid: str) -> bool:
    """Whether ``path`` holds learning ``lid``: its id, and a frontmatter readers can read. why: a file
    whose quote swallowed its keys is no one's learning in any view; taken for the one a later session
    wrote, that one's text was dropped as already there."""
    return id_of(path) == lid and not damaged(path)


def only_damaged(learnings_dir: str, lid: str) -> bool:
    """Whether every file carrying id ``lid`` is :func:`damaged` (and one does)."""
    found = [p for p in recent_learning_files(learnings_dir, 10**6) if id_of(p) == lid]
    return bool(found) and all(map(damaged, found))


HEAD_KEYS = ("id", "title", "origin", "project_folder")  # what taken_ids and of_keys read of each file


def heads(learnings_dir: str) -> list[tuple[str, dict]]:
    """Every learning file, newest first, with its ``HEAD_KEYS``: one read of each file, shared by a
    persist's :func:`taken_ids` and :func:`of_keys`. why: each read every file on its own, three scans
    of the folder per persist (2.4 s for 3,000 learnings)."""
    return [(path, read_frontmatter_values(path, HEAD_KEYS)) for path in recent_learning_files(learnings_dir, 10**6)]


def taken_ids(learnings_dir: str, scanned: list[tuple[str, dict]] | None = None) -> dict[str, str]:
    """``{id: identity}`` of every learning (``ids.key_of``): what a new learning's id must not clash with.
    ``scanned``: :func:`heads`, read already."""
    out = {}
    for path, head in heads(learnings_dir) if scanned is None else scanned:
        lid = id_of(path, head)
        if lid:
            out[lid] = ids.key_of("learning", head.get("title") or "", head.get("origin") or "")
    return out


def of_keys(learnings_dir: str, keys: frozenset[str], scanned: list[tuple[str, dict]] | None = None
            ) -> dict[str, list[str]]:
    """``{title key: files, newest first}`` of the learnings written under one of ``keys`` (their
    ``project_folder``): where one project's learning is whatever name its folder had on the machine
    that wrote it (its ``origin``, and so its id, differ). The first file not :func:`damaged` is the
    learning; that is read only for the title asked (:func:`readable`). ``scanned``: :func:`heads`."""
    out: dict[str, list[str]] = {}
    for path, head in heads(learnings_dir) if scanned is None else scanned:
        if head.get("project_folder") in keys:
            out.setdefault(ids.title_key(head.get("title") or ids.title_of_file(path)), []).append(path)
    return out


def readable(found: list[str]) -> str | None:
    """The first of ``found`` a reader can read (not :func:`damaged`), or None."""
    return next((path for path in found if not damaged(path)), None)


def fresh_id(taken: dict[str, str], origin: str, title: str) -> str:
    """The id of ``origin``'s learning ``title``: the one it holds already, else one no other holds."""
    return ids.fresh("learning", ids.key_of("learning", title, origin), taken)


def find_slot(learnings_dir: str, title: str, when: float, origin: str = "",
              want: str | None = None) -> tuple[str, bool]:
    """Where this learning (``origin``'s ``title``, id ``want`` when known) lives or would go: (path,
    already there).

    Walks ``slug``, ``slug-2`` ... and stops at the file holding the same learning or the first free name.
    """
    want = want or ids.learning_id(origin, title)
    # why the id's own name last: twenty titles of one day can share a slug (``pytestのフィクスチャ``,
    # ``pytestのマーカー``: ASCII words only), and a 21st failed the whole answer it came with
    for path in [learning_path(learnings_dir, title, when, n) for n in range(1, MAX_SUFFIX + 1)] + [
            learning_path(learnings_dir, title, when, tag=want.replace("-", ""))]:
        if not os.path.lexists(path):
            return path, False
        if same_learning(path, want):
            return path, True
    folder = os.path.dirname(learning_path(learnings_dir, title, when))
    raise TaskError(f"more than {MAX_SUFFIX} learnings named like {slugify(title)!r} on one day in {folder}",
                    hint=f"ls {folder}")


def write_learning(learnings_dir: str, item: dict, meta: dict, now: float,
                   before_create: Callable[[str, bytes], object] | None = None,
                   taken: dict[str, str] | None = None, lid: str | None = None,
                   env: Env | None = None) -> tuple[str, bool]:
    """Create the learning's file once: (path, written). An existing file is never touched.
    ``before_create(path, bytes)`` is told before the file may appear (a persist's undo record).
    ``taken``: every learning's id (``taken_ids``), read once by a caller writing several; it then
    holds this one's too. ``lid``: the id the plan gave it (a new text of a title: :func:`version_id`).
    ``env``: the environment of the profile it is written for (its author; None: this process's)."""
    title = one_line(item.get("title"))
    if not title:
        raise TaskError("a learning without a title cannot be written")
    origin = one_line(meta.get("project"))
    taken = taken_ids(learnings_dir) if taken is None else taken
    lid = lid or fresh_id(taken, origin, title)
    taken[lid] = ids.key_of("learning", title, origin)
    text = render(item, meta, now, lid, env)
    for _ in range(MAX_SUFFIX):
        path, exists = find_slot(learnings_dir, title, now, origin, lid)
        if exists:
            return path, False
        ensure_dir(os.path.dirname(path))
        if before_create is not None:
            before_create(path, text.encode("utf-8"))
        if atomic_write(path, text, exclusive=True):
            return path, True
        # why: another writer created that name between the look and the link; look again
    raise TaskError(f"could not find a free file name for learning {title!r}")


def recent_titles(learnings_dir: str, n: int = 50) -> list[str]:
    """Titles of the ``n`` newest learnings, newest first, reading only each file's head; for the
    distiller's de-duplication, so not one the person forgot, nor one the hold check would hold (an
    instruction to the agent, a secret: kept from every model's context, the distiller's too)."""
    from lazy_harness.memory import state, trust

    out = []
    for path in recent_learning_files(learnings_dir, n):
        head = read_frontmatter_values(path, ("title", "status"))
        title = head.get("title")
        if title and head.get("status") != state.FORGOTTEN and not trust.reason(title):
            out.append(title)
    return out


def recent_ids(learnings_dir: str, n: int = 50) -> set[str]:
    """Ids of the ``n`` newest learnings (own or derived), less the :func:`damaged` ones."""
    return {i for p in recent_learning_files(learnings_dir, n) if (i := id_of(p)) and not damaged(p)}


def names_by_slug(learnings_dir: str) -> dict[str, list[str]]:
    """Every learning file by its name less the date (``<slug>[-n].md``): one listing per month folder;
    a hidden name is none (``files.is_learning_name``), as for every other reader of the folder."""
    out: dict[str, list[str]] = {}
    for month in month_folders(learnings_dir):
        try:
            names = os.listdir(os.path.join(learnings_dir, month))
        except OSError:
            continue
        for name in filter(is_learning_name, names):
            out.setdefault(name[11:], []).append(os.path.join(learnings_dir, month, name))
    return out


def renamed(scanned: list[tuple[str, dict]]) -> dict[str, list[str]]:
    """``{the name its title gives (``<slug>.md``): files}`` of the learning files (``scanned``: :func:`heads`)
    whose name does not start as their title's does: renamed by hand (``money-notes.md``, a date of
    another day). why: the title inside the file is what counts (ADR 0063, 0071); looked for by its
    name alone, such a file was no text of its title, and a correction stood beside it, both shown."""
    out: dict[str, list[str]] = {}
    for path, head in scanned:
        title = head.get("title")
        if not isinstance(title, str) or not ids.title_key(title):
            continue
        if os.path.basename(path)[11:].replace("-", "").startswith(_stem(title)) and date_of_name(path):
            continue
        out.setdefault(os.path.basename(learning_path("", title, 0.0))[11:], []).append(path)
    return out


def date_of_name(path: str) -> bool:
    """Whether a learning file's name begins with a date (``YYYY-MM-DD-``), as the store names each."""
    name = os.path.basename(path)
    return len(name) > 11 and name[4] == name[7] == name[10] == "-" and (name[:4] + name[5:7] + name[8:10]).isdigit()


def with_renamed(listing: dict[str, list[str]], extra: dict[str, list[str]]) -> dict[str, list[str]]:
    """``listing`` (:func:`names_by_slug`) with the files of :func:`renamed` listed under their titles' names too."""
    out = {name: list(found) for name, found in listing.items()}
    for name, found in extra.items():
        out.setdefault(name, []).extend(p for p in found if p not in out[name])
    return out


def titled_listing(learnings_dir: str, scanned: list[tuple[str, dict]] | None = None) -> dict[str, list[str]]:
    """:func:`names_by_slug` with every file renamed by hand under its title's name (:func:`renamed`);
    ``scanned``: :func:`heads`, read already (else read here: one head of each file)."""
    return with_renamed(names_by_slug(learnings_dir), renamed(heads(learnings_dir) if scanned is None else scanned))


def file_of(learnings_dir: str, listing: dict[str, list[str]], title: str, lid: str, now: float) -> str | None:
    """The file of learning ``lid`` on any day (``listing`` from ``names_by_slug``); only the names its
    title's slug can take are opened."""
    for n in range(1, MAX_SUFFIX + 1):
        name = os.path.basename(learning_path(learnings_dir, title, now, n))[11:]
        for path in sorted(listing.get(name, ())):
            if same_learning(path, lid):
                return path
    return None


def version_id(taken: dict[str, str], origin: str, title: str, text: object, session: str) -> str:
    """The id of a new text of ``origin``'s learning ``title``, written by ``session`` (ADR 0063): derived
    from all four, so the same session processed again finds its own file, and another session's text
    is a learning of its own; lengthened past one another title holds."""
    identity = ids.key_of("learning", title, origin)
    full = ids.long_hex(f"{identity}\x00{text_key(text)}\x00{session}")
    for n in range(ids.HEX, ids.LONGEST + 1):
        eid = ids.PREFIXES["learning"] + full[:n]
        if taken.get(eid) in (None, identity):
            return eid
    raise ValueError("no free id for a learning")  # 40 hex characters held by other titles


def of_title(learnings_dir: str, listing: dict[str, list[str]], title: str, origin: str,
             keys: frozenset[str] | None = None) -> list[dict]:
    """Every readable file of ``origin``'s learning ``title`` on any day, whatever its id and however its
    title is spelt (``ids.title_words``): the texts the title has had. Each as {path, id, status, session,
    by, now, wrote}: ``now`` the :func:`text_key` of its text as it is, ``wrote`` the one it was written
    with ("" before ``text_digest``). Only names that start as its slug does (dashes aside) are opened.
    ``keys``: the memory keys of the project asking (its own and its aliases): a file recording another
    key is left out, whatever its scope. why: two repositories of one folder name share ``origin``, and
    one's session deprecated the other's learning as an older text of its title. A file recording no key
    (written before keys were) counts by its origin, as it did."""
    from lazy_harness.memory.approval import learning_parts

    # why words, not the id's key: a title spelt otherwise (``orders-table``, ``Orders table``) is the same
    # why without its dashes: a mark outside ASCII (``orders—table``) leaves none in the name (``orderstable``)
    identity, stem, out, seen = (normalise(origin), ids.title_words(title)), _stem(title), [], set()
    for name, found in listing.items():
        for path in sorted(found) if name.replace("-", "").startswith(stem) else ():
            if path in seen:  # why: a file renamed by hand is listed under its name and its title's too
                continue
            seen.add(path)
            parsed = None if damaged(path) else learning_parts(path)
            meta = parsed[0] if parsed else {}
            if not meta or (normalise(meta.get("origin") or ""), ids.title_words(meta.get("title") or "")) != identity:
                continue
            if keys is not None and foreign(meta, keys):
                continue
            out.append({"path": path, "id": ids.of_learning(meta, path=path),
                        "status": str(meta.get("status") or "active"), "session": one_line(meta.get("origin_session")),
                        "by": one_line(meta.get("deprecated_by")), "created": str(meta.get("created") or ""),
                        "now": text_key(fields_of(meta, parsed[1] if parsed else "")["learning"]),
                        "wrote": _digest_of(meta.get("text_digest")), "reason": one_line(meta.get("deprecated_reason")),
                        "part": _part_of(meta.get("origin_part")), "check": one_line(meta.get("origin_check"))})
    # why the epoch, not the stamp: two machines in other time zones stamp with other offsets
    return sorted(out, key=lambda v: (iso_epoch(v["created"]) or 0.0, v["created"]), reverse=True)


def foreign(head: dict, keys: frozenset[str]) -> bool:
    """Whether a learning's head records the memory key of a project other than the one of ``keys`` (its
    own and its aliases). A head with no key (written before keys were recorded) is nobody's here."""
    recorded = head.get("project_folder")
    return isinstance(recorded, str) and bool(recorded) and recorded not in keys


def _digest_of(value: object) -> str:
    """A file's ``text_digest`` as :func:`text_key` writes it (12 hex), else "": no digest, as a file
    written before it. why: a field edited by hand (``0``, a word, a character more) read as a text
    edited by hand, the person's word, and no later correction of the title replaced the file."""
    digest = one_line(value).lower()
    return digest if len(digest) == 12 and all(c in "0123456789abcdef" for c in digest) else ""


def _stem(title: str) -> str:
    """What the names of a title's files start with, dashes aside: its slug's first 10 characters; for a
    title with no ASCII word (``Кэш заказов``) every fallback name, whose hash is of the title as spelt
    (``кэш_заказов`` has another)."""
    return slugify(title).replace("-", "")[:10] if _slug_words(title) else FALLBACK


def read_part(meta: dict) -> tuple[int, int] | None:
    """(from, to): the byte range of its session's transcript an answer was distilled from (the worker's
    meta ``read_from``/``read_to``), None when not given (``lh memory`` commands, older tasks)."""
    start, end = meta.get("read_from"), meta.get("read_to")
    if type(start) is int and type(end) is int and 0 <= start <= end:
        return start, end
    return None


def _part_of(value: object) -> tuple[int, int] | None:
    """A file's ``origin_part`` (``from-to``) read back; None when absent or not in that form."""
    start, dash, end = str(value or "").partition("-")
    # why ASCII digits: ``isdigit`` takes ``²``, which ``int`` refuses: a hand edit broke every persist of the title
    return (int(start), int(end)) if dash and _digits(start) and _digits(end) else None


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def restates(versions: list[dict], text: object, own: tuple[str, ...],
             part: tuple[str, int] | None = None) -> tuple[str | None, list[str]]:
    """How an answer's learning of text ``text`` stands to the ``versions`` of its title (:func:`of_title`)
    for a session whose own ids are ``own`` (memory/lineage.py): (the id of the file it is, []) or
    (None, the files its new text replaces). ``part``: (the session's id, the transcript offset the
    answer was distilled from), when known. ADR 0063, in this order:

    - the text of a file, as it is or as it was written (a hand edit since is the person's), a file a
      newer text of the title replaced too (the plan keeps it hidden: the newer text stands): that file;
    - a file this session wrote from a part of its transcript the answer read again (or one whose part is
      not known): that file (read again, the session gives back what it learnt then). A file an earlier
      part wrote, before where this answer's part begins, does not count: the later part corrects it;
    - a file forgotten or held while no text of the title is shown: that file (the plan keeps the title
      hidden, as before). Beside a text shown it is that text left out, not the title;
    - else a new text: it replaces every active file of the title not edited by hand."""
    key, mine = text_key(text), {v["id"] for v in versions}
    current = [v for v in versions if not replaced(v, mine)]
    # why: forgetting a new text is how the person goes back to the older one (ADR 0063); taken for the
    # title, it dropped every later correction of it for good
    shown = any(v["status"] == "active" for v in current)
    for pick in ([v for v in current if key in (v["now"], v["wrote"])],
                 [v for v in versions if key in (v["now"], v["wrote"])],
                 [v for v in versions if v["session"] and v["session"] in own and not _before(v, part)],
                 [] if shown else [v for v in current if v["status"] not in ("active", "deprecated")]):
        if pick:
            return pick[0]["id"], []
    return None, [v["path"] for v in current if v["status"] == "active" and v["now"] == (v["wrote"] or v["now"])]


def _before(version: dict, part: tuple[str, int] | None) -> bool:
    """Whether ``version`` was written from a part of a transcript this answer did not read again: by the
    session ``part`` names, from a part that ends where ``part`` begins, or before; by a session it was
    forked from. Never when ``part`` begins at the top: that reads the whole transcript again, a fork's
    copied turns too. why a parent's: a fork's distillations start past the copied turns its parents
    distilled (worker/cursor.py ``start``), so only one from the top holds them."""
    if part is None:
        return False
    if version.get("gone"):  # why even from the top: its range names bytes this transcript no longer holds
        return True
    if not part[1]:
        return False
    if version["session"] != part[0]:
        return True
    written = version.get("part")
    return written is not None and written[1] <= part[1]


def replaced(version: dict, mine: set[str]) -> bool:
    """Whether a version of a title (:func:`of_title`) is deprecated for another text of it (``mine``)."""
    return version["status"] == "deprecated" and version["by"] in mine


def newest_of(versions: list[dict], claimants: set[str], undone: set[str]) -> tuple[dict | None, list[str]]:
    """Two or more new texts of one title that each replaced the same older one (``claimants``: their
    ids), as two machines that rewrote it before a sync round met leave them: (the newest, the files of
    the others, to be deprecated by it). Only active files as a session wrote them count: one edited by
    hand or approved by the person (its ``deprecated_reason`` kept as signed) is the person's word, and so
    is one ``undone`` brought back; then nothing is settled: (None, []). A file without a digest (written
    before the field, or one edited into no digest: :func:`_digest_of`) is taken as written, as
    :func:`restates` takes it. why: compared with "", each such file read as edited by hand, and both
    texts of its title stayed shown after every round."""
    live = [v for v in versions if v["id"] in claimants and v["status"] == "active"]
    if any(v["path"] in undone or v["reason"] or v["now"] != (v["wrote"] or v["now"]) for v in live) or len(live) < 2:
        return None, []
    return live[0], [v["path"] for v in live[1:]]  # why live[0]: of_title lists the newest first
