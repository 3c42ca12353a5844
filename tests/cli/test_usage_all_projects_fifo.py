"""A FIFO in place of another project's decisions.jsonl: ``lh memory usage --all-projects`` (and the
page's list of projects) read the file's tail for the project's name with a plain ``open`` and waited
there for a writer for good. The folder is named as it would be without the file."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support.fifo_wait import HUNG, call_beside

NOW = time.time()


def test_usage_of_every_project_does_not_wait_on_a_fifo_named_as_decisions(tmp_path, monkeypatch):
    here, other = ms.make_project(str(tmp_path), "app"), ms.make_project(str(tmp_path), "other")
    monkeypatch.chdir(here)
    for project in (here, other):
        usage_log.append(paths.memory_dir(project), [usage_log.line("session", NOW - 300, session="s1", chars=20)])
    fifo = os.path.join(paths.memory_dir(other), "decisions.jsonl")
    os.mkfifo(fifo)
    r = call_beside([fifo], invoke, "memory", "usage", "--all-projects")
    assert r != HUNG
    assert r.code == 0 and "40 characters injected" in r.out, r
