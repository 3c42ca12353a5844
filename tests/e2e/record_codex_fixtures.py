"""Re-record tests/fixtures/codex/ from the real Codex CLI against the Responses API stand-in.

    python tests/e2e/record_codex_fixtures.py [--only interactive resumed exec] [--out DIR]

Needs `codex` (on PATH) and tmux. Every session runs in a fresh tmp HOME and CODEX_HOME; the rollouts
are copied out with tmp paths replaced by /home/user, the port by PORT, and strings longer than
MAX_STRING characters cut down (record structure, keys and types are kept). A SessionStart hook
(trusted for the run with --dangerously-bypass-hook-trust) gives context, so the rollouts hold
injected hook text beside what was typed.

- interactive: the TUI with --no-daemon, two typed prompts, one tool call (exec_command), /exit.
Not recorded: the TUI through its background app-server daemon (source "vscode"): 0.171.0 here ran
in-process (source "cli") even with a daemon started by hand (`codex app-server daemon start`), so
the reader's test of that source edits the interactive rollout's session_meta instead.
- resumed: the interactive session, then `codex resume <id>` with one more prompt: the same file grows.
- exec: `codex exec` (source "exec"), a run the worker must never distil.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from responses_standin import ENV_KEY, ResponsesReply, ResponsesScript, ResponsesStandIn, codex_config  # noqa: E402
from tmux_terminal import Terminal  # noqa: E402

OUT_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "codex"
PLACEHOLDER_HOME = "/home/user"
MAX_STRING = 2000
KEEP_CHARS = 1200
SESSION_CONTEXT = "lazy-harness memory: the billing queue stays in Postgres (decided last week)."
ANSWER = "Agreed: the billing queue stays in Postgres, with a nightly vacuum job."
TOOL_INTRO = "Let me look at the files first."
HOOK_SCRIPT = f"""#!/bin/sh
cat > /dev/null
echo '{json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": SESSION_CONTEXT}})}'
"""
PROMPTS = (
    "We decided to keep the billing queue in Postgres rather than Redis, because ops already backs it up.",
    "Now list the files in the project please",
)
RESUMED_PROMPT = "One more thing: the vacuum job runs at 03:00 UTC, write that down."


def script() -> ResponsesScript:
    out = ResponsesScript(text=ANSWER)
    tool = ResponsesReply.function_call("exec_command", {"cmd": "ls"}, text=TOOL_INTRO)
    out.on(lambda r: "list the files" in r.last_user_text() and not r.function_outputs(), tool)
    return out


class CodexHome:
    """A temp HOME with CODEX_HOME inside, wired to the stand-in, with a SessionStart hook."""

    def __init__(self, base_url: str) -> None:
        self.home = Path(tempfile.mkdtemp(prefix="lh-codex-rec-"))
        self.codex = self.home / ".codex"
        self.project = self.home / "project"
        self.codex.mkdir()
        self.project.mkdir()
        hook = self.home / "hook.sh"
        hook.write_text(HOOK_SCRIPT)
        hook.chmod(0o755)
        # why: /tmp out of the sandbox's writable roots: the sandbox protects .git, .codex, .agents under
        # each writable root with a mount point, and a turn cut short can leave those folders in /tmp
        # itself, where every later walk up for a .git finds one
        keep_out = "[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n"
        (self.codex / "config.toml").write_text(codex_config(base_url) + keep_out)
        entry = {"hooks": [{"type": "command", "command": str(hook), "timeout": 30}]}
        (self.codex / "hooks.json").write_text(json.dumps({"hooks": {"SessionStart": [entry]}}))
        self.env = {
            "PATH": os.environ["PATH"],
            "HOME": str(self.home),
            "CODEX_HOME": str(self.codex),
            ENV_KEY: "standin-key",
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
        }

    def rollouts(self) -> list[Path]:
        return sorted(self.codex.glob("sessions/*/*/*/rollout-*.jsonl"))

    def close(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)


def _type(term: Terminal, text: str) -> None:
    term.tmux("send-keys", "-t", "main", "-l", text)
    term.wait_for(text[-20:], 10)
    term.send_keys("Enter")


def _finished_turns(home: CodexHome) -> int:
    """The turns the session's rollout records as complete (``task_complete`` events)."""
    return sum(p.read_text(errors="replace").count('"type":"task_complete"') for p in home.rollouts())


def _turn(term: Terminal, home: CodexHome, text: str) -> None:
    """Type a prompt and wait until the rollout records its turn as complete (the screen alone can
    show an earlier turn's answer; typing on before the turn ends would abort it)."""
    before = _finished_turns(home)
    _type(term, text)
    deadline = time.monotonic() + 60
    while _finished_turns(home) <= before:
        if time.monotonic() > deadline:
            raise TimeoutError(f"turn {text[:30]!r} not complete after 60 s; screen:\n{term.capture()}")
        time.sleep(0.1)


def _exit(term: Terminal) -> None:
    _type(term, "/exit")
    term.wait_exit(30)


def tui(home: CodexHome, argv: list[str], prompts: tuple[str, ...]) -> None:
    with Terminal(["codex", "--dangerously-bypass-hook-trust", *argv], home.project, home.env) as term:
        term.wait_for("Ask Codex", 60)
        for text in prompts:
            _turn(term, home, text)
        _exit(term)


def session_id(path: Path) -> str:
    first = json.loads(path.read_text().splitlines()[0])
    return str(first["payload"]["id"])


def record(kind: str, home: CodexHome, standin: ResponsesStandIn) -> Path:
    if kind == "interactive":
        tui(home, ["--no-daemon"], PROMPTS)
    elif kind == "resumed":
        tui(home, ["--no-daemon"], PROMPTS)
        (first,) = home.rollouts()
        tui(home, ["resume", "--no-daemon", session_id(first)], (RESUMED_PROMPT,))
    elif kind == "exec":
        argv = ["codex", "exec", "--skip-git-repo-check", "--sandbox", "read-only", PROMPTS[0]]
        subprocess.run(
            argv, env=home.env, cwd=home.project, stdin=subprocess.DEVNULL, capture_output=True, timeout=120
        )
    (found,) = home.rollouts()
    return found


class Sanitizer:
    """Placeholder paths, no port, long strings cut, so a rollout is portable."""

    def __init__(self, home: CodexHome, port: int) -> None:
        self.pairs = [(str(home.home), PLACEHOLDER_HOME), (f"127.0.0.1:{port}", "127.0.0.1:PORT")]

    def text(self, value: str) -> str:
        for old, new in self.pairs:
            value = value.replace(old, new)
        if len(value) > MAX_STRING:
            value = value[:KEEP_CHARS] + f" [... {len(value) - KEEP_CHARS} characters cut when recorded]"
        return value

    def value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            return {self.text(k): self.value(v) for k, v in value.items()}
        return value

    def file(self, src: Path, dst: Path) -> None:
        lines = [
            json.dumps(self.value(json.loads(line)), ensure_ascii=False)
            for line in src.read_text().splitlines()
        ]
        dst.write_text("\n".join(lines) + "\n")


KINDS = ("interactive", "resumed", "exec")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", nargs="*", choices=KINDS, default=list(KINDS))
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    args = parser.parse_args()
    if shutil.which("codex") is None or shutil.which("tmux") is None:
        print("needs codex and tmux on PATH", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for kind in args.only:
        with ResponsesStandIn(script()) as standin:
            home = CodexHome(standin.base_url)
            try:
                started = time.monotonic()
                found = record(kind, home, standin)
                Sanitizer(home, standin.port).file(found, args.out / f"{kind}.jsonl")
                print(
                    f"{kind}: {len(standin.model_requests())} model requests ({time.monotonic() - started:.1f} s)"
                )
            finally:
                home.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
