"""The stand-in and the tmux driver work with the real Claude Code CLI."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from claude_env import ClaudeHome
from standin import STRUCTURED, STRUCTURED_OUTPUT, Reply, StandIn, inline_system_text

pytestmark = pytest.mark.e2e

SCHEMA = {
    "type": "object",
    "properties": {"decisions": {"type": "array", "items": {"type": "string"}}, "confidence": {"type": "number"}},
    "required": ["decisions"],
}


def _post(url: str, body: dict) -> tuple[int, str]:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def test_standin_streams_tool_use_as_sse_events(standin: StandIn) -> None:
    standin.script.on(lambda req: True, Reply.tool_use("Bash", {"command": "echo hi"}))
    status, body = _post(
        standin.url + "/v1/messages?beta=true",
        {"model": "m", "stream": True, "tools": [{"name": "Bash"}], "messages": [{"role": "user", "content": "x"}]},
    )

    events = [line.split(": ", 1)[1] for line in body.splitlines() if line.startswith("event: ")]
    deltas = [json.loads(line[6:])["delta"] for line in body.splitlines() if '"content_block_delta"' in line]
    assert status == 200
    assert events[0] == "message_start" and events[-2:] == ["message_delta", "message_stop"]
    assert json.loads("".join(d["partial_json"] for d in deltas)) == {"command": "echo hi"}
    assert '"stop_reason": "tool_use"' in body


def test_standin_counts_tokens_and_refuses_unknown_paths(standin: StandIn) -> None:
    assert _post(standin.url + "/v1/messages/count_tokens?beta=true", {"messages": []})[0] == 200
    assert _post(standin.url + "/v1/nothing", {})[0] == 404
    assert [r.kind for r in standin.log.all()] == ["count_tokens", "other"]


def test_print_mode_gets_the_standin_text(claude_home: ClaudeHome, standin: StandIn) -> None:
    standin.script.text = "Stand-in says: the queue lives on disk."

    proc = claude_home.run_print("hello")

    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Stand-in says: the queue lives on disk."
    assert standin.log.typed_texts() == ["hello"], standin.log.summary()


def test_json_schema_returns_the_structured_object(claude_home: ClaudeHome, standin: StandIn) -> None:
    answer = {"decisions": ["keep the spool on disk", "drop redis"], "confidence": 0.5}
    standin.script.structured = answer

    proc = claude_home.run_print("distill this", "--output-format", "json", "--json-schema", json.dumps(SCHEMA))

    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["structured_output"] == answer
    assert result["is_error"] is False
    (req,) = standin.log.requests_with_tool(STRUCTURED_OUTPUT)
    offered = next(t for t in req.body["tools"] if t["name"] == STRUCTURED_OUTPUT)
    assert req.kind == STRUCTURED and offered["input_schema"] == SCHEMA


def test_worker_style_call_reads_stdin_and_leaves_no_trace(claude_home: ClaudeHome, standin: StandIn) -> None:
    """The flags a background distill call uses: no hooks, no transcript, no tools, prompt on stdin."""
    marker = claude_home.home / "hook-ran"
    claude_home.write_settings(
        {"hooks": {"SessionStart": [{"matcher": "", "hooks": [{"type": "command", "command": f"touch {marker}"}]}]}}
    )
    standin.script.structured = {"decisions": ["from stdin"]}

    proc = claude_home.run_print(
        "--settings", '{"disableAllHooks": true}', "--no-session-persistence", "--tools", "",
        "--output-format", "json", "--json-schema", json.dumps(SCHEMA),
        stdin="Transcript excerpt: we chose the disk spool.",
    )  # fmt: skip

    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["structured_output"] == {"decisions": ["from stdin"]}
    (req,) = standin.log.model_requests()
    assert req.last_user_text() == "Transcript excerpt: we chose the disk spool."
    assert "Bash" not in req.tools
    assert not marker.exists()
    assert claude_home.transcripts() == []


def test_session_start_context_reaches_the_model(claude_home: ClaudeHome, standin: StandIn) -> None:
    context = {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "LH-MARKER: we use a disk spool."}
    }
    hook = claude_home.home / "session_start.sh"
    hook.write_text(f"#!/bin/sh\ncat > /dev/null\necho '{json.dumps(context)}'\n")
    hook.chmod(0o755)
    claude_home.write_settings(
        {"hooks": {"SessionStart": [{"matcher": "", "hooks": [{"type": "command", "command": str(hook)}]}]}}
    )

    proc = claude_home.run_print("what do we use?")

    assert proc.returncode == 0, proc.stderr
    (req,) = standin.log.model_requests()
    assert "LH-MARKER: we use a disk spool." in inline_system_text(req)
    assert "LH-MARKER" not in req.system_text() and "LH-MARKER" not in req.last_user_text()


def test_interactive_turn_shows_reply_and_exit_ends_session(interactive_home: ClaudeHome, standin: StandIn) -> None:
    standin.script.text = "Stand-in reply for the terminal."
    term = interactive_home.terminal()
    term.wait_prompt()

    term.send_text("We picked SQLite for the ledger; the nightly import failed on a BOM.")
    screen = term.wait_for("Stand-in reply for the terminal.")
    term.wait_prompt()
    term.send_text("/exit")

    assert "We picked SQLite for the ledger" in screen
    assert term.wait_exit() == 0
    assert [p.suffix for p in interactive_home.transcripts()] == [".jsonl"]


def test_typed_text_and_tool_result_reach_the_request_log(interactive_home: ClaudeHome, standin: StandIn) -> None:
    standin.script.on_turn_tool(
        "shell", "Bash", {"command": "echo from-the-tool", "description": "Print a word"}, then="The shell works."
    )
    typed = "Check that the shell works before we script the deploy."
    term = interactive_home.terminal()
    term.wait_prompt()

    term.send_text(typed)
    term.wait_for("The shell works.")

    turns = standin.log.turn_requests()
    assert standin.log.typed_texts() == [typed], standin.log.summary()
    assert len(turns) == 2
    (result,) = turns[1].tool_results()
    assert "from-the-tool" in json.dumps(result["content"]) and not result.get("is_error")
