"""The lingering worker's counts: a task that waited and was then distilled in the same run is no longer
counted as waiting (its last line said "1 processed, 0 skipped, 0 failed, 1 waiting"), however many
times it waited."""

import os
import time

import pytest

from lazy_harness.worker import loop
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session, tasks


@pytest.mark.parametrize("waits", [1, 2])
def test_workerfx_a_task_that_waited_then_was_distilled_is_not_waiting(isolated_home, tmp_path, monkeypatch, waits):
    fake = fake_claude.use(tmp_path, monkeypatch, fail_times=waits, fail_as="unreachable")
    configure(isolated_home, linger_minutes=5, wait_seconds=1)
    project = tmp_path / "a"
    project.mkdir()
    queue_session(project)
    stats = loop.run(dict(os.environ), sleep=time.sleep, linger=True)  # the worker's own waits: 1 s, then 2 s
    assert len(fake_claude.calls(fake)) == waits + 1
    assert (stats.processed, stats.waiting, stats.failed) == (1, 0, 0)
    assert tasks("") == [] and len(tasks("done")) == 1

