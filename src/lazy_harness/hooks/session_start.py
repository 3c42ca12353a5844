"""SessionStart: reads the project's memory back into the new session.

Runs on every start, resume, clear and compaction (the same text each time, so context survives a
compaction). Independent of the compound loop: only ``context.enabled`` switches it off. Prints one
JSON object when there is something to say and nothing otherwise; errors are caught and logged by
hooks/entry.py, which always exits 0.
"""

import os

from lazy_harness import config, jsonload, notice, paths, queue
from lazy_harness.memory import migrate
from lazy_harness.recall import digest as recall
from lazy_harness.queue import sweep


def sweep_sessions(payload: dict, cfg: dict, env, now: float) -> str:
    """Make the starting session known to the sweep, then queue the sessions that went idle
    without being checked (killed, or whose last Stops were gated). Throttled and capped in
    :func:`lazy_harness.queue.sweep.sweep`; the worker it needs is started by restart_stalled_worker.
    An invalid config.toml pauses distillation: the session is watched, nothing is queued."""
    loop = cfg["compound_loop"]
    paused = config.invalid(cfg) is not None
    if not loop["enabled"] and not paused:
        return ""
    q = paths.queue_dir(env)
    try:
        sweep.watch(q, payload)
        if paused:
            return " (distillation paused: config invalid; session watched)"
        queued = sweep.sweep(q, now, float(loop.get("idle_minutes", 10)) * 60, env)
    except OSError as exc:
        return f" (sweep failed: {exc})"
    return f" (sweep queued {len(queued)} idle session(s))" if queued else ""


def restart_stalled_worker(cfg: dict, env) -> str:
    """Tasks left by a worker that died (or by a spawn that failed) would wait for the next Stop or
    SessionEnd; a new session is as good a moment as any to start a worker for them. Not while an
    invalid config.toml pauses distillation: that worker would only find the pause."""
    if (not cfg["compound_loop"]["enabled"] or config.invalid(cfg) is not None
            or not queue.needs_worker(paths.queue_dir(env))):
        return ""
    from lazy_harness.worker.spawn import spawn_worker

    try:
        return f" (started worker pid {spawn_worker(env)} for waiting tasks)"
    except OSError as exc:
        return f" (worker for waiting tasks not started: {exc})"


def start_index_build(cfg: dict, env, cwd: str) -> str:
    """With prompt recall on, no index yet (a first start, or a cache cleared) and more memory than
    the prompt hook indexes itself: start the builder, so the index is being built while the person
    types the first prompt. One ``stat`` when an index exists."""
    settings = cfg["recall"]
    if not settings["enabled"] or os.path.exists(paths.recall_index_file(env)):
        return ""
    try:
        from lazy_harness.recall import build

        mdir = paths.memory_dir(cwd, env, cfg["memory"]["path"] or None)
        ldir = paths.learnings_dir(cfg["knowledge"]["path"] or None, env)
        if build.memory_bytes(mdir, ldir, build.HOOK_BYTES) <= build.HOOK_BYTES:
            return ""  # why: the first prompt indexes it in a few milliseconds, without a process
        pid = build.start(env, mdir, ldir)
        return f" (index builder pid {pid})" if pid else ""
    except Exception as exc:  # why: the digest matters more; the prompt hook starts it too
        return f" (index builder not started: {type(exc).__name__}: {exc})"


def migrate_old_files(cwd: str, cfg: dict, env, now: float) -> str:
    """Move this project's files out of Claude Code's auto-memory folder before Claude Code indexes
    them. Costs a few ``lstat`` when there is nothing to move (every start after the first)."""
    root = paths.project_root(cwd)
    key = paths.project_key(root)
    mdir = paths.project_memory_dir(root, env, cfg["memory"]["path"] or None)
    if not migrate.pending(key, root, env, mdir) and not migrate.stale_index(key, root, env):
        return ""
    try:
        lines = migrate.migrate(mdir, key, root, env, now)
    except Exception as exc:  # why: a failed move leaves the files in place; the session still starts
        return f" (migration failed: {type(exc).__name__}: {exc})"
    return "".join(f" ({line})" for line in lines)


def record_shown(payload: dict, stats: dict, env, source: str) -> None:
    """Remember the ids of the failures, decisions, handoff items and learnings the digest printed,
    so prompt recall does not repeat them."""
    from lazy_harness.recall import shown

    # why: the ids the digest printed, in each section's order (stats["ids"]), as far as the budget took them
    n, printed = stats.get("shown") or {}, stats.get("ids") or {}
    got = [eid for section in ("failures", "decisions", "handoff", "learnings")
           for eid in (printed.get(section) or [])[:int(n.get(section, 0))]]
    shown.add(env, str(payload.get("session_id") or ""), got, replace=source != "resume")


def pull_memory(cfg: dict, env, now: float) -> str:
    """With a sync remote: start a pull and wait for it at most ``pull_budget_ms``, then go on.

    At most every ``interval_minutes`` (a stamp file's mtime); a slow or offline remote is logged
    and tried again at a later start. The hook never waits on the network beyond its budget."""
    s = cfg.get("sync") or {}
    if not s.get("remote") or not s.get("auto"):
        return ""
    stamp = os.path.join(paths.data_dir(env), ".sync-pull")
    try:
        if now - os.stat(stamp).st_mtime < int(s["interval_minutes"]) * 60:
            return ""
    except OSError:
        pass
    from lazy_harness.atomic import ensure_dir
    from lazy_harness.worker.spawn import spawn_pull

    ensure_dir(os.path.dirname(stamp))
    os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT, 0o600))
    os.utime(stamp, (now, now))
    try:
        pid, fd = spawn_pull(env)
    except OSError as exc:
        return f" (pull not started: {exc})"
    import select

    budget = max(0, int(s["pull_budget_ms"])) / 1000
    try:
        ready = select.select([fd], [], [], budget)[0]
        said = os.read(fd, 512).decode("utf-8", "replace").strip() if ready else ""
    finally:
        os.close(fd)
    if not ready:
        return f" (pull pid {pid} still running after {budget:g} s: remote slow or offline; going on without it)"
    return f" ({said or 'pull ended without a word'})"


def distill_trouble(env) -> tuple[int, str | None]:
    """(tasks in ``failed/`` since the worker's last success, that success's time): what the digest's
    "distillation is failing" line says; read here so the store never reads the queue. Cheap: the
    folder's mtime rules out the common case; otherwise names are listed and only task files are
    stat'ed. May raise OSError."""
    from lazy_harness.memory.files import iso_epoch

    failed = queue.folder(paths.queue_dir(env), queue.FAILED)
    try:
        folder_mtime = os.stat(failed).st_mtime
    except OSError:
        return 0, None
    last = None
    try:
        with open(paths.worker_state_file(env), encoding="utf-8") as fh:
            state = jsonload.loads(fh.read())
        last = state.get("last_success") if isinstance(state, dict) else None
    except (OSError, ValueError):
        pass
    since = iso_epoch(last)
    if since is not None and folder_mtime <= since:
        return 0, last
    count = 0
    with os.scandir(failed) as it:
        for entry in it:
            if entry.name.endswith(queue.SUFFIX):
                try:
                    count += (since is None or entry.stat().st_mtime > since) and not _redo(failed, entry.path)
                except OSError:
                    pass
    return count, last if since is not None else None


def _redo(failed: str, path: str) -> bool:
    """Whether a failed task redid what memory already holds: its session is marked distilled at or
    after the transcript it failed on (a failed ``lh knowledge handoff-now`` of a distilled session)."""
    try:
        task = queue.read_task(path)
        mtime = float(task.get("transcript_mtime") or "nan")
    except (OSError, ValueError):
        return False
    last = queue.last_check(os.path.dirname(failed), task.get("session_id", "")) if task.get("session_id") else None
    return last is not None and last[1] == queue.DISTILLED and last[0] >= mtime


def digest(cwd: str, cfg: dict, env, now: float, source: str) -> tuple[str | None, dict]:
    """The project's memory for a session starting in ``cwd`` (:func:`recall.build_context`), with
    the queue's word on failing distillation. Shared with ``lh memory show``."""
    problem = None
    try:
        trouble = distill_trouble(env)
    except OSError as exc:
        trouble, problem = (0, None), f"queue: {type(exc).__name__}: {exc}"
    text, stats = recall.build_context(cwd, cfg, env, now, source, trouble=trouble)
    if problem:
        stats["errors"].append(problem)
    return text, stats


def first_plugin_start(env) -> tuple[str, str | None]:
    """The plugin's first SessionStart on this machine: switch the compound loop on, as
    ``lh hooks install`` does (installing the plugin is the same consent), and tell the person once
    what happens next. Returns (what to log, the lines for the person or None). One ``stat`` on
    every later start."""
    marker = paths.plugin_welcome_file(env)
    if os.path.exists(marker):
        return "", None
    from lazy_harness.atomic import ensure_dir
    from lazy_harness.errors import LhError

    try:
        what = config.enable_loop(paths.config_file(env), unless_off=True)
    except LhError as exc:  # why: a config.toml that does not parse stays as it is; the notice says so
        what = f"not switched on: {exc.message}"
    try:
        ensure_dir(os.path.dirname(marker))
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return f" (plugin first start: loop {what}; told by another session)", None
    except OSError as exc:
        what += f"; marker not written: {exc}"
    told = "\n".join(notice.next_steps(config.load_fast(env)))
    return f" (plugin first start: loop {what}; told the person what happens next)", told


def hold_and_tell(stats: dict, cfg: dict, env, now: float) -> tuple[str, str]:
    """Hold what the digest's read-time check left out (memory/held.py), then the line for the person
    when entries of this project were held since they were last told: (log words, message or '')."""
    from lazy_harness.memory import held

    mdir, said = stats["memory_dir"], ""
    screen = stats.get("screen")
    # why: a learning is held by its frontmatter, which needs the YAML writer this hook cannot import
    # (-S, ADR 0002); the read-time check leaves it out of every session until the worker, sync or
    # lh memory approve writes it, and lh memory held lists it
    marked = [f for f in getattr(screen, "found", ()) if f[0] != "learning"]
    if marked:
        run = held.hold(mdir, paths.learnings_dir(cfg["knowledge"]["path"] or None, env), marked,
                        stats["project"], now, "read at session start")
        said = f" (held {len(marked)} entr{'y' if len(marked) == 1 else 'ies'}: run {run})"
    if screen is not None and len(screen.found) > len(marked):
        said += f" (left out {len(screen.found) - len(marked)} learning(s) that read as instructions)"
    ids_ = set(held.held_ids(mdir)) | set(stats.get("held_learnings") or ()) | {f[1] for f in getattr(
        screen, "found", ())}
    told_file = os.path.join(paths.state_dir(env), "held-told")
    try:
        with open(told_file, encoding="utf-8") as fh:
            told = set(fh.read().split())
    except OSError:
        told = set()
    new = sorted(ids_ - told)
    if not new:
        return said, ""
    from lazy_harness.atomic import append_line, ensure_dir

    ensure_dir(os.path.dirname(told_file))
    append_line(told_file, " ".join(new))
    n = len(new)
    return said, (f"lazy-harness held {n} memory entr{'y' if n == 1 else 'ies'} of {stats['project']} that read as "
                  f"instructions to the agent ({', '.join(new[:5])}{', ...' if n > 5 else ''}); they are not "
                  "shown to sessions. Review: lh memory held; release one: lh memory approve ID.")


def run(payload: dict, env, now: float, plugin: bool = False) -> tuple[str, str | None]:
    """Returns (decision for hooks.log, the JSON line for stdout or None). ``plugin``: run by the
    plugin's hooks.json, whose first start switches the loop on and says what happens next."""
    source = str(payload.get("source") or "?")
    first, welcome = first_plugin_start(env) if plugin else ("", None)
    cfg = config.load_fast(env)
    cwd = str(payload.get("cwd") or env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    restarted = first + start_index_build(cfg, env, cwd)
    restarted += sweep_sessions(payload, cfg, env, now) + restart_stalled_worker(cfg, env) + pull_memory(cfg, env, now)
    # why: a paused or failing distillation is the person's business: systemMessage is shown to
    # them and never sent to the model (ADR 0013)
    told = notice.for_person(cfg, env, now, once=True)
    person = "\n".join(m for m in (welcome, told) if m)
    said = {"systemMessage": person} if person else {}
    shown = f" (told the person: {told})" if told else ""
    restarted += migrate_old_files(cwd, cfg, env, now)
    if not cfg["context"]["enabled"]:
        return f"source={source} skipped: context disabled{restarted}{shown}", _out(said)
    text, stats = digest(cwd, cfg, env, now, source)
    if text is None:
        said, shown = _tell_held(stats, cfg, env, now, said, shown)
        errors = f" errors: {'; '.join(stats['errors'])}" if stats["errors"] else ""
        return f"source={source} no memory for {stats['project']}{errors}{restarted}{shown}", _out(said)
    try:
        record_shown(payload, stats, env, source)
    except Exception as exc:  # why: what was shown is a nicety for prompt recall; the digest matters more
        stats["errors"].append(f"shown ids not recorded: {type(exc).__name__}: {exc}")
    said, shown = _tell_held(stats, cfg, env, now, said, shown)
    out = {**said, "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    return f"source={source} {recall.describe(stats)}{restarted}{shown}", _out(out)


def _tell_held(stats: dict, cfg: dict, env, now: float, said: dict, shown: str) -> tuple[dict, str]:
    """The held entries' line joined to the person's message; a failure is logged, never raised."""
    try:
        words, message = hold_and_tell(stats, cfg, env, now)
    except Exception as exc:  # why: the digest (already without the held entries) matters more
        return said, shown + f" (hold not recorded: {type(exc).__name__}: {exc})"
    if not message:
        return said, shown + words
    told = said.get("systemMessage")
    return {**said, "systemMessage": f"{told}\n{message}" if told else message}, shown + words + " (told the person: held)"


def _out(obj: dict) -> str | None:
    return jsonload.dumps(obj) + "\n" if obj else None
