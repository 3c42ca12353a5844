"""The command written into settings.json: ``<python> -m lazy_harness.hooks <Event>`` (``run``).

Runs after every model turn, so it imports only cheap stdlib at top level and never click or the
CLI; not even ``json``, whose import of ``re`` costs more than the hook's own work
(:mod:`lazy_harness.jsonload` decodes the payload). Whatever happens it exits 0, writes nothing on
stdout except the JSON Claude Code reads, and logs one line per run to ``<claude dir>/logs/hooks.log``.
"""

from __future__ import annotations

import os
import sys
import time

# why from the package root, not the queue: the prompt hook loads the queue only while the answerer works
from lazy_harness import CLAUDE, CODEX, PAYLOAD_AGENT, WORKER_MARKER, jsonload, private

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from collections.abc import Sequence
    from typing import TextIO
EVENTS = ("Stop", "SessionEnd", "SessionStart", "UserPromptSubmit")


def read_payload(stream: TextIO | None) -> dict:
    if stream is None or stream.isatty():
        return {}
    raw = stream.buffer.read() if hasattr(stream, "buffer") else stream.read()
    if not raw or not raw.strip():
        return {}
    data = jsonload.loads(raw)
    return data if isinstance(data, dict) else {}


def agent_of_argv(argv: Sequence[str]) -> str:
    """``codex`` when the command says ``--agent codex`` (the hooks.json of Codex CLI), else ``claude``:
    the two send payloads with the same fields, so only the command tells them apart."""
    args = list(argv[2:])
    for i, arg in enumerate(args):
        if arg == "--agent" and i + 1 < len(args):
            return CODEX if args[i + 1] == CODEX else CLAUDE
        if arg == f"--agent={CODEX}":
            return CODEX
    return CLAUDE


def in_project(payload: dict, env: Mapping[str, str]) -> dict:
    """The payload with ``cwd`` the folder Claude Code started the session in (``CLAUDE_PROJECT_DIR``),
    whose project the session is. why: the payload's ``cwd`` follows the agent's ``cd`` (into a nested
    repository, a vendored library, a folder ``--add-dir`` gave), and a session's memory, its read-back
    and its recall are its project's, as its transcript's folder and ``lh knowledge handoff-now`` say.
    Kept as sent when the variable is unset, relative, or no folder (a deleted one)."""
    project = env.get("CLAUDE_PROJECT_DIR") or ""
    if not project or project == payload.get("cwd") or not os.path.isabs(project) or not os.path.isdir(project):
        return payload
    return {**payload, "cwd": project}


def dispatch(event: str, payload: dict, env: Mapping[str, str], now: float, plugin: bool = False,
             agent: str = CLAUDE) -> tuple[str | None, str | None]:
    """Run one event. Returns (decision for the log, text for stdout or None); no decision: no log line.
    ``plugin``: the lazy-harness plugin's hooks.json ran it (``lh-hook <Event> --plugin``), which leaves
    at once when a settings file of the session registers our hook for the event (``settings_register``);
    ``agent``: ``codex`` when Codex CLI ran it (``--agent codex``), marked in the payload for the queue
    and the read-back."""
    if agent == CODEX:
        payload = {**payload, PAYLOAD_AGENT: CODEX}
    else:
        payload = in_project(payload, env)
    if "\0" in str(payload.get("transcript_path") or ""):
        # why: no path holds a NUL; kept, it was written where the sweep reads it back, and every
        # later sweep (and the worker's run) failed on it: taken as no transcript at all
        payload = {**payload, "transcript_path": ""}
    if env.get(WORKER_MARKER):
        return "skipped: the worker's own model call", None
    # why: another user's folder (a cache in a shared /tmp) is neither read nor written (ADR 0031); Stop
    # and SessionEnd only queue, so a session is not lost for an unsafe cache or data folder: its task
    # waits, and the worker starts only once every folder is safe
    unsafe = private.first_unsafe(env, private.PRODUCER if event in ("Stop", "SessionEnd") else None)
    if unsafe:
        return refused(event, payload, env, now, plugin, *unsafe)
    if plugin and settings_register(event, payload, env, now):
        return None, None  # why: the settings file's run of this event is the one; this one leaves unseen
    if event == "Stop":
        from lazy_harness.hooks import stop

        return stop.run(payload, env, now), None
    if event == "SessionEnd":
        from lazy_harness.hooks import session_end

        return session_end.run(payload, env, now), None
    if event == "SessionStart":
        from lazy_harness.hooks import session_start

        return session_start.run(payload, env, now, plugin=plugin)
    if event == "UserPromptSubmit":
        from lazy_harness.hooks import user_prompt

        return user_prompt.run(payload, env, now)
    return f"unknown event {event!r}", None


def refused(event: str, payload: dict, env: Mapping[str, str], now: float, plugin: bool, path: str, why: str
            ) -> tuple[str | None, str | None]:
    """What a hook does while ``path``, a folder of ours or config.toml, may not be used (``why``):
    it skips, and SessionStart tells the person why and what to run, in one line. When only config.toml
    is refused (the file, or the folder lazy-harness keeps it in: every folder the hook writes passed),
    Stop, SessionEnd and SessionStart note the session for the sweep, as for an invalid config.toml.
    The refused file is never read: nothing is queued or read back with defaults that may not be
    the person's (``[memory] path``)."""
    from lazy_harness import paths

    skipped = f"skipped: {why}; see lh doctor"
    config = path in (paths.config_file(env), paths.own_config_dir(env))
    if event != "SessionStart" and not (config and event in ("Stop", "SessionEnd")):
        return skipped, None
    # why the state folder looked at: the plugin's check reads and writes there (plugin-twice.json)
    if plugin and private.problem(paths.state_dir(env)) is None and settings_register(event, payload, env, now):
        return None, None  # why: the settings file's run of this event says it; this one leaves unseen
    if config:
        from lazy_harness.hooks import producer

        skipped += producer.watch(payload, env)
    if event != "SessionStart":
        return skipped, None
    if config:
        told = (f"lazy-harness: config.toml is not read ({why}): memory is not read back and sessions wait to be "
                f"distilled until it is fixed; to fix it: {private.fix(path, why)} (lh doctor lists what is wrong)")
    else:
        what = next((w for w, p, _ in private.folders(env) if p == path), "")
        told = (f"lazy-harness: the {what} folder is not used ({why}): memory is not read back and sessions are "
                f"not distilled until it is fixed; to fix it: {private.fix(path, why)} (lh doctor lists what is wrong)")
    from lazy_harness.logfile import terminal_safe  # why: the path is shown as it is in the person's terminal

    return f"{skipped}; told the person", jsonload.dumps({"systemMessage": terminal_safe(told)}) + "\n"


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    argv = sys.argv if argv is None else argv
    env = os.environ if env is None else env
    event = argv[1] if len(argv) > 1 else ""
    plugin = "--plugin" in argv[2:]
    agent = agent_of_argv(argv)
    started = time.perf_counter()
    now = time.time()
    sid = "-"
    try:
        payload = read_payload(sys.stdin)
        sid = str(payload.get("session_id") or "-")[:36]
        decision, out = dispatch(event, payload, env, now, plugin, agent)
        if out:
            sys.stdout.write(out)
            sys.stdout.flush()
    except Exception as exc:  # why: a hook must never break the session; the log says what happened
        decision = f"error {type(exc).__name__}: {exc}"
    if decision is None:
        return 0
    ms = (time.perf_counter() - started) * 1000
    # why here: the prompt hook loads it while the answerer works (hooks/user_prompt.py)
    from lazy_harness import logfile

    # before the run's own line, so that line stays the last of the run
    report_damaged_lines(f"{event or '?'} session={sid} ", env, now)
    shown = f"{event or '?'} session={sid}" + (f" agent={CODEX}" if agent == CODEX else "")
    logfile.write(logfile.HOOKS, f"{shown} {decision} ({ms:.1f} ms)", env, now)
    return 0


TWICE_FILE = "plugin-twice.json"  # in the state folder: per session folder, the settings files as last seen
TWICE_KEEP = 64  # session folders remembered


# why files_read_at here and not settings.files_read_at: settings.py imports re, shlex and dataclasses, off the
# hot path; tests/hooks/test_plugin_twice_inst.py holds it to the same answers as that one
def files_read_at(cwd: str, env: Mapping[str, str]) -> list[str]:
    """``settings.files_read_at``'s paths: the user file, ``<cwd>/.claude/settings.json`` and
    ``settings.local.json``, and in a subfolder of a repository the root's ``settings.local.json``."""
    from lazy_harness import paths
    from lazy_harness.project_identity import project_root

    here = os.path.realpath(cwd)
    root = project_root(here)
    files = [paths.user_settings_file(env), os.path.join(here, ".claude", "settings.json"),
             os.path.join(here, ".claude", "settings.local.json")]
    if root != here:
        files.append(os.path.join(root, ".claude", "settings.local.json"))
    return files


def _regular_bytes(path: str, limit: int = -1) -> bytes | None:
    """The bytes of ``path`` (at most ``limit``) when it is a regular file; None otherwise. Opened
    without waiting: a FIFO there would hold the hook until Claude Code killed it."""
    from lazy_harness.regular_file import read_regular

    try:
        return read_regular(path, limit)
    except OSError:
        return None


def _gone(program: object, package: object, env: Mapping[str, str]) -> str | None:
    """Why a registered command cannot start (a stat or two and 256 bytes read, nothing spawned): its
    program missing or not executable, the interpreter of its ``#!`` line gone (a deleted virtualenv),
    or the folder its launcher loads lazy_harness from emptied; None when it can, or cannot be told."""
    if not isinstance(program, str):
        return None
    if os.sep not in program:
        found = (os.path.join(d, program) for d in env.get("PATH", "").split(os.pathsep) if d)
        on_path = next((p for p in found if os.access(p, os.X_OK) and not os.path.isdir(p)), None)
        if on_path is None:
            return f"{program} is not on PATH"
        program = on_path
    first = _regular_bytes(program, 256)
    if first is None:
        return f"{program} is missing or cannot be read"
    if not first or not os.access(program, os.X_OK):
        return f"{program} is missing or not executable"
    words = first[2:].split(b"\n", 1)[0].split() if first.startswith(b"#!") else []
    interpreter = words[0].decode("utf-8", "replace") if words else ""
    if interpreter.startswith("/") and not os.access(interpreter, os.X_OK):
        return f"{program} names the interpreter {interpreter}, which is gone"
    if isinstance(package, str) and not os.path.isfile(package):
        return f"{os.path.dirname(os.path.dirname(os.path.dirname(package)))} holds no lazy_harness"
    return None


def _seen(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def settings_register(event: str, payload: dict, env: Mapping[str, str], now: float) -> bool:
    """Whether a settings file Claude Code runs hooks from for this session registers our hook for
    ``event`` with a command that can start: then it runs the event, and the plugin's run would be a
    second one. A few stats and one small file read (the answer per session folder, kept while those
    files are unchanged), plus a stat or two of the registered program at each run (a virtualenv goes
    without the settings file changing). When the plugin's run does not leave although a settings
    file holds ours, hooks.log says why, once per reason."""
    from lazy_harness import paths
    from lazy_harness.regular_file import read_regular  # why here: the entry alone loads no more than it needs

    cwd = str(payload.get("cwd") or env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    files = files_read_at(cwd, env)
    seen: list[list] = [[path, _seen(path)] for path in files]
    cache = os.path.join(paths.state_dir(env), TWICE_FILE)
    try:  # why read_regular: a FIFO in the cache's place held every hook in open() for good
        kept = jsonload.loads(read_regular(cache))
    except (OSError, ValueError, RecursionError):
        kept = None
    kept = kept if isinstance(kept, dict) else {}
    last = kept.get(cwd)
    fresh = not (isinstance(last, dict) and last.get("seen") == seen and isinstance(last.get("runs"), dict)
                 and isinstance(last.get("ignored"), list) and isinstance(last.get("said"), list))
    if fresh or not isinstance(last, dict):
        from lazy_harness.hooks import settings_commands  # why here: only when the files changed, or no answer is kept

        read = [(path, _regular_bytes(path) if os.path.exists(path) else None) for path in files]
        entry: dict = settings_commands.look(read, cwd, env, now, last)
    else:
        entry = last
    gone = []
    for run in entry["runs"].get(event) or ():
        why = _gone(run[1], run[2], env) if isinstance(run, list) and len(run) == 3 else None
        if why is None:
            break
        gone.append(f"{run[0]}: {why}")
    else:
        new = [r for r in entry["ignored"] + gone if r not in entry["said"]]
        if new:
            from lazy_harness import logfile

            logfile.write(logfile.HOOKS, f"plugin: the plugin's run of {event} in {cwd} does not leave for the "
                          f"settings hooks, which would not run ({'; '.join(new)}): it does the work", env, now)
            entry["said"] = entry["said"] + new
            fresh = True
        if fresh:
            _save(kept, cache, cwd, {**entry, "seen": seen})
        return False
    if fresh:
        _save(kept, cache, cwd, {**entry, "seen": seen})
    return True


def _save(kept: dict, cache: str, cwd: str, entry: dict) -> None:
    kept.pop(cwd, None)
    kept[cwd] = entry
    _keep(cache, dict(list(kept.items())[-TWICE_KEEP:]))


def _keep(path: str, data: dict) -> None:
    from lazy_harness.atomic import atomic_write, ensure_dir

    try:
        ensure_dir(os.path.dirname(path))
        atomic_write(path, jsonload.dumps(data))
    except OSError:
        pass  # why: the answer stands; the next run reads the files again


def report_damaged_lines(prefix: str, env: Mapping[str, str], now: float) -> None:
    """One hooks.log line per memory file in which this run salvaged or skipped a line (``memory.damage``)."""
    noted = sys.modules.get("lazy_harness.memory.lines")  # why: not imported means nothing was read
    if noted is None or not noted.NOTED:
        return
    from lazy_harness import logfile
    from lazy_harness import paths

    if noted.all_reported(sorted(noted.NOTED), os.path.join(paths.state_dir(env), noted.REPORTED)):
        noted.NOTED.clear()
        noted.CUT.clear()
        return
    try:
        from lazy_harness.memory import damage

        damage.report(logfile.HOOKS, env, now, prefix)
    except Exception as exc:  # why: a hook must never break the session
        logfile.write(logfile.HOOKS, f"{prefix}memory: damaged lines not reported: {type(exc).__name__}: {exc}",
                      env, now)


def run() -> None:
    """What the hook command runs (``-m lazy_harness.hooks``, the ``lh-hook`` script): ``main``, then
    leave at once with exit status 0, without tearing the interpreter down."""
    # why: the teardown (every module, the SQLite objects) took 3 ms of the prompt hook's 25
    # (measured with benchmarks/bench_user_prompt_semantic.py's payload); by then every file the hook
    # wrote is closed, the streams are flushed below and nothing is registered with atexit
    import gc

    from lazy_harness import hotload

    # why: settings written before hooks.launch run this directly: the event's modules still come from
    # the hooks' bundle (a no-op when the launcher installed it)
    hotload.install()
    # why: a hook lives for some tens of milliseconds and leaves with os._exit, so the cycle collector
    # only walks the objects the imports just made: 2 to 3 ms of SessionStart's CPU time
    # (benchmarks/bench_session_start.py); what a hook allocates is freed by reference counting
    gc.disable()
    try:
        main()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass  # why: Claude Code closed its end; the hook still exits 0
        os._exit(0)
