"""One sync round (the steps in the package docstring) under ``<data>/.sync.lock``, the worker's
``auto_sync`` after it wrote memory, ``status``, and the state file that keeps the last sync and error."""

from __future__ import annotations

import json
import os
import time
from contextlib import suppress

from lazy_harness import logfile, paths
from lazy_harness.atomic import atomic_write, ensure_dir
from lazy_harness.errors import LhError
from lazy_harness.regular_file import read_regular
from lazy_harness.sync import arrivals, conflicts, forgotten, replaced, sent_names
from lazy_harness.sync.after_merge import (hold_merged, incoming_ids, recount_usage, record_handoff_edits,
                                           rerender_handoffs)
from lazy_harness.sync.leftovers import repair
from lazy_harness.sync.merge import _fetch, known_remote, merge_remote, remember_remote, rewritten_from
from lazy_harness.sync.repo import BRANCH, SyncError, _git, _has_head, _remote_has_branch, one_line, refusal
from lazy_harness.sync.repo_setup import ensure_repo
from lazy_harness.sync.scan import (_refused, commit_local, left_out_line, outgoing_secrets, rewrite_unpushed,
                                    unpushed_secrets)
from lazy_harness.sync.write_merged import WrittenMeanwhile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from lazy_harness.config.typed import Config

STATE = ".sync-state.json"
LOCK = ".sync.lock"
PUSH_TRIES = 4


def configured_remote(cfg: Config) -> str:
    return cfg["sync"]["remote"]


def check_layout(cfg: Config, env: Mapping[str, str] | None = None) -> str:
    """The data folder; refuses when memory or learnings were moved out of it (they would not sync)."""
    data = paths.data_dir(env)
    for what, folder in (("[memory] path", paths.memory_root(cfg["memory"]["path"] or None, env)),
                         ("[knowledge] path", paths.knowledge_dir(cfg["knowledge"]["path"] or None, env))):
        if not paths.is_within(folder, data):
            raise SyncError(f"{what} {folder} is outside the data folder {data}: it cannot be synced",
                            hint="leave it empty to keep memory in the data folder")
    return data


def read_state(data: str) -> dict:
    try:
        value = json.loads(read_regular(os.path.join(data, STATE)))  # why: a FIFO there held every round
        return value if isinstance(value, dict) else {}
    except (OSError, ValueError):
        return {}


def _save_state(data: str, **fields: object) -> None:
    state = read_state(data)
    state.update(fields)
    try:
        atomic_write(os.path.join(data, STATE), json.dumps(state, indent=1) + "\n")
    except OSError:
        pass


class _Lock:
    def __init__(self, data: str, wait: bool) -> None:
        self.path, self.wait, self.fd = os.path.join(data, LOCK), wait, -1

    def __enter__(self) -> _Lock:
        import fcntl

        ensure_dir(os.path.dirname(self.path))
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | (0 if self.wait else fcntl.LOCK_NB))
        except BlockingIOError:
            os.close(self.fd)
            raise SyncError("another lh sync is running", hint="lh sync --status") from None
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)


def run(cfg: Config, env: Mapping[str, str] | None = None, now: float | None = None, wait: bool = True,
        push: bool = True, progress: Callable[[str], None] | None = None, accept_rewrite: bool = False) -> dict:
    """One sync round; returns what happened. Raises SyncError with the reason when it cannot; what
    stopped a round, whatever it was, is its last error (one line, ``lh sync --status``, with its hint).
    ``progress`` is given a line now and then while a long secret scan runs (scan._added_secrets).
    ``accept_rewrite``: a remote whose history its owner rewrote is taken as it now is, with what this
    machine changed since it last knew the remote put on top (``merge._onto_rewritten``); without it
    such a remote stops the round before anything is merged or pushed."""
    now = time.time() if now is None else now
    remote = configured_remote(cfg)
    if not remote:
        raise SyncError("no remote configured", hint="set [sync] remote in config.toml (lh config path)")
    data = check_layout(cfg, env)
    got: dict = {"committed": False, "changed": [], "incoming": set(), "pushed": False, "rewritten": False,
                 "conflicts": [], "left_out": {}, "progress": progress, "accept_rewrite": accept_rewrite}
    with _Lock(data, wait):
        try:
            summary = _round(cfg, env, data, remote, now, push, got)
        except Exception as exc:  # why: an OSError stopped rounds too, with "last error: none" shown
            said = exc.message if isinstance(exc, LhError) else f"{type(exc).__name__}: {exc}"
            _save_state(data, last_error=f"{logfile.stamp(now)} {one_line(said)}",
                        last_hint=exc.hint if isinstance(exc, LhError) else None,
                        not_synced=left_out_line(got["left_out"]))
            raise
        _save_state(data, last_sync=logfile.stamp(now), last_error=None, last_hint=None, remote=remote,
                    not_synced=summary["not_synced"])
        return summary


def _printable(lines: list[str]) -> list[str]:
    """A round's ``conflict:`` lines as ``lh sync`` prints them and ``--status`` keeps them, and its
    ``repaired:`` lines: a file name, a branch or an id in them is the remote's choice, so a terminal
    escape, a bidi override or a line break there is shown as its escape (``\\u001b``), never sent to a
    terminal."""
    return [logfile.terminal_safe(line, keep="") for line in lines]


def _tell(data: str, got: dict, lines: list[str]) -> None:
    """Add ``lines`` (``conflict:`` lines) to the round's, and to the state's last conflicts at once.
    why at once: each is said once, from what the merge just did (a note read and removed, a commit
    range), which the next round does not see again; a round interrupted later (Ctrl-C during the
    push, a kill) never reached its end, and the person was never told."""
    if not lines:
        return
    got["conflicts"] += lines
    _save_state(data, conflicts=((read_state(data).get("conflicts") or []) + lines)[-conflicts.KEPT:])


def _round(cfg: Config, env: Mapping[str, str] | None, data: str, remote: str, now: float, push: bool,
           got: dict) -> dict:
    # why first: a stale config.lock left by a killed round would stop ensure_repo's git config
    repaired = repair(data, env)
    ensure_repo(data, remote, env, _where(cfg, env, data)[0])
    from lazy_harness.memory import approval

    # why first: the approvals already on this machine are the person's (ADR 0052); a merge below may
    # bring another machine's, which the first read of approvals must not take as theirs
    approval.adopt_once((paths.memory_root(cfg["memory"]["path"] or None, env),),
                        (paths.learnings_dir(cfg["knowledge"]["path"] or None, env),), env, now)
    record_handoff_edits(paths.all_memory_dirs(env, cfg["memory"]["path"] or None), now)
    extra = tuple(cfg["compound_loop"].get("redact_patterns") or ())
    got["committed"] = _commit(cfg, env, data, now, extra, got)
    try:
        done = any(_attempt(cfg, env, data, now, extra, push, n == PUSH_TRIES - 1, got) for n in range(PUSH_TRIES))
    except Exception:
        # why: a try that stops the round (a push refused, a fetch failing) after another merged: what it
        # merged is on disk, and is checked all the same; the round's own error is the one told
        with suppress(Exception):
            _after_merge(cfg, env, data, now, got)
        raise
    _after_merge(cfg, env, data, now, got)
    if not done:
        # why an error, after the hold check: the round ended "synced: ..., nothing pushed" with no last
        # error while this machine's memory was not on the remote; what it merged is on disk and checked
        raise SyncError(f"push rejected {PUSH_TRIES} times: another machine pushed to the remote first each time; "
                        "this machine's memory is merged and committed here, not pushed",
                        hint="lh sync (the next round pushes it)")
    # why _printable for what was repaired too: a stale lock below refs/remotes is named for a branch the
    # remote chose
    return {"committed": got["committed"], "merged": len(got["changed"]), "pushed": got["pushed"],
            "repaired": _printable(repaired), "rewritten": got["rewritten"], "conflicts": got["conflicts"],
            "not_synced": left_out_line(got["left_out"])}


def _after_merge(cfg: Config, env: Mapping[str, str] | None, data: str, now: float, got: dict) -> None:
    """What follows a merge: handoff.md rendered again, the hold check on what came in, usage recounted."""
    changed = got["changed"]
    rerender_handoffs(data, changed, now)
    hold_merged(data, changed, cfg, env, now, got["incoming"])
    recount_usage(data, changed, env)


def _commit(cfg: Config, env: Mapping[str, str] | None, data: str, now: float, extra: tuple, got: dict) -> bool:
    """``commit_local`` of memory's files; the paths it left out (not memory) added to ``got``."""
    return commit_local(data, env, now, extra, *_where(cfg, env, data), left_out=got["left_out"],
                        progress=got["progress"])


def _where(cfg: Config, env: Mapping[str, str] | None, data: str) -> tuple[str, str]:
    """Where memory and learnings are, relative to the data folder (``/``-separated)."""
    def rel(folder: str) -> str:
        return os.path.relpath(folder, data).replace(os.sep, "/")

    return (rel(paths.memory_root(cfg["memory"]["path"] or None, env)),
            rel(paths.learnings_dir(cfg["knowledge"]["path"] or None, env)))


def _attempt(cfg: Config, env: Mapping[str, str] | None, data: str, now: float, extra: tuple, push: bool,
             last: bool, got: dict) -> bool:
    """One fetch, merge and push of a round, adding to ``got``; whether the round is done."""
    known = known_remote(data, env)
    _fetch(data, env)
    rewritten = rewritten_from(data, known, env, got["accept_rewrite"])
    # why: the worker may write memory while the round runs (a fetch can take seconds): what it wrote
    # since the last commit is committed right before each merge, so the merge starts from it
    got["committed"] = _commit(cfg, env, data, now, extra, got) or got["committed"]
    merge_env = {**(os.environ if env is None else env), conflicts.ENV: conflicts.side_file(data)}
    before = _head(data, env)
    try:
        merged = merge_remote(data, merge_env, *_where(cfg, env, data), rewritten=rewritten, extra=extra)
    except WrittenMeanwhile:
        if last:
            raise
        return False  # changed (not appended to) between that commit and the merge: commit it, merge again
    remember_remote(data, env)
    got["changed"] += merged
    if merged and before:  # a forget met an edit of its entry, which the merge keeps hidden: said
        _tell(data, got, _printable(forgotten.said(data, before, _remote_head(data, env), env)))
        # and an edit of this machine's that another machine's round replaced by its own (and journalled)
        _tell(data, got, _printable(replaced.said(data, before, _head(data, env), merged, env)))
    if merged:  # what came in, for the hold check (hold_merged); HEAD is the merge until the commit below
        came = incoming_ids(data, before, _head(data, env), env)
        got["incoming"] = None if came is None or got["incoming"] is None else got["incoming"] | came
    if merged:  # lines appended meanwhile are kept after the merged ones (write_merged._install): they go out now
        got["committed"] = _commit(cfg, env, data, now, extra, got) or got["committed"]
    _keep_conflicts(cfg, env, data, now, extra, got)
    if not push:
        return True
    _hold_back_names(data, extra, env, now, got)
    head = _head(data, env)
    if not head or head == _remote_head(data, env):  # why: git's "Everything up-to-date" exits 0 too
        return True
    leaks = outgoing_secrets(data, extra, env, got["progress"])
    if leaks:
        raise _refused(leaks, data)
    if unpushed_secrets(data, extra, env, got["progress"]):
        rewrite_unpushed(data, env, now)
        got["rewritten"] = True
    result = _git(data, "push", "-q", "origin", f"HEAD:refs/heads/{BRANCH}", check=False, env=env)
    if result.ok:
        got["pushed"] = True
        remember_remote(data, env)  # why: the push moved origin/main; a rewrite of what it sent is one too
        return True
    # why only these: "[remote rejected]" with a reason of the remote's own (its hook, a quota, a protected
    # branch) is no other machine first; read as a race it was tried 4 times and blamed on another machine.
    # Another machine's push landing during this one's is: "fetch first", "non-fast-forward", or the
    # remote's ref lock taken or moved under it ("cannot lock ref", "failed to update ref")
    if not any(race in result.stderr for race in PUSH_RACES):
        raise SyncError(f"push failed: {result.describe()}",
                        hint="lh sync (what was committed here waits for the next round)")
    return False


def _hold_back_names(data: str, extra: tuple, env: Mapping[str, str] | None, now: float, got: dict) -> None:
    """What the push may not send by name (sync/sent_names.py): a name that holds a secret is left
    out (named in the round's ``not synced`` line, the unpushed commits rewritten without it); two
    names one disk takes for one refuse the push."""
    added = sent_names.added_names(data, env)
    held, rewritten = sent_names.leave_out_secret_names(data, added, extra, env, now)
    got["left_out"].update(held)
    if rewritten:
        got["rewritten"] = True
        added = sent_names.added_names(data, env)
    sent_names.refuse_one_on_disk(data, added, env)


def _keep_conflicts(cfg: Config, env: Mapping[str, str] | None, data: str, now: float, extra: tuple,
                    got: dict) -> None:
    """The other machine's version of each entry the merge met edited on both machines, kept
    (``conflicts.keep``: a learning under a name of its own, a journalled run) and committed.
    why committed now: it goes out with this merge, and the other machine learns from it that its edit
    lost (sync/replaced.py) in the round that brings the merge, not one round later."""
    created: list[str] = []
    kept = conflicts.keep(data, cfg, env, now, created, lambda text, path: arrivals.record_learning(text, path, env))
    _tell(data, got, _printable(kept))
    got["changed"] += created
    if kept:
        got["committed"] = _commit(cfg, env, data, now, extra, got) or got["committed"]


PUSH_RACES = ("fetch first", "non-fast-forward", "cannot lock ref", "failed to update ref", "incorrect old value")


def _head(data: str, env: Mapping[str, str] | None) -> str:
    """The commit HEAD names, ``""`` before the first."""
    return _git(data, "rev-parse", "-q", "--verify", "HEAD^{commit}", check=False, env=env).stdout.strip()


def _remote_head(data: str, env: Mapping[str, str] | None) -> str:
    """The commit ``origin/main`` names as of the last fetch, ``""`` when the remote has no branch."""
    return _git(data, "rev-parse", "-q", "--verify", f"refs/remotes/origin/{BRANCH}^{{commit}}", check=False,
                env=env).stdout.strip()


def auto_sync(cfg: Config, env: Mapping[str, str] | None = None, now: float | None = None,
              at_once: bool = False) -> str | None:
    """The worker's sync after it wrote memory: at most every ``interval_minutes`` (``at_once``: whenever
    asked: a change made by hand, rare, and one the other machines should not wait for: a forget);
    never raises. Returns a line for worker.log, or None when nothing was due."""
    s = cfg["sync"]
    if not s["remote"] or not s["auto"]:
        return None
    now = time.time() if now is None else now
    stamp = os.path.join(paths.data_dir(env), ".sync-push")
    try:
        if not at_once and now - os.stat(stamp).st_mtime < int(s["interval_minutes"]) * 60:
            return None
    except OSError:
        pass
    try:
        if not at_once:
            atomic_write(stamp, "")
        # why wait when at once: a round under way (SessionStart's pull, the worker's) holds the lock,
        # and nothing would send a forget refused now before the worker's next round
        result = run(cfg, env, now, wait=at_once)
        if at_once:
            atomic_write(stamp, "")  # why after: a round that did not run gives the worker's no reason to wait
    except LhError as exc:
        return f"sync: {exc.message}"
    rewritten = ", unpushed commits that held a secret rewritten as one" if result["rewritten"] else ""
    left_out = f"; {result['not_synced']}" if result["not_synced"] else ""
    return (f"sync: {result['merged']} file(s) merged{rewritten}, "
            f"{'pushed' if result['pushed'] else 'nothing pushed'}{left_out}")


def status(cfg: Config, env: Mapping[str, str] | None = None) -> dict:
    """ahead, behind (against the last fetch), last sync, last error and its hint, remote."""
    data = paths.data_dir(env)
    state = read_state(data)
    out = {"remote": configured_remote(cfg) or None, "last_sync": state.get("last_sync"),
           "last_error": state.get("last_error"), "last_hint": state.get("last_hint"), "ahead": None,
           "behind": None, "data": data,
           "conflicts": conflicts.marked_undone(state.get("conflicts") or [],
                                                paths.all_memory_dirs(env, cfg["memory"]["path"] or None)),
           "not_synced": state.get("not_synced")}
    # why before the look below: a .git that is a file is no folder, and would pass unsaid; a remote
    # on this machine that others could write is said here too, though no git reaches it below
    refused = refusal(data, configured_remote(cfg), env)
    if refused:
        raise refused
    if os.path.isdir(os.path.join(data, ".git")) and _has_head(data, env) and _remote_has_branch(data, env):
        counts = _git(data, "rev-list", "--left-right", "--count", f"HEAD...origin/{BRANCH}", env=env).stdout.split()
        if len(counts) == 2:
            out["ahead"], out["behind"] = int(counts[0]), int(counts[1])
    return out
