"""The worker with the real `codex exec` against the Responses API stand-in, claude absent from PATH:
a task for a recorded interactive rollout is distilled and its entries say agent codex; a `codex
exec` rollout is never distilled; the harness's own run leaves no rollout behind."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from lazy_harness import paths, queue
from lazy_harness.worker import loop, rollout
from responses_standin import ENV_KEY, ResponsesReply, ResponsesScript, ResponsesStandIn, codex_config
from tests.worker.spendrig import configure, ledger_lines, tasks

pytestmark = pytest.mark.e2e

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "codex"
ANSWER = {
    "decisions": [
        {
            "summary": "Keep the billing queue in Postgres",
            "context": None,
            "alternatives": ["Redis"],
            "rationale": "ops already backs it up",
            "tags": ["queue"],
            "cues": None,
        }
    ],
    "failures": [],
    "learnings": [],
    "handoff": ["Schedule the nightly vacuum job"],
    "handoff_closed": None,
}


@pytest.fixture
def codex_dir(tmp_path) -> str:
    """A folder holding only `codex` and the `node` it runs on: on PATH, it leaves claude out wherever
    the machine installed it (npm -g may put claude beside node)."""
    found, node = shutil.which("codex"), shutil.which("node")
    if found is None or node is None:
        if os.environ.get("CI"):
            pytest.fail("codex (or node) is not on PATH in CI (.ci/run installs it)")
        pytest.skip("Codex CLI not on PATH (npm install -g @openai/codex)")
    folder = tmp_path / "codex-only"
    folder.mkdir()
    (folder / "codex").symlink_to(found)
    (folder / "node").symlink_to(node)
    return str(folder)


@pytest.fixture
def standin():
    script = ResponsesScript(structured=ANSWER)
    script.on(
        lambda r: "verdicts" in json.dumps(r.schema or {}), ResponsesReply.text(json.dumps({"verdicts": []}))
    )
    with ResponsesStandIn(script) as server:
        yield server


def _place(name: str, project: Path) -> dict:
    text = (FIXTURES / name).read_text().replace("/home/user/project", str(project))
    sid = json.loads(text.splitlines()[0])["payload"]["id"]
    folder = Path(rollout.sessions_dir()) / "2026" / "11" / "28"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-2026-11-28T23-58-46-{sid}.jsonl"
    path.write_text(text)
    fields = queue.task_fields(
        {"session_id": sid, "transcript_path": str(path), "cwd": str(project)}, "SessionEnd", True
    )
    fields["agent"] = "codex"
    queue.enqueue(paths.queue_dir(), fields)
    return fields


def _setup(home: Path, monkeypatch, codex_dir: str, standin: ResponsesStandIn) -> None:
    codex_home = home / ".codex"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(codex_config(standin.base_url))
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    monkeypatch.setenv(ENV_KEY, "standin-key")
    monkeypatch.setenv("PATH", codex_dir)  # codex and node: no claude
    assert shutil.which("claude") is None


def test_interactive_rollout_is_distilled_by_codex_with_agent_codex(
    isolated_home, tmp_path, monkeypatch, codex_dir, standin
):
    _setup(isolated_home, monkeypatch, codex_dir, standin)
    configure(isolated_home, min_user_chars=50, model_check=True)
    project = tmp_path / "api"
    project.mkdir()
    fields = _place("interactive.jsonl", project)
    before = sorted(Path(rollout.sessions_dir()).rglob("*.jsonl"))

    stats = loop.run(dict(os.environ))

    assert stats.processed == 1, tasks("failed")
    distill, check = standin.model_requests()
    assert distill.headers["originator"] == "codex_exec"
    assert "We decided to keep the billing queue in Postgres" in distill.last_user_text()
    assert "decided last week" not in distill.last_user_text()  # the hook's context, never distilled
    assert distill.schema is not None and distill.schema["additionalProperties"] is False
    assert "verdicts" in json.dumps(check.schema)  # the model check went through codex too
    with open(os.path.join(fields["memory_dir"], "decisions.jsonl")) as fh:
        [decision] = [json.loads(line) for line in fh]
    assert decision["summary"] == "Keep the billing queue in Postgres" and decision["agent"] == "codex"
    assert decision["context"] == ""  # null in the strict answer: absent
    with open(os.path.join(fields["memory_dir"], "handoff.jsonl")) as fh:
        assert [json.loads(line)["agent"] for line in fh] == ["codex"]
    lines = ledger_lines()
    assert [line["kind"] for line in lines] == ["distill", "model-check"]
    assert lines[0]["input_tokens"] > 0 and lines[0]["cost_reported"] is False
    assert sorted(Path(rollout.sessions_dir()).rglob("*.jsonl")) == before  # --ephemeral: no rollout of ours


def test_exec_rollout_is_never_distilled(isolated_home, tmp_path, monkeypatch, codex_dir, standin):
    _setup(isolated_home, monkeypatch, codex_dir, standin)
    configure(isolated_home, min_user_chars=10)
    project = tmp_path / "api"
    project.mkdir()
    _place("exec.jsonl", project)

    stats = loop.run(dict(os.environ))

    [done] = tasks("done")
    assert stats.processed == 0 and "not an interactive session (headless)" in done["reason"]
    assert standin.model_requests() == []


def test_the_distill_call_offers_the_model_no_tool_and_starts_no_mcp_server(
    isolated_home, tmp_path, monkeypatch, codex_dir, standin
):
    """The transcript is untrusted text: a distill call that offered a shell, web search or the
    person's MCP servers could be told by it to read any file into memory or send it out."""
    _setup(isolated_home, monkeypatch, codex_dir, standin)
    marker = tmp_path / "mcp-server-started"
    with open(os.path.join(os.environ["CODEX_HOME"], "config.toml"), "a") as fh:
        fh.write(f'\n[mcp_servers.notes]\ncommand = "sh"\nargs = ["-c", "touch {marker}; sleep 5"]\n'
                 f'\n[mcp_servers."team-docs"]\ncommand = "sh"\nargs = ["-c", "touch {marker}; sleep 5"]\n')
    configure(isolated_home, min_user_chars=50)
    project = tmp_path / "api"
    project.mkdir()
    _place("interactive.jsonl", project)

    stats = loop.run(dict(os.environ))

    assert stats.processed == 1, [t.get("reason") or t.get("error") for t in tasks("failed")]
    for request in standin.model_requests():
        offered = {t.get("name") or t.get("type") for t in request.body.get("tools") or []}
        assert offered <= {"request_user_input"}, offered  # it asks no one: exec never waits for input
    assert not marker.exists()
