"""A session's persist in a knowledge folder of many learnings reads each learning file's head once:
the ids every learning holds, this project's titles and what the writes need all come from that one
read (learnings.heads). Before, each was a scan of its own, six opens of every file per persist (2.4 s
for 3,000 learnings)."""

import builtins
import collections
import os

from lazy_harness.memory import learnings
from lazy_harness.memory.files import recent_learning_files
from tests.memory.test_learning_new_text import NOW, World
from tests.support import memory_samples as ms

MANY = 120


def test_a_persist_opens_each_older_learning_file_once(tmp_path, monkeypatch):
    w = World(ms.make_project(tmp_path, "proj"))
    os.makedirs(w.mdir, exist_ok=True)
    taken: dict[str, str] = {}
    for i in range(MANY):
        learnings.write_learning(w.ldir, {"title": f"Learning {i} on the topic {i % 7}", "learning": f"text {i}",
                                          "context": "c", "scope": "project"},
                                 {"project": "proj", "session_id": f"s{i}", "project_folder": w.key},
                                 NOW - (MANY - i) * 86400, taken=taken)
    older = recent_learning_files(w.ldir, 10**6)[60:]  # past the newest ones the plan looks at for a recent title
    opened: collections.Counter = collections.Counter()
    real_os_open, real_open = os.open, builtins.open

    def os_open(path, *a, **k):
        opened[str(path)] += 1
        return real_os_open(path, *a, **k)

    def py_open(path, *a, **k):
        if isinstance(path, str):
            opened[path] += 1
        return real_open(path, *a, **k)

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", py_open)
    report = w.distil("s-new", "Amounts are stored as NUMERIC(19,6).", NOW)
    monkeypatch.undo()
    assert len(report.created) == 1
    assert {path: opened[path] for path in older if opened[path] != 1} == {}
