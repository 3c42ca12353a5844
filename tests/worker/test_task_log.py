"""worker.log: one line per task says what it wrote and what was read of the transcript."""

import os
import subprocess
import sys

from lazy_harness import logfile, paths, queue
from lazy_harness.worker import transcript
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude
from tests.support.sessions import place, wait_finished


def test_the_task_line_counts_what_was_read(isolated_home, tmp_path, monkeypatch):
    fake_claude.use(tmp_path, monkeypatch)
    enable_loop(isolated_home, retry_backoff_seconds=0)
    project = tmp_path / "proj"
    project.mkdir()
    payload = place(project)
    name = queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    done = subprocess.run([sys.executable, "-m", "lazy_harness.worker"], env=dict(os.environ), timeout=60)
    assert done.returncode == 0
    wait_finished(paths.queue_dir())
    with open(logfile.log_path(logfile.WORKER)) as fh:
        [line] = [ln for ln in fh.read().splitlines() if f"task {queue.task_id(name)}: processed" in ln]
    view = transcript.read_view(payload["transcript_path"])
    assert f" | read {view.lines} lines, {view.entries} entries, {view.tool_calls} tool calls" in line
    assert line.index(" | read ") > line.index("processed: distilled | ")  # after what was written
