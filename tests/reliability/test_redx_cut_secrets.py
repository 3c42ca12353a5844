"""A secret that straddles an entry's cut never reaches the prompt: a message, a compaction summary
and a tool call are redacted before they are cut, so a password whose closing quote or "@" falls
past the cap is not shown half-redacted.

Each case slides a password with symbols (which no token rule knows) across the cut, one character
at a time, through the real readers (Claude Code transcript, Codex rollout) and prompt.render; no 8
consecutive characters of it may be in the rendered prompt.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lazy_harness.worker import prompt, rollout
from lazy_harness.worker import transcript as t
from lazy_harness.worker.conversation import SUMMARY_CAP, TEXT_CAP, TOOL_CALL_CAP
from tests.worker.test_transcript import assistant_like, typed_like, write_records

PASSWORDS = ("v7#Qm!2xL$9pK&4wZr", "Hn4%tR8*eW2^kP6~bq")
# shape: the line a password sits in, as pasted into a session
SHAPES = {
    "quoted": 'DB_PASSWORD="{pw}"',
    "url": "DATABASE_URL=postgres://app:{pw}@db.prod.internal:5432/app",
    "redis": "CACHE=redis://:{pw}@cache.internal:6379/0",
    "json": '{{"user": "app", "password": "{pw}", "port": 5432}}',
}
FILLER = "the staging service reads its settings from the file pasted below, line by line\n"
# a JWT long enough that its marker frees hundreds of characters of a tool call's visible room
JWT = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6Ikpv" * 12
       + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")


def _leaks(text: str, secret: str, n: int = 8) -> list[str]:
    return [secret[i:i + n] for i in range(len(secret) - n + 1) if secret[i:i + n] in text]


def _at(line: str, start: int) -> str:
    """A pasted text in which ``line`` starts at character ``start``, with more lines after it."""
    head = (FILLER * (start // len(FILLER) + 1))[:start - 1] + "\n"
    return head + line + "\nLOG_LEVEL=debug\n" + "TIMEOUT=30\n" * 60


def _texts(shape: str, cap: int) -> list[tuple[str, str]]:
    out = []
    for pw in PASSWORDS:
        line = SHAPES[shape].format(pw=pw)
        for off in range(len(line) + 1):
            out.append((pw, _at(line, cap - off)))
    return out


def _rendered(view) -> str:
    return prompt.render(view, None, "proj", max_chars=10_000_000).text


def _check(rendered: str, texts: list[tuple[str, str]]) -> None:
    for pw in {pw for pw, _ in texts}:
        assert _leaks(rendered, pw) == [], [line[-120:] for line in rendered.splitlines() if pw[:4] in line]


def _claude_view(tmp_path: Path, records: list[dict]):
    path = write_records(tmp_path / "s.jsonl", records)
    return t.read_view(str(path), budget_chars=len(records) * 8_000)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_password_across_the_cap_of_a_typed_message_is_not_shown(tmp_path, shape):
    texts = _texts(shape, TEXT_CAP)
    view = _claude_view(tmp_path, [typed_like(text) for _, text in texts])
    assert view.text.count("more characters]") == len(texts)  # every message was cut
    _check(_rendered(view), texts)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_password_across_the_cap_of_assistant_text_is_not_shown(tmp_path, shape):
    texts = _texts(shape, TEXT_CAP)
    recs = [typed_like("go")] + [assistant_like(text, f"msg_{n}") for n, (_, text) in enumerate(texts)]
    _check(_rendered(_claude_view(tmp_path, recs)), texts)


@pytest.mark.parametrize("shape", SHAPES)
def test_a_password_across_the_cap_of_a_compaction_summary_is_not_shown(tmp_path, shape):
    texts = _texts(shape, SUMMARY_CAP)
    view = _claude_view(tmp_path, [typed_like(text, isCompactSummary=True) for _, text in texts])
    assert view.compact_summaries == len(texts)
    _check(_rendered(view), texts)


def _bash(command: str, n: int) -> dict:
    rec = assistant_like("", f"msg_tool_{n}")
    rec["message"] = dict(rec["message"], content=[
        {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": command}}])
    return rec


@pytest.mark.parametrize("shape", SHAPES)
def test_a_password_in_a_bash_command_after_a_long_jwt_is_not_shown(tmp_path, shape):
    commands = []
    for pw in PASSWORDS:
        line = SHAPES[shape].format(pw=pw)
        for n in range(1, 80):  # the host's length slides the edge of what was redacted across the password
            commands.append((pw, f'curl -sS -H "Authorization: Bearer {JWT}" https://{"a" * n}.example.com/'
                                 f"rotate -d '{line}'"))
        for off in range(len(line) + 1):  # and the password across the call's own cut
            commands.append((pw, "x" * (TOOL_CALL_CAP - off - 1) + " " + line))
    recs = [typed_like("go")] + [_bash(cmd, n) for n, (_, cmd) in enumerate(commands)]
    view = _claude_view(tmp_path, recs)
    assert view.tool_calls == len(commands)
    _check(_rendered(view), commands)


def _rollout(tmp_path: Path, items: list[dict]) -> str:
    meta = {"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta",
            "payload": {"id": "s-1", "cwd": "/p", "originator": "codex-tui", "source": "cli"}}
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [meta, *items]) + "\n")
    return str(path)


def _message(role: str, text: str) -> dict:
    kind = "user.text" if role == "user" else "assistant.text"
    return {"timestamp": "2026-01-01T00:00:01Z", "type": "response_item",
            "payload": {"type": "message", "role": role, "content": [{"type": "input_text", "text": text}],
                        "internal_chat_message_metadata_passthrough": {"content_item_kinds": [kind]}}}


@pytest.mark.parametrize("shape", SHAPES)
def test_a_password_across_the_cap_in_a_codex_rollout_is_not_shown(tmp_path, shape):
    texts = _texts(shape, TEXT_CAP)
    items = [_message(role, text) for _, text in texts for role in ("user", "assistant")]
    summaries = _texts(shape, SUMMARY_CAP)
    items += [{"timestamp": "2026-01-01T00:00:02Z", "type": "compacted", "payload": {"message": text}}
              for _, text in summaries]
    view = rollout.read_view(_rollout(tmp_path, items), budget_chars=len(items) * 8_000)
    assert view.user_messages == len(texts)
    _check(_rendered(view), texts + summaries)
