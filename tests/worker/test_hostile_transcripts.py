"""Transcripts that used to crash the pipeline, and an internal error, through the worker: a hook
subprocess queues the session, the detached worker runs a fake ``claude``; every task ends with a
record and the session's check mark, so later Stops are gated."""

import os


from lazy_harness import paths, queue
from tests.hooks.hookrun import enable_loop, hook_log, run_hook
from tests.support import fake_claude
from tests.support.sessions import place, wait_finished


def _typed(text: str, sid: str) -> str:
    """A typed user record (raw JSON text, so escapes stay as Node wrote them)."""
    # why: %-formatting, as JSON's own braces would all need doubling in an f-string
    return ('{"type":"user","promptSource":"typed","entrypoint":"cli","sessionId":"%s",'  # noqa: UP031
            '"message":{"role":"user","content":"%s"}}\n' % (sid, text))


def _end(isolated_home, payload) -> tuple[str, dict]:
    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=1)
    assert run_hook("SessionEnd", payload).returncode == 0
    [path] = wait_finished(paths.queue_dir())
    return path, queue.read_task(path)


def _then_stop_is_gated(payload) -> None:
    stop = {**payload, "hook_event_name": "Stop"}
    assert run_hook("Stop", stop).returncode == 0
    assert hook_log(paths.claude_dir())[-1].split(" ", 3)[-1].startswith("skipped: not queued"), \
        hook_log(paths.claude_dir())[-1]


def test_a_lone_surrogate_is_replaced_and_the_session_distilled(isolated_home, fake, project):
    payload = place(project)
    with open(payload["transcript_path"], "a") as fh:  # Node cut a string inside an emoji
        fh.write(_typed("the rocket \\ud83d and the rest of what I typed", payload["session_id"]))
    path, task = _end(isolated_home, payload)
    assert ("/done/" in path, task["outcome"]) == (True, "processed"), task
    [call] = fake_claude.calls(fake)
    assert "the rocket \ufffd and the rest" in call["stdin"]
    _then_stop_is_gated(payload)


def test_a_deeply_nested_line_counts_as_a_bad_line(isolated_home, fake, project):
    payload = place(project)
    deep = '{"type":"user","message":{"role":"user","content":' + "[" * 200_000 + "]" * 200_000 + "}}\n"
    with open(payload["transcript_path"], "a") as fh:
        fh.write(deep)
    path, task = _end(isolated_home, payload)
    assert task["outcome"] == "processed", task
    assert len(fake_claude.calls(fake)) == 1
    _then_stop_is_gated(payload)


def test_an_internal_error_finishes_the_task_with_its_error_and_marks_the_session(isolated_home, fake, project):
    payload = place(project)
    learnings = paths.learnings_dir()
    os.makedirs(os.path.dirname(learnings), exist_ok=True)
    with open(learnings, "w") as fh:  # a file where the learnings folder should be
        fh.write("not a folder\n")
    path, task = _end(isolated_home, payload)
    assert "/failed/" in path and task["reason"].startswith("internal error:"), task
    assert "Traceback" in open(path + ".error").read()
    check = queue.last_check(paths.queue_dir(), payload["session_id"])
    assert check is not None and check[1] == queue.ERROR
    assert task["transcript_mtime"] == repr(os.stat(payload["transcript_path"]).st_mtime)
    _then_stop_is_gated(payload)
    assert len(fake_claude.calls(fake)) == 1
