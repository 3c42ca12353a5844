"""An index task that arrives while the worker distils a run of sessions (a hand edit found by a session
start meanwhile) waited for the whole drain: with a dozen sessions queued, minutes of model calls,
though an index task needs no model call and the docs promise the edit within seconds. The drain now
does waiting index tasks before each session's task."""

import json
import os
import time

from lazy_harness import config, paths, queue
from lazy_harness.memory import files
from lazy_harness.queue import index_task
from lazy_harness.recall.index import writer
from lazy_harness.worker import drain
from tests.recall.index.test_writer import rows
from tests.support import memory_samples as ms

NOW = time.time()


def test_an_index_task_queued_during_a_drain_is_done_before_the_next_session(tmp_path, monkeypatch):
    root = ms.make_project(tmp_path, "proj")
    mem = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9, "Keep the stylesheet in one file")])
    path = paths.recall_index_file()
    writer.update(path, [mem], paths.learnings_dir())
    q = paths.queue_dir()
    for n in range(3):
        payload = {"cwd": root, "session_id": f"s-{n}", "transcript_path": str(tmp_path / f"t-{n}.jsonl")}
        queue.enqueue(q, queue.task_fields(payload, "SessionEnd", True))
    seen: list[int] = []

    def one(q_, name, *args, **kwargs):
        if not seen:  # during the first session's distillation: a hand edit, and a session start's task
            with open(os.path.join(mem, files.DECISIONS), "a", encoding="utf-8") as fh:
                fh.write(json.dumps(ms.decision(NOW, "Cut the release train on Tuesdays")) + "\n")
            index_task.ask(q, mem)
        seen.append(rows(path)[0])
        os.rename(os.path.join(q, name), str(tmp_path / name))  # out of the pending ones
        return "processed"

    monkeypatch.setattr(drain.one_task, "process_one", one)
    drain.drain(q, config.load(os.environ), os.environ, drain.Stats())
    assert seen == [1, 2, 2], seen  # indexed before the second session's task, not after the last
    assert index_task.waiting(q) == []
