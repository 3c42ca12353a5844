"""A turn whose assistant record was appended to a torn line (a Claude Code or Codex process killed
mid-write, then resumed: the next record glued to the line it cut) is in the transcript: the worker
finds it at the first look, as the transcript reader does (transcript_lines.after_torn), and does not
wait WAIT_SECONDS for it. Judged by the decision (no sleep, 0.0 returned), never by the clock."""

import json
from pathlib import Path

from lazy_harness import queue
from lazy_harness.worker import turn
from tests.support.sessions import TRANSCRIPTS

ANSWER = "The queue stays in Postgres; I updated the migration and the tests."


def _never_sleeps(clock: list[float]):
    def sleep(seconds: float) -> None:
        clock[0] += 1000.0  # why: a second look would already be past any timeout
        raise AssertionError(f"waited for a turn that is in the transcript (sleep {seconds})")
    return sleep


def _digest(text: str) -> str:
    return queue.turn_digest(queue.turn_fingerprint({"last_assistant_message": text}))


def test_a_claude_turn_glued_to_a_torn_line_is_found_without_waiting(tmp_path):
    user = {"parentUuid": None, "type": "user", "message": {"role": "user", "content": "keep it in postgres"},
            "uuid": "u-1", "sessionId": "s-1", "pad": "x" * 300}
    assistant = {"parentUuid": "u-1", "type": "assistant", "uuid": "a-1", "sessionId": "s-1",
                 "message": {"role": "assistant", "content": [{"type": "text", "text": ANSWER}]}}
    dump = lambda r: json.dumps(r, separators=(",", ":"))  # noqa: E731 (as Claude Code writes it)
    path = tmp_path / "t.jsonl"
    path.write_text(dump(user) + "\n" + dump(user)[:200] + dump(assistant) + "\n", encoding="utf-8")
    clock = [0.0]

    waited = turn.wait(str(path), _digest(ANSWER), timeout=5, clock=lambda: clock[0], sleep=_never_sleeps(clock))

    assert waited == 0.0


def test_a_codex_turn_glued_to_a_torn_line_is_found_without_waiting(tmp_path):
    rollout = Path(TRANSCRIPTS).parent / "codex" / "interactive.jsonl"
    lines = rollout.read_text(encoding="utf-8").splitlines()
    said = "Let me look at the files first."
    at = next(i for i, line in enumerate(lines) if said in line and '"response_item"' in line)
    torn = lines[at - 1][: len(lines[at - 1]) // 2]  # the record before it, cut by a kill
    path = tmp_path / "rollout.jsonl"
    path.write_text("\n".join(lines[: at - 1] + [torn + lines[at]]) + "\n", encoding="utf-8")
    clock = [0.0]

    waited = turn.wait(str(path), _digest(said), timeout=5, clock=lambda: clock[0], sleep=_never_sleeps(clock))

    assert waited == 0.0


def test_a_torn_last_line_without_a_whole_record_after_it_is_still_waited_for(tmp_path):
    """The other side of the decision: a record still being written (cut, nothing glued) is no turn."""
    assistant = {"parentUuid": "u-1", "type": "assistant",
                 "message": {"role": "assistant", "content": [{"type": "text", "text": ANSWER}]}}
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(assistant)[:-5], encoding="utf-8")
    slept: list[float] = []
    clock = [0.0]

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        clock[0] += seconds

    assert turn.wait(str(path), _digest(ANSWER), timeout=1, clock=lambda: clock[0], sleep=sleep) is None
    assert slept  # it did wait: the record may still be completed
