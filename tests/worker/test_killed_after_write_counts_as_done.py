"""A worker SIGKILLed after it wrote a session's entries into memory and before it finished the task (moved
it to done/, recorded its success): the next worker takes the task again, finds through the session's
cursor (worker/cursor.py) that the killed run's distillation landed, and finishes the task as that
distillation's success. Before, it was skipped as "nothing new since the last distillation", and
``lh status``, ``lh doctor`` and ``lh hooks status`` said "last successful distillation: never" while
memory held the entries. Memory holds each entry once, and no second model call is made.

Two places to be killed: after the persist committed and before the cursor moved (the next worker's
start moves it: worker/owed.py), and after the cursor moved, before the task's finish. And a later task
of the session, queued before the next worker took the killed one again, with nothing said since: it
supersedes the killed claim (queue.recover) or replaces it back in the queue (queue.enqueue), and
finishes as the killed run's success (queue/task.py ``TOOK_OVER``).
"""

import collections
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lazy_harness import paths, queue
from lazy_harness.worker import loop, pipeline
from tests.cli.lhrun import invoke
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session, run_worker, tasks

# The worker, SIGKILLed by itself at the step named by argv[1]: "cursor" (the persist committed, the
# cursor not moved yet) or "finish" (the cursor moved, the task not moved to done/ yet).
CHILD = r'''
import os, signal, sys
from lazy_harness import queue
from lazy_harness.worker import cursor, loop

def killed(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

if sys.argv[1] == "cursor":
    cursor.advance = killed
else:
    queue.finish = killed
loop.run(dict(os.environ))
sys.exit(3)  # not reached: the kill came first
'''


def _killed_at(step: str) -> None:
    child = subprocess.run([sys.executable, "-c", CHILD, step], capture_output=True, timeout=120)
    assert child.returncode == -9, child.stderr.decode()[-2000:]


def _entries(memory_dir: str) -> collections.Counter:
    found: collections.Counter = collections.Counter()
    for name in ("decisions.jsonl", "failures.jsonl"):
        with open(os.path.join(memory_dir, name), encoding="utf-8") as fh:
            found.update(json.loads(line)["summary"] for line in fh if line.strip())
    return found


def _by_id(which: str) -> dict[str, dict]:
    """The tasks in the queue's folder ``which``, by id."""
    folder = queue.folder(paths.queue_dir(), which)
    return {queue.task_id(n): queue.read_task(os.path.join(folder, n)) for n in sorted(os.listdir(folder))
            if n.endswith(queue.SUFFIX)}


def _said(*args: str) -> str:
    """The line of ``lh <args>`` that names the last successful distillation."""
    out = invoke(*args).out
    return next(ln for ln in out.splitlines() if "last successful distillation" in ln)


def _killed_run(isolated_home, tmp_path, monkeypatch, step: str) -> tuple[Path, dict, collections.Counter]:
    """A session's task whose worker was killed at ``step`` after it wrote memory: (the fake's bin folder,
    the claim it left, the entries it wrote)."""
    configure(isolated_home)
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.chdir(project)
    queue_session(project)
    [name] = queue.pending(paths.queue_dir())
    _killed_at(step)
    [claimed] = tasks(queue.PROCESSING)
    claimed["task_id"] = queue.task_id(name)
    written = _entries(claimed["memory_dir"])
    assert written and set(written.values()) == {1}, written  # the killed run's write landed
    assert "never" in _said("status")  # nothing recorded a success yet: the kill came first
    return bin_dir, claimed, written


def _reported(bin_dir: Path, claimed: dict, written: collections.Counter, stats, task_id: str) -> None:
    """One model call in all, each entry once, the task ``task_id`` done as a distillation, and every
    command naming it as the last successful one."""
    assert len([c for c in fake_claude.calls(bin_dir) if not fake_claude.is_check(c)]) == 1  # no second call
    assert _entries(claimed["memory_dir"]) == written  # each entry once
    assert not tasks(queue.PENDING) and not tasks(queue.PROCESSING) and not tasks(queue.FAILED)
    done = _by_id(queue.DONE)
    assert done[task_id]["outcome"] == "processed", (done[task_id]["outcome"], done[task_id]["reason"])
    assert stats.processed == 1, stats
    state = loop.read_state()
    assert state.get("last_success") and state.get("last_success_task") == task_id, state
    for command in (("status",), ("doctor",), ("hooks", "status")):
        line = _said(*command)
        assert "never" not in line, (command, line)
    assert queue.last_check(paths.queue_dir(), claimed["session_id"])[1] == queue.DISTILLED


@pytest.mark.parametrize("step", ["cursor", "finish"])
def test_a_task_whose_killed_run_wrote_memory_is_done_and_reported(isolated_home, tmp_path, monkeypatch, step):
    bin_dir, claimed, written = _killed_run(isolated_home, tmp_path, monkeypatch, step)

    stats = run_worker()

    _reported(bin_dir, claimed, written, stats, claimed["task_id"])
    assert stats.skipped == 0, stats
    [done] = tasks(queue.DONE)
    assert done["reason"].startswith(pipeline.EARLIER_RUN), done["reason"]

    later = _queued_again(claimed)  # another task of the session, nothing said since: a plain skip, as before
    assert (run_worker().skipped, _by_id(queue.DONE)[later]["reason"]) == (1, pipeline.NOTHING_NEW)
    assert loop.read_state().get("last_success_task") == claimed["task_id"]


def _queued_again(claimed: dict) -> str:
    """The session's end queued again (nothing said since the killed run read it); the new task's id."""
    payload = {"session_id": claimed["session_id"], "transcript_path": claimed["session_jsonl"],
               "cwd": claimed["cwd"], "hook_event_name": "SessionEnd"}
    return queue.task_id(queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True)))


@pytest.mark.parametrize("step", ["cursor", "finish"])
def test_a_later_task_that_supersedes_the_killed_claim_reports_its_distillation(isolated_home, tmp_path,
                                                                                 monkeypatch, step):
    bin_dir, claimed, written = _killed_run(isolated_home, tmp_path, monkeypatch, step)
    later = _queued_again(claimed)  # while the claim is still in processing/: it supersedes it

    stats = run_worker()

    _reported(bin_dir, claimed, written, stats, later)
    done = _by_id(queue.DONE)
    assert done[claimed["task_id"]]["reason"] == f"superseded by {later}", done
    assert done[later]["reason"].startswith(f"{pipeline.TAKEN_OVER_RUN} {claimed['task_id']}"), done[later]


def test_a_later_task_that_replaces_the_requeued_one_reports_its_distillation(isolated_home, tmp_path, monkeypatch):
    bin_dir, claimed, written = _killed_run(isolated_home, tmp_path, monkeypatch, "finish")
    assert queue.recover(paths.queue_dir()) == [(claimed["task_id"] + queue.SUFFIX, "requeued")]
    later = _queued_again(claimed)  # back in the queue: replaced by the new task
    assert list(_by_id(queue.PENDING)) == [later]

    stats = run_worker()

    _reported(bin_dir, claimed, written, stats, later)
    [done] = tasks(queue.DONE)
    assert done["replaces"] == claimed["task_id"], done
