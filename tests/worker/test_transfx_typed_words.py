"""Words the person typed that the reader used to lose, on transcripts recorded from the real Claude Code
2.1.332 (tests/fixtures/transcripts/README.md): a message typed while a turn runs (a ``queued_command``
attachment, no ``user`` record) and a typed prompt carrying pasted screenshots whose line is longer
than the line cap."""

import base64
import copy
import functools
import json
import tracemalloc
from pathlib import Path

import pytest

from lazy_harness.worker import transcript as t
from lazy_harness.worker import transcript_lines as tl

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"
MB = 1024 * 1024


@functools.cache
def _records(name: str) -> list[dict]:
    path = FIXTURES / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def records(name: str) -> list[dict]:
    return copy.deepcopy(_records(name))


def write(path: Path, recs: list[dict]) -> Path:
    path.write_bytes(b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in recs))
    return path


def queued(recs: list[dict]) -> dict:
    return next(r for r in recs if r.get("type") == "attachment"
                and r["attachment"].get("type") == "queued_command")


def user_lines(view: t.View) -> list[str]:
    return [line for line in view.text.splitlines() if line.startswith("User: ")]


# --- a message typed while a turn runs ----------------------------------------------------------

def test_queued_prompt_is_read_once_and_counted():
    recs = records("queued-prompt")
    words = queued(recs)["attachment"]["prompt"]
    first = next(r for r in recs if r.get("promptSource") == "typed")["message"]["content"]
    # the recording holds the words three times: enqueue, remove, and the attachment
    assert sum(1 for r in recs if r.get("type") == "queue-operation" and r.get("content") == words) == 2
    view = t.read_view(str(FIXTURES / "queued-prompt.jsonl"))
    assert view.kind == "interactive"
    assert view.text.count(words) == 1
    assert view.user_messages == 2
    assert view.user_chars == len(first.strip()) + len(words.strip())
    # at its place in time: after the first prompt, before the answer that followed it
    lines = user_lines(view)
    assert lines == ["User: " + first, "User: " + words]
    assert view.text.index("User: " + words) < view.text.index("Assistant: Finished the check.")


def test_queued_prompt_sent_as_the_next_turn_is_read_once_and_counted():
    # typed while a text-only answer streamed: the CLI sends it as the next turn, a `user` record
    # with promptSource "queued" (and queue operations holding the same words), no attachment
    recs = records("queued-next-turn")
    prompts = [r for r in recs if r.get("type") == "user" and isinstance(r["message"]["content"], str)]
    assert [r["promptSource"] for r in prompts] == ["typed", "queued"]
    words = prompts[1]["message"]["content"]
    assert any(r.get("type") == "queue-operation" and r.get("content") == words for r in recs)
    view = t.read_view(str(FIXTURES / "queued-next-turn.jsonl"))
    assert view.kind == "interactive"
    assert user_lines(view) == ["User: " + p["message"]["content"] for p in prompts]
    assert view.user_messages == 2
    assert view.user_chars == sum(len(p["message"]["content"].strip()) for p in prompts)


def test_queued_prompt_is_redacted_like_typed_text(tmp_path):
    # a short entry is redacted whole in the prompt; a long one before its cut, in the reader
    from lazy_harness.worker import prompt

    recs = records("queued-prompt")
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    q = queued(recs)["attachment"]
    q["prompt"] = f"use this token {token} for the deploy, we decided on it"
    view = t.read_view(str(write(tmp_path / "q.jsonl", recs)))
    shown = prompt.render(view, None, "/home/user/project", 200_000)
    assert "we decided on it" in shown.text and token not in shown.text and shown.redacted >= 1
    q["prompt"] = "we decided on it " + "and more words " * 65 + token + " end"
    view = t.read_view(str(write(tmp_path / "long.jsonl", recs)), budget_chars=4000)
    assert "we decided on it" in view.text and token[:8] not in view.text
    assert view.redacted_early == 1


def test_other_attachments_and_queued_slash_commands_give_no_text(tmp_path):
    recs = records("queued-prompt")
    q = queued(recs)
    q["attachment"]["commandMode"] = "bash"  # a queued `!ls` or slash command, not words for the model
    view = t.read_view(str(write(tmp_path / "cmd.jsonl", recs)))
    assert q["attachment"]["prompt"] not in view.text and view.user_messages == 1
    q["attachment"]["commandMode"] = "prompt"
    q["attachment"]["origin"] = {"kind": "task-notification"}
    view = t.read_view(str(write(tmp_path / "note.jsonl", recs)))
    assert q["attachment"]["prompt"] not in view.text and view.user_messages == 1
    # attachments of every other type stay out, whatever they carry
    assert "You are powered by the model" not in view.text and "Today's date" not in view.text


def test_queued_prompt_keeps_a_session_interactive_without_its_mode_records(tmp_path):
    recs = [r for r in records("queued-prompt") if r.get("type") not in ("mode", "permission-mode")]
    view = t.read_view(str(write(tmp_path / "q.jsonl", recs)))
    assert view.signals.queue_operation == 2 and view.kind == "interactive"


def test_queued_prompt_before_the_cursor_counts_but_gives_no_text():
    path = FIXTURES / "queued-prompt.jsonl"
    words = queued(records("queued-prompt"))["attachment"]["prompt"]
    view = t.read_view(str(path), text_from=path.stat().st_size)
    assert view.user_messages == 2 and words not in view.text


def test_headless_recording_has_no_queued_prompt():
    view = t.read_view(str(FIXTURES / "headless.jsonl"))
    assert view.kind == "headless" and view.user_messages == 1


# --- a typed prompt with pasted screenshots -----------------------------------------------------

def _b64(size: int, seed: int) -> str:
    raw = bytes((i * 7 + seed) % 256 for i in range(size * 3 // 4))
    return base64.b64encode(raw).decode()


def _inflate(recs: list[dict], per_image: int) -> dict:
    """The typed record with pasted images, each image's data made ``per_image`` base64 characters."""
    typed = next(r for r in recs if r.get("promptSource") == "typed")
    for n, block in enumerate(b for b in typed["message"]["content"] if b.get("type") == "image"):
        block["source"]["data"] = _b64(per_image, n)
    return typed


def test_a_5_mb_typed_record_with_images_keeps_its_text(tmp_path):
    recs = records("pasted-images")
    typed = _inflate(recs, 720_000)
    words = next(b["text"] for b in typed["message"]["content"] if b.get("type") == "text")
    path = write(tmp_path / "img.jsonl", recs)
    line = next(x for x in path.read_bytes().splitlines() if words.encode() in x)
    assert len(line) > 5_000_000 > t.MAX_LINE_BYTES
    view = t.read_view(str(path))
    assert view.oversized_lines == 0 and view.bad_lines == 0
    assert view.text.count(words) == 1 and view.user_messages == 1
    assert view.user_chars == len(words.strip())
    assert view.kind == "interactive"
    assert t.conversation(str(path))[0][0] == typed["uuid"]


def test_a_100_mb_line_is_read_with_bounded_memory(tmp_path):
    recs = records("pasted-images")
    typed = _inflate(recs, 64)
    words = next(b["text"] for b in typed["message"]["content"] if b.get("type") == "text")
    image = next(b for b in typed["message"]["content"] if b.get("type") == "image")
    typed["message"]["content"] += [copy.deepcopy(image) for _ in range(160)]
    blob = _b64(660_000, 3).encode()
    pieces = json.dumps(typed, separators=(",", ":")).encode().split(image["source"]["data"].encode())
    # and a 100 MB tool output that no dropping can shrink: skipped as before, the file read on
    head, tail = json.dumps({"type": "user", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "x", "content": "@"}]}}).encode().split(b"@")
    path = tmp_path / "big.jsonl"
    with open(path, "wb") as fh:
        for r in recs:
            if r is not typed:
                fh.write(json.dumps(r).encode() + b"\n")
                continue
            fh.write(pieces[0])
            for piece in pieces[1:]:
                fh.write(blob + piece)
            fh.write(b"\n" + head)
            for _ in range(100):
                fh.write(b"y" * MB)
            fh.write(tail + b"\n")
    assert sum(map(len, pieces)) + (len(pieces) - 1) * len(blob) > 100 * MB
    tracemalloc.start()
    try:
        view = t.read_view(str(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert view.text.count(words) == 1 and view.user_chars == len(words.strip())
    assert view.oversized_lines == 1 and view.assistant_messages == 1
    assert peak < 16 * MB, f"peak {peak / MB:.1f} MiB: a long line was held"


def _without_long_data(value):
    if isinstance(value, dict):
        return {k: "" if k == "data" and isinstance(v, str) and len(v) >= tl.DROP_MIN
                and all(c.isalnum() or c in "+/=" for c in v[:tl.DROP_MIN]) else _without_long_data(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_without_long_data(v) for v in value]
    return value


@pytest.mark.parametrize("piece", [1, 7, 1000, 64 * 1024])
def test_over_cap_line_loses_only_long_base64_data_values(tmp_path, monkeypatch, piece):
    monkeypatch.setattr(tl, "_PIECE", piece)
    record = {"type": "user", "message": {"role": "user", "content": [
        {"type": "text", "text": 'quoted {"data":"' + "Q" * 1200 + '"} stays, a \\ too'},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": _b64(5000, 1)}},
        {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": _b64(3000, 2)}},
        {"type": "tool_result", "content": [{"data": "not base64, " * 100}, {"data": "c2hvcnQ="}]},
        {"type": "image", "source": {"data": "A" * 2000 + '"/+='}, "after": "kept"}]}}
    raw = json.dumps(record, separators=(",", ":")).encode()
    # JSON escapes inside a dropped value (\" and \/), where a piece may end after the "\"
    raw = raw.replace(b'\\"/+=', b'\\"\\/+=')
    assert b'AAA\\"\\/+=' in raw
    path = tmp_path / "l.jsonl"
    path.write_bytes(b'{"a":1}\n' + raw + b"\nlast")
    with open(path, "rb") as fh:
        got = list(tl.iter_lines(fh, 4000, shrink=True))
    assert got[0] == b'{"a":1}' and got[2] == b"last" and len(got) == 3
    assert len(raw) > 4000 and json.loads(got[1]) == _without_long_data(record)
    assert json.loads(got[1])["message"]["content"][0]["text"].startswith('quoted {"data":"QQQ')
    with open(path, "rb") as fh:
        assert list(tl.iter_lines(fh, 4000)) == [b'{"a":1}', None, b"last"]
    with open(path, "rb") as fh:  # still over the cap without them: dropped, the next line read
        assert list(tl.iter_lines(fh, 2000, shrink=True)) == [b'{"a":1}', None, b"last"]
