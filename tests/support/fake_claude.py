"""A fake ``claude`` executable for unit tests: put first on PATH, it records every call and answers
from a control file beside it.

Control file ``<bin>/fake-claude.json``: {"mode": "ok"|"fail"|"garbage"|"sleep"|"unreachable"|"auth"|
"over_budget", "answer": {...}, "sleep": seconds, "stderr": text, "code": n, "fail_times": n (fail this
many calls, then ok), "fail_as": the mode of those failing calls (default "fail"), "cost":
total_cost_usd (default 0), "usage": {...} (the envelope's usage)}.
``unreachable`` and ``auth`` print the error envelope claude 2.1.330 prints with one API retry
(exit 1); ``over_budget`` the one of ``--max-budget-usd`` (subtype ``error_max_budget_usd``, its cost).
Each call appends {"argv", "stdin", "cwd", "marker", "retries", "pid"} as one JSON line to
``<bin>/calls.jsonl``.
"""

import json
import os
import stat
import sys
from pathlib import Path

SCRIPT = r'''#!{python}
import json, os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
if sys.argv[1:] == ["--version"]:
    print("2.1.328 (Claude Code)")
    sys.exit(0)
ctl = json.load(open(os.path.join(here, "fake-claude.json")))
data = sys.stdin.read()
with open(os.path.join(here, "calls.jsonl"), "a") as fh:
    fh.write(json.dumps({{"argv": sys.argv[1:], "stdin": data, "cwd": os.getcwd(),
                         "marker": os.environ.get("LH_WORKER_CALL"),
                         "retries": os.environ.get("CLAUDE_CODE_MAX_RETRIES"), "pid": os.getpid()}}) + "\n")
calls = sum(1 for _ in open(os.path.join(here, "calls.jsonl")))
mode = ctl.get("mode", "ok")
if ctl.get("fail_times") and calls <= ctl["fail_times"]:
    mode = ctl.get("fail_as", "fail")
if ctl.get("sleep"):
    time.sleep(ctl["sleep"])
if mode == "fail":
    sys.stderr.write(ctl.get("stderr", "API Error: 529 overloaded") + "\n")
    sys.exit(ctl.get("code", 1))
usage = ctl.get("usage", {{"input_tokens": 0, "output_tokens": 0}})
errors = {{"unreachable": "API Error: Connection refused (ECONNREFUSED)",
          "auth": "Invalid API key · Please run /login"}}
if mode in errors:
    print(json.dumps({{"type": "result", "subtype": "success", "is_error": True, "result": errors[mode],
                      "terminal_reason": "api_error", "total_cost_usd": 0, "usage": usage}}))
    sys.exit(1)
if mode == "over_budget":
    print(json.dumps({{"type": "result", "subtype": "error_max_budget_usd", "is_error": True,
                      "total_cost_usd": ctl.get("cost", 0), "usage": usage}}))
    sys.exit(1)
if mode == "garbage":
    print("I could not do that, sorry.")
    sys.exit(0)
print(json.dumps({{"type": "result", "subtype": "success", "is_error": False, "result": "",
                  "structured_output": ctl.get("answer", {{}}), "session_id": "fake",
                  "total_cost_usd": ctl.get("cost", 0), "usage": usage,
                  "modelUsage": {{ctl.get("model", "claude-haiku-4-5-20251001"): {{"costUSD": ctl.get("cost", 0)}}}}}}))
'''

DEFAULT_ANSWER = {
    "decisions": [{"summary": "Use a file queue between hooks and worker", "context": "hooks must be fast",
                   "alternatives": ["sqlite", "a daemon"], "rationale": "crash-safe and inspectable",
                   "tags": ["architecture"]}],
    "failures": [{"summary": "pytest collected the worktree twice", "root_cause": "worktree not ignored",
                  "resolution": "ignored .worktrees", "prevention": "keep worktrees under an ignored folder",
                  "tags": ["testing"]}],
    "learnings": [{"title": "Rename is the atomic commit of a spool", "learning": "Write to tmp, rename in.",
                   "context": "Any file queue.", "scope": "universal", "tags": ["queue"]}],
    "handoff": ["finish the retry command", "document the queue format"],
}


def install(bin_dir: Path, mode: str = "ok", answer: dict | None = None, **extra) -> Path:
    bin_dir.mkdir(parents=True, exist_ok=True)
    exe = bin_dir / "claude"
    exe.write_text(SCRIPT.format(python=sys.executable))
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    control(bin_dir, mode=mode, answer=DEFAULT_ANSWER if answer is None else answer, **extra)
    return exe


def control(bin_dir: Path, **settings) -> None:
    (bin_dir / "fake-claude.json").write_text(json.dumps(settings))


def calls(bin_dir: Path) -> list[dict]:
    path = bin_dir / "calls.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def on_path(monkeypatch, bin_dir: Path) -> None:
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")


def use(tmp_path: Path, monkeypatch, mode: str = "ok", **extra) -> Path:
    """Install the fake in ``tmp_path/bin`` and put it first on PATH; returns the bin folder."""
    bin_dir = tmp_path / "bin"
    install(bin_dir, mode=mode, **extra)
    on_path(monkeypatch, bin_dir)
    return bin_dir
