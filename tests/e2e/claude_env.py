"""An isolated HOME in which the real Claude Code CLI runs against the stand-in, headless or in tmux."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tmux_terminal import Terminal

# A dummy key for the stand-in; first_run_state() approves its last 20 characters.
API_KEY = "sk-ant-api03-lazyharness-e2e-standin-0123456789abcdefXYZ"
CLAUDE_ENV_VAR = "LH_E2E_CLAUDE"


def find_claude() -> str | None:
    """The CLI to test: $LH_E2E_CLAUDE if set, else `claude` on PATH."""
    explicit = os.environ.get(CLAUDE_ENV_VAR)
    if explicit:
        return explicit if os.access(explicit, os.X_OK) else None
    return shutil.which("claude")


def claude_version(binary: str) -> tuple[int, ...]:
    """`claude --version` ("2.1.330 (Claude Code)") as a tuple of ints, e.g. (2, 1, 330)."""
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60).stdout
    m = re.search(r"(\d+)\.(\d+)\.(\d+)", out)
    if m is None:
        raise AssertionError(f"{binary} --version printed no version: {out!r}")
    return tuple(int(n) for n in m.groups())


def first_run_state(project: Path, api_key: str = API_KEY) -> dict[str, Any]:
    """What ~/.claude.json must hold so an interactive session goes straight to the prompt.

    Checked on 2.1.328, one key left out at a time: without hasCompletedOnboarding the CLI shows
    the theme picker (and, with no file at all, fails with "Unable to connect to Anthropic
    services"); without the approved key suffix it asks whether to use ANTHROPIC_API_KEY
    (default "No"); without hasTrustDialogAccepted it asks whether to trust the folder.
    `claude -p` needs none of them.
    """
    return {
        "hasCompletedOnboarding": True,
        "customApiKeyResponses": {"approved": [api_key[-20:]], "rejected": []},
        "projects": {str(project): {"hasTrustDialogAccepted": True, "allowedTools": []}},
    }


def claude_env(home: Path, base_url: str, api_key: str = API_KEY) -> dict[str, str]:
    """A clean environment: nothing of the caller's Claude/Anthropic setup leaks in."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "USER": os.environ.get("USER", "user"),
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
        "TMPDIR": str(home / "tmp"),
        # why: the CLI keeps task output and probes under /tmp/claude-<uid> unless told otherwise.
        "CLAUDE_CODE_TMPDIR": str(home / "tmp"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": api_key,
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
    }


@dataclass
class ClaudeHome:
    """A tmp HOME with a project folder inside it, ready for `claude`."""

    home: Path
    project: Path
    env: dict[str, str]
    binary: str
    _terminals: list[Terminal] = field(default_factory=list, repr=False)

    @classmethod
    def create(cls, root: Path, base_url: str, binary: str) -> ClaudeHome:
        home = root / "home"
        project = home / "project"
        for folder in (project, home / "tmp", home / ".config", home / ".local" / "share", home / ".cache"):
            folder.mkdir(parents=True, exist_ok=True)
        (home / "tmp").chmod(0o700)  # the CLI's own error text asks for a private (0700) CLAUDE_CODE_TMPDIR
        (home / ".claude.json").write_text(json.dumps(first_run_state(project), indent=2))
        return cls(home, project, claude_env(home, base_url), binary)

    @property
    def claude_dir(self) -> Path:
        return self.home / ".claude"

    def transcripts(self) -> list[Path]:
        """Every transcript under ~/.claude/projects, subagent files included, oldest first."""
        root = self.claude_dir / "projects"
        return sorted(root.rglob("*.jsonl"), key=lambda p: p.stat().st_mtime) if root.exists() else []

    def write_settings(self, settings: dict[str, Any]) -> Path:
        """Write the user settings file, ~/.claude/settings.json."""
        path = self.claude_dir / "settings.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings, indent=2))
        return path

    def run_print(
        self, *args: str, stdin: str | None = None, timeout: float = 60.0
    ) -> subprocess.CompletedProcess[str]:
        """`claude -p ARGS...` in the project folder.

        Put the prompt first or pass it on stdin: list options such as --allowedTools swallow a
        prompt that follows them ("was read as a value of --allowedTools").
        """
        return subprocess.run(
            [self.binary, "-p", *args],
            cwd=self.project,
            env=self.env,
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def terminal(self, *args: str, width: int = 200, height: int = 50) -> Terminal:
        """A started tmux session running interactive `claude ARGS...` in the project folder.

        close() (or the `claude_home` fixture's teardown) kills it.
        """
        term = Terminal([self.binary, *args], self.project, self.env, width, height).start()
        self._terminals.append(term)
        return term

    def close(self) -> None:
        """Kill every tmux server this home started."""
        for term in self._terminals:
            term.close()
        self._terminals.clear()
