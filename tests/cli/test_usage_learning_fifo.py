"""A learning file replaced by a FIFO (a tool's named pipe, an odd tree brought in by a sync) after
sessions were shown it: ``lh memory usage`` listed it among the costly entries as "(no longer in
memory)", and nothing said the file was there but could not be read. It names the file and what it is."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import learnings, usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support.fifo_wait import HUNG, call_beside

NOW = time.time()


def test_usage_names_a_fifo_in_a_costly_learnings_place(tmp_path, monkeypatch):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    path = ms.write_learning(paths.learnings_dir(), "Regenerate protobuf stubs after a schema change", "app",
                             NOW - 600, scope="project")
    lid = learnings.id_of(path)
    usage_log.append(paths.memory_dir(project), [
        usage_log.line("session", NOW - 300, session="s1", chars=2000),
        usage_log.line("shown", NOW - 300, session="s1", id=lid, chars=900)])
    os.remove(path)
    os.mkfifo(path)
    r = call_beside([path], invoke, "memory", "usage")
    assert r != HUNG
    assert r.code == 0, r.err
    [row] = [ln for ln in r.out.split("most characters for the least use:")[1].splitlines() if lid in ln]
    assert "no longer in memory" not in row, row
    assert path in row and "not a regular file" in row, row
