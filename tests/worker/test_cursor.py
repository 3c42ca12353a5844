"""Incremental re-distillation: a session processed again sends only what was said since."""

import os

from lazy_harness import paths, queue
from lazy_harness.worker import cursor
from tests.support import fake_claude
from tests.support.growth import append_turn
from tests.worker.spendrig import configure, queue_session, run_worker, tasks

FIRST_PROMPT = "We need to decide how the billing service stores its job queue"


def _conversation(stdin: str) -> str:
    return stdin.split("(untrusted session data starts here)>>>", 1)[1]


def _grow(payload, project, n: int = 1, word: str = "NEWTURN") -> None:
    for i in range(n):
        append_turn(payload["transcript_path"], payload["session_id"], str(project),
                    f"{word}-{i}: please also record that invoices are retried nightly, we agreed on that.",
                    f"Noted {word}-{i}: invoices retry nightly.")


def test_a_second_call_holds_only_the_new_conversation_and_the_memory(isolated_home, fake, project):
    configure(isolated_home)
    payload = queue_session(project)
    run_worker()
    _grow(payload, project)
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "Stop", False))
    assert run_worker().processed == 1
    first, second = fake_claude.calls(fake)
    assert FIRST_PROMPT in _conversation(first["stdin"])
    new = _conversation(second["stdin"])
    assert FIRST_PROMPT not in new and "NEWTURN-0" in new
    assert new.lstrip().startswith(cursor.EARLIER.strip())
    # the memory written by the first call is still shown, so the model does not repeat it
    assert "Use a file queue between hooks and worker" in second["stdin"].split("untrusted session data")[0]
    assert len(new) < len(_conversation(first["stdin"])) * 0.4


def test_the_cursor_does_not_move_when_the_call_fails(isolated_home, tmp_path, monkeypatch, project):
    fake = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home, max_attempts=1)
    payload = queue_session(project)
    run_worker()
    offset = cursor.start(None, payload["session_id"], payload["transcript_path"])
    assert offset > 0
    _grow(payload, project, word="LOST")
    fake_claude.control(fake, mode="fail", stderr="API Error: 500 internal")
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "Stop", False))
    assert run_worker().failed == 1
    assert cursor.start(None, payload["session_id"], payload["transcript_path"]) == offset
    _grow(payload, project, word="LATER")
    fake_claude.control(fake, mode="ok", answer=fake_claude.DEFAULT_ANSWER)
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "Stop", False))
    assert run_worker().processed == 1
    last = _conversation(fake_claude.calls(fake)[-1]["stdin"])
    assert "LOST-0" in last and "LATER-0" in last  # nothing said during the failure is skipped


def test_nothing_new_is_skipped_without_a_call(isolated_home, fake, project):
    configure(isolated_home)
    payload = queue_session(project)
    run_worker()
    queue_session(project, session_id=payload["session_id"])
    assert run_worker().skipped == 1
    assert len(fake_claude.calls(fake)) == 1
    assert "nothing new" in tasks("done")[-1]["reason"]


def test_a_rewritten_transcript_is_read_whole_again(isolated_home, fake, project):
    configure(isolated_home)
    payload = queue_session(project)
    run_worker()
    path = payload["transcript_path"]
    text = open(path, encoding="utf-8").read()
    with open(path, "w", encoding="utf-8") as fh:  # the same length, other bytes before the cursor
        fh.write(text.replace("billing service", "BILLING SERVICE", 1))
    assert cursor.start(None, payload["session_id"], path) == 0
    _grow(payload, project)
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "Stop", False))
    run_worker()
    assert "BILLING SERVICE" in _conversation(fake_claude.calls(fake)[-1]["stdin"])


def test_a_damaged_cursor_file_means_a_whole_read(isolated_home, fake, project):
    configure(isolated_home)
    payload = queue_session(project)
    run_worker()
    state = os.path.join(paths.state_dir(), f"{payload['session_id']}.cursor")
    with open(state, "w") as fh:
        fh.write("{not json")
    assert cursor.start(None, payload["session_id"], payload["transcript_path"]) == 0


def test_handoff_now_reads_the_whole_session_again(isolated_home, fake, project):
    configure(isolated_home)
    payload = queue_session(project)
    run_worker()
    queue.enqueue(paths.queue_dir(), {**queue.task_fields(payload, "handoff-now", True), queue.AGAIN: "1"})
    assert run_worker().processed == 1
    assert FIRST_PROMPT in _conversation(fake_claude.calls(fake)[-1]["stdin"])


def test_a_fork_is_distilled_from_after_the_conversation_it_copied(isolated_home, fake, project):
    # `claude --resume P --fork-session`: the fork's transcript starts with P's conversation, which P's
    # own distillation already covered; the fork's first call holds only what came after it
    from lazy_harness.memory import lineage
    from tests.support.sessions import fixture_session_id

    configure(isolated_home)
    queue_session(project, name="forked-parent.jsonl")
    assert run_worker().processed == 1  # the parent, distilled first (a parent that was not: test_cursor_forkfx.py)
    queue_session(project, name="forked.jsonl")
    fork, parent = fixture_session_id("forked.jsonl"), fixture_session_id("forked-parent.jsonl")
    assert run_worker().processed == 1
    _, call = fake_claude.calls(fake)
    new = _conversation(call["stdin"])
    assert new.lstrip().startswith(cursor.EARLIER.strip())
    assert FIRST_PROMPT not in new and "Forked to try the Redis variant" in new
    assert lineage.own(None, fork) == (fork, parent)  # recorded for the hooks


def test_a_scripted_run_continued_by_hand_is_distilled_from_its_typed_part(isolated_home, fake, project):
    configure(isolated_home)
    queue_session(project, name="headless-resumed.jsonl")
    assert run_worker().processed == 1
    (call,) = fake_claude.calls(fake)
    new = _conversation(call["stdin"])
    assert FIRST_PROMPT in new and "SCRIPTED-TASK" not in new
