"""The lingering worker's counts: a task that waited and was then distilled in the same run is no longer
counted as waiting (its last line said "1 processed, 0 skipped, 0 failed, 1 waiting"), however many
times it waited."""

import os

import pytest

from lazy_harness import paths, queue
from lazy_harness.atomic import atomic_write
from lazy_harness.worker import loop
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session, tasks


def _due_now(seconds: float, slept: list[float]) -> None:
    """The worker's sleep until the waiting task's time: the event the test waits on (the worker put the
    task back with its ``not_before`` and says how long it would wait). Instead of waiting that long on
    the clock, the task is made due at once: its ``not_before`` dropped, as when its time has come."""
    slept.append(seconds)
    q = paths.queue_dir()
    for name in queue.pending(q):
        path = os.path.join(q, name)
        fields = queue.read_task(path)
        if fields.pop("not_before", None) is not None:
            atomic_write(path, queue.format_task({k: v for k, v in fields.items() if k != "task_id"}))


@pytest.mark.parametrize("waits", [1, 2])
def test_workerfx_a_task_that_waited_then_was_distilled_is_not_waiting(isolated_home, tmp_path, monkeypatch, waits):
    fake = fake_claude.use(tmp_path, monkeypatch, fail_times=waits, fail_as="unreachable")
    configure(isolated_home, linger_minutes=5, wait_seconds=1)
    project = tmp_path / "a"
    project.mkdir()
    queue_session(project)
    slept: list[float] = []
    stats = loop.run(dict(os.environ), sleep=lambda s: _due_now(s, slept), linger=True)
    assert len(slept) == waits and all(0 < s <= 2 ** k for k, s in enumerate(slept, 0)), slept  # 1 s, then 2 s
    assert len(fake_claude.calls(fake)) == waits + 1
    assert (stats.processed, stats.waiting, stats.failed) == (1, 0, 0)
    assert tasks("") == [] and len(tasks("done")) == 1
