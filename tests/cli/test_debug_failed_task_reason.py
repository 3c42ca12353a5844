"""A failed task as a person in trouble looks at it: ``lh queue`` gives its reason on one line,
however many lines the model's stderr had, and ``lh queue show`` names the log that holds the
worker's lines of it."""

from lazy_harness import logfile, paths, queue
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude
from tests.support.sessions import place


def test_failed_task_reason_is_one_line_and_show_names_the_log(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=1)
    fake_claude.use(tmp_path, monkeypatch, mode="fail", code=1, stderr="Error: boom\nat line two\n\x1b[31mred")
    project = tmp_path / "proj"
    project.mkdir()
    tid = queue.task_id(queue.enqueue(paths.queue_dir(), queue.task_fields(place(project), "SessionEnd", True)))
    assert invoke("worker", "run", "--once").code == 0
    listing = invoke("queue").out
    [row] = [line for line in listing.splitlines() if line.startswith(f"  {tid}")]
    assert "failed" in row and "Error: boom" in row and "at line two" in row and "\x1b" not in listing
    show = invoke("queue", "show", tid)
    log = logfile.log_path(logfile.WORKER)
    assert show.code == 0
    assert f"log: {log} (the worker's lines of this task: grep {tid} {log})" in show.out.splitlines()
    assert tid in open(log, encoding="utf-8").read()  # what it points at is there
