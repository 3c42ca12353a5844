"""A FIFO in place of one project's decisions.jsonl, with another project's session queued behind the
task that writes there: both queued through the real SessionEnd hook and drained by the real worker. The
first task fails naming the file, the second is distilled and persisted, and nothing waits on the FIFO.
The FIFO is left as it was found: no writer ever opens it, so a reader of it gets no line."""

import os

from lazy_harness import paths, queue
from tests.hooks.hookrun import worker_lock_held
from tests.reliability import rig
from tests.support import fake_claude
from tests.support.fifo_wait import release
from tests.support.sessions import wait_finished


def _queue_both(tmp_path) -> tuple[dict, dict, str, str]:
    """(blocked payload, good payload, the FIFO, the good session's token), the first queued first."""
    blocked_proj, good_proj = rig.project(tmp_path, "shop"), rig.project(tmp_path, "depot")
    fifo = os.path.join(rig.memory(blocked_proj), "decisions.jsonl")
    os.makedirs(os.path.dirname(fifo), exist_ok=True)
    os.mkfifo(fifo, 0o600)
    token = rig.new_token()
    blocked, good = rig.session(blocked_proj, rig.new_token()), rig.session(good_proj, token)
    with worker_lock_held(paths.claude_dir()):
        rig.hook("SessionEnd", blocked)
        rig.wait_workers_gone()
    rig.hook("SessionEnd", good)
    return blocked, good, fifo, token


def test_a_fifo_in_one_projects_memory_fails_its_task_and_the_next_is_distilled(loop_on, model, tmp_path):
    blocked, good, fifo, token = _queue_both(tmp_path)
    try:
        finished = wait_finished(paths.queue_dir(), timeout=120, count=2)
        rig.wait_workers_gone()
    finally:
        release(fifo)  # why: a worker held in open() must not outlive the test; nothing is read from it
    by_session = {queue.read_task(p)["session_id"]: (p, queue.read_task(p)) for p in finished}
    failed_path, failed = by_session[blocked["session_id"]]
    assert os.path.basename(os.path.dirname(failed_path)) == "failed", failed
    log = rig.read(rig.log_file("worker.log"))
    tid = queue.task_id(os.path.basename(failed_path))
    said = [ln for ln in log.splitlines() if tid in ln and f"{fifo}: not a regular file" in ln]
    assert said, log
    done_path, done = by_session[good["session_id"]]
    assert done["outcome"] == "processed", done
    [rec] = rig.jsonl(os.path.join(rig.memory(rig.project(tmp_path, "depot")), "decisions.jsonl"))
    assert token in rec["summary"]
    assert [c["token"] for c in fake_claude.calls(model)][-1] == token
    assert os.path.exists(fifo) and not os.path.isfile(fifo)
