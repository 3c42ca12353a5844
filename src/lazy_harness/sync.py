"""Memory across machines, carried by git: the data folder is a repository, ``lh sync`` one round.

One round, under ``<data>/.sync.lock`` (one sync at a time on a machine):
1. repair what a killed round left (a stale ``index.lock``, a half-done merge);
2. commit local changes (``git add -A``: the data folder only; ``.gitignore`` keeps locks, stamps,
   temp files and the rendered handoff.md out), after scanning the staged lines with the redactor: a
   match refuses the round and nothing is committed;
3. fetch, merge ``origin/main`` with our merge drivers, render handoff.md again where the handoff
   state changed;
4. scan what would go out with the redactor: a line the files hold and the remote lacks refuses the
   push, naming file and line; a commit a push would send that holds a match (left by a version
   that committed before scanning) gets the unpushed commits rewritten into one commit of the
   current files on top of ``origin/main``; commits already on the remote are never touched;
5. push; a push that lost a race with another machine goes back to 3 (a few times).

Merging never conflicts: ``*.jsonl`` files merge as a three-way set of lines (entries keyed by id, so
the same entry written on two machines stays one; a line one side removed since the common base, as
``lh memory undo`` does, stays removed); learnings are write-once markdown, and when both sides hold
the same learning file the one whose status moved on (deprecated, forgotten) wins, else ours.
Journals and consolidation state are unique per run or machine-local.

Not on the hook path except :func:`pull_for_session`, which is bounded by a deadline.
"""

from __future__ import annotations

import json
import os
import sys
import time

from lazy_harness import logfile, paths, proc
from lazy_harness.atomic import atomic_write, ensure_dir
from lazy_harness.errors import LhError

BRANCH = "main"
STATE = ".sync-state.json"
LOCK = ".sync.lock"
GIT_TIMEOUT = 120.0
PUSH_TRIES = 4
# what the redactor scans: added lines only, every file as text, a moved file as new lines
DIFF_OPTIONS = ("--unified=0", "--no-color", "--no-ext-diff", "--no-renames", "--text")
IGNORE = """# machine-local state of lazy-harness: never synced
.sync.lock
.sync-state.json
*.lock
*.tmp
consolidate.scan
projects/*/handoff.md
projects/*/.handoff-open.json
settings-backups/
"""
ATTRIBUTES = """*.jsonl merge=lh-lines
*.md merge=lh-learning
"""


class SyncError(LhError):
    """A sync round could not complete; nothing local was lost."""


def _git(data: str, *args: str, timeout: float = GIT_TIMEOUT, check: bool = True, env=None) -> proc.Result:
    genv = dict(os.environ if env is None else env)
    # why: never a prompt, and a remote that stalls (http under 1 kB/s for 20 s, ssh unreachable for
    # 10 s) fails the round instead of holding it for minutes
    genv.update(GIT_TERMINAL_PROMPT="0", GIT_ASKPASS="true", LC_ALL="C", GIT_HTTP_LOW_SPEED_LIMIT="1000",
                GIT_HTTP_LOW_SPEED_TIME="20",
                GIT_SSH_COMMAND=genv.get("GIT_SSH_COMMAND") or "ssh -o BatchMode=yes -o ConnectTimeout=10")
    try:
        result = proc.run(["git", "-C", data, *args], timeout=timeout, env=genv)
    except proc.CommandNotFound:
        raise SyncError("git not found", hint="install git") from None
    if check and not result.ok:
        raise SyncError(f"git {args[0]} failed: {result.describe()}", hint="lh sync --status")
    return result


def configured_remote(cfg: dict) -> str:
    return str((cfg.get("sync") or {}).get("remote") or "")


def check_layout(cfg: dict, env=None) -> str:
    """The data folder; refuses when memory or learnings were moved out of it (they would not sync)."""
    data = paths.data_dir(env)
    for what, folder in (("[memory] path", paths.memory_root(cfg.get("memory", {}).get("path") or None, env)),
                         ("[knowledge] path", paths.knowledge_dir(cfg["knowledge"]["path"] or None, env))):
        if not paths.is_within(folder, data):
            raise SyncError(f"{what} {folder} is outside the data folder {data}: it cannot be synced",
                            hint="leave it empty to keep memory in the data folder")
    return data


def ensure_repo(data: str, remote: str, env=None) -> None:
    """Make the data folder a repository with our ignore rules, merge drivers and ``origin``."""
    ensure_dir(data)
    if not os.path.isdir(os.path.join(data, ".git")):
        _git(data, "init", "-q", env=env)
        _git(data, "symbolic-ref", "HEAD", f"refs/heads/{BRANCH}", env=env)
    for name, text in ((".gitignore", IGNORE), (".gitattributes", ATTRIBUTES)):
        path = os.path.join(data, name)
        try:
            with open(path, encoding="utf-8") as fh:
                current = fh.read()
        except OSError:
            current = None
        if current != text:
            atomic_write(path, text)
    driver = f"{sys.executable} -m lazy_harness.sync"
    settings = {
        "user.name": "lazy-harness", "user.email": "lazy-harness@localhost", "commit.gpgsign": "false",
        "core.symlinks": "false",  # why: a link from the remote is checked out as a plain file, never followed
        "merge.lh-lines.name": "lazy-harness: union of JSONL lines by id",
        "merge.lh-lines.driver": f"{driver} merge-lines %O %A %B",
        "merge.lh-learning.name": "lazy-harness: write-once learnings",
        "merge.lh-learning.driver": f"{driver} merge-learning %O %A %B",
        "core.quotepath": "false",
    }
    stamp = os.path.join(data, ".git", "lh-setup")
    wanted = json.dumps(settings, sort_keys=True)
    try:
        with open(stamp, encoding="utf-8") as fh:
            done = fh.read() == wanted
    except OSError:
        done = False
    if not done:  # why: eight `git config` runs cost more than the rest of a quiet round
        for key, value in settings.items():
            _git(data, "config", key, value, env=env)
        atomic_write(stamp, wanted)
    have = _git(data, "remote", "get-url", "origin", check=False, env=env)
    if not have.ok:
        _git(data, "remote", "add", "origin", remote, env=env)
    elif have.stdout.strip() != remote:
        _git(data, "remote", "set-url", "origin", remote, env=env)


def repair(data: str, env=None) -> list[str]:
    """Undo what a round killed half-way left behind. Call only while holding the sync lock."""
    done = []
    gitdir = os.path.join(data, ".git")
    index_lock = os.path.join(gitdir, "index.lock")
    if os.path.exists(index_lock):
        os.unlink(index_lock)  # why: we hold the sync lock, so no git of ours is running here
        done.append("removed a stale index.lock")
    if os.path.exists(os.path.join(gitdir, "MERGE_HEAD")):
        _git(data, "merge", "--abort", check=False, env=env)
        done.append("aborted a half-done merge")
    for ref_lock in _ref_locks(gitdir):
        os.unlink(ref_lock)
        done.append(f"removed {os.path.relpath(ref_lock, gitdir)}")
    return done


def _ref_locks(gitdir: str) -> list[str]:
    out = []
    for base, _, names in os.walk(os.path.join(gitdir, "refs")):
        out += [os.path.join(base, n) for n in names if n.endswith(".lock")]
    if os.path.exists(os.path.join(gitdir, "HEAD.lock")):
        out.append(os.path.join(gitdir, "HEAD.lock"))
    return out


def _fetch(data: str, env=None) -> None:
    """Fetch ``origin``. A round killed inside a fetch can leave the remote-tracking ref out of step
    with git's own bookkeeping ("cannot lock ref"); that ref is only a copy of the remote's, so it is
    dropped and fetched again."""
    first = _git(data, "fetch", "-q", "origin", check=False, env=env)
    if first.ok:
        return
    _git(data, "update-ref", "-d", f"refs/remotes/origin/{BRANCH}", check=False, env=env)
    for ref_lock in _ref_locks(os.path.join(data, ".git")):
        os.unlink(ref_lock)
    _git(data, "fetch", "-q", "origin", env=env)


def _has_head(data: str, env=None) -> bool:
    return _git(data, "rev-parse", "-q", "--verify", "HEAD", check=False, env=env).ok


def _message(now: float | None) -> str:
    return f"lh sync: {os.uname().nodename} {logfile.stamp(now)}"


def _refused(leaks: list[str], data: str) -> SyncError:
    return SyncError(f"push refused: the redactor finds a secret in {', '.join(leaks[:5])}",
                     hint=f"edit that line of the file in {data} to remove or overwrite the secret, then lh sync")


def commit_local(data: str, env=None, now: float | None = None, extra=()) -> bool:
    """Commit the data folder's changes; raises SyncError (nothing committed) when a staged line holds
    something the redactor matches: a commit is never taken back once it is pushed."""
    _git(data, "add", "-A", env=env)
    if _has_head(data, env) and _git(data, "diff", "--cached", "--quiet", check=False, env=env).ok:
        return False
    if not _has_head(data, env) and not _git(data, "diff", "--cached", "--name-only", env=env).stdout.strip():
        return False
    leaks = staged_secrets(data, extra, env)
    if leaks:
        _git(data, "reset", "-q", env=env)  # why: unstage only; the files stay as they are for the edit
        raise _refused(leaks, data)
    _git(data, "commit", "-q", "--no-verify", "-m", _message(now), env=env)
    return True


def _remote_has_branch(data: str, env=None) -> bool:
    return _git(data, "rev-parse", "-q", "--verify", f"refs/remotes/origin/{BRANCH}", check=False, env=env).ok


def _refuse_links(data: str, env=None) -> None:
    """Refuse a remote whose tree holds anything but plain files: a symbolic link checked out as
    ``projects`` or ``knowledge/learnings`` would send every later write of the worker outside the
    data folder; a submodule has no place in it either."""
    for line in _git(data, "ls-tree", "-r", "--full-tree", f"origin/{BRANCH}", env=env).stdout.splitlines():
        mode, _, rest = line.partition(" ")
        if mode not in ("100644", "100755"):
            path = rest.partition("\t")[2]
            raise SyncError(f"the remote holds {'a symbolic link' if mode == '120000' else 'a non-file'} at "
                            f"{path!r}: refused, nothing merged", hint="delete it on the remote, then lh sync")


def merge_remote(data: str, env=None) -> list[str]:
    """Merge ``origin/main`` into ours; returns the paths the merge changed here."""
    if not _remote_has_branch(data, env):
        return []
    _refuse_links(data, env)
    before = _git(data, "rev-parse", "-q", "--verify", "HEAD", check=False, env=env).stdout.strip()
    if not before:
        _git(data, "reset", "-q", "--hard", f"origin/{BRANCH}", env=env)  # nothing of ours yet
        return _git(data, "ls-files", env=env).stdout.splitlines()
    result = _git(data, "merge", "-q", "--no-edit", "--allow-unrelated-histories", f"origin/{BRANCH}",
                  check=False, env=env)
    if not result.ok:
        _git(data, "merge", "--abort", check=False, env=env)
        raise SyncError(f"merge with the remote failed: {result.describe()}", hint="lh sync --status")
    after = _git(data, "rev-parse", "HEAD", env=env).stdout.strip()
    if after == before:
        return []
    return _git(data, "diff", "--name-only", before, after, env=env).stdout.splitlines()


def rerender_handoffs(data: str, changed: list[str], now: float) -> None:
    """handoff.md is rendered from handoff.jsonl and not synced: render it where the state moved."""
    folders = {os.path.dirname(os.path.join(data, p)) for p in changed if p.endswith("handoff.jsonl")}
    if not folders:
        return
    from lazy_harness.memory import handoff

    for folder in folders:
        handoff.write_markdown(folder, {"session_id": "sync", "task_id": "sync"}, now)


def _added_secrets(diff: str, extra=()) -> list[str]:
    """``path:line`` for every added line of a ``--unified=0`` diff (one or many) the redactor matches."""
    from lazy_harness.redact import redact

    found, path, line_no, header = [], "?", 0, False
    for line in diff.splitlines():
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
            if _holds_secret(line[1:], tuple(extra), redact):
                found.append(f"{path}:{line_no}")
            line_no += 1
    return found


def _holds_secret(line: str, extra: tuple, redact) -> bool:
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


def staged_secrets(data: str, extra=(), env=None) -> list[str]:
    """``path:line`` for every secret the redactor finds in lines staged since the last commit."""
    base = "HEAD" if _has_head(data, env) else _empty_tree(data, env)
    return _added_secrets(_git(data, "diff", "--cached", *DIFF_OPTIONS, base, env=env).stdout, extra)


def outgoing_secrets(data: str, extra=(), env=None) -> list[str]:
    """``path:line`` for every secret the redactor finds in lines HEAD holds and the remote lacks."""
    base = f"origin/{BRANCH}" if _remote_has_branch(data, env) else _empty_tree(data, env)
    return _added_secrets(_git(data, "diff", *DIFF_OPTIONS, base, "HEAD", env=env).stdout, extra)


def unpushed_secrets(data: str, extra=(), env=None) -> list[str]:
    """``path:line`` for every secret the redactor finds in any commit a push would send: each commit
    against its parent, a merge against each of its parents."""
    # why: a push sends every commit, not only the last state; a merge diffed against each parent also
    # shows the lines it took from the remote, which at worst costs a needless rewrite, never a leak
    since = ["--not", f"refs/remotes/origin/{BRANCH}"] if _remote_has_branch(data, env) else []
    log = _git(data, "log", "-p", "-m", "--format=", *DIFF_OPTIONS, "HEAD", *since, env=env).stdout
    return _added_secrets(log, extra)


def rewrite_unpushed(data: str, env=None, now: float | None = None) -> None:
    """Replace the commits a push would send by one commit of HEAD's files on top of ``origin/main``
    (a root commit when the remote has no branch yet). Call after the merge: HEAD's files then hold
    everything the remote has. Commits already on the remote, the index and the files stay as they are."""
    old = _git(data, "rev-parse", "HEAD", env=env).stdout.strip()
    parent = ["-p", f"refs/remotes/origin/{BRANCH}"] if _remote_has_branch(data, env) else []
    new = _git(data, "commit-tree", "HEAD^{tree}", *parent, "-m", _message(now), env=env).stdout.strip()
    _git(data, "update-ref", "-m", "lh sync: unpushed commits held a secret", "HEAD", new, old, env=env)


def _empty_tree(data: str, env=None) -> str:
    return _git(data, "hash-object", "-t", "tree", "/dev/null", env=env).stdout.strip()


def read_state(data: str) -> dict:
    try:
        with open(os.path.join(data, STATE), encoding="utf-8") as fh:
            value = json.load(fh)
        return value if isinstance(value, dict) else {}
    except (OSError, ValueError):
        return {}


def _save_state(data: str, **fields) -> None:
    state = read_state(data)
    state.update(fields)
    try:
        atomic_write(os.path.join(data, STATE), json.dumps(state, indent=1) + "\n")
    except OSError:
        pass


class _Lock:
    def __init__(self, data: str, wait: bool) -> None:
        self.path, self.wait, self.fd = os.path.join(data, LOCK), wait, -1

    def __enter__(self):
        import fcntl

        ensure_dir(os.path.dirname(self.path))
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | (0 if self.wait else fcntl.LOCK_NB))
        except BlockingIOError:
            os.close(self.fd)
            raise SyncError("another lh sync is running", hint="lh sync --status") from None
        return self

    def __exit__(self, *exc) -> None:
        os.close(self.fd)


def run(cfg: dict, env=None, now: float | None = None, wait: bool = True, push: bool = True) -> dict:
    """One sync round; returns what happened. Raises SyncError with the reason when it cannot."""
    now = time.time() if now is None else now
    remote = configured_remote(cfg)
    if not remote:
        raise SyncError("no remote configured", hint="set [sync] remote in config.toml (lh config path)")
    data = check_layout(cfg, env)
    extra = tuple(cfg["compound_loop"].get("redact_patterns") or ())
    with _Lock(data, wait):
        try:
            ensure_repo(data, remote, env)
            repaired = repair(data, env)
            committed = commit_local(data, env, now, extra)
            changed: list[str] = []
            pushed = rewritten = False
            for _ in range(PUSH_TRIES):
                _fetch(data, env)
                changed += merge_remote(data, env)
                if not push or not _has_head(data, env):
                    break
                leaks = outgoing_secrets(data, extra, env)
                if leaks:
                    raise _refused(leaks, data)
                if unpushed_secrets(data, extra, env):
                    rewrite_unpushed(data, env, now)
                    rewritten = True
                result = _git(data, "push", "-q", "origin", f"HEAD:refs/heads/{BRANCH}", check=False, env=env)
                if result.ok:
                    pushed = True
                    break
                if "rejected" not in result.stderr and "fetch first" not in result.stderr:
                    raise SyncError(f"push failed: {result.describe()}", hint="lh sync --status")
            rerender_handoffs(data, changed, now)
        except SyncError as exc:
            _save_state(data, last_error=f"{logfile.stamp(now)} {exc.message}")
            raise
        summary = {"committed": committed, "merged": len(changed), "pushed": pushed, "repaired": repaired,
                   "rewritten": rewritten}
        _save_state(data, last_sync=logfile.stamp(now), last_error=None, remote=remote)
        return summary


def auto_sync(cfg: dict, env=None, now: float | None = None) -> str | None:
    """The worker's sync after it wrote memory: at most every ``interval_minutes``; never raises.
    Returns a line for worker.log, or None when nothing was due."""
    s = cfg.get("sync") or {}
    if not s.get("remote") or not s.get("auto"):
        return None
    now = time.time() if now is None else now
    stamp = os.path.join(paths.data_dir(env), ".sync-push")
    try:
        if now - os.stat(stamp).st_mtime < int(s["interval_minutes"]) * 60:
            return None
    except OSError:
        pass
    try:
        atomic_write(stamp, "")
        result = run(cfg, env, now, wait=False)
    except LhError as exc:
        return f"sync: {exc.message}"
    rewritten = ", unpushed commits that held a secret rewritten as one" if result["rewritten"] else ""
    return (f"sync: {result['merged']} file(s) merged{rewritten}, "
            f"{'pushed' if result['pushed'] else 'nothing pushed'}")


def status(cfg: dict, env=None) -> dict:
    """ahead, behind (against the last fetch), last sync, last error, remote."""
    data = paths.data_dir(env)
    state = read_state(data)
    out = {"remote": configured_remote(cfg) or None, "last_sync": state.get("last_sync"),
           "last_error": state.get("last_error"), "ahead": None, "behind": None, "data": data}
    if os.path.isdir(os.path.join(data, ".git")) and _has_head(data, env) and _remote_has_branch(data, env):
        counts = _git(data, "rev-list", "--left-right", "--count", f"HEAD...origin/{BRANCH}", env=env).stdout.split()
        if len(counts) == 2:
            out["ahead"], out["behind"] = int(counts[0]), int(counts[1])
    return out


# --- merge drivers (git runs ``python -m lazy_harness.sync merge-lines %O %A %B``) ------------------

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


if __name__ == "__main__":
    sys.exit(_driver(sys.argv[1:]))
