"""What a remote may bring, checked before anything of it is written here: how many files (in all, in
one round, project folders), two names one disk takes for one (case, Unicode normalisation), a name
in which the redactor finds a secret. Each refusal is one line ending ``refused, nothing merged``,
the round's usual refusal (docs/how/sync.md, "How much a remote may bring"; ADR 0067)."""

from __future__ import annotations

import shlex
import unicodedata

from lazy_harness.sync.layout import shown
from lazy_harness.sync.repo import BRANCH, SEEN, SyncError, _git, seen_commit, take_remote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

# why these numbers: a heavy user's memory after a year holds about 3,000 learnings (benchmarks'
# "large" memory) and a few hundred project folders of 6 JSONL files and their journals, some 10,000
# files in all; a machine back from a month offline gets a few hundred at once. Past them the merge
# itself costs minutes (20,000 learnings: 238 s in one round) before every SessionStart and crawl
# pays again. A tree that was past a bound already (grown here, or when this machine joined) is left
# alone, as layout.MAX_FILE_BYTES is.
MAX_FILES = 100_000  # in the remote's tree
MAX_NEW_FILES = 20_000  # the remote gained since this machine last merged it, that this machine lacks
MAX_PROJECTS = 5_000  # project memory folders in the remote's tree


def _paths(data: str, commit: str, env: Mapping[str, str] | None) -> set[str]:
    """The files ``commit`` holds (an empty set for no commit)."""
    if not commit:
        return set()
    listing = _git(data, "ls-tree", "-r", "-z", "--name-only", "--full-tree", commit, env=env).stdout
    return {p for p in listing.split("\0") if p}


def _projects(paths: Iterable[str], projects: str) -> set[str]:
    """The project folders among ``paths`` (below ``projects``, relative to the data folder)."""
    top = "" if projects in ("", ".") else projects.rstrip("/") + "/"
    return {p[len(top):].partition("/")[0] for p in paths if p.startswith(top) and "/" in p[len(top):]}


def _remote(data: str, env: Mapping[str, str] | None) -> str:
    """The remote as the refusals name it: its URL, through the redactor (a token in an https URL)."""
    url = _git(data, "config", "--get", "remote.origin.url", check=False, env=env).stdout.strip()
    return shown(url or "origin")[1:-1]


def check_arrivals(data: str, before: str, env: Mapping[str, str] | None, projects: str = "projects",
                   extra: tuple[str, ...] = ()) -> None:
    """Refuse ``origin/main`` when it holds more files or project folders than memory grows to, gained
    more since the remote's commit this machine last merged (:data:`SEEN`) than memory gains between
    two rounds, or brings a name in which the redactor finds a secret (one it held then is no news).
    ``before``: this machine's commit (``""``: none); what it holds is no news. ``extra``: the
    person's own redactor patterns.
    why SEEN alone, not ``merge.known_remote``: before a first merge that falls back to the fetched
    ``origin/main``, which would exempt every remote from the bounds on the round a machine joins."""
    seen = seen_commit(data, env)
    theirs = _paths(data, f"origin/{BRANCH}", env)
    ours, known = _paths(data, before, env), _paths(data, seen, env)
    here = max(len(ours), len(known))
    if len(theirs) > MAX_FILES >= here:
        raise _too_many(data, env, "", f"holds {len(theirs):,} files", f"more than memory grows to ({MAX_FILES:,})")
    folders = len(_projects(theirs, projects))
    if folders > MAX_PROJECTS >= max(len(_projects(ours, projects)), len(_projects(known, projects))):
        raise _too_many(data, env, "", f"holds {folders:,} project folders",
                        f"more than a person works in ({MAX_PROJECTS:,})")
    new = theirs - ours - known if known else set()
    if len(new) > MAX_NEW_FILES:
        raise _too_many(data, env, seen, f"adds {len(new):,} files in one round (such as {shown(min(new))})",
                        f"more than memory gains between two rounds ({MAX_NEW_FILES:,})")
    _refuse_secret_names(theirs - ours - known, extra)  # why not known: it held them when this machine last merged it


def _too_many(data: str, env: Mapping[str, str] | None, seen: str, what: str, why: str) -> SyncError:
    """The refusal of a count; ``seen``: the last merged commit, given for the round bound alone. why the
    way out differs: past the round bound, forgetting ``seen`` leaves the remote judged by the totals;
    a total is judged by this machine's commit too, so forgetting changes nothing there, and a machine
    that joins has nothing to forget: both record the remote's commit as merged instead."""
    take = f"git -C {shlex.quote(data)} update-ref -d {SEEN}" if seen else take_remote(data)
    return SyncError(f"the remote {_remote(data, env)} {what}, {why}: refused, nothing merged",
                     hint="delete what it gained on the remote (git log --stat there names it), then lh sync; "
                          f"if those files are your memory, {take} and lh sync takes them (docs/how/sync.md)")


def secret_names(names: Iterable[str], extra: Iterable[str] = ()) -> dict[str, str]:
    """Each of ``names`` in which the redactor finds a secret (its built-in rules and ``extra``, the
    person's patterns), with the name as the redactor leaves it (the secret replaced by its marker).
    why joined first: one pass for all (30,000 names: 0.75 s), one by one only on a hit. Used both
    ways: a name the remote brings (:func:`_refuse_secret_names`), one this machine would send
    (``scan.stage_memory``, ``sent_names``)."""
    names = sorted(set(names))
    if not names:
        return {}
    from lazy_harness.redact import redact

    extra = tuple(extra)
    if not redact("\n".join(names), extra)[1]:
        return {}
    return {name: cleaned for name in names for cleaned, found in (redact(name, extra),) if found}


def _refuse_secret_names(new: set[str], extra: tuple[str, ...]) -> None:
    """Refuse a name of ``new`` in which the redactor finds a secret. why refused, not held: a hold
    keeps an entry's text from sessions, but a file's name is printed by every listing that names the
    file (``lh memory show``, the page, sync's messages), and no entry's text holds it."""
    found = secret_names(new, extra)
    if found:
        cleaned = found[min(found)]
        raise SyncError(f"the remote holds {cleaned!r}, a name in which the redactor finds a secret: "
                        "refused, nothing merged",
                        hint="rename or delete it on the remote (git mv, and rotate the secret: the "
                             "remote's history keeps it), then lh sync")


def _key(name: str) -> str:
    """``name`` as a case-insensitive, normalising disk (APFS, HFS+, NTFS) compares names."""
    if name.isascii():
        return name.lower()
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", name).casefold())


def refuse_one_on_disk(data: str, before: str, commit: str, env: Mapping[str, str] | None) -> None:
    """Refuse the merge ``commit`` when it holds two names (files or folders) that differ only in case
    or Unicode normalisation and the remote brought one of them (a path below it that ``before``, this
    machine's commit, lacks). why by name, on every platform: on macOS one is written over the other
    (two projects' memory in one folder, a learning lost), and a Linux machine pushes the pair on.
    When the other name is this machine's own (a learning saved by hand on each machine, one as
    ``Retry``, one as ``retry``), the refusal says so, and the hint asks for a rename here."""
    ours, merged = _paths(data, before, env), _paths(data, commit, env)
    pair = one_on_disk(ours, merged)
    if not pair:
        return
    what, how = "file" if pair[0] in merged else "folder", differ_in(pair)
    disk = f"names that differ only in {how}, one {what} on a case-insensitive or normalising disk (macOS, Windows)"
    mine = [name for name in pair if name in _names(ours)]
    if not mine:
        raise SyncError(f"the remote holds {both_shown(pair)}, {disk}: refused, nothing merged",
                        hint="rename or delete one of them on the remote, then lh sync")
    shown_pair = dict(zip(pair, _pair_shown(pair), strict=True))
    theirs = pair[1] if mine[0] == pair[0] else pair[0]
    raise SyncError(f"the remote brings {shown_pair[theirs]} and this machine holds {shown_pair[mine[0]]}, {disk}: "
                    "refused, nothing merged",
                    hint=f"rename this machine's {shown_pair[mine[0]]} in {data}{rename_way(how, what)}, then lh sync; "
                         "or rename or delete the remote's there")


def rename_way(how: str, what: str = "folder") -> str:
    """What a rename hint adds for a folder (``what``), which may be a project's memory folder, whose name
    comes from the project's path; nothing for a file."""
    if what != "folder":
        return ""
    return (f" (a project's memory folder: move the project itself to a folder whose name differs from the "
            f"other's in more than {how}, then move its memory folder to the one lh memory path names there)")


def both_shown(pair: tuple[str, str]) -> str:
    """The two names of :func:`one_on_disk` as a refusal names them (:func:`_pair_shown`)."""
    one, two = _pair_shown(pair)
    return f"{one} and {two}"


def _pair_shown(pair: tuple[str, str]) -> tuple[str, str]:
    """Each of two names of :func:`one_on_disk` as a refusal names it (``layout.shown``). why escaped when
    they differ in normalisation alone (``café`` with one é, or e and a combining accent): printed as
    they are, both read the same, and the person cannot tell which one to rename."""
    one, two = pair
    if unicodedata.normalize("NFC", one) != unicodedata.normalize("NFC", two):
        return shown(one), shown(two)
    from lazy_harness.redact import redact

    return ascii(redact(one)[0]), ascii(redact(two)[0])


def one_on_disk(ours: set[str], merged: set[str]) -> tuple[str, str] | None:
    """The shortest pair (two project folders rather than every file in them) of names, files or
    folders, of ``merged`` that differ only in case or Unicode normalisation, one of which is new: no
    path of ``ours`` is it or below it (the pair names it); None when there is none. Used both ways: what a merge brings
    (:func:`refuse_one_on_disk`), what a push sends (``sent_names``)."""
    if merged <= ours:  # why: most merges bring lines, no new name: nothing to compare
        return None
    done: set[str] = set()
    names: dict[str, set[str]] = {}  # each name (file or folder) by its key
    fresh: set[str] = set()  # the names with a path below them that ``ours`` lacks
    for path in merged:
        name, new = path, path not in ours
        while name:  # why up from the file: a folder met before is keyed once (10,000 files: 4 folders deep)
            if name in fresh or (not new and name in done):
                break
            if name not in done:
                done.add(name)
                names.setdefault(_key(name), set()).add(name)
            if new:
                fresh.add(name)
            name = name.rpartition("/")[0]
    pairs = [group for group in names.values() if len(group) > 1 and group & fresh]
    known = _names(ours) if pairs else set()
    # why a new name: a pair ``ours`` holds already (an older version pushed it) is no news; a file added
    # under one of them stopped every later round, though the pair on disk stayed as it was
    pairs = [group for group in pairs if group - known]
    if not pairs:
        return None
    group = min(pairs, key=lambda g: (min(g).count("/"), sorted(g)))
    named = min(group - known)
    other = min(group - {named})
    return (named, other) if named < other else (other, named)


def _names(paths: set[str]) -> set[str]:
    """Every name ``paths`` hold: each path and each folder above it."""
    names: set[str] = set()
    for path in paths:
        while path and path not in names:
            names.add(path)
            path = path.rpartition("/")[0]
    return names


def differ_in(pair: tuple[str, str]) -> str:
    """What two names of :func:`one_on_disk` differ in, as a refusal says it: ``case``, ``Unicode
    normalisation`` (an accented letter one character in one, a letter and a combining accent in the
    other), or both."""
    one, two = pair
    if unicodedata.normalize("NFC", one) == unicodedata.normalize("NFC", two):
        return "Unicode normalisation"
    return "case" if one.casefold() == two.casefold() else "case and Unicode normalisation"
