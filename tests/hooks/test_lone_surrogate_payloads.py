"""A lone surrogate in what Claude Code sends or the person types: the JSON ``"prompt": "fix \\ud800 bug"``
(a paste cut in the middle of an emoji's pair) decodes to a character UTF-8 cannot encode. Writing
hooks.log, the hook's stdout, the resident answerer's question and ``lh memory search``'s output each
encode text; none may raise UnicodeEncodeError: the prompt is still answered, the line logged with the
character as its escape. Checked, nothing broke here: these tests keep it so.

A lone surrogate in ``cwd`` broke the hooks that write it (the sweep's note and the queue's task were
written in strict UTF-8, and the session was lost): the task format writes it as ``\\uXXXX``, read back
as the same character."""

import json
import os
import subprocess
import sys
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, ids
from lazy_harness.recall.resident import client
from tests.hooks.hookrun import SID, enable_loop, hook_log, run_hook, worker_lock_held
from tests.support import memory_samples as ms

NOW = time.time()
SUMMARY = "Use Postgres advisory locks for the deployment scheduler"
PROMPT = "fix \\ud800 bug: the deploy scheduler ran twice, lock it in postgres"  # as JSON text: the escape


@pytest.fixture
def project(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS),
                   [ms.decision(NOW - 9 * ms.DAY, SUMMARY, "two runners deployed at once")])
    ms.index_now()
    return root


def _raw(event: str, root: str, sid: str = SID, **fields: str) -> bytes:
    """A payload as Claude Code writes it; ``fields`` are JSON string bodies (escapes kept as written)."""
    body = {"session_id": json.dumps(sid), "cwd": json.dumps(root), "hook_event_name": json.dumps(event)}
    body.update({k: f'"{v}"' for k, v in fields.items()})
    return ("{" + ", ".join(f'"{k}": {v}' for k, v in body.items()) + "}").encode("ascii")


def _log_bytes() -> bytes:
    with open(os.path.join(paths.logs_dir(), "hooks.log"), "rb") as fh:
        return fh.read()


def _answered(result) -> str:
    assert (result.returncode, result.stderr) == (0, b""), result.stderr
    out = json.loads(result.stdout.decode("utf-8"))  # strict: what Claude Code reads
    return out["hookSpecificOutput"]["additionalContext"]


def test_a_prompt_with_a_lone_surrogate_is_answered_and_logged(project):
    text = _answered(run_hook("UserPromptSubmit", _raw("UserPromptSubmit", project, prompt=PROMPT)))
    assert ids.entry_id("decision", SUMMARY) in text
    _log_bytes().decode("utf-8")  # the log stays UTF-8
    last = hook_log(paths.claude_dir())[-1]
    assert "UserPromptSubmit" in last and "injected 1" in last and "error" not in last


def test_the_resident_answerer_takes_the_question_with_a_lone_surrogate(project):
    pid = client.start(dict(os.environ))
    assert pid
    deadline = time.monotonic() + 20  # only keeps a bug from hanging the suite
    while not (client.running() and os.path.exists(os.path.join(client.folder(), client.SOCKET_NAME))):
        assert time.monotonic() < deadline, "the answerer did not start"
        time.sleep(0.01)
    text = _answered(run_hook("UserPromptSubmit", _raw("UserPromptSubmit", project, prompt=PROMPT)))
    assert ids.entry_id("decision", SUMMARY) in text
    last = hook_log(paths.claude_dir())[-1]
    assert "(resident)" in last and "error" not in last, last


def test_session_start_with_a_lone_surrogate_in_its_fields(project, isolated_home):
    enable_loop(isolated_home)
    with worker_lock_held(paths.claude_dir()):
        result = run_hook("SessionStart", _raw("SessionStart", project, source="start\\ud800up",
                                               model="claude-\\udcff"))
    text = _answered(result)
    assert SUMMARY in text
    line = _log_bytes().decode("utf-8").splitlines()[-1]
    assert "source=start\\ud800up" in line and "error" not in line and "failed" not in line, line


def test_lh_memory_search_with_a_lone_surrogate_in_its_words(project):
    """Passed as a shell passes bytes that are not UTF-8 (``\\udcff`` is the byte 0xff, surrogateescape)."""
    for words, found in (("postgres \udcff advisory", True), ("zzqq \udcff nothing", False)):
        r = subprocess.run([sys.executable, "-m", "lazy_harness", "memory", "search", os.fsencode(words),
                            "--project", project], capture_output=True, env=dict(os.environ), timeout=60)
        out, err = r.stdout.decode("utf-8"), r.stderr.decode("utf-8")  # strict: what a terminal is sent
        assert "Traceback" not in err and "UnicodeEncodeError" not in err, err
        if found:
            assert r.returncode == 0 and SUMMARY in out, err
        else:
            assert r.returncode == 1 and "no match for: zzqq \\udcff nothing" in err, err


def test_a_lone_surrogate_in_cwd_still_queues_the_session(project, isolated_home):
    enable_loop(isolated_home)
    cwd = "/tmp/lh-surrogate-\\udcff"
    key = paths.project_key("/tmp/lh-surrogate-\udcff")
    transcript = os.path.join(paths.projects_dir(), key, f"{SID}.jsonl")
    os.makedirs(os.path.dirname(transcript))
    with open(transcript, "w") as fh:
        fh.write('{"type":"permission-mode","permissionMode":"default"}\n')
    with worker_lock_held(paths.claude_dir()):
        payload = _raw("SessionEnd", project, reason="other", transcript_path=transcript)
        payload = payload.replace(json.dumps(project).encode(), f'"{cwd}"'.encode())
        assert run_hook("SessionEnd", payload).returncode == 0
    last = hook_log(paths.claude_dir())[-1]
    assert " queued " in last and "UnicodeEncodeError" not in last, last
    from lazy_harness.queue import task

    tasks = [os.path.join(d, n) for d, _, names in os.walk(paths.queue_dir()) for n in names if n.endswith(".task")]
    assert [task.read_task(t)["cwd"] for t in tasks] == ["/tmp/lh-surrogate-\udcff"], tasks
