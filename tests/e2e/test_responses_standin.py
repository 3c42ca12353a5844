"""The Responses API stand-in: SSE events, scripted answers, recorded requests; and the real `codex exec` against it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from responses_standin import ENV_KEY, ResponsesReply, ResponsesScript, ResponsesStandIn, codex_config

SCHEMA = {
    "type": "object",
    "properties": {"ok": {"type": "boolean"}},
    "required": ["ok"],
    "additionalProperties": False,
}


def _post(url: str, body: dict) -> tuple[int, str]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json", "originator": "t"}
    )
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def _events(body: str) -> list[dict]:
    return [json.loads(line[6:]) for line in body.splitlines() if line.startswith("data: ")]


def _user(text: str) -> dict:
    return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}


def test_plain_request_streams_text_in_order_and_ends_completed() -> None:
    with ResponsesStandIn(ResponsesScript(text="x" * 100)) as standin:
        status, body = _post(
            standin.base_url + "/responses", {"model": "m", "stream": True, "input": [_user("hi")]}
        )

    events = _events(body)
    kinds = [e["type"] for e in events]
    assert status == 200
    assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
    assert kinds.index("response.output_item.added") < kinds.index("response.output_text.delta")
    assert kinds.index("response.output_item.done") < kinds.index("response.completed")
    assert "".join(e["delta"] for e in events if e["type"] == "response.output_text.delta") == "x" * 100
    assert kinds.count("response.output_text.delta") == 3
    done = events[-1]["response"]
    assert done["usage"]["input_tokens"] > 0 and done["usage"]["output_tokens"] > 0
    assert done["output"][0]["content"][0] == {"type": "output_text", "text": "x" * 100, "annotations": []}


def test_schema_request_gets_structured_json_and_is_recorded() -> None:
    body = {
        "model": "m",
        "stream": True,
        "input": [_user("give")],
        "text": {"format": {"type": "json_schema", "schema": SCHEMA}},
    }
    with ResponsesStandIn(ResponsesScript(text="no", structured={"ok": True})) as standin:
        _status, answer = _post(standin.base_url + "/responses", body)
        (req,) = standin.model_requests()

    final = _events(answer)[-1]["response"]["output"][0]["content"][0]["text"]
    assert json.loads(final) == {"ok": True}
    assert req.schema == SCHEMA
    assert req.last_user_text() == "give"
    assert req.headers["originator"] == "t"


def test_rules_come_first_and_function_calls_get_fresh_ids() -> None:
    script = ResponsesScript(text="plain")
    script.on(
        lambda r: r.last_user_text() == "tool",
        ResponsesReply.function_call("exec_command", {"cmd": "ls"}),
        times=2,
    )
    with ResponsesStandIn(script) as standin:
        outs = [
            _events(_post(standin.base_url + "/responses", {"stream": True, "input": [_user("tool")]})[1])
            for _ in range(3)
        ]

    calls = [e["response"]["output"][0] for e in (o[-1] for o in outs[:2])]
    assert [c["type"] for c in calls] == ["function_call", "function_call"]
    assert calls[0]["call_id"] != calls[1]["call_id"]
    assert json.loads(calls[0]["arguments"]) == {"cmd": "ls"}
    assert outs[2][-1]["response"]["output"][0]["type"] == "message"


def test_other_paths_get_404_and_are_recorded() -> None:
    with ResponsesStandIn() as standin:
        status, _ = _post(standin.base_url + "/chat/completions", {"x": 1})
        assert status == 404
        assert [r.path for r in standin.requests] == ["/v1/chat/completions"]
        assert standin.model_requests() == []


def test_wait_for_times_out_with_a_count() -> None:
    with ResponsesStandIn() as standin, pytest.raises(TimeoutError, match="1 model requests expected"):
        standin.wait_for(1, timeout=0.05)


def _codex_bin() -> str | None:
    found = shutil.which("codex")
    if found is None and os.environ.get("CI"):
        pytest.fail("codex not on PATH in CI")
    return found


@pytest.mark.e2e
def test_real_codex_exec_gets_schema_answer_from_standin(tmp_path: Path) -> None:
    codex = _codex_bin()
    if codex is None:
        pytest.skip("Codex CLI not on PATH (npm install -g @openai/codex)")
    (tmp_path / "codex").mkdir()
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    with ResponsesStandIn(ResponsesScript(structured={"ok": True})) as standin:
        (tmp_path / "codex" / "config.toml").write_text(codex_config(standin.base_url))
        env = {**os.environ, "HOME": str(tmp_path), "CODEX_HOME": str(tmp_path / "codex"), ENV_KEY: "k"}
        args = [codex, "exec", "--ephemeral", "--skip-git-repo-check", "--sandbox", "read-only"]
        done = subprocess.run(
            [*args, "--output-schema", str(tmp_path / "schema.json"), "answer please"],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )
        (req,) = standin.model_requests()

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"ok": True}
    assert req.schema == SCHEMA
    assert req.last_user_text() == "answer please"
    assert req.headers["originator"] == "codex_exec"
    assert not (tmp_path / "codex" / "sessions").exists()
