"""The Codex rollout reader against rollouts recorded from the real CLI (tests/fixtures/codex) and
against one hand-made line per record type."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lazy_harness.memory.fence import FENCE
from lazy_harness.worker import rollout
from lazy_harness.worker.transcript_lines import TranscriptError

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "codex"
TYPED_1 = "We decided to keep the billing queue in Postgres rather than Redis"
HOOK_TEXT = "lazy-harness memory: the billing queue stays in Postgres (decided last week)."


def fixture(name: str) -> str:
    path = FIXTURES / name
    assert path.exists(), f"recorded fixture {name} missing: python tests/e2e/record_codex_fixtures.py"
    return str(path)


def meta(**fields) -> dict:
    payload = {
        "id": "sess-1",
        "cwd": "/home/user/project",
        "originator": "codex-tui",
        "source": "cli",
        **fields,
    }
    return {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": payload}


def item(payload: dict, ts: str = "2026-01-01T00:00:01Z") -> dict:
    return {"timestamp": ts, "type": "response_item", "payload": payload}


def message(role: str, text: str, kinds: list[str] | None = None) -> dict:
    payload: dict = {"type": "message", "role": role, "content": [{"type": "input_text", "text": text}]}
    if kinds is not None:
        payload["internal_chat_message_metadata_passthrough"] = {"content_item_kinds": kinds}
    return item(payload)


def write(tmp_path: Path, records: list, name: str = "rollout.jsonl") -> str:
    path = tmp_path / name
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


# -- recorded rollouts ----------------------------------------------------------------------------


def test_interactive_rollout_gives_typed_text_answers_and_tool_call_only() -> None:
    view = rollout.read_view(fixture("interactive.jsonl"))

    assert view.kind == "interactive"
    assert view.user_messages == 2
    assert view.text.count("User: ") == 2
    assert "User: " + TYPED_1 in view.text
    assert "Assistant: Agreed: the billing queue stays in Postgres" in view.text
    assert "[tool exec_command: ls]" in view.text
    assert view.tool_calls == 1
    assert HOOK_TEXT not in view.text  # hooks.additional_context (a developer message)
    assert "environment_context" not in view.text and "skills_instructions" not in view.text
    assert view.session_id and view.cwd == "/home/user/project"


def test_exec_rollout_is_headless() -> None:
    view = rollout.read_view(fixture("exec.jsonl"))

    assert view.kind == "headless"
    assert view.user_messages == 1  # read, but never distilled: the pipeline skips non-interactive


def test_resumed_rollout_after_cursor_gives_only_new_text() -> None:
    path = fixture("resumed.jsonl")
    whole = rollout.read_view(path)
    lines = Path(path).read_bytes().split(b"\n")
    first_turns = [
        i for i, line in enumerate(lines) if b"One more thing" in line and b'"response_item"' in line
    ][0]
    offset = sum(len(line) + 1 for line in lines[: first_turns - 1])

    later = rollout.read_view(path, text_from=offset)

    assert whole.user_messages == 3
    assert "User: One more thing: the vacuum job runs at 03:00 UTC" in later.text
    assert TYPED_1 not in later.text
    assert later.user_messages == 3  # the gates count the whole session
    assert later.kind == "interactive"


# -- one record type at a time --------------------------------------------------------------------


def test_session_meta_sources(tmp_path: Path) -> None:
    said = message("user", "hello there", ["user.text"])
    kinds = {}
    for label, fields in {
        "cli": {},
        "daemon": {"source": "vscode"},
        "exec": {"source": "exec"},
        "exec-origin": {"originator": "codex_exec", "source": "cli"},
        "ours": {"thread_source": "lazy-harness"},
        "subagent": {"source": {"subagent": {"thread_spawn": {}}}},
        "other": {"source": "mcp"},
    }.items():
        kinds[label] = rollout.read_view(write(tmp_path, [meta(**fields), said], f"{label}.jsonl")).kind
    kinds["no-meta"] = rollout.read_view(write(tmp_path, [said], "no-meta.jsonl")).kind
    kinds["empty"] = rollout.read_view(write(tmp_path, [meta()], "empty.jsonl")).kind

    assert kinds == {
        "cli": "interactive",
        "daemon": "interactive",
        "exec": "headless",
        "exec-origin": "headless",
        "ours": "headless",
        "subagent": "sidechain",
        "other": "unknown",
        "no-meta": "unknown",
        "empty": "empty",
    }


def test_user_messages_by_provenance(tmp_path: Path) -> None:
    records = [
        meta(),
        message("user", "typed by the person", ["user.text"]),
        message(
            "user",
            "<environment_context><cwd>/x</cwd></environment_context>",
            ["environments.environment_context"],
        ),
        message("user", "injected by a hook", ["hooks.additional_context"]),
        message("developer", "developer instructions", ["permissions.instructions"]),
        message("developer", "a hook's context"),
        message("user", "<environment_context>older CLI</environment_context>"),
        message("user", "typed on an older CLI"),
        message("user", FENCE + "\n- d-1 something", ["unknown"]),
    ]
    view = rollout.read_view(write(tmp_path, records))

    assert view.text.splitlines() == ["User: typed by the person", "User: typed on an older CLI"]
    assert view.user_messages == 2
    assert view.user_chars == len("typed by the person") + len("typed on an older CLI")


def test_assistant_message_function_call_and_outputs(tmp_path: Path) -> None:
    ok = "Chunk ID: 1\nProcess exited with code 0\nOutput:\nREADME.md\n"
    failed = "Chunk ID: 2\nProcess exited with code 2\nOutput:\nls: cannot access 'x'\n"
    records = [
        meta(),
        message("user", "go", ["user.text"]),
        item(
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "On it."}]}
        ),
        item(
            {
                "type": "function_call",
                "name": "exec_command",
                "arguments": '{"cmd": "ls x", "yield_time_ms": 1}',
                "call_id": "c1",
            }
        ),
        item({"type": "function_call_output", "call_id": "c1", "output": failed}),
        item({"type": "function_call", "name": "exec_command", "arguments": "not json", "call_id": "c2"}),
        item({"type": "function_call_output", "call_id": "c2", "output": ok}),
        item({"type": "reasoning", "summary": [{"type": "summary_text", "text": "secret thoughts"}]}),
    ]
    view = rollout.read_view(write(tmp_path, records))

    assert view.text.splitlines() == [
        "User: go",
        "Assistant: On it.",
        "[tool exec_command: ls x]",
        "[tool error: exit 2: ls: cannot access 'x']",
        "[tool exec_command: not json]",
        "[tool output: README.md]",
    ]
    assert (view.tool_calls, view.tool_errors, view.assistant_messages) == (2, 1, 1)


def test_compacted_record_is_a_summary(tmp_path: Path) -> None:
    records = [
        meta(),
        {"timestamp": "t", "type": "compacted", "payload": {"message": "We moved the queue."}},
        message("user", "next", ["user.text"]),
    ]
    view = rollout.read_view(write(tmp_path, records))

    assert view.text.splitlines()[0] == "[summary of the earlier conversation] We moved the queue."
    assert view.compact_summaries == 1


def test_event_msg_and_other_records_give_no_text(tmp_path: Path) -> None:
    records = [
        meta(),
        message("user", "hi", ["user.text"]),
        {"type": "event_msg", "payload": {"type": "user_message", "message": "hi again"}},
        {"type": "event_msg", "payload": {"type": "task_complete", "last_agent_message": "done"}},
        {"type": "turn_context", "payload": {"cwd": "/x"}},
        {"type": "token_usage_record", "payload": {}},
    ]
    view = rollout.read_view(write(tmp_path, records))

    assert view.text == "User: hi"


# -- bad input ------------------------------------------------------------------------------------


def test_damaged_lines_are_skipped_counted_and_named(tmp_path: Path) -> None:
    good = message("user", "kept after the damage", ["user.text"])
    torn = json.dumps(message("user", "torn", ["user.text"]))[:40]
    path = write(
        tmp_path,
        [meta(), "not json at all", torn, good, json.dumps(message("user", "last", ["user.text"]))[:-5]],
    )

    view = rollout.read_view(path)

    assert "User: kept after the damage" in view.text
    assert view.bad_lines == 3
    assert view.damaged == [f"{path}:2", f"{path}:3", f"{path}:5"]
    assert f"(skipped {path}:2, {path}:3, {path}:5)" in view.describe()


def test_oversized_line_is_skipped_and_named(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        [meta(), message("user", "x" * 5000, ["user.text"]), message("user", "short", ["user.text"])],
    )

    view = rollout.read_view(path, max_line_bytes=1000)

    assert view.oversized_lines == 1 and view.damaged == [f"{path}:2"]
    assert view.text == "User: short"


def test_missing_file_raises_transcript_error(tmp_path: Path) -> None:
    with pytest.raises(TranscriptError, match="not found"):
        rollout.read_view(str(tmp_path / "gone.jsonl"))


def test_sessions_dir_follows_codex_home(tmp_path: Path) -> None:
    assert rollout.sessions_dir({"CODEX_HOME": str(tmp_path / "c"), "HOME": str(tmp_path)}) == str(
        tmp_path / "c" / "sessions"
    )
    assert rollout.sessions_dir({"HOME": str(tmp_path)}) == str(tmp_path / ".codex" / "sessions")


def test_a_secret_in_a_yaml_block_of_a_tool_output_is_redacted_before_the_output_is_put_on_one_line(
        tmp_path: Path) -> None:
    """``kubectl get secret -o yaml``: the value of ``password: |`` is on the next line, a secret to
    the rules only while the lines are apart; the prompt holds a marker, and counts it."""
    from lazy_harness.worker import prompt

    out = ("Chunk ID: 1\nProcess exited with code 0\nOutput:\napiVersion: v1\nkind: Secret\nstringData:\n"
           "  password: |\n    Zq8vN2mP4xL7kR9t\n")
    records = [
        meta(),
        message("user", "show me the secret manifest", ["user.text"]),
        item({"type": "function_call", "name": "exec_command", "arguments": '{"cmd": "cat s.yaml"}', "call_id": "c1"}),
        item({"type": "function_call_output", "call_id": "c1", "output": out}),
    ]
    view = rollout.read_view(write(tmp_path, records))
    assert "Zq8vN2mP4xL7kR9t" not in view.text and "[REDACTED:" in view.text
    rendered = prompt.render(view, None, "proj", 20_000)
    assert "Zq8vN2mP4xL7kR9t" not in rendered.text and rendered.redacted >= 1
