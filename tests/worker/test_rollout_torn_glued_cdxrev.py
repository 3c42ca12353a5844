"""A rollout line cut by a kill, with the resumed session's next record appended to it.

Codex writes one record a line; a process killed mid-write leaves the last line without its newline,
and ``codex resume`` appends its next record to that torn line. The records rolled most often are the
ones the reader does not parse (``event_msg`` token counts, ``turn_context``, ``world_state``), so the
torn line is usually one of those: the prompt glued to it must still be read, and the line counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lazy_harness.worker import rollout

RESUMED = "After the restart: keep the billing queue in Postgres, not Redis"


def meta() -> dict:
    payload = {"id": "sess-1", "cwd": "/home/user/project", "originator": "codex-tui", "source": "cli"}
    return {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": payload}


def message(role: str, text: str, kinds: list[str]) -> dict:
    payload = {"type": "message", "role": role, "content": [{"type": "input_text", "text": text}],
               "internal_chat_message_metadata_passthrough": {"content_item_kinds": kinds}}
    return {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item", "payload": payload}


TORN = {
    "token_count": {"timestamp": "2026-01-01T00:00:02Z", "type": "event_msg",
                    "payload": {"type": "token_count", "info": {"total": {"input_tokens": 1234}}, "pad": "x" * 400}},
    "turn_context": {"timestamp": "2026-01-01T00:00:02Z", "type": "turn_context",
                     "payload": {"cwd": "/home/user/project", "model": "gpt-5", "pad": "y" * 400}},
}


@pytest.mark.parametrize("compact", [True, False], ids=["compact", "spaced"])
@pytest.mark.parametrize("torn", sorted(TORN))
def test_a_prompt_appended_to_a_torn_unparsed_line_is_read_and_the_line_counted(
        tmp_path: Path, torn: str, compact: bool) -> None:
    dump = (lambda r: json.dumps(r, separators=(",", ":"))) if compact else json.dumps
    lines = [dump(meta()), dump(message("user", "first prompt", ["user.text"])),
             dump(message("assistant", "first answer", [])),
             dump(TORN[torn])[:300] + dump(message("user", RESUMED, ["user.text"])),
             dump(message("assistant", "second answer", []))]
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join(lines) + "\n")

    view = rollout.read_view(str(path))

    assert "User: " + RESUMED in view.text
    assert view.user_messages == 2
    assert view.bad_lines == 1 and view.damaged == [f"{path}:4"]


def test_a_whole_unparsed_line_holding_a_timestamped_object_inside_is_not_damage(tmp_path: Path) -> None:
    inner = {"type": "event_msg", "payload": {"type": "item_completed",
                                              "item": {"timestamp": "2026-01-01T00:00:03Z", "type": "x"}}}
    lines = [json.dumps(meta(), separators=(",", ":")), json.dumps(inner, separators=(",", ":")),
             json.dumps(message("user", "typed", ["user.text"]))]
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join(lines) + "\n")

    view = rollout.read_view(str(path))

    assert view.text == "User: typed"
    assert view.bad_lines == 0 and view.damaged == []
