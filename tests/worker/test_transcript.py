"""The reader against transcripts recorded from the real CLI (tests/fixtures/transcripts) and against
broken files built from them."""

import copy
import functools
import json
import os
import tracemalloc
from pathlib import Path

import pytest

from lazy_harness.worker import transcript as t

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "transcripts"


def fixture(name: str) -> Path:
    path = FIXTURES / f"{name}.jsonl"
    assert path.exists(), f"recorded fixture {path.name} missing: python tests/e2e/record_fixtures.py"
    return path


def records(name: str) -> list[dict]:
    return copy.deepcopy(_records(name))


@functools.cache
def _records(name: str) -> list[dict]:
    return [json.loads(line) for line in fixture(name).read_bytes().splitlines() if line.strip()]


def typed_records(name: str) -> list[dict]:
    return [r for r in records(name) if r.get("type") == "user" and r.get("promptSource") == "typed"]


def write_records(path: Path, recs: list[dict], tail: bytes = b"") -> Path:
    path.write_bytes(b"".join(json.dumps(r).encode() + b"\n" for r in recs) + tail)
    return path


# --- classification on the real recordings -----------------------------------------------------

@pytest.mark.parametrize("name, kind", [
    ("interactive", "interactive"),
    ("resumed", "interactive"),
    ("compacted", "interactive"),
    ("headless", "headless"),
    ("subagent", "headless"),
    ("subagent-sidechain", "sidechain"),
])
def test_kind_of_recorded_sessions(name, kind):
    assert t.read_view(str(fixture(name))).kind == kind


def test_interactive_not_judged_on_line_one(tmp_path):
    # without its mode / permission-mode records, the typed cli user records still say interactive
    recs = [r for r in records("interactive") if r.get("type") not in ("mode", "permission-mode", "last-prompt")]
    view = t.read_view(str(write_records(tmp_path / "x.jsonl", recs)))
    assert view.signals.mode == 0 and view.signals.permission_mode == 0
    assert view.kind == "interactive"


def test_headless_without_queue_operations_is_still_headless(tmp_path):
    recs = [r for r in records("headless") if r.get("type") != "queue-operation"]
    view = t.read_view(str(write_records(tmp_path / "x.jsonl", recs)))
    assert view.signals.queue_operation == 0
    assert view.kind == "headless"


def test_headless_signals_counted():
    s = t.read_view(str(fixture("headless"))).signals
    assert s.queue_operation >= 1 and s.entry_sdk >= 1 and s.prompt_sdk == 1
    assert s.entry_cli == 0 and s.prompt_typed == 0 and s.mode == 0 and s.permission_mode == 0


# --- counting on the real recordings ------------------------------------------------------------

def test_interactive_counts_only_typed_text():
    view = t.read_view(str(fixture("interactive")))
    typed = typed_records("interactive")
    assert view.user_chars == sum(len(r["message"]["content"]) for r in typed) == 505  # README says 505
    assert view.user_messages == 3
    assert view.assistant_messages == 3
    assert view.messages == 6
    assert view.tool_calls == 2 and view.tool_errors == 1
    s = view.signals
    assert s.mode >= 1 and s.permission_mode >= 1 and s.prompt_typed == 3 and s.entry_cli >= 3


def test_interactive_text_view():
    view = t.read_view(str(fixture("interactive")))
    lines = view.text.splitlines()
    assert lines[0].startswith("User: We need to decide how the billing service stores its job queue.")
    assert "[tool Bash: echo hi]" in lines
    assert "[tool Read: /home/user/project/notes/deploy-failure.md]" in lines
    assert any(line.startswith("[tool error: File does not exist.") for line in lines)
    assert lines[-1].startswith("Assistant: Noted: the queue stays in Postgres")
    # attachment and api-request-blob records carry user-role text; none of it is in the view
    assert "lazy-harness memory:" not in view.text
    assert "<system-reminder>" not in view.text
    assert view.elided_entries == 0


def test_request_blobs_and_attachments_never_count(tmp_path):
    # the same session with every api-request-blob and attachment record dropped counts the same
    full = t.read_view(str(fixture("interactive")))
    recs = [r for r in records("interactive") if r.get("type") not in ("api-request-blob", "attachment")]
    slim = t.read_view(str(write_records(tmp_path / "x.jsonl", recs)))
    assert (slim.user_chars, slim.messages, slim.text) == (full.user_chars, full.messages, full.text)


def test_session_metadata():
    view = t.read_view(str(fixture("interactive")))
    first = typed_records("interactive")[0]
    assert view.session_id == first["sessionId"]
    assert view.cwd == "/home/user/project"
    assert view.git_branch == first["gitBranch"]
    assert view.first_timestamp == first["timestamp"]
    assert view.first_timestamp < view.last_timestamp
    assert view.bytes_read == fixture("interactive").stat().st_size
    assert view.lines == len(records("interactive")) and view.bad_lines == 0


def test_compacted_summary_is_context_not_typed():
    view = t.read_view(str(fixture("compacted")))
    typed = typed_records("compacted")
    all_string_users = [r for r in records("compacted")
                        if r.get("type") == "user" and isinstance(r["message"]["content"], str)]
    assert len(all_string_users) > len(typed)  # summary, caveat, /compact and its output
    assert view.user_chars == sum(len(r["message"]["content"]) for r in typed)
    assert view.user_messages == len(typed) == 3
    assert view.compact_summaries == 1
    assert "[summary of the earlier conversation]" in view.text
    assert "The team chose Postgres for the ledger" in view.text
    assert "/compact" not in view.text and "local-command" not in view.text
    assert "Continue the conversation from where it left off" not in view.text  # CLI's instruction to the model


def test_resumed_counts_both_parts():
    view = t.read_view(str(fixture("resumed")))
    typed = typed_records("resumed")
    assert view.user_messages == len(typed) == 2
    assert view.user_chars == sum(len(r["message"]["content"]) for r in typed)
    assert "Resumed after lunch" in view.text
    assert view.session_id == typed[0]["sessionId"] == typed[-1]["sessionId"]


def test_sidechain_records_inside_a_main_file_do_not_count(tmp_path):
    main = records("interactive")
    side = records("subagent-sidechain")
    view = t.read_view(str(write_records(tmp_path / "x.jsonl", main + side)))
    base = t.read_view(str(fixture("interactive")))
    assert view.kind == "interactive"
    assert view.signals.sidechain >= 1
    assert (view.user_chars, view.messages) == (base.user_chars, base.messages)


# --- hand-made structure derived from a recorded record -----------------------------------------

def typed_like(text: str, **extra) -> dict:
    rec = dict(next(r for r in _records("interactive") if r.get("promptSource") == "typed"))
    rec["message"] = {"role": "user", "content": text}
    rec.update(extra)
    return rec


def assistant_like(text: str, mid: str) -> dict:
    rec = dict(next(r for r in _records("interactive") if r.get("type") == "assistant"))
    rec["message"] = dict(rec["message"], id=mid, content=[{"type": "text", "text": text}])
    return rec


def test_assistant_message_split_over_records_counts_once(tmp_path):
    recs = [typed_like("hello there"), assistant_like("part one", "msg_A"), assistant_like("part two", "msg_A"),
            assistant_like("other", "msg_B")]
    view = t.read_view(str(write_records(tmp_path / "x.jsonl", recs)))
    assert view.assistant_messages == 2
    assert "Assistant: part one" in view.text and "Assistant: part two" in view.text


def test_meta_wrapper_and_notification_records_not_typed(tmp_path):
    recs = [typed_like("real words"),
            typed_like("caveat text", isMeta=True),
            typed_like("<command-name>/model</command-name>", promptSource=None),
            typed_like("<local-command-stdout>ok</local-command-stdout>", promptSource=None),
            typed_like("<task-notification>done</task-notification>", promptSource="system")]
    view = t.read_view(str(write_records(tmp_path / "x.jsonl", recs)))
    assert view.user_chars == len("real words") and view.user_messages == 1
    assert "caveat" not in view.text and "/model" not in view.text and "notification" not in view.text


def test_long_typed_message_counted_whole_but_capped_in_text(tmp_path):
    long = "word " * 5000
    view = t.read_view(str(write_records(tmp_path / "x.jsonl", [typed_like(long)])))
    assert view.user_chars == len(long.strip())
    assert len(view.text) < t.TEXT_CAP + 100
    assert "more characters]" in view.text


def test_tool_error_capped(tmp_path):
    rec = next(r for r in records("interactive")
               if r.get("type") == "user" and isinstance(r["message"]["content"], list)
               and r["message"]["content"][0].get("is_error"))
    rec = dict(rec)
    rec["message"] = {"role": "user", "content": [dict(rec["message"]["content"][0], content="E" * 3_000_000)]}
    view = t.read_view(str(write_records(tmp_path / "x.jsonl", [typed_like("hi"), rec])))
    assert view.tool_errors == 1
    err = [line for line in view.text.splitlines() if line.startswith("[tool error")][0]
    assert len(err) < t.TOOL_ERROR_CAP + 60


def test_a_yaml_block_secret_in_a_tool_error_is_redacted_before_it_is_put_on_one_line(tmp_path):
    rec = next(r for r in records("interactive")
               if r.get("type") == "user" and isinstance(r["message"]["content"], list)
               and r["message"]["content"][0].get("is_error"))
    rec = dict(rec)
    failed = "error: invalid manifest\nstringData:\n  token: |\n    Zq8vN2mP4xL7kR9tWb3\nkind: Secret\n"
    rec["message"] = {"role": "user", "content": [dict(rec["message"]["content"][0], content=failed)]}
    view = t.read_view(str(write_records(tmp_path / "x.jsonl", [typed_like("hi"), rec])))
    assert "Zq8vN2mP4xL7kR9tWb3" not in view.text and view.redacted_early == 1


def test_budget_keeps_head_and_tail_and_marks_the_middle(tmp_path):
    recs = []
    for i in range(400):
        recs.append(typed_like(f"question {i:03d} " + "q" * 300))
        recs.append(assistant_like(f"answer {i:03d} " + "a" * 300, f"msg_{i}"))
    view = t.read_view(str(write_records(tmp_path / "x.jsonl", recs)), budget_chars=20_000)
    assert len(view.text) <= 20_000
    assert view.text.startswith("User: question 000")
    assert view.text.rstrip().endswith("a" * 50) and "answer 399" in view.text
    assert view.elided_entries > 0 and view.elided_chars > 0
    assert f"[... {view.elided_entries} entries ({view.elided_chars} characters)" in view.text
    assert view.entries == 800
    assert view.user_messages == 400 and view.assistant_messages == 400  # counts are not budgeted


# --- broken files --------------------------------------------------------------------------------

def test_torn_last_line(tmp_path):
    raw = fixture("interactive").read_bytes()
    torn = raw + json.dumps(typed_like("this one was cut off")).encode()[:120]
    path = tmp_path / "torn.jsonl"
    path.write_bytes(torn)
    view = t.read_view(str(path))
    base = t.read_view(str(fixture("interactive")))
    assert view.bad_lines == 1
    assert (view.kind, view.user_chars, view.messages) == (base.kind, base.user_chars, base.messages)


def test_invalid_utf8_is_replaced_not_fatal(tmp_path):
    line = json.dumps(typed_like("caf\u00e9 ok", )).encode().replace(b"caf\\u00e9", b"caf\xff\xfe")
    path = tmp_path / "bad.jsonl"
    path.write_bytes(fixture("interactive").read_bytes() + line + b"\n")
    view = t.read_view(str(path))
    assert view.replaced_lines == 1 and view.bad_lines == 0
    assert "User: caf\ufffd\ufffd ok" in view.text
    assert view.user_messages == 4


def test_non_json_non_object_and_unknown_lines(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"not json\n[1, 2]\n\"text\"\n\n{\"type\": \"from-the-future\", \"x\": 1}\n"
                     + json.dumps(typed_like("still here")).encode() + b"\n")
    view = t.read_view(str(path))
    assert view.bad_lines == 3
    assert view.user_messages == 1 and view.kind == "interactive"


def test_random_binary(tmp_path):
    path = tmp_path / "noise.jsonl"
    path.write_bytes(os.urandom(300_000))
    view = t.read_view(str(path))
    assert view.kind == "empty" and view.messages == 0
    assert view.bad_lines + view.oversized_lines >= 1
    assert view.bytes_read == 300_000


def test_empty_file(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    view = t.read_view(str(path))
    assert (view.kind, view.lines, view.text, view.bytes_read) == ("empty", 0, "", 0)


def test_missing_file_and_directory_and_fifo(tmp_path):
    with pytest.raises(t.TranscriptError, match="transcript not found: .*gone.jsonl"):
        t.read_view(str(tmp_path / "gone.jsonl"))
    with pytest.raises(t.TranscriptError, match="not a regular file"):
        t.read_view(str(tmp_path))
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(t.TranscriptError, match="not a regular file"):
        t.read_view(str(fifo))  # must not block waiting for a writer


def test_20_mb_single_line_skipped_with_bounded_memory(tmp_path):
    path = tmp_path / "huge.jsonl"
    huge = json.dumps(typed_like("x" * (20 * 1024 * 1024))).encode()
    path.write_bytes(fixture("interactive").read_bytes() + huge + b"\n"
                     + json.dumps(typed_like("after the big one")).encode() + b"\n")
    tracemalloc.start()
    try:
        view = t.read_view(str(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert view.oversized_lines == 1
    assert "after the big one" in view.text and "x" * 1000 not in view.text
    assert view.user_messages == 4
    assert peak < 16 * 1024 * 1024, f"peak {peak / 1e6:.1f} MB: the long line was held"


def test_oversized_torn_last_line(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_bytes(json.dumps(typed_like("first")).encode() + b"\n" + b"{" + b"y" * 5000)
    view = t.read_view(str(path), max_line_bytes=1000)
    assert view.oversized_lines == 1 and view.user_messages == 1


# --- classify() rules ----------------------------------------------------------------------------

def test_classify_rules():
    S = t.Signals
    assert t.classify(S()) == "empty"
    assert t.classify(S(conversation=4, sidechain=4)) == "sidechain"
    assert t.classify(S(conversation=4, entry_cli=2, prompt_typed=1, queue_operation=3)) == "interactive"
    assert t.classify(S(conversation=4, queue_operation=1, entry_other=2)) == "headless"
    assert t.classify(S(conversation=4, entry_sdk=3, entry_cli=1, prompt_typed=1)) == "headless"
    assert t.classify(S(conversation=4, permission_mode=1, entry_other=2)) == "interactive"
    assert t.classify(S(conversation=4, entry_other=2)) == "unknown"


def test_iter_lines_pieces(tmp_path):
    path = tmp_path / "l"
    path.write_bytes(b"a\n" + b"b" * 50 + b"\nccc\n\nlast")
    with open(path, "rb") as fh:
        assert list(t.iter_lines(fh, max_line=10)) == [b"a", None, b"ccc", b"", b"last"]


def test_type_first_records_skipped_only_when_not_needed(tmp_path):
    # the reader skips records whose first key says a type it never uses (request snapshots);
    # a user record written with "type" first is still read
    user = typed_like("typed words here")
    user_first = {"type": user.pop("type"), **user}
    blob = next(r for r in records("interactive") if r.get("type") == "api-request-blob")
    blob["message"] = {"role": "user", "content": "blob text must not count"}
    view = t.read_view(str(write_records(tmp_path / "x.jsonl", [user_first, blob])))
    assert view.user_messages == 1 and view.user_chars == len("typed words here")
    assert "blob text" not in view.text
    assert view.lines == 2 and view.bad_lines == 0


@pytest.mark.parametrize("name, kind", [("interactive", "interactive"), ("headless", "headless"),
                                        ("subagent-sidechain", "sidechain")])
def test_sniff_kind_on_recorded_sessions(name, kind):
    assert t.sniff_kind(str(fixture(name))) == kind


def test_sniff_kind_reads_only_a_prefix(tmp_path):
    path = tmp_path / "long.jsonl"
    head = fixture("headless").read_bytes()
    filler = json.dumps(typed_like("typed later")).encode() + b"\n"
    path.write_bytes(head + filler * 50_000)  # typed records later would tip a full read to interactive
    assert t.sniff_kind(str(path), max_bytes=len(head)) == "headless"
    assert t.read_view(str(path)).kind == "interactive"
    assert t.sniff_kind(str(tmp_path / "missing.jsonl")) == "unreadable"


# --- the task's line in worker.log -----------------------------------------------------------------

def test_describe_names_every_counter_that_is_not_zero(tmp_path):
    recs = []
    for i in range(400):
        recs.append(typed_like(f"question {i:03d} " + "q" * 300))
        recs.append(assistant_like(f"answer {i:03d} " + "a" * 300, f"msg_{i}"))
    path = write_records(tmp_path / "x.jsonl", recs, tail=b"not json\n")
    view = t.read_view(str(path), budget_chars=20_000)
    said = view.describe()
    assert said.startswith(f"read {view.lines} lines, 800 entries ({view.elided_entries} cut, "
                           f"{view.elided_chars} chars), 0 tool calls")
    assert said.endswith(", 1 unparsable") and "oversized" not in said and "summar" not in said


def test_describe_of_a_recorded_session_counts_its_tools(tmp_path):
    view = t.read_view(str(fixture("interactive")))
    assert view.tool_calls > 0
    said = view.describe()
    assert f", {view.tool_calls} tool calls" in said and "cut" not in said and "unparsable" not in said


# --- a scripted run continued by hand, and forks (recorded on 2.1.332) -----------------------------

def test_a_headless_run_continued_interactively_is_interactive_and_only_the_typed_part_is_text():
    # `claude -p` made 4 tool calls, then `claude --resume <id>` with 3 typed turns: the tool results
    # are not prompts, so they say nothing about who drove the session
    view = t.read_view(str(fixture("headless-resumed")))
    s = view.signals
    assert s.prompt_typed == 3 and s.prompt_sdk == 1 and s.permission_mode >= 1
    assert s.entry_cli == 3 and s.entry_sdk == 1  # prompts only, not the tool results
    assert view.kind == "interactive"
    assert view.text.startswith("User: We need to decide how the billing service stores its job queue.")
    assert "SCRIPTED-TASK" not in view.text and "migration-1" not in view.text


def test_typed_prompts_with_a_mode_record_are_interactive_whatever_the_record_counts():
    S = t.Signals
    assert t.classify(S(conversation=20, entry_sdk=5, entry_cli=4, prompt_typed=3, prompt_sdk=1,
                        permission_mode=1, mode=1, queue_operation=2)) == "interactive"


def _sid(name: str) -> str:
    return next(r["sessionId"] for r in records(name) if r.get("sessionId"))


def test_a_forks_copied_conversation_is_counted_but_never_text():
    view = t.read_view(str(fixture("forked")))
    assert view.kind == "interactive"
    assert view.copied_from == [_sid("forked-parent")]
    assert view.text.startswith("User: Forked to try the Redis variant")
    assert "We need to decide how the billing service" not in view.text
    assert view.user_messages == 4  # the gate counts still see the whole conversation, as after a cursor


def test_a_fork_of_a_fork_names_every_session_it_holds_the_conversation_of():
    view = t.read_view(str(fixture("forked-again")))
    assert view.copied_from == [_sid("forked-parent"), _sid("forked")]
    assert view.text.startswith("User: Forked once more")
    assert "Forked to try the Redis variant" not in view.text


def test_a_session_that_was_not_forked_copied_nothing():
    for name in ("interactive", "resumed", "compacted", "forked-parent", "headless-resumed"):
        assert t.read_view(str(fixture(name))).copied_from == [], name


def test_a_record_appended_to_a_torn_last_line_is_read(tmp_path):
    """A session killed mid-write leaves its last line torn; resumed, its next record is appended to
    that line. The torn part is a bad line; the whole record after it, the person's prompt, is read."""
    raw = fixture("interactive").read_bytes()
    torn = json.dumps(typed_like("this one was cut off")).encode()[:120]
    glued = raw + torn + json.dumps(typed_like("add retries to the invoice worker")).encode() + b"\n"
    path = tmp_path / "glued.jsonl"
    path.write_bytes(glued)
    view = t.read_view(str(path))
    base = t.read_view(str(fixture("interactive")))
    assert view.bad_lines == 1
    assert "add retries to the invoice worker" in view.text
    assert "this one was cut off" not in view.text
    assert view.user_messages == base.user_messages + 1


@pytest.mark.parametrize("kind", ["file-history-snapshot", "summary"])
def test_a_record_appended_to_a_torn_line_of_a_kind_not_read_is_read_too(tmp_path, kind):
    """Claude Code writes a file-history snapshot every turn: a tear there is as likely as anywhere,
    and such lines are not parsed (their first key says so)."""
    raw = fixture("interactive").read_bytes()
    torn = json.dumps({"type": kind, "messageId": "m-1", "snapshot": {"files": ["a" * 300]}}).encode()[:150]
    glued = raw + torn + json.dumps(typed_like("add retries to the invoice worker")).encode() + b"\n"
    path = tmp_path / "glued.jsonl"
    path.write_bytes(glued)
    view = t.read_view(str(path))
    assert "add retries to the invoice worker" in view.text and view.bad_lines == 1


def test_a_record_appended_to_a_torn_codex_rollout_line_is_read(tmp_path):
    from lazy_harness.worker import rollout

    def item(role: str, text: str) -> dict:
        kind = "input_text" if role == "user" else "output_text"
        return {"timestamp": "2026-11-20T10:00:00.000Z", "type": "response_item",
                "payload": {"type": "message", "role": role, "content": [{"type": kind, "text": text}]}}

    fixtures = sorted((Path(__file__).parents[1] / "fixtures" / "codex").glob("*.jsonl"))
    base = fixtures[0].read_bytes()
    torn = json.dumps(item("assistant", "half an answer " * 20)).encode()[:140]
    glued = base + torn + json.dumps(item("user", "add retries to the invoice worker")).encode() + b"\n"
    path = tmp_path / "rollout.jsonl"
    path.write_bytes(glued)
    view = rollout.read_view(str(path))
    assert "add retries to the invoice worker" in view.text and view.bad_lines == 1


def test_a_torn_line_costs_a_bounded_parse(monkeypatch):
    """Each opening tried parses the rest of the line: bytes tried in all are capped, so a huge torn
    line with many openings is given up rather than parsed 64 times."""
    from lazy_harness.worker import transcript_lines

    line = b'{"type":"assistant","x":[' + b'{"type":"text","n":[' * 70 + b"1," * (2 << 20)
    calls = []
    real = json.loads

    def counting(text, *a, **k):
        calls.append(len(text))
        return real(text, *a, **k)

    monkeypatch.setattr(transcript_lines.json, "loads", counting)
    assert transcript_lines.after_torn(line) is None
    assert sum(calls) <= transcript_lines.TORN_BYTES + len(line)
