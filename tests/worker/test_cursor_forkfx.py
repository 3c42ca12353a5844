"""A fork's copied conversation (``claude --resume P --fork-session``) is left out of its distillation
only when its parent's distillation covers it; otherwise the fork distils it, once."""

import json
import os
import uuid
from pathlib import Path

from lazy_harness import paths, queue
from lazy_harness.worker import cursor
from tests.support import fake_claude
from tests.support.sessions import fixture_session_id, place
from tests.worker.spendrig import configure, run_worker, tasks

PARENT, FORK = fixture_session_id("forked-parent.jsonl"), fixture_session_id("forked.jsonl")
# the typed prompts of the parent's three turns and of the fork's own turn (recorded fixtures)
TURN_TEXT = ("We need to decide how the billing service", "Last night's deploy failed",
             "Decision: we keep the queue in Postgres", "Forked to try the Redis variant")
# where each turn ends: in the parent's lines, and in the fork's copy of them (its own turn from line 37)
PARENT_ENDS, FORK_ENDS, FORK_OWN = (36, 48, 59), (27, 33, 37), 37
TEMPLATE = {"decisions": [{"summary": "Decision @TOKEN@: keep the job queue in Postgres",
                           "context": "billing", "alternatives": ["Redis"], "rationale": "one database",
                           "tags": ["queue"]}],
            "failures": [], "learnings": [], "handoff": []}


def _tokens() -> list[str]:
    return [f"LHTOK-{uuid.uuid4().hex[:12]}" for _ in TURN_TEXT]


def _mark(text: str, tokens: list[str]) -> str:
    for said, token in zip(TURN_TEXT, tokens, strict=True):
        text = text.replace(said, f"{token} {said}")
    return text


def _write(payload: dict, lines: list[str], tokens: list[str]) -> None:
    Path(payload["transcript_path"]).write_text(_mark("".join(lines), tokens), encoding="utf-8")


def _parent(project, turns: int, tokens: list[str]) -> dict:
    payload = place(project, "forked-parent.jsonl")
    lines = Path(payload["transcript_path"]).read_text(encoding="utf-8").splitlines(True)
    _write(payload, lines[:PARENT_ENDS[turns - 1]], tokens)
    return payload


def _fork(project, copied_turns: int, tokens: list[str]) -> dict:
    payload = place(project, "forked.jsonl")
    lines = Path(payload["transcript_path"]).read_text(encoding="utf-8").splitlines(True)
    _write(payload, lines[:FORK_ENDS[copied_turns - 1]] + lines[FORK_OWN:], tokens)
    return payload


def _distil(payload: dict) -> dict:
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    run_worker()
    return tasks("done")[-1]


def _conversation(call: dict) -> str:
    return call["stdin"].split("(untrusted session data starts here)>>>", 1)[1]


def _decision_summaries(project) -> list[str]:
    try:
        with open(os.path.join(paths.memory_dir(str(project)), "decisions.jsonl"), encoding="utf-8") as fh:
            return [json.loads(line).get("summary", "") for line in fh if line.strip()]
    except FileNotFoundError:
        return []


def test_a_fork_of_a_parent_skipped_as_too_short_distils_the_parents_turn_forkfx(isolated_home, tmp_path,
                                                                                  monkeypatch, project):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, template=TEMPLATE)
    configure(isolated_home)  # the default gates: one turn is too short
    tokens = _tokens()
    assert "too short" in _distil(_parent(project, 1, tokens))["reason"]
    assert fake_claude.calls(bin_dir) == []
    assert _distil(_fork(project, 1, tokens))["reason"] == "distilled"
    (call,) = fake_claude.calls(bin_dir)
    seen = _conversation(call)
    assert tokens[0] in seen and tokens[3] in seen  # the parent's typed turn and the fork's own
    assert cursor.EARLIER.strip() not in seen  # nothing before it was distilled
    assert [s for s in _decision_summaries(project) if tokens[0] in s], _decision_summaries(project)


def test_a_fork_of_a_distilled_parent_reads_only_its_own_part_forkfx(isolated_home, tmp_path, monkeypatch,
                                                                      project):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, template=TEMPLATE)
    configure(isolated_home)
    tokens = _tokens()
    assert _distil(_parent(project, 3, tokens))["reason"] == "distilled"
    assert _distil(_fork(project, 3, tokens))["reason"] == "distilled"
    parent_call, fork_call = fake_claude.calls(bin_dir)
    assert all(t in _conversation(parent_call) for t in tokens[:3])
    seen = _conversation(fork_call)
    assert seen.lstrip().startswith(cursor.EARLIER.strip())
    assert tokens[3] in seen and not any(t in seen for t in tokens[:3])


def test_a_fork_distils_what_it_copied_past_its_parents_distillation_and_the_parent_not_again_forkfx(
        isolated_home, tmp_path, monkeypatch, project):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, template=TEMPLATE)
    configure(isolated_home, min_messages=2, min_user_chars=10)
    tokens = _tokens()
    parent = _parent(project, 1, tokens)
    assert _distil(parent)["reason"] == "distilled"  # turn 1
    _parent(project, 2, tokens)  # the parent goes on; the fork is made after its turn 2
    assert _distil(_fork(project, 2, tokens))["reason"] == "distilled"
    fork_seen = _conversation(fake_claude.calls(bin_dir)[-1])
    assert fork_seen.lstrip().startswith(cursor.EARLIER.strip())
    assert tokens[0] not in fork_seen and tokens[1] in fork_seen and tokens[3] in fork_seen
    _parent(project, 3, tokens)  # the parent's turn 3, then its end: only turn 3 is new to memory
    assert _distil(parent)["reason"] == "distilled"
    parent_seen = _conversation(fake_claude.calls(bin_dir)[-1])
    assert tokens[2] in parent_seen and tokens[0] not in parent_seen and tokens[1] not in parent_seen
    summaries = _decision_summaries(project)
    assert [sum(t in s for s in summaries) for t in tokens[:3]] == [1, 1, 1], summaries


def test_a_skipped_parent_distilled_after_its_fork_holds_its_turn_once_forkfx(isolated_home, tmp_path,
                                                                              monkeypatch, project):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, template=TEMPLATE)
    configure(isolated_home)
    tokens = _tokens()
    parent = _parent(project, 1, tokens)
    assert "too short" in _distil(parent)["reason"]
    assert _distil(_fork(project, 1, tokens))["reason"] == "distilled"
    _parent(project, 3, tokens)  # the parent grows past the gates and ends
    assert _distil(parent)["reason"] == "distilled"
    seen = _conversation(fake_claude.calls(bin_dir)[-1])
    assert seen.lstrip().startswith(cursor.EARLIER.strip())
    assert tokens[0] not in seen and tokens[1] in seen and tokens[2] in seen
    summaries = _decision_summaries(project)
    assert sum(tokens[0] in s for s in summaries) == 1, summaries


def test_a_fork_of_a_fork_distils_its_parents_own_turn_when_only_the_grandparent_was_distilled_forkfx(
        isolated_home, tmp_path, monkeypatch, project):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, template=TEMPLATE)
    configure(isolated_home)
    assert _distil(place(project, "forked-parent.jsonl"))["reason"] == "distilled"
    place(project, "forked.jsonl")  # the fork: never distilled (its end was lost)
    assert _distil(place(project, "forked-again.jsonl"))["reason"] == "distilled"
    seen = _conversation(fake_claude.calls(bin_dir)[-1])
    assert seen.lstrip().startswith(cursor.EARLIER.strip())
    assert TURN_TEXT[0] not in seen and TURN_TEXT[3] in seen and "Forked once more" in seen


def test_a_parents_cursor_from_before_it_named_its_last_record_still_covers_the_fork_forkfx(
        isolated_home, tmp_path, monkeypatch, project):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, template=TEMPLATE)
    configure(isolated_home)
    assert _distil(place(project, "forked-parent.jsonl"))["reason"] == "distilled"
    state = os.path.join(paths.state_dir(), f"{PARENT}.cursor")
    with open(state, encoding="utf-8") as fh:
        old = {k: v for k, v in json.load(fh).items() if k in ("offset", "check", "at")}
    with open(state, "w", encoding="utf-8") as fh:
        json.dump(old, fh)
    assert _distil(place(project, "forked.jsonl"))["reason"] == "distilled"
    seen = _conversation(fake_claude.calls(bin_dir)[-1])
    assert TURN_TEXT[0] not in seen and TURN_TEXT[3] in seen
