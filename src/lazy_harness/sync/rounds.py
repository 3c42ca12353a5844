"""One sync round (the steps in the package docstring) under ``<data>/.sync.lock``, the worker's
``auto_sync`` after it wrote memory, ``status``, and the state file that keeps the last sync and error."""

from __future__ import annotations

import json
import os
import time

from lazy_harness import logfile, paths
from lazy_harness.atomic import atomic_write, ensure_dir
from lazy_harness.errors import LhError
from lazy_harness.sync import arrivals, conflicts, forgotten
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


def rerender_handoffs(data: str, changed: list[str], now: float) -> None:
    """handoff.md is rendered from handoff.jsonl and not synced: render it where the state moved, a
    hand edit made meanwhile recorded first (memory/handoff.py ``import_hand_edits``). Where the merge
    removed handoff.jsonl, handoff.md goes too, read as nothing (``handoff.drop_unlogged``)."""
    folders = {os.path.dirname(os.path.join(data, p)) for p in changed if p.endswith("handoff.jsonl")}
    if not folders:
        return
    from lazy_harness.memory import handoff

    for folder in folders:
        if not handoff.drop_unlogged(folder):
            handoff.import_hand_edits(folder, {"session_id": "sync", "task_id": "sync"}, now, render=True)


def record_handoff_edits(memory_dirs: list[str], now: float) -> None:
    """A hand edit of any project's handoff.md recorded in its handoff.jsonl before the commit, so the
    round carries it to the other machines (handoff.md itself is not synced). A few ``stat``s per
    project; never raises: SessionStart's read records the edit anyway."""
    from lazy_harness.errors import LhError
    from lazy_harness.memory import handoff

    for folder in memory_dirs:
        if handoff.edited_since_render(folder):
            try:
                handoff.import_hand_edits(folder, {"session_id": "sync", "task_id": "sync"}, now)
            except (OSError, ValueError, LhError):
                pass


def recount_usage(data: str, changed: list[str], env: Mapping[str, str] | None) -> None:
    """usage.jsonl or marks.jsonl merged: the counts the budget cuts read, worked out again once per
    memory folder (memory/usage_log.py). why marks: a merge made on another machine counts the merged
    entry's sessions for the one it was merged into, with no new usage line. Never raises: the next
    distillation writes them anyway."""
    from lazy_harness.memory import marks, usage_log

    folders = dict.fromkeys(os.path.dirname(os.path.join(data, rel)) for rel in changed
                            if os.path.basename(rel) in (usage_log.USAGE, marks.MARKS))
    for folder in folders:
        if not os.path.exists(usage_log.path_of(folder)):  # marks of a folder no session was counted in
            continue
        try:
            usage_log.refresh_ranks(env, folder)
        except OSError:
            pass


def hold_merged(data: str, changed: list[str], cfg: Config, env: Mapping[str, str] | None, now: float,
                incoming: set[str] | None = None) -> list[str]:
    """The hold check on what the merge brought in (memory/held.py, ADR 0024): the live entries of a
    memory folder whose files changed (``incoming``: only those whose id a line the merge added or
    removed names, :func:`incoming_ids`; None: every one), every learning file that changed; an entry
    with an approve mark, or a learning whose frontmatter says approved, is left alone, whichever
    machine signed it (ADR 0052: the read-back here still shows it only when this machine's key
    signed it, and a hold would outrank the approval on the machine that made it, once synced there).
    A learning's hold is journalled in the memory folder of the project it names, else in the first
    folder merged; with neither here, SessionStart's read-time check holds it. Returns the ids held;
    never raises."""
    from lazy_harness.memory import files, held, held_written

    root = paths.memory_root(cfg["memory"]["path"] or None, env)
    ldir = paths.learnings_dir(cfg["knowledge"]["path"] or None, env)
    folders, learnings = [], []
    for rel in changed:
        full = os.path.join(data, rel)
        if files.is_learning_name(os.path.basename(rel)) and paths.is_within(full, ldir) and os.path.isfile(full):
            learnings.append(full)
        elif (rel.endswith(".jsonl") and os.path.dirname(full) not in folders
              and os.path.dirname(os.path.realpath(os.path.dirname(full))) == os.path.realpath(root)):
            folders.append(os.path.dirname(full))
    done: list[str] = []
    try:
        for mdir in folders:
            found = held.scan_records(mdir, env, incoming)
            held.hold(mdir, ldir, found, os.path.basename(mdir), now, "merged by lh sync", by_rules=True)
            done += [f[1] for f in found]
        by_folder: dict[str, list] = {}
        for one in held_written.scan_learnings(learnings, env):
            mdir = conflicts.memory_folder_of(root, one[2]) or (folders[0] if folders else "")
            if mdir:
                by_folder.setdefault(mdir, []).append(one)
        for mdir, some in by_folder.items():
            held.hold(mdir, ldir, some, os.path.basename(mdir), now, "merged by lh sync", by_rules=True)
            done += [f[1] for f in some]
    except Exception as exc:  # why: the merge is done; SessionStart's read-time check still holds them
        logfile.write(logfile.WORKER, f"sync: hold check failed: {type(exc).__name__}: {exc}", env)
        return done
    if done:
        logfile.write(logfile.WORKER, f"sync: held {len(done)} merged entries: {', '.join(done)}", env)
    try:  # why here: the rules are compiled by now; the next SessionStart reads these verdicts instead
        held_written.keep_arrived(folders, incoming, learnings, env)
    except Exception as exc:  # why: a cache; that start works them out itself
        logfile.write(logfile.WORKER, f"sync: verdicts of what came in not kept: {type(exc).__name__}: {exc}", env)
    return done


def incoming_ids(data: str, before: str, after: str, env: Mapping[str, str] | None) -> set[str] | None:
    """Every id named by a line of a JSONL file that commit ``after`` adds or removes against
    ``before``: an entry's own or derived id (as a decision and as a failure), an open item's, a
    mark's. A line damaged or not is read as the readers read it (``conflicts.line_records``). None
    (check everything) when there is no ``before`` (all of it came in) or git cannot say.

    why removed lines too: a hold or forget mark taken out on the other machine brings an old entry
    back, which the check must see as it would have. why ids and not lines: the check of an entry
    reads its marks and its copies too, so what came in is every entry an added or removed line names."""
    if not before:
        return None
    result = _git(data, "diff", "--no-color", "--no-ext-diff", "--no-textconv",
                  "--no-renames", "-a", "-U0", before, after, "--", "*.jsonl", check=False, env=env)
    if not result.ok:
        return None
    from lazy_harness.memory import ids

    out: set[str] = set()
    in_hunk = False
    for row in result.stdout.split("\n"):  # why not splitlines: a line may hold a \r or a \x1c
        if not in_hunk or row[:1] not in ("+", "-"):  # a file's header ("--- a/...") is no line of it
            in_hunk = row.startswith("@@") or (in_hunk and row[:1] in (" ", "\\"))
            continue
        for rec in conflicts.line_records(row[1:].encode("utf-8")):
            if isinstance(rec.get("id"), str):
                out.add(rec["id"])
            if isinstance(rec.get("summary"), str):
                out.update(ids.of_record(rec, kind) for kind in ("decision", "failure"))
    return out


def read_state(data: str) -> dict:
    try:
        with open(os.path.join(data, STATE), encoding="utf-8") as fh:
            value = json.load(fh)
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
                        not_synced=left_out_line(got["left_out"]), **_with_kept(data, got))
            raise
        _save_state(data, last_sync=logfile.stamp(now), last_error=None, last_hint=None, remote=remote,
                    not_synced=summary["not_synced"], **_with_kept(data, got))
        return summary


def _with_kept(data: str, got: dict) -> dict:
    """The state's last conflicts with those this round kept (journalled even when it failed later)."""
    kept = got["conflicts"]
    return {"conflicts": ((read_state(data).get("conflicts") or []) + kept)[-conflicts.KEPT:]} if kept else {}


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
    done = any(_attempt(cfg, env, data, now, extra, push, n == PUSH_TRIES - 1, got) for n in range(PUSH_TRIES))
    changed = got["changed"]
    rerender_handoffs(data, changed, now)
    hold_merged(data, changed, cfg, env, now, got["incoming"])
    recount_usage(data, changed, env)
    if not done:
        # why an error, after the hold check: the round ended "synced: ..., nothing pushed" with no last
        # error while this machine's memory was not on the remote; what it merged is on disk and checked
        raise SyncError(f"push rejected {PUSH_TRIES} times: another machine pushed to the remote first each time; "
                        "this machine's memory is merged and committed here, not pushed",
                        hint="lh sync (the next round pushes it)")
    return {"committed": got["committed"], "merged": len(changed), "pushed": got["pushed"], "repaired": repaired,
            "rewritten": got["rewritten"], "conflicts": got["conflicts"], "not_synced": left_out_line(got["left_out"])}


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
        merged = merge_remote(data, merge_env, *_where(cfg, env, data), rewritten=rewritten)
    except WrittenMeanwhile:
        if last:
            raise
        return False  # changed (not appended to) between that commit and the merge: commit it, merge again
    remember_remote(data, env)
    got["changed"] += merged
    if merged and before:  # a forget met an edit of its entry, which the merge keeps hidden: said
        got["conflicts"] += forgotten.said(data, before, _remote_head(data, env), env)
    if merged:  # what came in, for the hold check (hold_merged); HEAD is the merge until the commit below
        came = incoming_ids(data, before, _head(data, env), env)
        got["incoming"] = None if came is None or got["incoming"] is None else got["incoming"] | came
    if merged:  # lines appended meanwhile are kept after the merged ones (write_merged._install): they go out now
        got["committed"] = _commit(cfg, env, data, now, extra, got) or got["committed"]
    created: list[str] = []
    got["conflicts"] += conflicts.keep(data, cfg, env, now, created,
                                       lambda text, path: arrivals.record_learning(text, path, env))
    if created:  # the other machine's learning under a name of its own: it goes out with this round
        got["changed"] += created
        got["committed"] = _commit(cfg, env, data, now, extra, got) or got["committed"]
    if not push:
        return True
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
    if "rejected" not in result.stderr and "fetch first" not in result.stderr:
        raise SyncError(f"push failed: {result.describe()}", hint="lh sync --status")
    return False


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
           "conflicts": state.get("conflicts") or [], "not_synced": state.get("not_synced")}
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
