"""Drive an interactive program in a detached tmux session: type, read the screen, wait."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

PROMPT = "❯"
BUSY = "esc to interrupt"


class TerminalTimeout(AssertionError):
    """wait_for gave up; the message carries the last screen."""


class Terminal:
    """One program in one tmux server of its own, so tests never collide.

    The pane stays after the program exits (remain-on-exit), so a test can still read the last
    screen and the exit status.
    """

    def __init__(
        self, argv: list[str], cwd: Path | str, env: dict[str, str], width: int = 200, height: int = 50
    ) -> None:
        self.argv = list(argv)
        self.cwd = str(cwd)
        self.env = dict(env)
        self.width = width
        self.height = height
        # why: a server of our own (-S socket in a private folder) keeps tests from colliding
        # and leaves nothing behind; kill-server alone leaves a -L socket file in /tmp/tmux-UID.
        self._dir = Path(tempfile.mkdtemp(prefix="lh-e2e-tmux-"))
        self.socket = str(self._dir / "socket")
        self._status_file = self._dir / "exit-status"
        self._started = False

    # -- tmux plumbing -----------------------------------------------------------------------

    def tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        # why: -f /dev/null keeps the user's ~/.tmux.conf (key bindings, shells) out of the test.
        cmd = ["tmux", "-S", self.socket, "-f", "/dev/null", *args]
        proc = subprocess.run(cmd, env=self.env, capture_output=True, text=True, timeout=15)
        if check and proc.returncode != 0:
            raise RuntimeError(f"{shlex.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[-500:]}")
        return proc

    def start(self) -> Terminal:
        # why: the first command starts the server with self.env, which the pane's program
        # inherits; remain-on-exit is set before the program can possibly exit. tmux 3.3 leaves
        # #{pane_dead_status} empty, so the shell writes the exit status to a file.
        command = f"sleep 0.3; {shlex.join(self.argv)}; echo $? > {shlex.quote(str(self._status_file))}"
        self.tmux(
            "new-session", "-d", "-s", "main", "-x", str(self.width), "-y", str(self.height), "-c", self.cwd,
            command, ";", "set-option", "-g", "remain-on-exit", "on",
        )  # fmt: skip
        self._started = True
        return self

    def close(self) -> None:
        if self._started:
            self.tmux("kill-server", check=False)
            self._started = False
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> Terminal:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- typing ------------------------------------------------------------------------------

    def send_text(self, text: str, enter: bool = True) -> None:
        """Type `text` literally, then press Enter as a separate key event until it submits.

        Submitted means the text has left the input box, or the program has ended (`/exit`).
        Right after startup or a --resume the CLI can take the text but drop the Enter, so
        Enter is pressed again (at most 3 times), never into a program that has ended.
        """
        self.tmux("send-keys", "-t", "main", "-l", text)
        if not enter:
            return
        head = text.strip().splitlines()[0][:30] if text.strip() else ""
        self.poll(lambda: head in (self.input_box() or ""), 5.0)

        def submitted() -> bool:
            # why: 2.1.197 ends on /exit without redrawing, so the last screen of the ended
            # program still shows the text in the input box; an ended program took the Enter.
            return self.ended() or head not in (self.input_box() or "")

        for _ in range(3):
            self.tmux("send-keys", "-t", "main", "Enter")
            if self.poll(submitted, 2.0):
                return
        raise TerminalTimeout(f"Enter did not submit {text[:60]!r}; screen was:\n{self.capture()}")

    def send_keys(self, *keys: str) -> None:
        """Press tmux key names: "Enter", "Escape", "Down", "C-c", ..."""
        self.tmux("send-keys", "-t", "main", *keys)

    # -- reading -----------------------------------------------------------------------------

    def capture(self, history: bool = False) -> str:
        args = ["capture-pane", "-p", "-t", "main"]
        if history:
            args += ["-S", "-"]
        return self.tmux(*args).stdout

    def input_box(self) -> str | None:
        """The text between the input box's two horizontal rules, or None when there is no box."""
        lines = self.capture().splitlines()
        rules = [i for i, line in enumerate(lines) if line.strip() and set(line.strip()) == {"─"}]
        return "\n".join(lines[rules[-2] + 1 : rules[-1]]) if len(rules) >= 2 else None

    def poll(self, condition: Callable[[], bool], timeout: float) -> bool:
        """Whether ``condition()`` came true within ``timeout`` seconds (looked at every 0.1 s)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.1)
        return condition()

    def is_alive(self) -> bool:
        out = self.tmux("display-message", "-p", "-t", "main", "#{pane_dead}").stdout.strip()
        return out != "1"

    def ended(self) -> bool:
        """The program has exited (its status is written or the pane is dead)."""
        return self.exit_status() is not None or not self.is_alive()

    def exit_status(self) -> int | None:
        """The program's exit status once it has ended, else None."""
        try:
            return int(self._status_file.read_text().strip())
        except (OSError, ValueError):
            return None

    def wait_for(self, pattern: str | re.Pattern[str], timeout: float = 20.0, history: bool = False) -> str:
        """Poll the screen until `pattern` (plain text, or a compiled regex) shows; return the screen."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.capture(history=history)
            found = pattern.search(screen) if isinstance(pattern, re.Pattern) else pattern in screen
            if found:
                return screen
            time.sleep(0.1)
        raise TerminalTimeout(f"{pattern!r} not on screen after {timeout}s; screen was:\n{screen}")

    def wait_prompt(self, timeout: float = 30.0) -> str:
        """Wait until the CLI is idle at an empty input prompt; return the screen.

        The input box shows `❯` even while a turn runs, so idle also means no "esc to
        interrupt" in the footer and the same screen on two polls in a row.
        """
        empty_prompt = re.compile(rf"^\s*{PROMPT}\s*$", re.M)
        deadline = time.monotonic() + timeout
        previous = None
        screen = ""
        while time.monotonic() < deadline:
            screen = self.capture()
            idle = bool(empty_prompt.search(screen)) and BUSY not in screen
            if idle and screen == previous:
                return screen
            previous = screen if idle else None
            time.sleep(0.25)
        raise TerminalTimeout(f"no idle prompt after {timeout}s; screen was:\n{screen}")

    def wait_exit(self, timeout: float = 20.0) -> int | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.ended():
                return self.exit_status()
            time.sleep(0.1)
        raise TerminalTimeout(f"program still running after {timeout}s; screen was:\n{self.capture()}")
