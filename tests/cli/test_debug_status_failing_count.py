"""The worker keeps failing (the model answers no JSON): ``lh status`` and ``lh doctor`` say that
distillation is failing, how many tasks, since when, and the commands that show why."""

import os
import re

from lazy_harness import paths, queue
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude
from tests.support.sessions import place

SIDS = ("11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222")


def _two_failed(isolated_home, tmp_path, monkeypatch) -> str:
    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=1)
    fake_claude.use(tmp_path, monkeypatch, mode="garbage")
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.chdir(project)
    q = paths.queue_dir()
    for sid in SIDS:
        queue.enqueue(q, queue.task_fields(place(project, session_id=sid), "SessionEnd", True))
    assert invoke("worker", "run", "--once").out.startswith("0 processed, 0 skipped, 2 failed")
    return q


def _line(out: str, check: str) -> str:
    [line] = [ln for ln in out.splitlines() if re.match(rf"(warn\s+)?{check}:", ln)]
    return line


def test_status_counts_the_failed_tasks_and_says_since_when(isolated_home, tmp_path, monkeypatch):
    q = _two_failed(isolated_home, tmp_path, monkeypatch)
    failed = sorted(n for n in os.listdir(os.path.join(q, queue.FAILED)) if n.endswith(queue.SUFFIX))
    line = _line(invoke("status").out, "distillation")
    assert "2 tasks failed since " in line and "no distillation has succeeded yet" in line
    assert "claude printed no JSON result" in line
    assert f"lh queue show {queue.task_id(failed[-1])}" in line and "lh logs --worker" in line


def test_doctor_says_the_same(isolated_home, tmp_path, monkeypatch):
    _two_failed(isolated_home, tmp_path, monkeypatch)
    line = _line(invoke("doctor").out, "distillation")
    assert line.startswith("warn") and "2 tasks failed since " in line
