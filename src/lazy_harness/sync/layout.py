"""What memory is made of in the data folder (``outside_layout``: the paths a round commits and a
merge accepts), the shape of memory kept under another ``[memory] path`` or ``[knowledge] path``
(``other_layout``), and the refusal, before a merge, of a remote that holds anything else."""

from __future__ import annotations

import functools
import os

from lazy_harness.sync.repo import BRANCH, SyncError, _git, file_at, take_remote
from lazy_harness.sync.repo_setup import TOP, ignore_rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

# what memory is made of, relative to the data folder (``/``-separated): besides the top-level pair
# ensure_repo writes (TOP) and these stamps, a JSONL file at the top (the cost ledger) or in a project's
# memory folder, a journalled run, a learning. Anything else the remote holds is refused before it is
# merged. why the stamps: those of the worker's sync and SessionStart's pull (empty) are not in IGNORE,
# so every remote holds them already
STAMPS = (".sync-push", ".sync-pull")
GIT_FILES = (".gitignore", ".gitattributes", ".gitmodules")
# The most a memory file may grow to through the remote (``_refuse_huge_files``). why 128 MiB: more than
# ten times the largest memory file measured (a first sync's usage.jsonl, 11 MB; the ledger grows ~9 MB
# a year of heavy use), while each reader of a file, the merge drivers with three versions of it, holds it whole
MAX_FILE_BYTES = 128 * 1024 * 1024


def _machine_local(parts: list[str], projects: str = "projects") -> bool:
    """Whether the path (or a folder on its way) is one :func:`ignore_rules` keeps machine-local for
    memory kept at ``projects`` (git's rules: a pattern with a ``/`` is matched from the top, one
    without against each name, a trailing ``/`` only against folders, a character after ``\\``
    literal). why: .gitignore does not apply to a path the remote tracks already."""
    from fnmatch import fnmatchcase

    for folder_only, steps in _patterns(ignore_rules(projects)):
        for k in range(1, len(parts) + 1 - folder_only):
            here = parts[:k]
            if len(steps) == 1 and fnmatchcase(here[-1], steps[0]):
                return True
            if len(steps) > 1 and len(here) == len(steps) and all(map(fnmatchcase, here, steps)):
                return True
    return False


@functools.lru_cache(maxsize=4)
def _patterns(rules: str) -> tuple[tuple[bool, tuple[str, ...]], ...]:
    """``(folder only, steps as fnmatch patterns)`` of each pattern of a .gitignore text."""
    import re

    def glob(step: str) -> str:
        return re.sub(r"\\(.)", lambda m: f"[{m[1]}]" if m[1] in "*?[" else m[1], step)

    return tuple((ln.endswith("/"), tuple(glob(s) for s in ln.rstrip("/").split("/")))
                 for ln in rules.splitlines() if ln.strip() and not ln.startswith("#"))


def _below(parts: list[str], folder: str) -> list[str] | None:
    """The parts of a path below ``folder`` (``""`` or ``.``: the data folder itself), or None."""
    top = [] if folder in ("", ".") else folder.split("/")
    return parts[len(top):] if parts[:len(top)] == top and len(parts) > len(top) else None


def _plain(name: str, suffix: str) -> bool:
    return name.endswith(suffix) and len(name) > len(suffix) and not name.startswith(".")


def outside_layout(path: str, projects: str = "projects", learnings: str = "knowledge/learnings") -> str | None:
    """Why ``path`` (in the remote's tree, relative to the data folder) is no part of memory, or None
    when it is. ``projects``, ``learnings``: where this machine keeps them, relative to the data folder."""
    parts = path.split("/")
    if parts[-1] in GIT_FILES and (len(parts) > 1 or parts[-1] not in TOP):
        return "a git control file other than the top-level .gitignore and .gitattributes"
    if _machine_local(parts, projects):
        return "a path this machine keeps to itself (the data folder's .gitignore)"
    if len(parts) == 1 and (parts[0] in TOP or parts[0] in STAMPS or _plain(parts[0], ".jsonl")):
        return None
    rest = _below(parts, projects)
    if rest and len(rest) in (2, 3) and not rest[0].startswith(".") and (
            (len(rest) == 2 and _plain(rest[1], ".jsonl"))
            or (len(rest) == 3 and rest[1] == "journal" and _plain(rest[2], ".json"))):
        return None
    rest = _below(parts, learnings)
    if rest and len(rest) == 2 and _month(rest[0]) and _plain(rest[1], ".md"):
        return None
    found = other_layout(path, projects, learnings)
    if found:
        return f"memory as a machine with another {found[0]} keeps it ({_shown(found[1])})"
    return "not part of memory (project JSONL files, journals, learnings)"


def _month(name: str) -> bool:
    return len(name) == 7 and name[4] == "-" and (name[:4] + name[5:]).isdigit()


def _shown(folder: str) -> str:
    return shown(folder) if folder not in ("", ".") else "the data folder itself"


def shown(path: str) -> str:
    """A path of the remote as sync's messages name it: through the redactor's built-in rules (a key in
    a file's name, anyone who can push chooses it), then quoted, a control character escaped (repr)."""
    from lazy_harness.redact import redact

    return repr(redact(path)[0])


def _memory_files() -> tuple[str, ...]:
    """The names of the JSONL files a project's memory folder holds."""
    from lazy_harness.memory import aliases, files, marks, usage_log

    return files.DECISIONS, files.FAILURES, files.HANDOFF_STATE, marks.MARKS, usage_log.USAGE, aliases.FILE


def other_layout(path: str, projects: str = "projects",
                 learnings: str = "knowledge/learnings") -> tuple[str, str] | None:
    """``(setting, folder)`` when ``path`` (relative to the data folder) has the shape of memory kept
    where this machine does not keep it: ``("[memory] path", folder)`` for ``<folder>/<project>/`` and a
    memory file (decisions.jsonl, ...) or ``journal/<run>.json``, ``("[knowledge] path", folder)`` for
    ``<folder>/learnings/YYYY-MM/<name>.md``; ``folder`` relative to the data folder (``""``: the data
    folder itself). None for any other path. ``projects``, ``learnings``: where this machine keeps them.
    why: another machine's memory, judged by this machine's layout alone, read as a stranger to delete."""
    parts = path.split("/")
    if any(not p or p.startswith(".") for p in parts):
        return None
    if len(parts) >= 3 and _month(parts[-2]) and _plain(parts[-1], ".md") and parts[-3] == "learnings":
        there = "/".join(parts[:-3])
        return None if "/".join(parts[:-2]) == learnings else ("[knowledge] path", there)
    if len(parts) >= 2 and parts[-1] in _memory_files():
        folder = parts[:-2]
    elif len(parts) >= 3 and parts[-2] == "journal" and _plain(parts[-1], ".json"):
        folder = parts[:-3]
    else:
        return None
    there, here = "/".join(folder), "" if projects in ("", ".") else projects
    # why: a folder inside one of this machine's project folders is no other machine's layout
    if there == here or (here and f"{there}/".startswith(f"{here}/")):
        return None
    return ("[memory] path", there)


def _other_layout_error(data: str, path: str, found: tuple[str, str], projects: str, learnings: str) -> SyncError:
    """The refusal of memory kept under another ``[memory] path`` / ``[knowledge] path``: no hint to
    delete it, since it is another machine's memory."""
    setting, there = found
    here = projects if setting == "[memory] path" else os.path.dirname(learnings)
    return SyncError(f"the remote holds {shown(path)}, memory kept at {_shown(there)} of the data folder by a machine "
                     f"whose {setting} differs from this one's ({os.path.normpath(os.path.join(data, here))}): "
                     "[memory] path and [knowledge] path must be the same on every machine that syncs; refused, "
                     "nothing merged",
                     hint=f"set {setting} alike in each machine's config.toml (lh config path), move the folder "
                          "to match, then lh sync")


NAME_MAX = 255  # the longest file name, in bytes, that Linux and macOS file systems take


def _unwritable(path: str) -> str:
    """Why this machine cannot write ``path`` (as ``git ls-tree`` printed it, UTF-8 decoded with
    replacement), or "": a name longer than :data:`NAME_MAX` bytes, or bytes that are not UTF-8 (a
    replacement character: the name cannot be given back to git as it is stored)."""
    if "\ufffd" in path:
        return "a name that is not UTF-8, which this machine cannot write"
    if any(len(part.encode("utf-8")) > NAME_MAX for part in path.split("/")):
        return f"a name longer than {NAME_MAX} bytes, which no file system here takes"
    if _dotted(path):
        return "a name no clone checks out (git refuses '.', '..' and '.git' in a path)"
    return ""


def _dotted(path: str) -> bool:
    return any(part in ("", ".", "..") or part.lower() == ".git" for part in path.split("/"))


# why: a path no clone checks out cannot be deleted from one with ``git rm`` (the checkout fails first,
# and ``git rm`` says the path is outside the repository): the remote's branch goes back instead
NO_CHECKOUT_HINT = ("no clone can check it out, so git rm cannot reach it: in a clone made with --no-checkout, "
                    "find the last commit before it (git log --stat) and push it back over the branch "
                    "(git push --force origin <that commit>:main), then lh sync")


def _refuse_strangers(data: str, env: Mapping[str, str] | None, projects: str, learnings: str) -> None:
    """Refuse a remote whose tree holds anything but memory's plain files. A symbolic link checked out
    as ``projects`` or ``knowledge/learnings`` would send every later write of the worker outside the
    data folder, a submodule has no place in it either; a nested ``.gitignore`` stops this machine's
    new memory from being committed, a nested ``.gitattributes`` turns the merge drivers off, a folder
    at ``handoff.md`` takes the rendered file's place (``outside_layout``)."""
    listing = _git(data, "ls-tree", "-r", "-z", "--full-tree", f"origin/{BRANCH}", env=env).stdout
    stranger, hint = "", "delete it on the remote, then lh sync"
    for entry in listing.split("\0"):
        if not entry:
            continue
        meta, _, path = entry.partition("\t")
        mode = meta.partition(" ")[0]
        if mode not in ("100644", "100755"):
            stranger = f"{'a symbolic link' if mode == '120000' else 'a non-file'} at {shown(path)}"
            break
        unwritable = _unwritable(path)
        if unwritable:  # why first: every round of every machine stopped in git's checkout on it
            if not stranger:  # why the hint: ``git rm --cached`` takes a long name, not a '..' in one
                stranger, hint = f"{shown(path)}, {unwritable}", NO_CHECKOUT_HINT if _dotted(path) else hint
            continue
        why = outside_layout(path, projects, learnings)
        found = other_layout(path, projects, learnings) if why else None
        if found:  # why before any stranger: its hint to delete must not reach another machine's memory
            raise _other_layout_error(data, path, found, projects, learnings)
        stranger = stranger or (f"{shown(path)}, {why}" if why else "")
    if stranger:
        raise SyncError(f"the remote holds {stranger}: refused, nothing merged", hint=hint)



def _long_lines(text: str | None) -> dict[str, int]:
    """The lines of ``text`` longer than any reader of memory reads (``memory.lines.MAX_LINE`` bytes),
    each with its line number (the first, for a line held twice)."""
    from lazy_harness.memory import lines

    found: dict[str, int] = {}
    for n, line in enumerate((text or "").split("\n"), 1):
        if len(line) > lines.MAX_LINE // 4 and len(line.encode("utf-8", "surrogatepass")) > lines.MAX_LINE:
            found.setdefault(line, n)
    return found


def _refuse_long_lines(data: str, before: str, env: Mapping[str, str] | None) -> None:
    """Refuse a remote whose JSONL memory file holds a line longer than any reader of memory reads that
    ``before`` (this machine's commit, empty: none) lacks. why: merged, it sits at the end of the file,
    and SessionStart, which reads memory from the end, stops there: no entry of that file reached a
    session until someone removed it by hand. A line this machine holds already is no news: left alone."""
    from lazy_harness.memory import lines

    listing = _git(data, "ls-tree", "-r", "-l", "-z", "--full-tree", f"origin/{BRANCH}", env=env).stdout
    for entry in listing.split("\0"):
        meta, _, path = entry.partition("\t")
        size = meta.split()[3] if len(meta.split()) == 4 else ""
        if not path.endswith(".jsonl") or not size.isdigit() or int(size) <= lines.MAX_LINE:
            continue
        ours = _long_lines(file_at(data, before, path, env)) if before else {}
        new = [n for line, n in _long_lines(file_at(data, f"origin/{BRANCH}", path, env)).items() if line not in ours]
        if new:
            raise SyncError(f"the remote holds a line longer than {lines.MAX_LINE >> 20} MiB in {shown(path)} (line "
                            f"{min(new)}), which no reader of memory reads: refused, nothing merged",
                            hint="delete that line on the remote, then lh sync")


def _sizes(data: str, commit: str, env: Mapping[str, str] | None, *paths: str) -> dict[str, int]:
    """The size of each file ``commit`` holds (of ``paths`` only, when given), by path."""
    listing = _git(data, "ls-tree", "-r", "-l", "-z", "--full-tree", commit, "--", *paths, env=env).stdout
    out: dict[str, int] = {}
    for entry in listing.split("\0"):
        meta, _, path = entry.partition("\t")
        size = meta.split()[3] if len(meta.split()) == 4 else ""
        if path and size.isdigit():
            out[path] = int(size)
    return out


def _refuse_huge_files(data: str, before: str, seen: str, env: Mapping[str, str] | None) -> None:
    """Refuse a remote whose memory file is larger than :data:`MAX_FILE_BYTES` when neither this
    machine's commit ``before`` nor the remote's commit it last merged (``seen``: :data:`~.repo.SEEN`
    alone, ``""`` on the round a machine joins) held that file past the bound: anyone who can push could
    make every machine's readers (the merge drivers hold three versions of a file in memory) read a
    file of gigabytes at each round. A file that grew past the bound here, or that this machine merged
    past it, is left alone. why not ``merge.known_remote``: before a first merge it falls back to the
    fetched ``origin/main``, which took every file of the remote as known on the round a machine joins."""
    big = {p: n for p, n in _sizes(data, f"origin/{BRANCH}", env).items() if n > MAX_FILE_BYTES}
    for commit in (c for c in (before, seen) if c and big):
        for path, n in _sizes(data, commit, env, *big).items():
            if n > MAX_FILE_BYTES:
                big.pop(path, None)
    if big:
        path, n = min(big.items())
        raise SyncError(f"the remote holds {shown(path)} of {_size(n)}, more than a memory file grows to "
                        f"({_size(MAX_FILE_BYTES)}): refused, nothing merged",
                        hint="delete the lines it gained on the remote, then lh sync; if that file is your own "
                             f"memory (grown on another machine of yours), {take_remote(data)} and lh sync takes it")


def _size(n: int) -> str:
    return f"{n / 1048576:.1f} MiB" if n >= 1048576 else f"{n / 1024:.1f} KiB"
