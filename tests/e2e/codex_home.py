"""lazy-harness installed for Codex CLI in an isolated HOME, the way a user installs it, and what the
Codex e2e tests read back: a temp HOME with ``CODEX_HOME`` inside, wired to the Responses stand-in;
``install()`` runs the real ``lh hooks install --agent codex`` (hooks.json, trust through the real
``codex app-server``); from then on Codex's own hooks queue sessions. Paths are rebuilt from the
documented layout (docs/how/codex.md), not taken from lazy_harness.paths."""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from loop_home import lh_argv, parse_task
from responses_standin import ENV_KEY, codex_config
from tmux_terminal import Terminal, TerminalTimeout

CODEX_ENV_VAR = "LH_CODEX_BIN"  # a codex binary to test instead of the one on PATH
READY = "Ask Codex"  # the TUI's input placeholder: the session takes prompts


_SYSTEM_BIN: list[str] = []


def system_bin() -> str:
    """/usr/bin and /bin as one folder of links, less ``claude`` and ``codex``, made once per process.
    why not /usr/bin itself: ``npm install -g`` puts Claude Code there, and with claude on PATH the
    worker would distil through it, not codex exec."""
    if not _SYSTEM_BIN:
        out = tempfile.mkdtemp(prefix="lh-e2e-system-bin-")
        atexit_cleanup(out)
        for folder in ("/usr/bin", "/bin"):
            for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
                if name not in ("claude", "codex") and not os.path.lexists(os.path.join(out, name)):
                    os.symlink(os.path.join(folder, name), os.path.join(out, name))
        _SYSTEM_BIN.append(out)
    return _SYSTEM_BIN[0]


def _alone(program: str) -> str:
    """A folder holding only a link to ``program``: its own folder may hold claude too (/usr/bin)."""
    out = os.path.join(system_bin(), os.pardir, os.path.basename(system_bin()) + "-" + os.path.basename(program))
    if not os.path.isdir(out):
        os.makedirs(out)
        atexit_cleanup(out)
        os.symlink(program, os.path.join(out, os.path.basename(program)))
    return os.path.normpath(out)


def atexit_cleanup(folder: str) -> None:
    import atexit

    atexit.register(shutil.rmtree, folder, True)


def find_codex() -> str | None:
    explicit = os.environ.get(CODEX_ENV_VAR)
    return explicit if explicit and os.access(explicit, os.X_OK) else shutil.which("codex")


class CodexHome:
    """A temp HOME (with .codex and .claude inside) for one test, the project folder, the env."""

    def __init__(self, base_url: str, codex: str, home: Path | None = None, env: dict[str, str] | None = None) -> None:
        """``home`` and ``env``: a Claude home's (claude_env.ClaudeHome) to share its HOME, XDG folders
        and project, so both agents' sessions write one memory; by default a HOME of its own. Codex
        runs with ``codex`` and ``lh`` on PATH and not ``claude``: the worker distils through codex exec."""
        self._own = home is None
        self.home = home if home is not None else Path(tempfile.mkdtemp(prefix="lh-e2e-codex-"))
        self.codex_home = self.home / ".codex"
        self.codex_home.mkdir(exist_ok=True)
        self.project = self.home / "project"
        self.project.mkdir(exist_ok=True)
        (self.codex_home / "config.toml").write_text(codex_config(base_url))
        bins = [_alone(codex), _alone(lh_argv()[0])]  # why each alone: their folder may hold claude too
        self.env = {**(env or {}), "PATH": os.pathsep.join([*bins, system_bin()]), "HOME": str(self.home),
                    "CODEX_HOME": str(self.codex_home), ENV_KEY: "standin-key", "TERM": "xterm-256color",
                    "LANG": "C.UTF-8"}
        self._lock_fd: int | None = None

    @property
    def hooks_file(self) -> Path:
        return self.codex_home / "hooks.json"

    @property
    def queue(self) -> Path:
        return self.home / ".claude" / "queue"

    def lh(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*lh_argv(), *args], env=self.env, cwd=self.project, capture_output=True, text=True,
                              timeout=120)

    def install(self, code: int = 0) -> subprocess.CompletedProcess[str]:
        done = self.lh("hooks", "install", "--agent", "codex")
        assert done.returncode == code, done.stdout + done.stderr
        return done

    def hold_worker(self) -> None:
        """Hold the worker lock: spawned workers leave at once and tasks stay as the hooks left them."""
        self.queue.mkdir(parents=True, exist_ok=True)
        self._lock_fd = os.open(self.queue / ".worker.lock", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)

    def release_worker(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def tasks(self) -> list[dict[str, str]]:
        """Every task file in the queue (pending, processing, done, failed), oldest first."""
        found = []
        for folder in ("", "processing", "done", "failed"):
            for path in sorted((self.queue / folder).glob("*.task")):
                found.append({**parse_task(path.read_text()), "_state": folder or "pending"})
        return found

    def hook_lines(self) -> list[str]:
        log = self.home / ".claude" / "logs" / "hooks.log"
        return log.read_text().splitlines() if log.exists() else []

    def rollouts(self) -> list[Path]:
        return sorted(self.codex_home.glob("sessions/*/*/*/rollout-*.jsonl"))

    def memory_dir(self) -> Path:
        """The project's memory folder, as lh itself resolves it in this HOME (Claude Code's and Codex's)."""
        done = subprocess.run([sys.executable, "-c", "import sys; from lazy_harness import paths; "
                               "print(paths.memory_dir(sys.argv[1]))", str(self.project)],
                              env=self.env, capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return Path(done.stdout.strip())

    def terminal(self, *args: str) -> Terminal:
        return Terminal(["codex", *args], self.project, self.env)

    def close(self) -> None:
        self.release_worker()
        subprocess.run(["codex", "app-server", "daemon", "stop"], env=self.env, capture_output=True, timeout=30)
        end_codex_processes(self.codex_home)  # why: daemon stop leaves its pid-update-loop running
        if self._own:
            shutil.rmtree(self.home, ignore_errors=True)


def end_codex_processes(codex_home: Path, timeout: float = 10.0) -> None:
    """End what Codex started from this test's ``codex_home`` (its app-server daemon installs itself
    there): each process whose program lies under it, by pid, SIGTERM then SIGKILL."""
    import signal
    import time

    root = str(codex_home) + os.sep
    mine = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv0 = fh.read().split(b"\0", 1)[0].decode("utf-8", "replace")
        except OSError:
            continue
        if argv0.startswith(root):
            mine.append(int(pid))
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in mine:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and any(os.path.exists(f"/proc/{pid}") for pid in mine):
            time.sleep(0.05)
        mine = [pid for pid in mine if os.path.exists(f"/proc/{pid}")]
        if not mine:
            return


REVIEW = "Hooks need review"  # the TUI's dialog for hooks not trusted yet (here: the person's own)
# Codex drains pending terminal input for one second before a dialog takes a decision, and exits with
# this when the second runs out first: a loaded machine, not a defect of ours.
GAVE_UP = "timed out discarding buffered terminal input"


class CodexGaveUp(AssertionError):
    """The TUI exited on its own one-second input drain (GAVE_UP) before it took prompts."""


@contextmanager
def tui(home: CodexHome, *args: str, review: bool = False) -> Iterator[Terminal]:
    """A Codex TUI in ``home`` that takes prompts (see ``ready``), started again, at most three times in
    all, when Codex gave up on its input drain; the rollouts such an attempt left are removed, so a
    test still finds one rollout per session that took prompts."""
    for attempt in range(3):
        before = set(home.rollouts())
        term = home.terminal(*args).start()
        try:
            ready(term, review)
        except CodexGaveUp:
            term.close()
            for path in set(home.rollouts()) - before:
                path.unlink()
            if attempt == 2:
                raise
            continue
        try:
            yield term
        finally:
            term.close()
        return


def _gave_up(term: Terminal) -> None:
    # history too: tmux may scroll a dead pane's screen up to say "Pane is dead" below it
    if term.ended() and GAVE_UP in term.capture(history=True):
        raise CodexGaveUp(term.capture(history=True))


def ready(term: Terminal, review: bool = False) -> None:
    """Wait until the TUI takes prompts. ``review``: hooks.json holds a hook Codex does not trust (the
    person's own): wait for the review dialog and continue without trusting it (option 3). Raises
    CodexGaveUp when Codex exited on its input drain instead."""
    term.poll(lambda: READY in term.capture() or term.ended(), 60)
    _gave_up(term)
    assert READY in term.capture(), term.capture()
    if review:
        term.poll(lambda: REVIEW in term.capture() or term.ended(), 30)
        _gave_up(term)
        assert REVIEW in term.capture(), term.capture()
        # "3" picks option 3 (the dialog closes, or on some draws only the marker moves to it and Enter
        # confirms). A key typed while the dialog is drawn but not yet reading is lost, and Enter on
        # option 1 would open the hooks list instead: press "3" until the dialog is gone or the marker
        # is on option 3; Enter only then.
        marked = re.compile(r"› 3\. Continue without trusting")
        for _ in range(10):
            term.send_keys("3")
            if term.poll(lambda: REVIEW not in term.capture() or marked.search(term.capture()) is not None, 5.0):
                break
        if REVIEW in term.capture() and marked.search(term.capture()):
            term.send_keys("Enter")
        term.poll(lambda: REVIEW not in term.capture(), 10.0)
        assert REVIEW not in term.capture(), term.capture()
        # the dialog also goes when Codex exits on its drain (the exit lands a moment later): wait for
        # the composer back (empty, or holding a late "3") or the end
        late = re.compile(r"^\s*› (3+)\s*$", re.M)
        term.poll(lambda: term.ended() or READY in term.capture() or late.search(term.capture()) is not None, 10)
        _gave_up(term)
        stray = late.search(term.capture())  # a "3" that came late, typed as text
        if stray:
            term.send_keys(*["BSpace"] * len(stray.group(1)))
            term.poll(lambda: re.search(r"^\s*› 3+\s*$", term.capture(), re.M) is None, 5.0)


def prompt(term: Terminal, text: str) -> None:
    """Type a prompt into the Codex TUI and submit it: Enter again (at most three times) while the
    composer still holds the text, i.e. its placeholder has not come back and the TUI still runs (a
    key the TUI was not reading yet is lost, as the review dialog's "3" was on a loaded machine)."""
    term.tmux("send-keys", "-t", "main", "-l", text)
    term.wait_for(text[-20:], 30)  # why: a loaded machine draws the typed text late
    for _ in range(3):
        term.send_keys("Enter")
        if term.poll(lambda: term.ended() or READY in term.capture(), 5.0):
            return
    raise TerminalTimeout(f"Enter did not submit {text[:60]!r}; screen was:\n{term.capture()}")


def exit_tui(term: Terminal) -> None:
    prompt(term, "/exit")
    term.wait_exit(30)
