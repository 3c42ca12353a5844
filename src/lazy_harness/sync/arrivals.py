"""What a merge brings in from the remote, recorded on this machine before the merged files are
written (``paths.synced_in_file``: one key a line, 0600, beside the queue, never synced): the ids of
the decision and failure lines the merge adds to a project's ``decisions.jsonl``/``failures.jsonl``
(a line whose bytes the file did not hold), the opening (``<id>@<digest>``: ``provenance.opening_key``)
of each ``open`` record it adds to a ``handoff.jsonl``, and the place (``YYYY-MM/name.md``) of each learning file
it adds or changes, and its ids for a reader that passes no path. A learning is matched by its place
where the reader knows it: two files may carry one id (one title written on two machines on two
days), and only the other machine's is the one that came in.

What this machine committed itself is not recorded when it comes back: a learning whose bytes a
commit made here was the first in the history to hold (its own learning, its forget undone on the
other machine), a line whose bytes a commit made here added. "Made here" is read from this
repository's own reflog (``.git/logs/HEAD``: ``git commit`` on this machine; a merge, a fast-forward
or a rewrite is not), which no remote writes; an entry older than the reflog keeps (git expires
entries after 90 days) is recorded as it arrives. why a learning's first holder, and a line's adder
is enough: bytes the other machine sent that this machine's undo committed again were recorded
under that place or id when they first came in, and leaving a key out never takes one away.

The other machine's version of an entry edited on both, which the round journals
(``conflicts.keep``), is recorded by its text (``<id>@<digest>``, ``<place>@<digest>``): once ``lh
memory undo`` puts it in place it reads as synced; this machine's version beside it, or back again,
does not.

why: an entry's ``machine`` field is text anyone with the remote can write, this machine's host name
included (every entry it pushed carries it); memory/provenance.py ``describe`` labels what this
record names as synced whatever the entry says (ADR 0032, "how a line arrived"). why before the
files: a reader (SessionStart, the index writer, which keeps the label it built) that reads a new
line must find it named here already; a record that cannot be written stops the merge.

Written only by a sync round, under its lock; read by ``provenance.arrived``."""

from __future__ import annotations

import os

from lazy_harness import paths, proc
from lazy_harness.atomic import atomic_write, ensure_dir
from lazy_harness.sync.conflicts import line_records

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

GIT_SECONDS = 120.0  # a history walk that takes longer is given up: everything is recorded then


def line_keys(added: Iterable[bytes]) -> set[str]:
    """The ids a reader may give the entries of ``added`` (JSONL lines): each record's own ``id`` and
    the id it derives as a decision and as a failure, a damaged line read as the readers salvage it."""
    from lazy_harness.memory import ids

    out: set[str] = set()
    for line in added:
        for rec in line_records(line):
            own = rec.get("id")
            if isinstance(own, str) and own.strip():
                out.add(own.strip())
            for kind in ("decision", "failure"):
                try:
                    out.add(ids.of_record(rec, kind))
                except (TypeError, ValueError):  # pragma: no cover - a summary no reader takes
                    pass
    return out


def opening_keys(added: Iterable[bytes]) -> set[str]:
    """The keys of the item openings among ``added`` (handoff.jsonl lines): each ``open`` record's
    ``provenance.opening_key``, a damaged line read as the log's reader salvages it."""
    from lazy_harness import jsonload
    from lazy_harness.memory import handoff_log, provenance

    out = set()
    for line in added:
        rec = jsonload.line_object(line)
        if rec is None:
            rec = handoff_log.salvage(line.decode("utf-8", "replace").strip())
        if isinstance(rec, dict) and rec.get("op") == handoff_log.OPEN:
            out.add(provenance.opening_key(rec))
    return out - {""}


def version_keys(line: bytes, kind: str) -> set[str]:
    """The keys of one version of a decision or failure line (``kind``): ``<id>@<digest of its text>``
    (``provenance.digest_of``), the id as every reader derives it."""
    from lazy_harness.memory import ids, provenance

    return {f"{ids.of_record(rec, kind)}@{provenance.digest_of(rec, kind)}" for rec in line_records(line)}


def learning_keys(text: bytes, path: str) -> set[str]:
    """The place of the learning file at ``path`` (``provenance.learning_place``), and the ids a reader
    that passes no path may give it (with and without its file's name, which a title-less one takes
    its title from). why the ids: a reader without the path (the recall index's column, ``lh memory
    held``) matches by id; one with it, by the place alone (``provenance.arrived``)."""
    from lazy_harness.memory import frontmatter, ids, provenance

    parsed = frontmatter.parse_frontmatter(text.decode("utf-8", "replace"))
    meta = parsed[0] if parsed else {}
    return {provenance.learning_place(path), ids.of_learning(meta), ids.of_learning(meta, path=path)}


def _lines(data: bytes | None) -> set[bytes]:
    return {ln.strip() for ln in (data or b"").split(b"\n") if ln.strip()}


def _read(path: str) -> bytes | None:
    """``atomic.read_bytes``, None too for a file that cannot be read (the record is best effort)."""
    from lazy_harness.atomic import read_bytes

    try:
        return read_bytes(path)
    except OSError:
        return None


def made_here(data: str) -> frozenset[str]:
    """The commits ``git commit`` made in the repository at ``data`` on this machine: its reflog's
    ``commit``, ``commit (initial)`` and ``commit (amend)`` entries (never a merge's)."""
    out = set()
    for line in (_read(os.path.join(data, ".git", "logs", "HEAD")) or b"").decode("utf-8", "replace").splitlines():
        head, _, said = line.partition("\t")
        parts = head.split(" ")
        if len(parts) > 1 and said.startswith("commit") and not said.startswith("commit (merge)"):
            out.add(parts[1])
    return frozenset(out)


def _git(data: str, args: list[str], stdin: str | None = None) -> str:
    """git's output in ``data``, ``""`` when it fails. why not sync.repo's wrapper: the round has
    checked the repository (``repo.gitdir_refusal``) just before, and the environment here is stripped
    of every ``GIT_`` variable."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(LC_ALL="C", GIT_TERMINAL_PROMPT="0")
    try:
        result = proc.run(["git", "-C", data, "--no-pager", *args], input=stdin, timeout=GIT_SECONDS, env=env)
    except proc.ProcError:
        return ""
    return result.stdout if result.ok else ""


def own_blobs(data: str, folder: str, mine: frozenset[str]) -> set[str]:
    """The blobs under ``folder`` whose first holder in the history of HEAD and the remote's branch
    (the commit that held them with no ancestor that did: the last ``git log --topo-order`` names)
    is one of ``mine``. Every commit is walked (``--full-history --sparse``: none hidden as the same
    as a parent), a merge against its first parent (a merge driver's new bytes are the merge's)."""
    if not mine:
        return set()
    out = _git(data, ["log", "--topo-order", "--full-history", "--sparse", "--diff-merges=first-parent",
                      "--raw", "--no-abbrev", "--no-renames", "-z", "--format=%x01%H", "--ignore-missing",
                      "HEAD", "refs/remotes/origin/main", "--", folder or "."])
    first: dict[str, str] = {}
    commit = ""
    for field in out.split("\0"):
        field = field.strip("\n")
        if field.startswith("\x01"):
            commit = field[1:].split("\n", 1)[0]
        elif field.startswith(":"):
            parts = field.split(" ")
            if len(parts) >= 4 and set(parts[3]) != {"0"}:
                first[parts[3]] = commit  # why the last one: ancestors come after their children
    return {blob for blob, commit in first.items() if commit in mine}


def own_lines(data: str, files: list[str], mine: frozenset[str]) -> set[bytes]:
    """The lines the commits of ``mine`` added to any of ``files`` (``/``-separated, in ``data``)."""
    if not mine or not files:
        return set()
    out = _git(data, ["log", "--no-walk=unsorted", "--stdin", "-p", "-U0", "--no-color", "--no-ext-diff",
                      "--no-textconv", "--no-renames", "--format=%x01", "--", *files], "\n".join(sorted(mine)) + "\n")
    added, hunk = set(), False
    for line in out.split("\n"):
        if line.startswith(("\x01", "diff --git ")):
            hunk = False
        elif line.startswith("@@"):
            hunk = True
        elif hunk and line.startswith("+") and "\ufffd" not in line:
            added.add(line[1:].strip().encode("utf-8"))
    return added


def _status_only(merged: bytes, here: bytes, path: str) -> bool:
    """Whether the merged learning differs from the one here in its status fields alone (the other
    machine forgot, approved or deprecated this machine's learning): its text is still this machine's."""
    from lazy_harness.errors import LhError
    from lazy_harness.memory import status_fields

    try:
        text, mine = merged.decode("utf-8"), here.decode("utf-8")
        same = status_fields.fields_of(mine, path)
        # why not keep_layout: both written out whole, a forget another version wrote differs in its status alone
        return (status_fields.with_fields(text, path, same, keep_layout=False)
                == status_fields.with_fields(mine, path, same, keep_layout=False))
    except (LhError, UnicodeDecodeError):
        return False


def merged_keys(data: str, stage: str, changes: list[tuple[str, str, str]], projects: str,
                learnings: str) -> set[str]:
    """The keys of what the merge's version of each changed file (checked out in ``stage``) brings that
    the file here (in ``data``) lacks and this machine did not commit itself. ``projects``,
    ``learnings``: where memory and learnings are, relative to ``data`` (``/``-separated)."""
    from lazy_harness.memory import files

    def below(path: str, folder: str) -> bool:
        return folder in ("", ".") or path.startswith(folder + "/")

    learned: dict[str, tuple[str, bytes]] = {}  # a learning's path -> its merged blob and bytes
    lined: dict[str, set[bytes]] = {}  # a JSONL file's path -> the lines the merge adds
    for path, _, new in changes:
        name = path.rsplit("/", 1)[-1]
        if not new or not (name.endswith(".md") or name in (files.DECISIONS, files.FAILURES, files.HANDOFF_STATE)):
            continue
        merged, here = _read(os.path.join(stage, path)), _read(os.path.join(data, path))
        if merged is None or merged == here:
            continue
        if name.endswith(".md") and below(path, learnings):
            if here is None or not _status_only(merged, here, path):
                learned[path] = (new, merged)
        elif not name.endswith(".md") and below(path, projects) and (added := _lines(merged) - _lines(here)):
            lined[path] = added
    mine = made_here(data) if learned or lined else frozenset()
    kept = own_blobs(data, learnings, mine) if learned else set()
    out = {k for path, (blob, text) in learned.items() if blob not in kept
           for k in learning_keys(text, os.path.join(data, path))}
    wrote = own_lines(data, sorted(lined), mine)
    came = {path: {line for line in added if line not in wrote} for path, added in lined.items()}
    handoffs = {path for path in came if path.rsplit("/", 1)[-1] == files.HANDOFF_STATE}
    return (out | line_keys(line for path, added in came.items() if path not in handoffs for line in added)
            | opening_keys(line for path in handoffs for line in came[path]))


def record(keys: Iterable[str], env: Mapping[str, str] | None = None) -> None:
    """Add ``keys`` to the record (whole file replaced, 0600); raises OSError when it cannot be written."""
    keys = {k for k in keys if k and not any(c.isspace() for c in k)}
    if not keys:
        return
    path = paths.synced_in_file(env)
    had = _read(path) or b""
    new = sorted(keys - set(had.decode("utf-8", "replace").split()))
    if not new:
        return
    ensure_dir(os.path.dirname(path))
    head = had + (b"\n" if had and not had.endswith(b"\n") else b"")
    atomic_write(path, head + "".join(k + "\n" for k in new).encode("utf-8"))
    from lazy_harness.memory import provenance

    provenance.look_again()  # why: this process's next reader (the round's index update) sees it at once


def record_learning(text: bytes, path: str, env: Mapping[str, str] | None = None) -> None:
    """Record what a round keeps of the other machine's version (``conflicts.keep``): its learning at
    ``path``, a name of its own it is about to be written at (or holds it already): that place; its
    version of a learning or a line (``path`` a ``.jsonl`` file) journalled for ``lh memory undo``
    (the file at ``path`` holds this machine's): that version by its text (``<place>@<digest>``,
    ``<id>@<digest>``). ``path`` ``""``: nothing (its place not chosen yet). Raises OSError when the
    record cannot be written."""
    from lazy_harness.memory import files, provenance

    name = os.path.basename(path)
    if name in (files.DECISIONS, files.FAILURES):
        keys = version_keys(text, "decision" if name == files.DECISIONS else "failure")
    elif not path or not name.endswith(".md"):
        return
    elif (here := _read(path)) is None or here == text:
        keys = learning_keys(text, path)
    else:
        keys = {f"{provenance.learning_place(path)}@{provenance.learning_digest(text)}"}
    record(keys, env)
