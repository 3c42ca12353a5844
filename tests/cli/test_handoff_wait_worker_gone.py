"""``lh knowledge handoff-now --wait`` whose worker is killed while it distills the task: the waiter
sees the claim with no worker holding the queue and says so at once, naming the worker and what to
run, instead of polling silently until its limit (``timeout_seconds * max_attempts + 60``: 7 minutes
with the defaults) and then saying only "did not finish"."""

import os
import signal
import subprocess

from lazy_harness import paths, queue as spool
from lazy_harness.queue import consume
from tests.cli.lhrun import lh_script
from tests.support import fake_claude
from tests.support.sessions import place
from tests.worker.spendrig import configure

WAITER_BOUND = 60  # the waiter's own limit here is 360 s: one that returns within this did not wait it out


def test_a_waiter_whose_worker_was_killed_says_so_at_once(isolated_home, tmp_path, monkeypatch):
    configure(isolated_home, timeout_seconds=300, max_attempts=1)
    bin_dir = fake_claude.use(tmp_path, monkeypatch, hold=[1])
    project = tmp_path / "proj"
    project.mkdir()
    place(project)
    waiter = subprocess.Popen([*lh_script(), "knowledge", "handoff-now", "--wait"], cwd=project,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        fake_claude.wait_calls(bin_dir, 1)
        running, pid, _ = consume.holder(paths.queue_dir())
        assert running and pid, "the worker holding the task is not recorded"
        os.kill(pid, signal.SIGKILL)
        out, err = waiter.communicate(timeout=WAITER_BOUND)
    finally:
        waiter.kill()
        fake_claude.kill_running(bin_dir)
    assert waiter.returncode == 1, out + err
    assert f": the worker distilling it (pid {pid}) is gone (killed or stopped); the task stays queued" in err, err
    assert "lh worker run --once" in err and "did not finish" not in err
    [claim] = os.listdir(spool.folder(paths.queue_dir(), spool.PROCESSING))  # the next worker returns it
    assert claim.endswith(spool.SUFFIX)
