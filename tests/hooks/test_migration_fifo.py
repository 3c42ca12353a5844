"""A FIFO in place of ``MEMORY.md`` in Claude Code's memory folder of the project: SessionStart reads it
to tell whether it still links to a ``handoff.md`` moved out of there, with a plain ``open`` that waited
for a writer until Claude Code killed the hook, at every start of that project. It is read as no index
now (nothing to drop), never waited on, and left where it is."""

import os
import subprocess
import time

from lazy_harness import paths
from lazy_harness.memory import files, migrate
from tests.hooks.test_readback_review_damaged import _start
from tests.support import memory_samples as ms

NOW = time.time()


def test_a_fifo_in_place_of_claude_codes_memory_index_does_not_hold_the_start(isolated_home, tmp_path):
    project = ms.make_project(tmp_path, "demo")
    ms.write_jsonl(os.path.join(paths.memory_dir(project), files.DECISIONS),
                   [ms.decision(NOW - 9000, "ship the ledger export", "r", project="demo")])
    index = os.path.join(paths.claude_memory_dir(paths.project_key(project)), migrate.INDEX)
    os.makedirs(os.path.dirname(index), exist_ok=True)
    os.mkfifo(index)
    try:
        text = _start(project)
    except subprocess.TimeoutExpired:  # why caught: the hook held in open() until its timeout
        text = None
    assert text is not None and "ship the ledger export" in text
    assert os.path.exists(index)
