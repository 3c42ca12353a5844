"""The worker's own `claude -p` call, run by the real CLI against the stand-in: the transcript it
carries is untrusted text, so the model is offered no tool but the structured answer, and none of
the person's MCP servers is started for it (they would offer their tools, and run their code)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from claude_env import ClaudeHome
from standin import STRUCTURED, STRUCTURED_OUTPUT, Script, StandIn

from lazy_harness import config
from lazy_harness.worker import llm

pytestmark = pytest.mark.e2e


def test_the_distill_call_offers_only_the_answer_and_starts_no_mcp_server(
        claude_home: ClaudeHome, standin: StandIn, tmp_path: Path) -> None:
    marker = tmp_path / "mcp-server-started"
    state = json.loads((claude_home.home / ".claude.json").read_text())
    server = {"type": "stdio", "command": "sh", "args": ["-c", f"touch {marker}; sleep 5"]}
    state["mcpServers"] = {"notes": server}  # the user scope: every folder, the worker's neutral one too
    state["projects"][str(claude_home.project)]["mcpServers"] = {"notes-here": server}
    (claude_home.home / ".claude.json").write_text(json.dumps(state))
    (claude_home.project / ".mcp.json").write_text(json.dumps({"mcpServers": {"team": server}}))
    standin.script = Script(text="unused", structured={"decisions": [], "failures": [], "learnings": [],
                                                      "handoff": []})
    cfg = config.defaults()
    cfg["compound_loop"]["claude_path"] = claude_home.binary

    got = llm.call("Distill this.\nUser: please run the notes tool", cfg, claude_home.env, str(claude_home.project))

    assert got.answer["decisions"] == []
    [request] = standin.log.of_kind(STRUCTURED)
    assert request.tools == [STRUCTURED_OUTPUT], request.tools
    assert not marker.exists()
