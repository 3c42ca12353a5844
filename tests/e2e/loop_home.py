"""lazy-harness installed in an isolated Claude home the way a user installs it, and what tests read back.

`LoopHome` wraps a `ClaudeHome`: `install()` writes config.toml and runs the real `lh hooks install`;
from then on Claude Code's own hooks queue sessions and spawn the worker, which calls the real
`claude -p` against the stand-in. Nothing here calls the worker. The helpers only drive the
terminal and look at what landed on disk: the queue folders, hooks.log, the project's memory dir
and the learnings folder. Paths are rebuilt from the documented layout (docs/how/compound-loop.md),
not taken from lazy_harness.paths, so a wrong resolver shows up as a failure here.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_env import ClaudeHome
from standin import TURN, StandIn
from tmux_terminal import Terminal

# A real model id (the CLI warns on unknown ones) that differs from the config default, so the
# tests can see that `compound_loop.model` reaches the worker's call.
DISTILL_MODEL = "claude-sonnet-4-5"
HOOK_EVENTS = ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd")
_HOOK_LINE = re.compile(r"^\S+ (?P<event>\S+) session=(?P<session>\S+) (?P<decision>.*)$")


def lh_argv() -> list[str]:
    """The installed `lh` console script, else `python -m lazy_harness`."""
    script = Path(sys.executable).with_name("lh")
    # why: shutil.which("lh") can find a version-manager shim (pyenv) that locates the interpreter
    # through $HOME, which these tests replace; the script beside this interpreter is the real one.
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "lazy_harness"]


def project_key(path: Path | str) -> str:
    """Claude Code's folder name for a short ASCII path: every non-alphanumeric character becomes `-`.
    (Long and non-ASCII paths: tests/e2e/test_memory_location.py reads the folder the CLI made.)"""
    return re.sub(r"[^A-Za-z0-9]", "-", str(path))


def parse_task(text: str) -> dict[str, str]:
    """A queue .task file: `key=value` lines; `\\n` and `\\\\` escaped in values."""
    fields = {}
    for line in text.split("\n"):  # the one line end the queue writes; a value may hold U+2028
        key, sep, value = line.partition("=")
        if sep and not line.startswith("#"):
            fields[key.strip()] = re.sub(r"\\(.)", lambda m: {"n": "\n", "r": "\r"}.get(m[1], m[1]), value)
    return fields


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value))  # a JSON string is a valid TOML basic string


def _alive(pid: int, home: Path) -> bool:
    """Is `pid` still running as a process of this test's HOME? (Zombies count as ended.)"""
    proc = Path(f"/proc/{pid}")
    if not Path("/proc/self").exists():  # no procfs: ask the kernel, no HOME check
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    try:
        state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        environ = (proc / "environ").read_bytes().split(b"\0")
    except (OSError, IndexError):
        return False
    # why: a pid reused by an unrelated process must not keep a test waiting (or be killed).
    return state not in ("Z", "X") and f"HOME={home}".encode() in environ


def _running_workers(home: Path, module: bytes = b"lazy_harness.worker") -> list[int]:
    """Pids of `python -m <module>` processes running with HOME=`home` (Linux /proc)."""
    out = []
    for proc in Path("/proc").glob("[0-9]*") if Path("/proc/self").exists() else []:
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if module in argv and _alive(int(proc.name), home):
            out.append(int(proc.name))
    return out


@dataclass
class LoopHome:
    """A `ClaudeHome` with lazy-harness registered, wired to a running stand-in."""

    claude: ClaudeHome
    standin: StandIn

    # -- locations (the documented layout) ------------------------------------------------------

    @property
    def home(self) -> Path:
        return self.claude.home

    @property
    def project(self) -> Path:
        return self.claude.project

    @property
    def env(self) -> dict[str, str]:
        return self.claude.env

    @property
    def config_file(self) -> Path:
        return Path(self.env["XDG_CONFIG_HOME"]) / "lazy-harness" / "config.toml"

    @property
    def queue(self) -> Path:
        return self.claude.claude_dir / "queue"

    @property
    def sessions_dir(self) -> Path:
        """Where Claude Code keeps this project's transcripts."""
        return self.claude.claude_dir / "projects" / project_key(self.project)

    @property
    def memory_dir(self) -> Path:
        """lazy-harness's memory of this project: its own data folder, keyed like Claude Code's folder."""
        return Path(self.env["XDG_DATA_HOME"]) / "lazy-harness" / "projects" / self.sessions_dir.name

    @property
    def claude_memory_dir(self) -> Path:
        """Claude Code's auto-memory folder for this project: never ours."""
        return self.sessions_dir / "memory"

    @property
    def learnings_dir(self) -> Path:
        return Path(self.env["XDG_DATA_HOME"]) / "lazy-harness" / "knowledge" / "learnings"

    @property
    def hooks_log(self) -> Path:
        return self.claude.claude_dir / "logs" / "hooks.log"

    @property
    def worker_log(self) -> Path:
        return self.claude.claude_dir / "logs" / "worker.log"

    # -- install ----------------------------------------------------------------------------------

    def lh(self, *args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """The real `lh` CLI with this home's environment, in the project folder by default."""
        return subprocess.run(
            [*lh_argv(), *args], cwd=cwd or self.project, env=self.env,
            capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
        )  # fmt: skip

    def install(self, semantic: bool = False, trust: dict[str, object] | None = None,
                **loop: object) -> subprocess.CompletedProcess[str]:
        """Write config.toml (loop off), run `lh hooks install`, check what it registered and enabled.

        `loop` overrides `[compound_loop]` keys; the defaults make the worker call the real CLI
        at its absolute path with DISTILL_MODEL and retry without waiting. Without `semantic` the
        prompt hook uses the word bar alone (`[recall] semantic = false`). `trust`: `[trust]` keys;
        the model check of new entries is off unless asked for (`{"model_check": True}`): the tests
        count the model calls a distillation makes (ADR 0039).
        """
        values: dict[str, object] = {
            "enabled": False,
            "model": DISTILL_MODEL,
            "claude_path": os.path.abspath(self.claude.binary),
            "retry_backoff_seconds": 0,
            "timeout_seconds": 60,
            **loop,
        }
        self.config_file.parent.mkdir(parents=True, exist_ok=True)
        trusted: dict[str, object] = {"model_check": False, **(trust or {})}
        lines = ["[compound_loop]", *(f"{k} = {_toml(v)}" for k, v in values.items()),
                 "[recall]", f"semantic = {_toml(semantic)}",
                 "[trust]", *(f"{k} = {_toml(v)}" for k, v in trusted.items())]
        self.config_file.write_text("\n".join(lines) + "\n")

        proc = self.lh("hooks", "install")
        assert proc.returncode == 0, f"lh hooks install exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
        settings = json.loads((self.claude.claude_dir / "settings.json").read_text())
        for event in HOOK_EVENTS:
            commands = [h.get("command", "") for g in settings["hooks"][event] for h in g["hooks"]]
            assert any("from lazy_harness.hooks.launch import run; run()" in c and c.endswith(f" {event} || exit 0")
                       for c in commands), (event, settings)
        config = tomllib.loads(self.config_file.read_text())["compound_loop"]
        assert tomllib.loads(self.config_file.read_text())["recall"] == {"semantic": semantic}
        assert config == {**values, "enabled": True}, config
        return proc

    # -- hooks.log --------------------------------------------------------------------------------

    def hook_lines(self, event: str | None = None, session: str | None = None) -> list[str]:
        """hooks.log lines, optionally only those of one event and/or one session."""
        try:
            lines = self.hooks_log.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return []
        out = []
        for line in lines:
            m = _HOOK_LINE.match(line)
            if m and (event is None or m["event"] == event) and (session is None or m["session"] == session):
                out.append(line)
        return out

    def hook_sessions(self) -> set[str]:
        """Every session id hooks.log mentions."""
        return {m["session"] for line in self.hook_lines() if (m := _HOOK_LINE.match(line))}

    def wait_hook(self, event: str, session: str, timeout: float = 20.0) -> str:
        """The first hooks.log line of `event` for `session`, once it is there."""
        deadline = time.monotonic() + timeout
        while True:
            lines = self.hook_lines(event, session)
            if lines:
                return lines[0]
            if time.monotonic() > deadline:
                raise AssertionError(f"no {event} line for {session} in hooks.log:\n{self.describe()}")
            time.sleep(0.1)

    def wait_hooks(self, event: str, count: int, timeout: float = 20.0) -> None:
        """Wait until hooks.log holds `count` lines of `event` (any session)."""
        deadline = time.monotonic() + timeout
        while len(self.hook_lines(event)) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"fewer than {count} {event} lines in hooks.log:\n{self.describe()}")
            time.sleep(0.1)

    def worker_pids(self) -> list[int]:
        """Every worker a hook said it spawned, plus running workers of this HOME (`lh` spawns too)."""
        logged = [int(p) for line in self.hook_lines() for p in re.findall(r"worker pid (\d+)", line)]
        return sorted(set(logged) | set(_running_workers(self.home)))

    # -- queue ------------------------------------------------------------------------------------

    def task_names(self, which: str = "") -> list[str]:
        folder = self.queue / which if which else self.queue
        return sorted(p.name for p in folder.glob("*.task")) if folder.is_dir() else []

    def tasks(self, which: str) -> list[dict[str, str]]:
        """The tasks in queue/<which> (done, failed, processing; "" = pending), oldest first."""
        out = []
        for name in self.task_names(which):
            try:
                fields = parse_task((self.queue / which / name).read_text())
            except FileNotFoundError:
                continue  # moved on meanwhile
            out.append({**fields, "_name": name})
        return out

    def busy(self) -> str:
        """What still runs: pending or claimed tasks, live workers; "" when the loop is idle."""
        pending, claimed = self.task_names(), self.task_names("processing")
        workers = [p for p in self.worker_pids() if _alive(p, self.home)]
        parts = [f"{label}: {items}" for label, items in
                 (("pending", pending), ("processing", claimed), ("live workers", workers)) if items]
        return "; ".join(parts)

    def wait_idle(self, timeout: float = 90.0) -> None:
        """Wait until no task is pending or claimed and every worker the hooks spawned has exited.

        Call it after the hooks that matter have logged (wait_hook): a hook logs only after its
        enqueue and spawn. Idle must hold on two polls in a row.
        """
        deadline = time.monotonic() + timeout
        calm = 0
        while calm < 2:
            state = self.busy()
            calm = calm + 1 if not state else 0
            if state and time.monotonic() > deadline:
                raise AssertionError(f"loop still busy after {timeout} s ({state}):\n{self.describe()}")
            time.sleep(0.2)

    def kill_workers(self) -> None:
        """Teardown: end the workers (and their `claude -p`) this home's hooks started, by pid."""
        for pid in self.worker_pids():
            if _alive(pid, self.home):
                try:
                    os.killpg(pid, signal.SIGTERM)  # the worker leads its own session (setsid)
                except OSError:
                    pass

    def describe(self) -> str:
        """Queue, logs and stand-in traffic, for assertion messages."""
        def tail(path: Path, n: int = 25) -> str:
            try:
                return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
            except FileNotFoundError:
                return "(missing)"

        queue = {w or "pending": self.task_names(w) for w in ("", "processing", "done", "failed")}
        errors = "\n".join(p.read_text(errors="replace")[-1500:] for p in (self.queue / "failed").glob("*.error"))
        return (
            f"queue: {queue}\nbusy: {self.busy() or 'idle'}\n--- hooks.log\n{tail(self.hooks_log)}\n"
            f"--- worker.log\n{tail(self.worker_log)}\n"
            f"--- compound-loop.log\n{tail(self.claude.claude_dir / 'logs' / 'compound-loop.log')}\n"
            f"--- failed/*.error\n{errors or '(none)'}\n--- stand-in\n{self.standin.log.summary()}"
        )

    # -- sessions ---------------------------------------------------------------------------------

    def transcripts(self) -> list[Path]:
        """This project's session transcripts (not memory/*.jsonl, not sub-agents), oldest first."""
        found = self.sessions_dir.glob("*.jsonl") if self.sessions_dir.is_dir() else []
        return sorted(found, key=lambda p: p.stat().st_mtime)

    def interactive(self, turns: list[str], *args: str, settle: bool = True, timeout: float = 60.0) -> str:
        """A tmux session of `claude ARGS`: type each turn, then `/exit`. Returns the session id
        (a `--resume ID --fork-session` run returns the fork's new id).

        With `settle`, after each turn wait until its Stop hook has logged and the loop is idle
        again, so the worker never reads a transcript while the next turn is being written and
        what gets distilled does not depend on the machine's speed.
        """
        before = set(self.transcripts())
        stops = len(self.hook_lines("Stop"))
        term = self.claude.terminal(*args)
        try:
            term.wait_prompt(timeout)
            for text in turns:
                type_turn(term, self.standin, text, timeout)
                stops += 1
                if settle:
                    self.wait_hooks("Stop", stops)
                    self.wait_idle()
            term.send_text("/exit")
            status = term.wait_exit(30)
        finally:
            term.close()
        assert status == 0, f"claude exited {status}"
        if args[:1] == ("--resume",) and "--fork-session" not in args:
            return args[1]
        new = [p for p in self.transcripts() if p not in before]
        assert len(new) == 1, f"expected one new transcript, got {new}"
        return new[0].stem


def type_turn(term: Terminal, standin: StandIn, text: str, timeout: float = 60.0) -> None:
    """Type one prompt; return once its turn reached the stand-in and the prompt is idle again."""
    head = text[:40]

    def arrived(log: Any) -> bool:
        # why: only TURN requests; the worker's distill calls (kind structured) also carry user text.
        return any(head in r.last_user_text() for r in log.of_kind(TURN))

    term.send_text(text)
    if not standin.log.wait_for(arrived, 30):
        raise AssertionError(f"turn never reached the stand-in: {text[:60]!r}\n{term.capture()}")
    term.wait_prompt(timeout)
