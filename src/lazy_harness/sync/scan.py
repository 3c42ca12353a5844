"""The redactor's scan of what sync would commit or push: a staged line that holds a secret refuses
the commit, a line the remote lacks refuses the push, and unpushed commits that hold one are rewritten
into one commit of the current files (docs/how/sync.md, "When a secret refuses the round")."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
import time

from lazy_harness import logfile
from lazy_harness.regular_file import read_regular
from lazy_harness.sync.bounds import secret_names
from lazy_harness.sync.layout import outside_layout
from lazy_harness.sync.repo import BRANCH, SyncError, _empty_tree, _git, _has_head, _remote_has_branch, _run_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from collections.abc import Callable, Iterable, Iterator

# what the redactor scans: added lines only, every file as text, a moved file as new lines
DIFF_OPTIONS = ("--unified=0", "--no-color", "--no-ext-diff", "--no-renames", "--text")


def _message(now: float | None) -> str:
    return f"lh sync: {os.uname().nodename} {logfile.stamp(now)}"


def _refused(leaks: list[str], data: str) -> SyncError:
    """The refusal of ``leaks`` (``path:line``): a file's line is edited; a journal's copy goes with its
    journal (:func:`_journal_secrets`), nothing else takes the secret out of it."""
    files = list(dict.fromkeys(leak.rsplit(":", 1)[0] for leak in leaks))
    journals = [path for path in files if _is_journal(path)]
    runs = [os.path.basename(path)[:-len(".json")] for path in journals[:3]]
    ways = []
    if len(journals) < len(files):
        ways.append(f"edit that line of the file in {data} to remove or overwrite the secret")
    if len(runs) == 1:
        ways.append(f"remove {os.path.join(data, journals[0])} (the copy of the files run {runs[0]} changed, kept "
                    f"for its undo, secret included; to take that run back, lh memory undo {runs[0]} first and "
                    "edit the secret out of what it restores)")
    elif runs:
        ways.append(f"remove {', '.join(os.path.join(data, path) for path in journals[:3])} (the copies of the files "
                    "each run changed, kept for its undo, secrets included; to take a run back, lh memory undo RUN "
                    "first and edit the secret out of what it restores)")
    said = f" (the undo copy of run {runs[0]})" if len(runs) == 1 else f" (undo copies of runs {', '.join(runs)})"
    return SyncError(f"push refused: the redactor finds a secret in {', '.join(leaks[:5])}{said if runs else ''}",
                     hint="; ".join(ways) + ", then lh sync")


def commit_local(data: str, env: Mapping[str, str] | None = None, now: float | None = None,
                 extra: Iterable[str] = (), projects: str = "projects", learnings: str = "knowledge/learnings",
                 left_out: dict[str, str] | None = None, progress: Callable[[str], None] | None = None) -> bool:
    """Commit the changes to memory's files in the data folder (:func:`stage_memory`; ``projects``,
    ``learnings``: where they are, relative to it); each other path with a change is added to
    ``left_out`` with the reason. Raises SyncError (nothing committed) when a staged line holds
    something the redactor matches: a commit is never taken back once it is pushed. ``progress`` is
    told about a long scan (:func:`_added_secrets`)."""
    skipped = stage_memory(data, env, projects, learnings, extra)
    if left_out is not None:
        left_out.update(skipped)
    if _has_head(data, env) and _git(data, "diff", "--cached", "--quiet", check=False, env=env).ok:
        return False
    if not _has_head(data, env) and not _git(data, "diff", "--cached", "--name-only", env=env).stdout.strip():
        return False
    leaks = staged_secrets(data, extra, env, progress)
    if leaks:
        _git(data, "reset", "-q", env=env)  # why: unstage only; the files stay as they are for the edit
        raise _refused(leaks, data)
    _git(data, "commit", "-q", "--no-verify", "-m", _message(now), env=env)
    return True


def stage_memory(data: str, env: Mapping[str, str] | None = None, projects: str = "projects",
                 learnings: str = "knowledge/learnings", extra: Iterable[str] = ()) -> dict[str, str]:
    """Stage every change git sees (``.gitignore`` applied) to a path of memory's layout
    (``layout.outside_layout``) and every removal; returns ``{path: why}`` of each other changed path,
    left unstaged (one staged by hand is unstaged). why not ``git add -A``: a ``.DS_Store`` or a
    person's notes in the data folder, once pushed, made every machine refuse the remote. A new path
    whose name holds a secret (``bounds.secret_names``, ``extra``: the person's patterns) is left out
    too, named as the redactor shows it (:data:`SECRET_NAME`): no hold covers a name."""
    out = _git(data, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames",
               env=env).stdout
    stage, unstage, left, new = [], [], {}, {}
    for entry in out.split("\0"):
        xy, path = entry[:2], entry[3:]
        if not path or (xy[1] == " " and xy[0] != "?" and outside_layout(path, projects, learnings) is None):
            # why: staged already as the folder holds it (a removal ``git rm`` or a killed round staged:
            # ``git add`` of a path gone from both the index and the folder fails every round after)
            continue
        why = outside_layout(path, projects, learnings)
        if why is None or xy[1] == "D":  # why a removal too: it takes nothing out of memory
            stage.append(path)
            if xy[0] in "?A" and xy[1] != "D":
                new[path] = xy[0]
        elif xy[0] != "D":  # a removal staged by hand (``git rm --cached``) is committed as it is
            left[path] = why
            if xy[0] not in " ?":
                unstage.append(path)
    _hide_secret_names(data, new, left, stage, unstage, extra)
    _stage(data, env, stage, unstage)
    return left


def _hide_secret_names(data: str, new: dict[str, str], left: dict[str, str], stage: list[str],
                       unstage: list[str], extra: Iterable[str]) -> None:
    """Leave out each of ``new`` (``{path: index status}``) whose name holds a secret, and a new journal
    whose run changed such a file (its ``path`` names it: the round refused every commit for that line,
    asking for an edit of the file's text, which holds no secret); the journal stays here, where the
    file is, for the run's undo. Name each path of ``left`` that holds a secret as the redactor shows
    it: the ``not synced`` line is printed by ``lh sync``, kept by ``lh sync --status`` and written to
    worker.log (a person's notes in the data folder named with a key)."""
    found = secret_names([*new, *left], extra)
    journals = journals_of_secret_names(data, [p for p in new if p not in found], extra)
    found.update((path, path) for path in journals)
    for path, shown in found.items():
        if path in left:
            left[shown] = left.pop(path)
            continue
        stage.remove(path)
        why = journals.get(path, SECRET_NAME)
        if why:
            left[shown] = why
        if new[path] == "A":
            unstage.append(path)


def journals_of_secret_names(data: str, paths: Iterable[str], extra: Iterable[str]) -> dict[str, str | None]:
    """Those of ``paths`` (in the data folder) that are journals whose run changed a file whose name holds
    a secret (their ``path`` names it, a line no edit of the file's text takes the secret out of), each
    with what the ``not synced`` line says of it: :data:`JOURNAL_OF_SECRET_NAME` while such a file is
    here, kept for its name; None once none is (renamed or deleted: the journal stays here all the same,
    its undo is of a file the other machines never had, and naming it each round asks nothing of the
    person)."""
    names = {path: _journal_names(data, path) for path in paths if _is_journal(path)}
    hidden = secret_names({name for some in names.values() for name in some}, extra)  # why one pass: see there
    found: dict[str, str | None] = {}
    for path, some in names.items():
        named = [name for name in some if name in hidden]
        if named:
            folder = os.path.dirname(os.path.dirname(os.path.join(data, path)))  # the run's memory folder
            here = any(os.path.lexists(os.path.join(folder, name)) for name in named)
            found[path] = JOURNAL_OF_SECRET_NAME if here else None
    return found


def _journal_names(data: str, path: str) -> list[str]:
    """The paths of the files the journal at ``path`` (in the data folder) says its run changed; none
    for a journal that does not read as one."""
    try:
        files = json.loads(read_regular(os.path.join(data, path))).get("files")  # why: a FIFO held the scan
        return [str(f.get("path")) for f in files if isinstance(f, dict)] if isinstance(files, list) else []
    except (OSError, ValueError, AttributeError, RecursionError):
        return []


# why "kept here": a name is never rewritten by sync; the person renames the file, and it goes out
SECRET_NAME = "a name in which the redactor finds a secret, kept here (rename the file to sync it)"
JOURNAL_OF_SECRET_NAME = ("the undo record of a run that changed a file kept here for its name, kept here with it "
                          "(it names the file)")


def _stage(data: str, env: Mapping[str, str] | None, stage: list[str], unstage: list[str]) -> None:
    """``git add`` of ``stage``, and ``unstage`` taken out of the index (the files stay)."""
    # why literal: a file name may hold ``*`` or ``:(``, which git reads as pathspec magic
    lenv = {**(os.environ if env is None else env), "GIT_LITERAL_PATHSPECS": "1"}
    if stage:
        _run_input(data, ["add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"], "\0".join(stage), lenv)
    if unstage and _has_head(data, env):
        _run_input(data, ["reset", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"], "\0".join(unstage), lenv)
    elif unstage:
        _run_input(data, ["rm", "-q", "--cached", "--pathspec-from-file=-", "--pathspec-file-nul"],
                   "\0".join(unstage), lenv)


def left_out_line(left: Mapping[str, str], shown: int = 5) -> str | None:
    """One line naming the paths a round left out and why (``commit_local``'s ``left_out``), the
    paths of each reason together; None when there are none."""
    if not left:
        return None
    by_why: dict[str, list[str]] = {}
    for path in sorted(left):
        by_why.setdefault(left[path], []).append(path)
    parts = []
    for why, some in by_why.items():
        more = f" and {len(some) - shown} more" if len(some) > shown else ""
        names = ", ".join(logfile.terminal_safe(path, keep="") for path in some[:shown])  # a name may hold "\n"
        parts.append(f"{names}{more}: {why}")
    return "not synced: " + "; ".join(parts)


# why: one redactor pass over many added lines joined costs what one line's pass costs (each pass
# runs some forty rules, whatever the length): a pass per line took 20 s on an 11 MB usage.jsonl
BLOCK = 1 << 16  # characters of added lines read in one pass where the run they are in has a match
PROGRESS_AFTER = 3.0  # seconds a scan runs before it says so, and between two such lines
# why: a line read alone ends its text, and the rules for a value cut where a text ends (an open
# quote, redact/assignments.py "open"; a URL's password before "@", redact/kinds.py "\Z") match at
# its end; lines joined end in "\n", which they never match. A line that holds one of the words
# those rules start from (their names' keywords, "://") is read alone too, whatever its block says
_READ_ALONE = re.compile(r"pass|pw|secret|token|cred|key|auth|://", re.IGNORECASE)


class _Ticker:
    """Calls ``say`` with one line about the scan once it has run ``PROGRESS_AFTER`` seconds, then
    every ``PROGRESS_AFTER`` seconds; never on a quick scan."""

    def __init__(self, size: int, say: Callable[[str], None] | None, clock: Callable[[], float] | None) -> None:
        self.size, self.say, self.clock = size, say, clock or time.monotonic
        self.next = self.clock() + PROGRESS_AFTER if say is not None else 0.0
        self.done = 0

    def __call__(self, chars: int) -> None:
        self.done += chars
        if self.say is None:
            return
        now = self.clock()
        if now >= self.next:
            self.next = now + PROGRESS_AFTER
            self.say(f"scanning {_mb(self.size)} for secrets before the push… {_mb(self.done)} read")


def _mb(chars: int) -> str:
    return f"{chars / 1e6:.1f} MB" if chars < 10e6 else f"{chars / 1e6:.0f} MB"


def _added_runs(diff: str) -> Iterator[tuple[str, int, list[str]]]:
    """``(path, first line's number, lines)`` for each run of added lines in a row of a ``--unified=0``
    diff (one or many)."""
    path, line_no, header = "?", 0, False
    run: list[str] = []
    for line in diff.split("\n"):  # why not splitlines(): it also breaks at U+2028, \x0c, \r..., and the
        # part after such a character, not starting with "+", would never reach the redactor
        if not (not header and line.startswith("+")) and run:
            yield path, line_no - len(run), run
            run = []
        if line.startswith("diff "):
            header = True  # why: an added line "++ x" reads "+++ x": only a header line names a file
        elif header and line.startswith("+++ "):
            path = line[6:] if line.startswith("+++ b/") else line[4:]
        elif line.startswith("@@"):
            header = False
            try:
                line_no = int(line.split("+", 1)[1].split(",", 1)[0].split(" ", 1)[0])
            except (IndexError, ValueError):
                line_no = 0
        elif not header and line.startswith("+"):
            run.append(line[1:])
            line_no += 1
    if run:
        yield path, line_no - len(run), run


def _added_secrets(diff: str, extra: Iterable[str] = (), progress: Callable[[str], None] | None = None,
                   clock: Callable[[], float] | None = None) -> list[str]:
    """``path:line`` for every added line of a ``--unified=0`` diff (one or many) the redactor matches,
    read alone; then, for a run of added lines in a row none of which does, the run's first line when
    the redactor matches the run read together. ``progress`` is told about a long scan (``_Ticker``)."""
    from lazy_harness.redact import redact

    found: list[str] = []
    tick = _Ticker(len(diff), progress, clock)
    seen: dict[str, bool] = {}  # the journals' decoded texts and lines judged so far (_journal_secrets)
    for path, first, run in _added_runs(diff):
        # why journals only: decoding costs the other files' lines nothing
        hits = (_journal_secrets(run, tuple(extra), redact, tick, seen) if _is_journal(path)
                else _run_secrets(run, tuple(extra), redact, tick))
        found += [f"{path}:{first + k}" for k in hits]
    return found


def _is_journal(path: str) -> bool:
    """Whether ``path`` (in the data folder) is a journal, ``<memory dir>/journal/<run>.json``."""
    parts = path.split("/")
    return len(parts) >= 2 and parts[-2] == "journal" and parts[-1].endswith(".json")


def _journal_secrets(run: list[str], extra: tuple[str, ...], redact: Callable[[str, tuple[str, ...]], tuple[str, int]],
                     tick: Callable[[int], None], seen: dict[str, bool]) -> list[int]:
    """:func:`_run_secrets` for the added lines of a journal (memory/journal.py), with what they hold
    encoded read decoded: a file's ``before`` as the file's text (:func:`_copy_holds_secret`) in place
    of its base64, and each string with JSON escapes read unescaped (a line a run appended or took out,
    a field), all of a run's such strings read as the scan reads a run."""
    decoded = [_journal_texts(line) for line in run]
    plain = []
    for line, texts in zip(run, decoded, strict=True):
        copy = any(is_copy for _, is_copy in texts)
        # why the base64 left out: its letters read as words (``pw``, ``key``) cost a pass a line and
        # hold nothing the decoded text does not
        plain.append('"before": ""' if copy else line)
        tick(len(line) if copy else 0)
    found = set(_run_secrets(plain, extra, redact, tick))
    escaped: list[str] = []
    owner: list[int] = []
    for k, texts in enumerate(decoded):
        for text, is_copy in texts:
            if is_copy and _copy_holds_secret(text, extra, redact, seen):
                found.add(k)
            elif not is_copy:
                escaped.append(text)
                owner.append(k)
    if escaped:
        found.update(owner[i] for i in _run_secrets(escaped, extra, redact, lambda _chars: None))
    return sorted(found)


def _copy_holds_secret(text: str, extra: tuple[str, ...], redact: Callable[[str, tuple[str, ...]], tuple[str, int]],
                       seen: dict[str, bool]) -> bool:
    """Whether the redactor matches a journal's copy of a file as it matches the file's own added lines:
    the text read together, then each line :func:`_run_secrets` reads alone. ``seen``: what was judged
    already. why: a run's journal copies the whole file (marks.jsonl, as long as the person's history),
    so a first sync reads the same lines in hundreds of copies; each is read alone once."""
    key = "\0copy:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    if key not in seen:
        hit = redact(text, extra)[1] > 0
        for line in text.split("\n"):  # why not splitlines(): see _added_runs
            if hit:
                break
            if _READ_ALONE.search(line) or _escaped_json(line):
                if line not in seen:
                    seen[line] = _holds_secret(line, extra, redact)
                hit = seen[line]
        seen[key] = hit
    return seen[key]


def _journal_texts(line: str) -> list[tuple[str, bool]]:
    """``(text, is a file's copy)`` for what one line of a journal holds encoded: a ``before`` value
    decoded (base64 of the file's bytes), then the line's strings as they read (``\\"``, ``\\n``
    unescaped) when it holds escapes or a copy; none for a line that holds neither. A journal is saved
    with ``indent=1``, one key or one list item a line (``"before": "..."``, ``"{\\"op\\": ...}",``);
    one saved on a line of its own (by hand, another version) is read whole."""
    s = line.strip().rstrip(",")
    if "\\" not in s and '"before"' not in s:
        return []  # why: the line as it is holds every other string; the raw line was scanned
    for wrapped in (s, "{" + s + "}", "[" + s + "]"):
        try:
            value = json.loads(wrapped)
            break
        except (ValueError, RecursionError):
            continue
    else:
        return []
    copies: list[tuple[str, bool]] = []
    strings: list[tuple[str, bool]] = []
    todo: list[tuple[object, object]] = [(None, value)]
    while todo:
        key, item = todo.pop()
        if isinstance(item, dict):
            todo += [(None, k) for k in item] + list(item.items())
        elif isinstance(item, list):
            todo += [(None, v) for v in item]
        elif isinstance(item, str) and key == "before":
            try:
                copies.append((base64.b64decode(item, validate=True).decode("utf-8", "replace"), True))
            except (binascii.Error, ValueError):
                strings.append((item, False))
        elif isinstance(item, str):
            strings.append((item, False))
    # why every string of a line with a copy: :func:`_journal_secrets` reads that line without its raw text
    return copies + strings if copies or "\\" in s else []


def _run_secrets(run: list[str], extra: tuple[str, ...], redact: Callable[[str, tuple[str, ...]], tuple[str, int]],
                 tick: Callable[[int], None]) -> list[int]:
    """The indexes in ``run`` of the lines the redactor matches read alone; else ``[0]`` when it
    matches the lines read together (a secret over several lines: ``password: |`` and the value under
    it, a key wrapped by a terminal, is one in no line alone); else none."""
    # why the whole run first: a run with no match (nearly every one) costs one pass and a pass over
    # each line _READ_ALONE picks; with one, its blocks say where to read each line alone
    together = redact("\n".join(run), extra)[1] > 0
    found: list[int] = []
    start = 0
    while start < len(run):
        end, size = start, 0
        while end < len(run) and (end == start or size + len(run[end]) <= BLOCK):
            size += len(run[end]) + 1
            end += 1
        hit = together and (end - start == len(run) or redact("\n".join(run[start:end]), extra)[1] > 0)
        found += [k for k in range(start, end)
                  if (hit or _READ_ALONE.search(run[k]) or _escaped_json(run[k]))
                  and _holds_secret(run[k], extra, redact)]
        tick(size)
        start = end
    return [0] if not found and together and len(run) > 1 else found


def _escaped_json(line: str) -> bool:
    return "\\" in line and line.lstrip().startswith(("{", "["))


def _holds_secret(line: str, extra: tuple[str, ...], redact: Callable[[str, tuple[str, ...]], tuple[str, int]]) -> bool:
    """Whether the redactor matches ``line``, or, for a JSON line with escapes, one of its strings:
    ``password=\\"x\\"`` in a JSONL file is ``password="x"`` once read."""
    if redact(line, extra)[1]:
        return True
    if "\\" not in line or not line.lstrip().startswith(("{", "[")):
        return False
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return False
    todo, texts = [value], []
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            texts.append(item)
        elif isinstance(item, dict):
            todo += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            todo += item
    return any(redact(text, extra)[1] for text in texts)


def staged_secrets(data: str, extra: Iterable[str] = (), env: Mapping[str, str] | None = None,
                   progress: Callable[[str], None] | None = None) -> list[str]:
    """``path:line`` for every secret the redactor finds in lines staged since the last commit."""
    base = "HEAD" if _has_head(data, env) else _empty_tree(data, env)
    return _added_secrets(_git(data, "diff", "--cached", *DIFF_OPTIONS, base, env=env).stdout, extra, progress)


def outgoing_secrets(data: str, extra: Iterable[str] = (), env: Mapping[str, str] | None = None,
                     progress: Callable[[str], None] | None = None) -> list[str]:
    """``path:line`` for every secret the redactor finds in lines HEAD holds and the remote lacks."""
    base = f"origin/{BRANCH}" if _remote_has_branch(data, env) else _empty_tree(data, env)
    return _added_secrets(_git(data, "diff", *DIFF_OPTIONS, base, "HEAD", env=env).stdout, extra, progress)


def unpushed_secrets(data: str, extra: Iterable[str] = (), env: Mapping[str, str] | None = None,
                     progress: Callable[[str], None] | None = None) -> list[str]:
    """``path:line`` for every secret the redactor finds in any commit a push would send: each commit
    against its parent, a merge against each of its parents."""
    # why: a push sends every commit, not only the last state; a merge diffed against each parent also
    # shows the lines it took from the remote, which at worst costs a needless rewrite, never a leak
    since = ["--not", f"refs/remotes/origin/{BRANCH}"] if _remote_has_branch(data, env) else []
    log = _git(data, "log", "-p", "-m", "--format=", *DIFF_OPTIONS, "HEAD", *since, env=env).stdout
    return _added_secrets(log, extra, progress)


def rewrite_unpushed(data: str, env: Mapping[str, str] | None = None, now: float | None = None,
                     tree: str = "HEAD^{tree}") -> None:
    """Replace the commits a push would send by one commit of HEAD's files (``tree``: of those files)
    on top of ``origin/main`` (a root commit when the remote has no branch yet). Call after the merge:
    HEAD's files then hold everything the remote has. Commits already on the remote, the index and the
    files stay as they are."""
    old = _git(data, "rev-parse", "HEAD", env=env).stdout.strip()
    parent = ["-p", f"refs/remotes/origin/{BRANCH}"] if _remote_has_branch(data, env) else []
    new = _git(data, "commit-tree", tree, *parent, "-m", _message(now), env=env).stdout.strip()
    _git(data, "update-ref", "-m", "lh sync: unpushed commits held a secret", "HEAD", new, old, env=env)
