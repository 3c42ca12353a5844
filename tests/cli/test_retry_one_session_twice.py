"""``lh queue retry --failed`` with two failed tasks of one session (its Stop task and its SessionEnd
task, both failed while the model answered badly): the second retry replaces the first in the queue,
as every enqueue of a session does, so one task runs. The command said "queued A (retry of X)" and
"queued B (retry of Y)", and ``lh queue show A`` then found no task; it now names the one task queued
and both it retries."""

import os

from lazy_harness import paths, queue
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop
from tests.support.sessions import place


def _failed(q: str, fields: dict) -> str:
    name = queue.enqueue(q, fields)
    failed = os.path.join(q, "failed")
    os.makedirs(failed, exist_ok=True)
    os.rename(os.path.join(q, name), os.path.join(failed, name))
    return queue.task_id(name)


def test_two_failed_tasks_of_one_session_are_one_retry_named_once(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # why: no claude: the worker the retry starts does nothing useful
    project = tmp_path / "proj"
    project.mkdir()
    q = paths.queue_dir()
    fields = queue.task_fields(place(project), "SessionEnd", True)
    first, second = _failed(q, fields), _failed(q, fields)
    r = invoke("queue", "retry", "--failed")
    assert r.code == 0, r.out + r.err
    lines = r.out.splitlines()
    assert len(lines) == 1, r.out
    assert lines[0].startswith("queued ") and lines[0].endswith(f"(retry of {first}, {second})"), r.out
