"""Re-record tests/fixtures/transcripts/ from the real Claude Code CLI against the stand-in.

    python tests/e2e/record_fixtures.py [--only interactive headless ...] [--out DIR]

Needs `claude` (or $LH_E2E_CLAUDE) and tmux. Every session runs in a fresh tmp HOME; the
transcripts are copied out with tmp paths replaced by /home/user, and strings longer than
MAX_STRING characters cut down (record structure, keys and types are kept).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from claude_env import ClaudeHome, find_claude  # noqa: E402
from standin import TURN, Reply, Script, StandIn  # noqa: E402
from standin_log import Request  # noqa: E402
from tmux_terminal import Terminal  # noqa: E402

OUT_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"
PLACEHOLDER_HOME = "/home/user"
PLACEHOLDER_PROJECT = "/home/user/project"
MAX_STRING = 2000
KEEP_CHARS = 1200
HOOK_EVENTS = ("SessionStart", "UserPromptSubmit", "Stop", "SubagentStop", "SessionEnd", "PreCompact")
SESSION_CONTEXT = "lazy-harness memory: the billing queue stays in Postgres (decided last week)."

# A hook like lazy-harness registers: it reads the payload, keeps it, and gives SessionStart context.
# why: one file per call (ns timestamp first, so names sort by time); hooks run in parallel, and
# appends to one shared file interleaved.
HOOK_SCRIPT = f"""#!/bin/sh
mkdir -p "$HOME/hook-payloads"
cat > "$HOME/hook-payloads/$(date +%s%N)-$$-$1.json"
if [ "$1" = SessionStart ]; then
  echo '{json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": SESSION_CONTEXT}})}'
fi
"""


# -- sanitising --------------------------------------------------------------------------------


class Sanitizer:
    """Makes a recorded file portable: placeholder paths, no port, long strings cut."""

    def __init__(self, home: ClaudeHome, port: int) -> None:
        project, root = str(home.project), str(home.home)
        self.replacements = [
            (project, PLACEHOLDER_PROJECT),
            (re.sub(r"[^A-Za-z0-9]", "-", project), re.sub(r"[^A-Za-z0-9]", "-", PLACEHOLDER_PROJECT)),
            (root, PLACEHOLDER_HOME),
            (f"127.0.0.1:{port}", "127.0.0.1:PORT"),
        ]
        self.truncated = 0

    def text(self, text: str) -> str:
        for real, placeholder in self.replacements:
            text = text.replace(real, placeholder)
        return text

    def value(self, value: Any) -> Any:
        if isinstance(value, str) and len(value) > MAX_STRING:
            self.truncated += 1
            return value[:KEEP_CHARS] + f"\n[...truncated by record_fixtures.py: {len(value)} chars originally]"
        if isinstance(value, dict):
            return {k: self.value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        return value

    def jsonl(self, src: Path, dest: Path) -> None:
        lines = []
        for line in src.read_text().splitlines():
            if line.strip():
                record = self.value(json.loads(self.text(line)))
                lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
        dest.write_text("\n".join(lines) + "\n")

    def json(self, src: Path, dest: Path) -> None:
        dest.write_text(
            json.dumps(self.value(json.loads(self.text(src.read_text()))), indent=2, ensure_ascii=False) + "\n"
        )


# -- sessions ------------------------------------------------------------------------------------

INTERACTIVE_TURNS = (
    "We need to decide how the billing service stores its job queue. Please run echo to check the shell "
    "works first; I lean towards keeping the queue in Postgres rather than Redis, because we already back "
    "it up nightly.",
    "Last night's deploy failed: the migration timed out waiting for a lock on the invoices table. Read "
    "notes/deploy-failure.md to see what we wrote down about it.",
    "Decision: we keep the queue in Postgres and run migrations with lock_timeout set to 5s. Please "
    "summarise both points for the handoff.",
)


def _interactive_script(project: Path) -> Script:
    script = Script(text="Noted: the queue stays in Postgres, and migrations get a 5 s lock_timeout.")
    script.on_turn_tool(
        r"run echo",
        "Bash",
        {"command": "echo hi", "description": "Check the shell works"},
        then="The shell works (it printed hi).",
    )
    missing = str(project / "notes" / "deploy-failure.md")
    script.on_turn_tool(
        r"deploy-failure\.md",
        "Read",
        {"file_path": missing},
        then="That file does not exist yet, so nothing was written down.",
    )
    return script


def _submit(term: Terminal, standin: StandIn, text: str) -> None:
    """Type one prompt and wait until its turn has reached the stand-in and finished."""
    seen = len(standin.log.user_turn_requests())
    term.send_text(text)
    # why: right after Enter the prompt can look idle before the turn starts.
    if not standin.log.wait_for(lambda log: len(log.user_turn_requests()) > seen, 30):
        raise RuntimeError(f"turn never reached the stand-in: {text[:60]!r}\n{term.capture()}")
    term.wait_prompt(60)


def _type_turns(
    home: ClaudeHome,
    standin: StandIn,
    turns: tuple[str, ...],
    *args: str,
    before_exit: Callable[[Terminal], None] | None = None,
) -> None:
    term = home.terminal(*args)
    try:
        term.wait_prompt(60)
        for text in turns:
            _submit(term, standin, text)
        if before_exit is not None:
            before_exit(term)
        term.send_text("/exit")
        term.wait_exit(30)
    finally:
        term.close()


def record_interactive(home: ClaudeHome, standin: StandIn) -> list[Path]:
    standin.script = _interactive_script(home.project)
    _type_turns(home, standin, INTERACTIVE_TURNS)
    return home.transcripts()


def record_headless(home: ClaudeHome, standin: StandIn) -> list[Path]:
    standin.script = Script(text="Recorded: the spool stays on disk; the retry storm came from a missing backoff.")
    standin.script.on_turn_tool(r"queue folder", "Bash", {"command": "echo spool-ok", "description": "Check the spool"})
    prompt = (
        "We decided to keep the queue folder on disk instead of Redis; yesterday's retry storm came from"
        " a missing backoff. Check the queue folder and note both."
    )
    proc = home.run_print(prompt, "--allowedTools", "Bash", timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"claude -p exited {proc.returncode}: {proc.stderr[-500:]}")
    return home.transcripts()


def record_resumed(home: ClaudeHome, standin: StandIn) -> list[Path]:
    standin.script = Script(text="Understood: the cache keys get the tenant id as prefix.")
    _type_turns(
        home,
        standin,
        ("We chose to prefix every cache key with the tenant id, after the cross-tenant leak in staging.",),
    )
    (first,) = home.transcripts()
    standin.script.text = "The leak happened because two tenants shared a cache key; the prefix fixes that."
    _type_turns(
        home, standin, ("Resumed after lunch: remind me why the staging leak happened?",), "--resume", first.stem
    )
    return home.transcripts()


def record_compacted(home: ClaudeHome, standin: StandIn) -> list[Path]:
    standin.script = Script(
        text="Noted.",
        compact_summary=(
            "1. The team chose Postgres for the ledger (concurrent writers).\n"
            "2. The nightly import failed on a CSV BOM; it is stripped now."
        ),
    )
    _type_turns(home, standin, COMPACTED_TURNS,
                before_exit=_compact_then(standin, "After the compaction: which database did we pick for the ledger?"))
    return home.transcripts()


COMPACTED_TURNS = ("We chose Postgres over SQLite for the ledger because several writers commit at once.",
                   "The nightly import failed because the CSV had a byte order mark; we strip it now.")


def _compact_then(standin: StandIn, said: str) -> Callable[[Terminal], None]:
    """What to do before `/exit`: `/compact`, then one more typed turn, ``said``."""
    def step(term: Terminal) -> None:
        term.send_text("/compact")
        term.wait_for("Compacted", 60)
        term.wait_prompt(60)
        _submit(term, standin, said)

    return step


def record_subagent(home: ClaudeHome, standin: StandIn) -> list[Path]:
    standin.script = Script(
        text="The agent found no notes about the outage.", subagent_text="No notes about the outage in this project."
    )
    agent_input = {
        "description": "Search outage notes",
        "prompt": "Look for notes about Tuesday's outage and report back.",
        "subagent_type": "general-purpose",
    }
    standin.script.on(r"agent", Reply.tool_use("Agent", agent_input), times=1)
    proc = home.run_print(
        "Ask an agent to look for notes about Tuesday's outage.", "--allowedTools", "Agent", timeout=120
    )
    if proc.returncode != 0:
        raise RuntimeError(f"claude -p exited {proc.returncode}: {proc.stderr[-500:]}")
    return home.transcripts()


SCRIPTED_TASK = "SCRIPTED-TASK: list the migration files and check each one with echo, then summarise."
SCRIPTED_CALLS = 4


def _scripted_tool_calls(script: Script) -> None:
    """A `claude -p` task that makes SCRIPTED_CALLS Bash calls in a row before it answers."""

    def matches(req: Request) -> bool:
        return (req.kind == TURN and "SCRIPTED-TASK" in req.last_typed_text()
                and len(req.tool_results()) < SCRIPTED_CALLS)

    def call(req: Request) -> Reply:
        step = len(req.tool_results()) + 1
        return Reply.tool_use("Bash", {"command": f"echo migration-{step}", "description": f"Check migration {step}"})

    script.on(matches, call)


def record_headless_resumed(home: ClaudeHome, standin: StandIn) -> list[Path]:
    """A `claude -p` run with four tool calls, continued interactively: `claude --resume <id>` and
    the three typed turns of the interactive recording, answered without tools (so the `-p` part's
    tool results outnumber the typed prompts, as when the worker first met it)."""
    standin.script = Script(text="Checked the four migrations; all of them ran.")
    _scripted_tool_calls(standin.script)
    proc = home.run_print(SCRIPTED_TASK, "--allowedTools", "Bash", timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"claude -p exited {proc.returncode}: {proc.stderr[-500:]}")
    (first,) = home.transcripts()
    standin.script.text = "Noted: the queue stays in Postgres, and migrations get a 5 s lock_timeout."
    _type_turns(home, standin, INTERACTIVE_TURNS, "--resume", first.stem)
    return home.transcripts()


FORK_TURNS = ("Forked to try the Redis variant: what would change if the queue moved to Redis after all? "
              "Keep the Postgres decision as it is for now.",)
FORK_AGAIN_TURNS = ("Forked once more: list what the Redis variant would need for backups.",)


def record_forked(home: ClaudeHome, standin: StandIn) -> list[Path]:
    """The interactive recording's three turns (the parent), then `claude --resume <parent>
    --fork-session` with one typed turn (the fork), then the same from the fork (a fork of a fork).
    Returned parent, fork, fork of the fork."""
    standin.script = _interactive_script(home.project)
    _type_turns(home, standin, INTERACTIVE_TURNS)
    (parent,) = home.transcripts()
    standin.script.text = "A Redis queue would need its own backups; the Postgres one is covered nightly."
    _type_turns(home, standin, FORK_TURNS, "--resume", parent.stem, "--fork-session")
    (fork,) = [p for p in home.transcripts() if p != parent]
    standin.script.text = "Redis would need RDB snapshots or AOF shipped off the host."
    _type_turns(home, standin, FORK_AGAIN_TURNS, "--resume", fork.stem, "--fork-session")
    (again,) = [p for p in home.transcripts() if p not in (parent, fork)]
    return [parent, fork, again]


def record_compacted_fork(home: ClaudeHome, standin: StandIn) -> list[Path]:
    """A parent of two typed turns, `/compact`, one more turn, `/exit`; then `claude --resume <parent>
    --fork-session` with one typed turn. The fork copies only what follows the compaction boundary.
    Returned parent, fork."""
    standin.script = Script(text="Noted.", compact_summary="1. Postgres for the ledger.\n2. CSV BOM stripped.")
    then = _compact_then(standin, "After the compaction: we also decided to shard invoices by tenant id.")
    _type_turns(home, standin, COMPACTED_TURNS, before_exit=then)
    (parent,) = home.transcripts()
    standin.script.text = "Redis variant noted."
    _type_turns(home, standin, ("Forked: what would change with Redis?",), "--resume", parent.stem, "--fork-session")
    (fork,) = [p for p in home.transcripts() if p != parent]
    return [parent, fork]


SESSIONS: dict[str, Callable[[ClaudeHome, StandIn], list[Path]]] = {
    "interactive": record_interactive,
    "headless": record_headless,
    "resumed": record_resumed,
    "compacted": record_compacted,
    "subagent": record_subagent,
    "headless-resumed": record_headless_resumed,
    "forked": record_forked,
    "compacted-fork": record_compacted_fork,
}
# sessions whose recording leaves several main transcripts, named in the order it returns them
SEVERAL = {"forked": ("forked-parent", "forked", "forked-again"),
           "compacted-fork": ("compacted-fork-parent", "compacted-fork")}


# -- driver --------------------------------------------------------------------------------------


def _install_hooks(home: ClaudeHome) -> None:
    hook = home.claude_dir / "hooks" / "record-hook.sh"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text(HOOK_SCRIPT)
    hook.chmod(0o755)
    hooks = {
        event: [{"matcher": "", "hooks": [{"type": "command", "command": f"{hook} {event}", "timeout": 10}]}]
        for event in HOOK_EVENTS
    }
    home.write_settings({"hooks": hooks})


def _output_names(name: str, transcripts: list[Path]) -> list[tuple[Path, str]]:
    """Main transcript -> NAME.jsonl; a sub-agent's -> NAME-sidechain.jsonl (+ its .meta.json); the
    transcripts of a recording in SEVERAL -> the names listed there, in order."""
    if name in SEVERAL:
        return [(path, f"{each}.jsonl") for path, each in zip(transcripts, SEVERAL[name], strict=True)]
    out = []
    for path in transcripts:
        if path.parent.name == "subagents":
            out.append((path, f"{name}-sidechain.jsonl"))
            meta = path.with_suffix(".meta.json")
            if meta.exists():
                out.append((meta, f"{name}-sidechain.meta.json"))
        else:
            out.append((path, f"{name}.jsonl"))
    mains = [o for o in out if o[1] == f"{name}.jsonl"]
    if len(mains) != 1:
        raise RuntimeError(f"{name}: expected one main transcript, got {[str(p) for p, _ in mains]}")
    return out


def record(name: str, binary: str, out_dir: Path) -> list[dict[str, Any]]:
    """Record one session into out_dir; return its hook payloads, sanitised."""
    with tempfile.TemporaryDirectory(prefix=f"lh-record-{name}-") as tmp, StandIn() as standin:
        home = ClaudeHome.create(Path(tmp), standin.url, binary)
        _install_hooks(home)
        try:
            transcripts = SESSIONS[name](home, standin)
        finally:
            home.close()
        clean = Sanitizer(home, standin.port)
        for src, dest in _output_names(name, transcripts):
            (clean.jsonl if dest.endswith(".jsonl") else clean.json)(src, out_dir / dest)
        dumps = sorted((home.home / "hook-payloads").glob("*.json"), key=lambda p: int(p.name.split("-")[0]))
        calls = len(standin.log.model_requests())
        print(f"{name}: {len(transcripts)} transcript(s), {calls} model requests, {clean.truncated} long strings cut")
        return [
            {
                "session": name,
                "event": path.stem.split("-", 2)[2],
                "payload": clean.value(json.loads(clean.text(path.read_text()))),
            }
            for path in dumps
        ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=sorted(SESSIONS), help="record only these sessions")
    parser.add_argument("--out", type=Path, default=OUT_DIR)
    args = parser.parse_args(argv)
    binary = find_claude()
    if binary is None or shutil.which("tmux") is None:
        print("need the claude CLI (or $LH_E2E_CLAUDE) and tmux", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    payloads = []
    for name in args.only or SESSIONS:
        payloads += record(name, binary, args.out)
    if not args.only:
        (args.out / "hook-payloads.jsonl").write_text(
            "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in payloads)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
