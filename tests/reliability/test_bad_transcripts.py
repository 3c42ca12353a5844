"""Bad transcripts, each queued through the real SessionEnd hook and drained by the real worker,
with a good session queued behind them."""

import json
import os
import re

from lazy_harness import paths, queue
from tests.hooks.hookrun import worker_lock_held
from tests.reliability import rig
from tests.support import fake_claude
from tests.support.sessions import wait_finished

HUGE = 20 * 1024 * 1024  # one 20 MB line: beyond the reader's per-line cap
LARGE = 3 * 1024 * 1024  # one 3 MB tool error: within the cap, so it is read, then cut


def _tool_error_line(sid: str, filler: str, size: int) -> bytes:
    """A tool_result record as the CLI writes one (a list of blocks under a user message)."""
    record = {"type": "user", "isSidechain": False, "sessionId": sid,
              "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_big",
                                                       "content": filler * size, "is_error": True}]}}
    return json.dumps(record).encode() + b"\n"


def _edit(payload: dict, change) -> None:
    path = payload["transcript_path"]
    with open(path, "rb") as fh:
        data = fh.read()
    with open(path, "wb") as fh:
        fh.write(change(data))


def _after_first_assistant(data: bytes, extra: bytes) -> bytes:
    lines = data.split(b"\n")
    at = next(i for i, ln in enumerate(lines) if b'"type":"assistant"' in ln) + 1
    return b"\n".join(lines[:at]) + b"\n" + extra + b"\n".join(lines[at:])


def _queue_bad_then_good(proj) -> dict:
    """Queue the bad sessions (lock held, so none is drained yet), then the good one, whose hook
    starts the worker. Returns {label: (payload, token or None)} in queue order."""
    cases: dict = {}

    def add(label, token=True, change=None, replace_file=None):
        tok = rig.new_token() if token else None
        payload = rig.session(proj, tok)
        if change:
            _edit(payload, change)
        if replace_file:
            os.unlink(payload["transcript_path"])
            replace_file(payload["transcript_path"])
        cases[label] = (payload, tok)

    add("torn last line", change=lambda d: d.rstrip(b"\n")[: len(d.rstrip(b"\n")) - 40])
    add("invalid utf-8", change=lambda d: d.replace(b"LHTOK-", b"\xff\xfe\xc3(LHTOK-", 1))
    add("20 MB line", change=_with_big_tool_outputs)
    add("empty file", token=False, change=lambda d: b"")
    add("missing file", token=False, replace_file=lambda p: None)
    add("random binary", token=False, change=lambda d: os.urandom(1024 * 1024))
    add("fifo", token=False, replace_file=lambda p: os.mkfifo(p, 0o600))
    with worker_lock_held(paths.claude_dir()):
        for payload, _ in cases.values():
            rig.hook("SessionEnd", payload)
        rig.wait_workers_gone()
    assert len(rig.tasks("")) == len(cases)
    add("good session behind them")
    rig.hook("SessionEnd", cases["good session behind them"][0])
    wait_finished(paths.queue_dir(), timeout=120, count=len(cases))
    rig.wait_workers_gone()
    return cases


def _with_big_tool_outputs(data: bytes) -> bytes:
    sid = re.search(rb'"sessionId":"([^"]+)"', data).group(1).decode()
    return _after_first_assistant(data, _tool_error_line(sid, "Z", HUGE) + _tool_error_line(sid, "Y", LARGE))


EXPECTED = {
    "torn last line": ("processed", "distilled"),
    "invalid utf-8": ("processed", "distilled"),
    "20 MB line": ("processed", "distilled"),
    "empty file": ("skipped", "not an interactive session (empty)"),
    "missing file": ("skipped", ("no transcript: the session ended before anything was typed (Claude Code writes "
                                 "none until the first prompt), or its file was deleted since")),
    "random binary": ("skipped", "not an interactive session"),
    "fifo": ("skipped", "unreadable transcript: transcript is not a regular file"),
    "good session behind them": ("processed", "distilled"),
}


def test_bad_transcripts_are_handled_and_a_good_session_behind_them_is_distilled(loop_on, model, tmp_path):
    proj = rig.project(tmp_path, "shop")
    cases = _queue_bad_then_good(proj)
    q = paths.queue_dir()
    assert rig.tasks("") == [] and rig.tasks("processing") == [] and rig.tasks("failed") == []
    finished = {t["session_id"]: t for t in (queue.read_task(os.path.join(q, "done", n)) for n in rig.tasks("done"))}
    log = rig.read(rig.log_file("worker.log")).splitlines()
    for label, (payload, _) in cases.items():
        task = finished[payload["session_id"]]
        status, reason = EXPECTED[label]
        assert task["outcome"] == status and task["reason"].startswith(reason), (label, task)
        assert any(f": {status}: {task['reason']}" in ln for ln in log), f"{label}: reason not logged"
    # the worker neither crashed nor stalled: one worker drained all of it, in queue order
    assert not [ln for ln in log if "crashed" in ln]
    assert "Traceback" not in rig.read(rig.log_file("compound-loop.log"))
    calls = fake_claude.calls(model)
    assert len({c["ppid"] for c in calls}) == 1
    distilled = [tok for label, (_, tok) in cases.items() if EXPECTED[label][0] == "processed"]
    assert [c["token"] for c in calls] == distilled
    recs = rig.jsonl(os.path.join(rig.memory(proj), "decisions.jsonl"))
    assert sorted(r["summary"].split()[1].rstrip(":") for r in recs) == sorted(distilled)
    # invalid UTF-8 was read with replacement characters, the rest of the prompt intact
    [call] = [c for c in calls if c["token"] == cases["invalid utf-8"][1]]
    assert "\ufffd" in call["stdin"] and "We need to decide" in call["stdin"]


def test_a_20_mb_tool_output_never_reaches_the_prompt_uncut(loop_on, model, tmp_path):
    tok = rig.new_token()
    payload = rig.session(rig.project(tmp_path, "shop"), tok)
    _edit(payload, _with_big_tool_outputs)
    assert os.path.getsize(payload["transcript_path"]) > HUGE
    rig.hook("SessionEnd", payload)
    [done] = wait_finished(paths.queue_dir(), timeout=120)
    assert queue.read_task(done)["outcome"] == "processed"
    [call] = fake_claude.calls(model)
    prompt = call["stdin"]
    assert call["token"] == tok and len(prompt) <= 120_000  # prompt_max_chars
    longest = {ch: max((len(m) for m in re.findall(f"{ch}{{50,}}", prompt)), default=0) for ch in "ZY"}
    assert longest["Z"] == 0, "the 20 MB line reached the prompt"
    assert 100 < longest["Y"] <= 500, "the 3 MB tool error must come as an excerpt of at most 500 characters"
    assert "more characters]" in prompt
    assert "Decision: we keep the queue in Postgres" in prompt  # the conversation around them was read
